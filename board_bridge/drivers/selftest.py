"""The board self-test: light each LED, ask for a piece on each square, classify every sensor.

:class:`SelfTest` is the pure part: a list of :class:`Step` s (clear the board,
place a piece on a square, lift it, ...) and what the sensors read during them;
fed cells and times, it decides when each step is done (the board reads as asked
for ``settle`` seconds) or has failed (``timeout`` seconds without), and collects
evidence per square:

- *dead*: never reads occupied while a piece stands on it;
- *stuck*: reads occupied on a board that should be empty;
- *ghosting*: reads occupied while empty, but only while other squares are
  occupied (a missing diode in the matrix, two shorted lines, or crossed wires).

:func:`run_selftest` drives it from a live source and sink (the CLI is in
:mod:`board_bridge.drivers.cli`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

from board_bridge.drivers.base import LedSink, SensorSource
from board_bridge.drivers.matrix import SquareMap, suspect_diode
from board_bridge.shogi import square_name
from board_bridge.tracker.events import EMPTY, SensorFrame
from board_bridge.tracker.intents import LedIntents, Mark

OK: Final = "ok"
DEAD: Final = "dead"
STUCK: Final = "stuck"
GHOSTING: Final = "ghosting"
UNTESTED: Final = "untested"
STATUS_LETTERS: Final = {OK: "o", DEAD: "D", STUCK: "S", GHOSTING: "G", UNTESTED: "-"}

ALL_SQUARES: Final = frozenset(range(81))
DIODE_CHECKS: Final = ("none", "corners", "all")


def names(squares: Iterable[int]) -> str:
    return ", ".join(square_name(s) for s in sorted(squares))


@dataclass(frozen=True)
class Step:
    """One thing the player is asked to do: make ``occupied`` read occupied and ``lift``
    read empty. ``kind``: "empty" (clear the board), "place", "lift", "rectangle"
    (three pieces at three corners of a rectangle: the diode check)."""

    kind: str
    occupied: frozenset[int] = frozenset()
    lift: frozenset[int] = frozenset()

    def prompt(self) -> str:
        if self.kind == "empty":
            return "clear the board (take every piece off)"
        if self.kind == "place":
            return f"place a piece on {names(self.occupied)}"
        if self.kind == "rectangle":
            return f"place pieces on {names(self.occupied)} (all three at once)"
        if len(self.lift) == 1:
            return f"lift the piece from {names(self.lift)}"
        return f"lift the pieces from {names(self.lift)}"


def plan_steps(
    squares: Iterable[int] = range(81),
    rectangles: Sequence[tuple[int, int, int]] = (),
) -> list[Step]:
    """Clear the board; place and lift a piece on each square; then each rectangle."""
    steps = [Step("empty", lift=ALL_SQUARES)]
    for sq in squares:
        steps.append(Step("place", frozenset({sq})))
        steps.append(Step("lift", lift=frozenset({sq})))
    for rect in rectangles:
        corners = frozenset(rect)
        steps.append(Step("rectangle", corners))
        steps.append(Step("lift", lift=corners))
    return steps


def diode_rectangles(which: str, square_map: SquareMap | None = None) -> list[tuple[int, int, int]]:
    """Three-piece patterns that make a missing diode show as a ghost on the fourth corner.

    Each puts a piece on a matrix position (the switch under test), its neighbour
    in the same row and its neighbour in the same column; the diagonal neighbour
    then reads occupied if the first switch has no diode. ``which``: "none",
    "corners" (the switches at the four corners of the matrix) or "all".
    """
    if which not in DIODE_CHECKS:
        raise ValueError(f"diode check must be one of {', '.join(DIODE_CHECKS)}: {which!r}")
    if which == "none":
        return []
    smap = square_map or SquareMap()
    if which == "corners":
        middles = [(0, 0), (0, 8), (8, 0), (8, 8)]
    else:
        middles = [(r, c) for r in range(9) for c in range(9)]
    out = []
    for r, c in middles:
        r2 = r + 1 if r < 8 else r - 1
        c2 = c + 1 if c < 8 else c - 1
        positions = (r * 9 + c, r * 9 + c2, r2 * 9 + c)
        out.append(tuple(smap.squares[p] for p in positions))
    return out  # type: ignore[return-value]


@dataclass(frozen=True)
class StepOutcome:
    """How a step ended: ``ok``, or failed (``skipped`` by the player or timed out)."""

    index: int
    step: Step
    ok: bool
    t: float
    cells: str
    skipped: bool = False


@dataclass(frozen=True)
class SquareResult:
    square: int
    status: str
    notes: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return square_name(self.square)


@dataclass(frozen=True)
class SelfTestReport:
    results: tuple[SquareResult, ...]
    steps_done: int
    steps_total: int

    @property
    def faults(self) -> list[SquareResult]:
        return [r for r in self.results if r.status not in (OK, UNTESTED)]

    @property
    def ok(self) -> bool:
        return not self.faults and self.steps_done == self.steps_total

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    def status(self, square: int) -> str:
        return self.results[square].status

    def text(self) -> str:
        """The report for a person: a summary, a map of the board and each fault's evidence."""
        lines = []
        tested = 81 - self.count(UNTESTED)
        parts = [f"{self.count(OK)} ok"]
        for status in (DEAD, STUCK, GHOSTING):
            squares = [r.name for r in self.results if r.status == status]
            if squares:
                parts.append(f"{len(squares)} {status} ({', '.join(squares)})")
        lines.append(f"{tested} squares tested: " + ", ".join(parts))
        if self.steps_done < self.steps_total:
            lines.append(f"(stopped after {self.steps_done} of {self.steps_total} steps)")
        lines.append("")
        lines.append("   9 8 7 6 5 4 3 2 1")
        for rank in range(9):
            row = " ".join(STATUS_LETTERS[self.results[rank * 9 + c].status] for c in range(9))
            lines.append(f"{'abcdefghi'[rank]}  {row}")
        lines.append("   (o ok, D dead, S stuck, G ghosting, - untested)")
        for r in self.faults:
            lines.append(f"{r.name}: {r.status}")
            lines.extend(f"    {note}" for note in r.notes)
        return "\n".join(lines)


