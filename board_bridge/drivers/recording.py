"""Records any sensor source's events to a JSON-lines sensor log while they pass through."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO

from board_bridge.drivers.base import SensorSource
from board_bridge.tracker.events import SensorEvent, format_event


class RecordingSource(SensorSource):
    """Wraps ``source``: every event it yields is appended to ``path`` (one JSON line,
    flushed at once, so a crash or power cut loses at most the line being written) and
    then passed on unchanged. ``fsync=True`` also forces each line to the disk.

    The log is the one in docs (``{"t": ..., "board": ...}`` / ``{"t": ..., "input": ...}``)
    and replays with the tracker exactly as the daemon saw it.
    """

    def __init__(self, source: SensorSource, path: str | os.PathLike[str], *, fsync: bool = False):
        self.source = source
        self.path = Path(path)
        self.fsync = fsync
        self.lines = 0
        self._file: IO[str] | None = None
        self._closed = False

    def _open(self) -> IO[str]:
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
        return self._file

    def write(self, event: SensorEvent) -> None:
        """Append one event to the log."""
        f = self._open()
        f.write(format_event(event) + "\n")
        f.flush()
        if self.fsync:
            os.fsync(f.fileno())
        self.lines += 1

    async def start(self) -> None:
        self._open()
        await self.source.start()

    async def events(self) -> AsyncIterator[SensorEvent]:
        async for event in self.source.events():
            self.write(event)
            yield event

    async def request_frame(self) -> None:
        await self.source.request_frame()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self.source.close()
        finally:
            if self._file is not None:
                self._file.close()
                self._file = None
