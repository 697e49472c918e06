"""A whole corpus game played on the simulated board, through the firmware code, over a pty
with 1% of the bytes corrupted both ways and the cable pulled once: the SerialBoard yields
exactly the board states the players made, in order, with their times, and the sensor log
records exactly what was yielded."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import pytest

from board_bridge.drivers.base import SourceDisconnected
from board_bridge.drivers.recording import RecordingSource
from board_bridge.tracker.events import SensorFrame, parse_event
from tests.conftest import corpus_games
from tests.drivers.test_serial_support import board, start_sim

pytestmark = pytest.mark.timeout(120)


def square_index(name: str) -> int:
    file, rank = int(name[0]), ord(name[1]) - ord("a")
    return rank * 9 + (9 - file)


def occupancy(sfen: str) -> list[bool]:
    cells: list[bool] = []
    for ch in sfen.split()[0].replace("/", ""):
        if ch.isdigit():
            cells += [False] * int(ch)
        elif ch != "+":
            cells.append(True)
    assert len(cells) == 81
    return cells


def physical_states(sfen: str, moves: list[str]) -> list[str]:
    """Every board state a player's hands make: lift, (remove the captured piece), place."""
    occ = occupancy(sfen)
    states = []

    def snap() -> None:
        states.append("".join("x" if o else "." for o in occ))

    snap()
    for usi in moves:
        if usi[1] == "*":
            occ[square_index(usi[2:4])] = True
            snap()
            continue
        src, dst = square_index(usi[0:2]), square_index(usi[2:4])
        occ[src] = False
        snap()
        if occ[dst]:  # a capture: the captured piece comes off first
            occ[dst] = False
            snap()
        occ[dst] = True
        snap()
    return states


def test_physical_states_of_a_capture() -> None:
    start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    states = physical_states(start, ["7g7f", "3c3d", "8h2b+"])
    assert len(states) == 1 + 2 + 2 + 3
    assert states[-3][square_index("8h")] == "." and states[-3][square_index("2b")] == "x"
    assert states[-2][square_index("2b")] == "."
    assert states[-1][square_index("2b")] == "x"


def shortest_game() -> dict[str, Any]:
    games = corpus_games()
    assert games, "the shared corpus (games/corpus.jsonl) is missing"
    return min(games, key=lambda g: len(g["moves"]))


async def test_corpus_game_through_firmware_with_corruption_and_a_pulled_cable(
    tmp_path: Path,
) -> None:
    game = shortest_game()
    states = physical_states(game["sfen"], game["moves"])
    link = tmp_path / "ttyBOARD"
    sim = start_sim(link, corrupt=0.01, seed=2024)
    sim.set_cells(states[0])
    log_path = tmp_path / "sensor.jsonl"
    b = board(link, link_timeout=1.0)
    source = RecordingSource(b, log_path)
    got: list[SensorFrame] = []
    disconnects = 0
    set_times: dict[str, float] = {}
    done = asyncio.Event()

    async def consume() -> None:
        nonlocal disconnects
        while True:
            try:
                async for ev in source.events():
                    assert isinstance(ev, SensorFrame)
                    got.append(ev)
                    if ev.cells == states[-1] and len(got) >= len(states):
                        done.set()
            except SourceDisconnected:
                disconnects += 1
                continue
            return

    try:
        async with source:
            consumer = asyncio.create_task(consume())
            deadline = time.monotonic() + 10
            while not got:  # the host connects (a new host starts from the board as it is)
                assert time.monotonic() < deadline, "no first frame"
                await asyncio.sleep(0.01)
            set_times[states[0]] = got[0].t
            pull_at = len(states) // 2
            for i, cells in enumerate(states[1:], start=1):
                if i == pull_at:
                    sim.pull()
                if i == pull_at + 8:
                    sim.plug()
                await asyncio.sleep(0.03)
                sim.set_cells(cells)
                set_times.setdefault(cells, time.monotonic())
            try:
                await asyncio.wait_for(done.wait(), 20)
            finally:
                consumer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await consumer
    finally:
        sim.stop()

    distinct = [got[0].cells]
    for ev in got[1:]:
        if ev.cells != distinct[-1]:
            distinct.append(ev.cells)
    assert distinct == states  # every state, in order, none missing, none invented
    assert disconnects == 1
    assert sim.corrupt_in.count > 0 and sim.corrupt_out.count > 0
    assert b.stats.bad_frames > 0  # the corruption did hit frames
    assert b.stats.lost_events == 0
    times = [ev.t for ev in got]
    assert times == sorted(times)
    # each state's time stamp is when the firmware saw it (debounce: 5 ms), even for
    # the states made while the cable was out
    first_seen: dict[str, float] = {}
    for ev in got:
        first_seen.setdefault(ev.cells, ev.t)
    delays = {i: first_seen[c] - set_times[c] for i, c in enumerate(states[1:], start=1)}
    assert min(delays.values()) >= -0.005, delays
    # (states made while the cable was out arrived 0.25 s or more after they were made)
    assert max(delays.values()) < 0.1, delays
    # the sensor log holds exactly what was yielded
    logged = [parse_event(line) for line in log_path.read_text().splitlines()]
    assert logged == [SensorFrame(round(ev.t, 6), ev.cells) for ev in got]
