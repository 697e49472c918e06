"""The self-test's logic against a fake board with a dead, a stuck and a ghosting square."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from board_bridge.drivers.base import SensorSource
from board_bridge.drivers.led_sinks import NullSink
from board_bridge.drivers.matrix import SquareMap
from board_bridge.drivers.selftest import (
    DEAD,
    GHOSTING,
    OK,
    STUCK,
    UNTESTED,
    QuietUI,
    SelfTest,
    Step,
    diode_rectangles,
    plan_steps,
    run_selftest,
)
from board_bridge.shogi import parse_square
from board_bridge.tracker.events import SensorEvent, SensorFrame
from board_bridge.tracker.intents import LedIntents, Mark


def sq(name: str) -> int:
    return parse_square(name)


class FaultyBoard(SensorSource):
    """A board whose sensors lie in set ways: ``dead`` never read, ``stuck`` always read,
    ``crosstalk[victim] = aggressor`` reads the victim whenever the aggressor is occupied."""

    def __init__(
        self,
        dead: set[int] = set(),  # noqa: B006 - read only
        stuck: set[int] = set(),  # noqa: B006
        crosstalk: dict[int, int] | None = None,
    ) -> None:
        self.dead, self.stuck = dead, stuck
        self.crosstalk = crosstalk or {}
        self.pieces: set[int] = set()
        self.queue: asyncio.Queue[SensorEvent] = asyncio.Queue()
        self.t = 0.0
        self.emit()

    def reads(self) -> set[int]:
        out = (self.pieces - self.dead) | self.stuck
        out |= {v for v, a in self.crosstalk.items() if a in self.pieces}
        return out

    def emit(self) -> None:
        r = self.reads()
        self.t += 0.001
        self.queue.put_nowait(
            SensorFrame(self.t, "".join("x" if s in r else "." for s in range(81)))
        )

    def play(self, step: Step) -> None:
        """A player doing as asked (instantly)."""
        if step.kind == "empty":
            self.pieces.clear()
        self.pieces |= step.occupied
        self.pieces -= step.lift
        self.emit()

    async def events(self) -> AsyncIterator[SensorEvent]:
        while True:
            yield await self.queue.get()


class LoggingSink(NullSink):
    def __init__(self) -> None:
        super().__init__()
        self.shown: list[LedIntents] = []

    async def show(self, intents: LedIntents) -> None:
        await super().show(intents)
        self.shown.append(intents)


async def run(
    board: FaultyBoard, steps: list[Step], **kw: float
) -> tuple[object, QuietUI, LoggingSink]:
    ui = QuietUI(on_step=board.play)
    sink = LoggingSink()
    test = SelfTest(steps, settle=kw.get("settle", 0.003), timeout=kw.get("timeout", 0.15))
    report = await asyncio.wait_for(run_selftest(board, sink, test, ui, poll=0.002), 30)
    return report, ui, sink


async def test_a_good_board_is_all_ok() -> None:
    report, ui, _ = await run(FaultyBoard(), plan_steps([sq("5e"), sq("1a"), sq("9i")]))
    assert report.ok  # type: ignore[attr-defined]
    assert [report.status(sq(n)) for n in ("5e", "1a", "9i")] == [OK] * 3  # type: ignore[attr-defined]
    assert report.status(sq("5f")) == UNTESTED  # type: ignore[attr-defined]
    assert ui.prompts[:3] == [
        "clear the board (take every piece off)",
        "place a piece on 5e",
        "lift the piece from 5e",
    ]


async def test_dead_stuck_and_ghosting_squares_are_found() -> None:
    board = FaultyBoard(dead={sq("3c")}, stuck={sq("7g")}, crosstalk={sq("2b"): sq("2c")})
    report, ui, sink = await run(board, plan_steps(range(81)))
    r = report  # type: ignore[assignment]
    assert r.status(sq("3c")) == DEAD
    assert r.status(sq("7g")) == STUCK
    assert r.status(sq("2b")) == GHOSTING
    faults = {f.name: f.status for f in r.faults}
    assert faults == {"3c": DEAD, "7g": STUCK, "2b": GHOSTING}
    assert r.count(OK) == 78 and not r.ok
    assert any("when 2c is occupied" in n for n in r.results[sq("2b")].notes)
    assert any("empty board" in n for n in r.results[sq("7g")].notes)
    text = r.text()
    assert "1 dead (3c)" in text and "1 stuck (7g)" in text and "1 ghosting (2b)" in text
    # the LEDs asked for the dead square and flagged the stuck one
    assert any(i.mark(sq("3c")) == Mark.FILL for i in sink.shown)
    assert any(i.mark(sq("7g")) in (Mark.CLEAR, Mark.ERROR) for i in sink.shown)
    assert sink.shown[-1] == LedIntents()
    # every step ran; the ones that failed are the dead square's and the empty-board check
    failed = [o.step for o in ui.outcomes if not o.ok]
    assert Step("place", frozenset({sq("3c")})) in failed
    assert failed[0].kind == "empty"


async def test_swapped_wires_show_as_dead_plus_ghost() -> None:
    # the sensors of 5e and 4e are swapped: each reads the other's piece
    board = FaultyBoard(
        dead={sq("5e"), sq("4e")}, crosstalk={sq("4e"): sq("5e"), sq("5e"): sq("4e")}
    )
    report, _, _ = await run(board, plan_steps([sq("5e"), sq("4e")]))
    r = report  # type: ignore[assignment]
    assert r.status(sq("5e")) == DEAD and r.status(sq("4e")) == DEAD
    assert any("when 4e is occupied" in n for n in r.results[sq("5e")].notes)


async def test_rectangle_steps_point_at_the_missing_diode() -> None:
    rects = diode_rectangles("corners")
    assert rects[0] == (sq("9a"), sq("8a"), sq("9b"))
    # 9a's diode is missing: with 9a, 8a and 9b occupied, 8b reads occupied too
    board = FaultyBoard()
    board.crosstalk = {}

    def ghost_reads() -> set[int]:
        out = set(board.pieces)
        if {sq("9a"), sq("8a"), sq("9b")} <= board.pieces:
            out.add(sq("8b"))
        return out

    board.reads = ghost_reads  # type: ignore[method-assign]
    report, _, _ = await run(board, plan_steps([], rects))
    r = report  # type: ignore[assignment]
    assert r.status(sq("8b")) == GHOSTING
    assert any("diode of 9a" in n for n in r.results[sq("8b")].notes)
    assert [f.name for f in r.faults] == ["8b"]


def test_pure_timing_settle_timeout_and_skip() -> None:
    steps = plan_steps([sq("5e")])
    test = SelfTest(steps, settle=0.5, timeout=10.0)
    empty = "." * 81
    placed = "".join("x" if i == sq("5e") else "." for i in range(81))
    assert test.tick(0.0) is None  # nothing read yet
    test.observe(empty)
    assert test.tick(1.0) is None
    assert test.tick(1.4) is None
    outcome = test.tick(1.5)
    assert outcome is not None and outcome.ok and test.index == 1
    test.observe(placed)
    assert test.tick(1.6) is None
    test.observe(empty)  # a bounce resets the settle time
    assert test.tick(1.7) is None
    test.observe(placed)
    assert test.tick(1.8) is None and test.tick(2.29) is None
    assert test.tick(2.31) is not None and test.index == 2
    skipped = test.skip(2.4)
    assert skipped is not None and skipped.skipped and not skipped.ok
    assert test.done
    report = test.report()
    assert report.status(sq("5e")) == STUCK  # the lift was given up with the piece reading on
    assert report.steps_done == report.steps_total == 3


def test_timeout_marks_the_square_dead() -> None:
    test = SelfTest([Step("place", frozenset({3}))], settle=0.1, timeout=2.0)
    test.observe("." * 81)
    assert test.tick(0.0) is None and test.tick(1.9) is None
    outcome = test.tick(2.0)
    assert outcome is not None and not outcome.ok
    assert test.report().status(3) == DEAD


def test_plans() -> None:
    steps = plan_steps(range(81), diode_rectangles("all"))
    assert len(steps) == 1 + 162 + 162
    rects = diode_rectangles("all", SquareMap.from_settings(rotate=180))
    assert rects[0] == (80, 79, 71)
    with pytest.raises(ValueError):
        diode_rectangles("some")
    with pytest.raises(ValueError):
        SelfTest([])
