"""The daemon's games on disk: the records layer's journal and library behind one small class."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from board_bridge.app.adapters import Journal, ResumedGame
from board_bridge.records.journal import GameJournal, find_unfinished
from board_bridge.records.library import GameLibrary
from board_bridge.shogi import Outcome

LOGGER = logging.getLogger(__name__)


class RecordsStore:
    """New journals in ``directory``, the unfinished one to resume, the library."""

    def __init__(
        self, directory: Path, formats: Sequence[str], library: Path | None = None
    ) -> None:
        self.directory = directory
        self.formats = tuple(formats)
        self.library = library

    def find_unfinished(self) -> Path | None:
        """The newest unfinished game's journal (older ones are left as they are)."""
        unfinished = find_unfinished(self.directory)
        if not unfinished:
            return None
        if len(unfinished) > 1:
            LOGGER.warning(
                "%d unfinished games in %s; resuming the newest, %s",
                len(unfinished),
                self.directory,
                unfinished[-1].path.name,
            )
        for info in unfinished:
            for problem in info.problems:
                LOGGER.warning("journal %s: %s", info.path.name, problem)
        return unfinished[-1].path

    def resume(self, path: Path) -> ResumedGame:
        journal, record = GameJournal.resume(path, self.formats)
        header = {"sente": record.sente, "gote": record.gote, "event": record.event}
        return ResumedGame(
            journal,
            record.start_sfen,
            [rm.move for rm in record.moves],
            [rm.time_used or 0.0 for rm in record.moves],
            header,
        )

    def create(self, header: Mapping[str, Any], start_sfen: str) -> Journal:
        return GameJournal.create(self.directory, header, start_sfen, self.formats)

    def add_to_library(self, paths: Sequence[Path], outcome: Outcome) -> None:
        if self.library is None or not paths:
            return
        with GameLibrary(self.library) as library:
            library.add_files(paths, outcome)
