"""A sensor log as a real board's scanner and debouncer would report it.

The independent hand writes every change of every switch at its exact time. A board
reads its matrix at a fixed rate and debounces each square before it reports: a square
empty for less than the debounce never reaches the tracker (a fast capture's target, say).
These functions run a log through the project's own debouncers, scan by scan:

- :func:`through_gpio`: the Pi scanning the matrix itself (``board_bridge.drivers.matrix.
  Debouncer``, as ``gpio`` and ``shift_register`` use it: ``scan_hz``, ``debounce_scans``,
  ``debounce_ms``); frames stamped with the first scan that saw the change.
- :func:`through_firmware`: the board's microcontroller (``bbfw.core.Debouncer`` with the
  firmware's ``DEBOUNCE_MS``, its loop scanning about every millisecond); frames stamped
  when the change was accepted, as the firmware sends them.

Only the scans that can change something are fed (the first at or after each change, and
those after it until the debouncer must have decided): between them the matrix reads the
same and both debouncers do nothing, so the result is the one every scan would give.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable

from board_bridge.drivers import firmware_sim
from board_bridge.drivers.matrix import Debouncer
from board_bridge.drivers.scanning import DEBOUNCE_MS, DEBOUNCE_SCANS, SCAN_HZ
from board_bridge.tracker.events import EMPTY, OCCUPIED, SensorEvent, SensorFrame

_US = 1_000_000  # the scan grid in whole microseconds


def _scans(log: list[SensorEvent], period_us: int, after: int) -> Iterable[tuple[int, str]]:
    """(scan time in microseconds, raw cells) for the scans that matter: each change's
    first scan and ``after`` scans more."""
    frames = [e for e in log if isinstance(e, SensorFrame)]
    times = [round(f.t * _US) for f in frames]
    grid: set[int] = set()
    for t in times:
        first = math.ceil(t / period_us) * period_us
        grid.update(first + k * period_us for k in range(after + 1))
    for at in sorted(grid):
        k = bisect.bisect_right(times, at) - 1
        if k >= 0:
            yield at, frames[k].cells


def _merged(log: list[SensorEvent], frames: list[SensorFrame]) -> list[SensorEvent]:
    """``frames`` with the log's other events (the player's inputs) in time order."""
    others = [e for e in log if not isinstance(e, SensorFrame)]
    return sorted([*frames, *others], key=lambda e: e.t)


def through_gpio(
    log: list[SensorEvent],
    scan_hz: float = SCAN_HZ,
    scans: int = DEBOUNCE_SCANS,
    debounce_ms: float = DEBOUNCE_MS,
) -> list[SensorEvent]:
    """``log`` as the Pi's own matrix scan reports it (the drivers' defaults)."""
    period = round(_US / scan_hz)
    deb = Debouncer(scans, debounce_ms / 1000)
    after = scans + math.ceil(debounce_ms * 1000 / period) + 1
    frames: list[SensorFrame] = []
    for at, raw in _scans(log, period, after):
        frames += deb.update(raw, at / _US)
    return _merged(log, frames)


def through_firmware(log: list[SensorEvent], debounce_ms: int | None = None) -> list[SensorEvent]:
    """``log`` as the board's firmware reports it (its ``Config`` unless ``debounce_ms``)."""
    firmware_sim.load()
    from bbfw.core import Debouncer as FirmwareDebouncer  # type: ignore[import-not-found]

    cfg = firmware_sim.config()
    ms = cfg.DEBOUNCE_MS if debounce_ms is None else debounce_ms
    deb = FirmwareDebouncer(81, ms)
    frames: list[SensorFrame] = []
    for at, raw in _scans(log, 1000, ms + 2):
        codes = bytearray(0 if c == EMPTY else 1 for c in raw)
        if deb.update(codes, at // 1000):
            cells = "".join(OCCUPIED if c else EMPTY for c in deb.stable)
            frames.append(SensorFrame(at / _US, cells))
    return _merged(log, frames)
