"""Reading and writing sensor logs: JSON lines, one event per line (see docs/sensor-log.md)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from board_bridge.tracker.events import SensorEvent, SensorLogError, format_event, parse_event

LogSource = str | os.PathLike[str] | IO[str]


class SensorLogLineError(SensorLogError):
    """A sensor-log line that cannot be read; ``line`` is its 1-based number."""

    def __init__(self, name: str, line: int, message: str) -> None:
        self.name = name
        self.line = line
        super().__init__(f"{name}:{line}: {message}")


def _iter_lines(source: LogSource) -> Iterator[tuple[str, Iterable[str]]]:
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        with path.open(encoding="utf-8") as stream:
            yield str(path), stream
    else:
        yield getattr(source, "name", "<log>"), source


def read_log(source: LogSource) -> Iterator[SensorEvent]:
    """The events of a log (a path or a text stream), in order.

    Blank lines are skipped. A line that is not an event, or whose time goes backwards,
    raises :class:`SensorLogLineError` (a ``SensorLogError``) naming the line.
    """
    for name, lines in _iter_lines(source):
        last = float("-inf")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                event = parse_event(line)
            except SensorLogError as exc:
                raise SensorLogLineError(name, number, str(exc)) from None
            if event.t != event.t or event.t in (float("inf"), float("-inf")):
                raise SensorLogLineError(name, number, f"time is not finite: {event.t}")
            if event.t < last:
                raise SensorLogLineError(
                    name, number, f"time goes backwards: {event.t} after {last}"
                )
            last = event.t
            yield event


def load_log(source: LogSource) -> list[SensorEvent]:
    """The whole log as a list (see :func:`read_log`)."""
    return list(read_log(source))


def write_log(events: Iterable[SensorEvent], target: str | os.PathLike[str] | IO[str]) -> int:
    """Write events as a log (one JSON line each); returns how many were written."""
    if isinstance(target, str | os.PathLike):
        with Path(target).open("w", encoding="utf-8") as stream:
            return write_log(events, stream)
    n = 0
    for event in events:
        target.write(format_event(event) + "\n")
        n += 1
    return n


def format_log(events: Iterable[SensorEvent]) -> str:
    """A log as one string."""
    return "".join(format_event(e) + "\n" for e in events)
