"""Support for the serial-link tests (no tests here): the firmware simulator on a pty, fast timings."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from board_bridge.drivers import firmware_sim
from board_bridge.drivers.serial_link import SerialBoard, SerialSettings
from board_bridge.tracker.events import SensorEvent

STARTING = "xxxxxxxxx.x.....x.xxxxxxxxx...........................xxxxxxxxx.x.....x.xxxxxxxxx"

FAST_FIRMWARE = dict(DEBOUNCE_MS=5, HEARTBEAT_MS=100, RETRANSMIT_MS=60, LOOP_MS=1, WDT_MS=0)


def fast_settings(url: str | Path, **overrides: Any) -> SerialSettings:
    values: dict[str, Any] = dict(
        url=str(url),
        heartbeat=0.1,
        link_timeout=0.6,
        handshake_timeout=1.0,
        retry=0.1,
        reconnect_min=0.05,
        reconnect_max=0.3,
        firmware_timeout=1.0,
    )
    values.update(overrides)
    return SerialSettings(**values)


def start_sim(link: Path, corrupt: float = 0.0, seed: int = 1, **cfg: Any) -> Any:
    config = firmware_sim.config(**{**FAST_FIRMWARE, **cfg})
    return firmware_sim.simulator(link, config=config, corrupt=corrupt, seed=seed).start()


def with_cell(cells: str, square: int, value: str) -> str:
    return cells[:square] + value + cells[square + 1 :]


async def next_event(events: AsyncIterator[SensorEvent], timeout: float = 5.0) -> SensorEvent:
    return await asyncio.wait_for(events.__anext__(), timeout)


async def wait_until(pred: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.01)


def board(url: Path, **settings: Any) -> SerialBoard:
    return SerialBoard(settings=fast_settings(url, **settings))