class SelfTest:
    """The steps of a self-test and the evidence gathered; pure (time is passed in)."""

    def __init__(
        self,
        steps: Sequence[Step],
        *,
        settle: float = 0.3,
        timeout: float = 20.0,
        square_map: SquareMap | None = None,
    ) -> None:
        if not steps:
            raise ValueError("a self-test needs steps")
        self.steps = list(steps)
        self.settle = settle
        self.timeout = timeout
        self.square_map = square_map
        self.index = 0
        self.cells: str | None = None
        self.outcomes: list[StepOutcome] = []
        self._started: float | None = None
        self._met_since: float | None = None
        self._dead: dict[int, list[str]] = {}
        self._stuck: dict[int, list[str]] = {}
        self._ghost: dict[int, list[str]] = {}
        self._tested: set[int] = set()

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    @property
    def current(self) -> Step | None:
        return None if self.done else self.steps[self.index]

    def start(self, t: float) -> None:
        if self._started is None:
            self._started = t

    def observe(self, cells: str) -> None:
        """The board now reads ``cells``."""
        self.cells = cells

    def feed(self, frame: SensorFrame, t: float | None = None) -> StepOutcome | None:
        """Observe a frame and tick at ``t`` (default the frame's time)."""
        self.observe(frame.cells)
        return self.tick(frame.t if t is None else t)

    def satisfied(self) -> bool:
        step, cells = self.current, self.cells
        if step is None or cells is None:
            return False
        return all(cells[s] != EMPTY for s in step.occupied) and all(
            cells[s] == EMPTY for s in step.lift
        )

    def tick(self, t: float) -> StepOutcome | None:
        """Advance time to ``t``: the outcome of the step that ended, if one did."""
        if self.done or self.cells is None:
            return None
        self.start(t)
        assert self._started is not None
        if self.satisfied():
            if self._met_since is None:
                self._met_since = t
            if t - self._met_since >= self.settle:
                return self._finish(t, ok=True)
            return None
        self._met_since = None
        if t - self._started >= self.timeout:
            return self._finish(t, ok=False)
        return None

    def skip(self, t: float) -> StepOutcome | None:
        """The player gives up on the current step (it counts as failed)."""
        if self.done or self.cells is None:
            return None
        self.start(t)
        return self._finish(t, ok=False, skipped=True)

    def intents(self) -> LedIntents:
        """What the LEDs should show now: squares to fill, to clear, and wrong readings."""
        step, cells = self.current, self.cells
        if step is None:
            return LedIntents()
        marks: dict[int, Mark] = {}
        for s in step.occupied:
            marks[s] = Mark.TARGET if cells is not None and cells[s] != EMPTY else Mark.FILL
        if cells is not None:
            for s, ch in enumerate(cells):
                if ch == EMPTY or s in step.occupied:
                    continue
                marks[s] = Mark.CLEAR if s in step.lift else Mark.ERROR
        return LedIntents(marks)

    def _finish(self, t: float, ok: bool, skipped: bool = False) -> StepOutcome:
        step = self.steps[self.index]
        cells = self.cells or EMPTY * 81
        outcome = StepOutcome(self.index, step, ok, t, cells, skipped)
        self.outcomes.append(outcome)
        self._judge(step, cells)
        self.index += 1
        self._started = t
        self._met_since = None
        return outcome

    def _judge(self, step: Step, cells: str) -> None:
        reads = {s for s, ch in enumerate(cells) if ch != EMPTY}
        for s in step.occupied:
            if s in reads:
                self._tested.add(s)
            else:
                self._dead.setdefault(s, []).append(
                    "never read occupied while a piece stood on it"
                    + (
                        f" (with pieces on {names(step.occupied - {s})})"
                        if len(step.occupied) > 1
                        else ""
                    )
                )
        for s in step.lift & reads:
            what = "on an empty board" if step.kind == "empty" else "after its piece was lifted"
            self._stuck.setdefault(s, []).append(f"reads occupied {what}")
        for s in reads - step.occupied - step.lift:
            if not step.occupied:
                self._stuck.setdefault(s, []).append("reads occupied on an empty board")
                continue
            note = f"reads occupied while empty when {names(step.occupied)} {'is' if len(step.occupied) == 1 else 'are'} occupied"
            if step.kind == "rectangle":
                smap = self.square_map or SquareMap()
                middle = suspect_diode(smap.position(s), {smap.position(o) for o in step.occupied})
                if middle is not None:
                    note += (
                        f": is the diode of {square_name(smap.squares[middle])} missing or shorted?"
                    )
            elif len(step.occupied) == 1:
                note += " (crossed or shorted wires?)"
            self._ghost.setdefault(s, []).append(note)

    def report(self) -> SelfTestReport:
        results = []
        for s in range(81):
            if s in self._stuck:
                status, notes = STUCK, self._stuck[s]
            elif s in self._dead:
                status, notes = DEAD, self._dead[s]
            elif s in self._ghost:
                status, notes = GHOSTING, self._ghost[s]
            elif s in self._tested:
                status, notes = OK, []
            else:
                status, notes = UNTESTED, []
            # a dead square that reads elsewhere hints at crossed wires: keep both stories
            extra = self._ghost.get(s, []) if status == DEAD else []
            results.append(SquareResult(s, status, tuple(dict.fromkeys([*notes, *extra]))))
        return SelfTestReport(tuple(results), len(self.outcomes), len(self.steps))


