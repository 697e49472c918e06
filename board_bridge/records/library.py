"""The game library: a small sqlite index of past games (date, players, result, moves, files)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from board_bridge.records.files import read_file, render
from board_bridge.records.model import GameRecord, RecordParseError
from board_bridge.shogi import Outcome

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT,
    finished TEXT,
    sente TEXT NOT NULL DEFAULT '',
    gote TEXT NOT NULL DEFAULT '',
    event TEXT NOT NULL DEFAULT '',
    result TEXT,
    termination TEXT,
    winner INTEGER,
    moves INTEGER NOT NULL,
    files TEXT NOT NULL,
    added TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_started ON games(started);
"""


class LibraryError(LookupError):
    """A game that is not in the library, or whose files are gone."""


@dataclass(frozen=True)
class LibraryEntry:
    """One game of the library."""

    id: int
    started: datetime | None
    finished: datetime | None
    sente: str
    gote: str
    event: str
    result: str  # "black wins", "white wins", "draw", "aborted" or "" (unfinished)
    termination: str  # Termination value or ""
    winner: int | None
    moves: int
    files: tuple[Path, ...]


def _dt(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


class GameLibrary:
    """The index, in an sqlite file (created on first use). sqlite makes each change
    atomic; the journal mode is WAL with synchronous=FULL so a power cut loses nothing
    that was committed."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        self._db.commit()

    def close(self) -> None:
        with contextlib.suppress(sqlite3.ProgrammingError):
            self._db.close()

    def __enter__(self) -> GameLibrary:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._db:
            yield self._db

    def add(
        self,
        record: GameRecord,
        files: Sequence[str | Path],
        outcome: Outcome | None = None,
    ) -> int:
        """Index a game (its record and the files it was written to); returns its id."""
        result = outcome or record.outcome
        paths = [str(Path(f).resolve()) for f in files]
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO games (started, finished, sente, gote, event, result, termination,"
                " winner, moves, files, added) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    record.started.isoformat() if record.started else None,
                    record.finished.isoformat() if record.finished else None,
                    record.sente,
                    record.gote,
                    record.event,
                    result.result() if result else "",
                    result.termination.value if result else "",
                    result.winner if result else None,
                    len(record.moves),
                    json.dumps(paths),
                    datetime.now().replace(microsecond=0).isoformat(),
                ),
            )
            return int(cur.lastrowid or 0)

    def add_files(self, files: Sequence[str | Path], outcome: Outcome | None = None) -> int:
        """Index a game from its record files (the first one readable gives the data)."""
        errors = []
        for f in files:
            try:
                record = read_file(f)
            except (RecordParseError, OSError, ValueError) as exc:
                errors.append(str(exc))
                continue
            return self.add(record, files, outcome)
        raise LibraryError("no readable record among the files: " + "; ".join(errors))

    def _entry(self, row: tuple[object, ...]) -> LibraryEntry:
        (gid, started, finished, sente, gote, event, result, term, winner, moves, files) = row
        return LibraryEntry(
            id=int(gid),  # type: ignore[call-overload]
            started=_dt(started),  # type: ignore[arg-type]
            finished=_dt(finished),  # type: ignore[arg-type]
            sente=str(sente),
            gote=str(gote),
            event=str(event),
            result=str(result or ""),
            termination=str(term or ""),
            winner=None if winner is None else int(winner),  # type: ignore[call-overload]
            moves=int(moves),  # type: ignore[call-overload]
            files=tuple(Path(p) for p in json.loads(str(files))),
        )

    _COLUMNS = (
        "id, started, finished, sente, gote, event, result, termination, winner, moves, files"
    )

    def list(self, limit: int | None = None, player: str | None = None) -> list[LibraryEntry]:
        """Games, newest first; ``player`` filters on either side's name (substring)."""
        sql = f"SELECT {self._COLUMNS} FROM games"
        args: list[object] = []
        if player:
            sql += " WHERE sente LIKE ? OR gote LIKE ?"
            args += [f"%{player}%", f"%{player}%"]
        sql += " ORDER BY COALESCE(started, added) DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [self._entry(row) for row in self._db.execute(sql, args)]

    def get(self, game_id: int) -> LibraryEntry:
        row = self._db.execute(
            f"SELECT {self._COLUMNS} FROM games WHERE id = ?", (int(game_id),)
        ).fetchone()
        if row is None:
            raise LibraryError(f"no game {game_id} in the library {self.path}")
        return self._entry(row)

    def remove(self, game_id: int) -> None:
        with self._tx() as db:
            if db.execute("DELETE FROM games WHERE id = ?", (int(game_id),)).rowcount == 0:
                raise LibraryError(f"no game {game_id} in the library {self.path}")

    def record(self, game_id: int) -> GameRecord:
        """The game's record, read from the first of its files that can be read."""
        entry = self.get(game_id)
        errors = []
        for f in entry.files:
            try:
                return read_file(f)
            except (RecordParseError, OSError, ValueError) as exc:
                errors.append(str(exc))
        raise LibraryError(f"game {game_id}: no readable file ({'; '.join(errors) or 'none'})")

    def export(self, game_id: int, fmt: str) -> tuple[str, str]:
        """(text, encoding) of the game in a format (kif, kifu, ki2, csa, csa3, jkf,
        sfen, usi)."""
        return render(self.record(game_id), fmt)