# --------------------------------------------------------------------------- the live run


class SelfTestUI(Protocol):
    """Where a running self-test tells the player what to do and what the board reads."""

    def led(self, square: int) -> None: ...

    def step(self, index: int, total: int, step: Step) -> None: ...

    def board(self, cells: str, step: Step | None) -> None: ...

    def outcome(self, outcome: StepOutcome) -> None: ...


@dataclass
class QuietUI:
    """A UI that only remembers what it was told (tests, scripts)."""

    leds: list[int] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    outcomes: list[StepOutcome] = field(default_factory=list)
    on_step: Callable[[Step], None] | None = None

    def led(self, square: int) -> None:
        self.leds.append(square)

    def step(self, index: int, total: int, step: Step) -> None:
        self.prompts.append(step.prompt())
        if self.on_step is not None:
            self.on_step(step)

    def board(self, cells: str, step: Step | None) -> None:
        pass

    def outcome(self, outcome: StepOutcome) -> None:
        self.outcomes.append(outcome)


async def led_walk(
    sink: LedSink, ui: SelfTestUI, squares: Iterable[int] = range(81), dwell: float = 0.15
) -> None:
    """Light each square's LED(s) in turn for ``dwell`` seconds."""
    for sq in squares:
        ui.led(sq)
        await sink.show(LedIntents({sq: Mark.TARGET}))
        await asyncio.sleep(dwell)
    await sink.show(LedIntents())


async def run_selftest(
    source: SensorSource,
    sink: LedSink,
    test: SelfTest,
    ui: SelfTestUI,
    *,
    skip: asyncio.Event | None = None,
    poll: float = 0.02,
    clock: Callable[[], float] = time.monotonic,
) -> SelfTestReport:
    """Run ``test`` on a started source and sink; return its report (also when cancelled
    half-way, the steps done so far are in it)."""
    events = aiter(source.events())
    pending: asyncio.Future[object] = asyncio.ensure_future(anext(events))
    shown_step = -1
    shown: LedIntents | None = None
    try:
        while not test.done:
            done, _ = await asyncio.wait({pending}, timeout=poll)
            now = clock()
            if pending in done:
                event = pending.result()
                pending = asyncio.ensure_future(anext(events))
                if isinstance(event, SensorFrame):
                    if test.cells != event.cells:
                        ui.board(event.cells, test.current)
                    test.observe(event.cells)
            outcome = None
            if skip is not None and skip.is_set():
                skip.clear()
                outcome = test.skip(now)
            if outcome is None:
                outcome = test.tick(now)
            if outcome is not None:
                ui.outcome(outcome)
            current = test.current
            if current is not None and test.index != shown_step and test.cells is not None:
                shown_step = test.index
                ui.step(test.index, len(test.steps), current)
            intents = test.intents()
            if intents != shown:
                await sink.show(intents)
                shown = intents
    finally:
        pending.cancel()
        await asyncio.gather(pending, return_exceptions=True)
        with contextlib.suppress(Exception):
            await events.aclose()  # type: ignore[attr-defined]
        with contextlib.suppress(Exception):
            await sink.show(LedIntents())
    return test.report()
