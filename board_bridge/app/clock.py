"""A pure game clock (sudden death, byoyomi, Fischer increment): time is passed in, never read.

The daemon feeds it ``time.monotonic()``; tests feed it plain numbers. A turn starts with
:meth:`GameClock.start` and ends with :meth:`GameClock.stop` (a clock press, or the move
being settled on a board without a clock button); :meth:`press` does both. The side whose
time runs out loses: :meth:`GameClock.flag` says so once ``t`` has passed
:meth:`GameClock.deadline`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal

from board_bridge.shogi import BLACK, WHITE, Color, Outcome, Termination

ClockKind = Literal["none", "sudden-death", "byoyomi", "fischer"]
CLOCK_KINDS: Final[tuple[ClockKind, ...]] = ("none", "sudden-death", "byoyomi", "fischer")


class ClockError(ValueError):
    """A time control that cannot be played, or a clock used out of order."""


@dataclass(frozen=True)
class TimeControl:
    """How much time each side has, in seconds.

    - ``none``: no limit (time used per move is still measured and recorded);
    - ``sudden-death``: ``main`` seconds for the whole game;
    - ``byoyomi``: ``main`` seconds, then ``byoyomi`` seconds for each move (秒読み);
      ``periods`` > 1 gives that many byoyomi periods, one used up by each overrun;
    - ``fischer``: ``main`` seconds, ``increment`` added after each move.
    """

    kind: ClockKind = "none"
    main: float = 0.0
    byoyomi: float = 0.0
    increment: float = 0.0
    periods: int = 1

    def __post_init__(self) -> None:
        if self.kind not in CLOCK_KINDS:
            raise ClockError(f"unknown time control {self.kind!r} (expected one of {CLOCK_KINDS})")
        for name in ("main", "byoyomi", "increment"):
            if getattr(self, name) < 0:
                raise ClockError(f"{name} cannot be negative: {getattr(self, name)}")
        if self.periods < 1:
            raise ClockError(f"periods must be at least 1: {self.periods}")
        if self.kind == "byoyomi" and self.byoyomi <= 0:
            raise ClockError("a byoyomi time control needs byoyomi > 0")
        if self.kind in ("sudden-death", "fischer") and self.main <= 0:
            raise ClockError(f"a {self.kind} time control needs main > 0")

    def describe(self) -> str:
        """Human-readable, e.g. ``10m + 30s byoyomi`` (also used in record headers)."""
        if self.kind == "none":
            return "no time limit"
        main = _span(self.main)
        if self.kind == "sudden-death":
            return f"{main} sudden death"
        if self.kind == "byoyomi":
            periods = f" x{self.periods}" if self.periods > 1 else ""
            first = f"{main} + " if self.main else ""
            return f"{first}{_span(self.byoyomi)}{periods} byoyomi"
        return f"{main} + {_span(self.increment)} per move"


def _span(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)}m"
    return f"{seconds:g}s"


@dataclass(frozen=True)
class SideTime:
    """One side's clock: main time left, byoyomi periods left, and moves made."""

    main: float
    periods: int
    moves: int = 0


@dataclass(frozen=True)
class ClockState:
    """A snapshot of the whole clock (for take-backs and for restoring after a restart)."""

    sides: tuple[SideTime, SideTime]
    running: Color | None
    turn_started: float | None
    flagged: Color | None


class GameClock:
    """Two sides' time. Every method takes the time ``t``.

    ``control`` is both sides' :class:`TimeControl`, or black's when ``white`` gives white
    another one (time odds, e.g. a person's 10 minutes against an engine's 1 s a move)."""

    def __init__(self, control: TimeControl, white: TimeControl | None = None) -> None:
        self.control = control
        self.controls: tuple[TimeControl, TimeControl] = (control, white or control)
        self._sides: list[SideTime] = [SideTime(c.main, c.periods) for c in self.controls]
        self.running: Color | None = None
        self.turn_started: float | None = None
        self.flagged: Color | None = None

    # ------------------------------------------------------------------ turns
    def start(self, color: Color, t: float) -> None:
        """``color``'s time starts running at ``t`` (the other side's is stopped)."""
        if self.flagged is not None:
            raise ClockError("the clock has already flagged")
        self.running = color
        self.turn_started = t

    def stop(self, t: float) -> float:
        """End the running side's turn at ``t``: returns the seconds it used.

        Main time (then byoyomi) is charged; a Fischer increment is added. A side that was
        already out of time is marked flagged (check :meth:`flag` before calling this)."""
        color, started = self.running, self.turn_started
        if color is None or started is None:
            raise ClockError("no side's clock is running")
        used = max(0.0, t - started)
        if self.flag(t) is None:
            self._sides[color] = self._charge(color, self._sides[color], used)
        self.running = None
        self.turn_started = None
        return used

    def press(self, t: float) -> float:
        """A clock press: stop the running side, start the other. Returns the time used."""
        color = self.running
        if color is None:
            raise ClockError("no side's clock is running")
        used = self.stop(t)
        if self.flagged is None:
            self.start(color ^ 1, t)
        return used

    def _charge(self, color: Color, side: SideTime, used: float) -> SideTime:
        c = self.controls[color]
        if c.kind == "none":
            return replace(side, moves=side.moves + 1)
        main = side.main - used
        periods = side.periods
        if c.kind == "byoyomi" and main < 0:
            over = -main
            # each whole byoyomi period overrun is used up (the flag catches the last one)
            periods -= int(over // c.byoyomi)
            main = 0.0
        elif c.kind == "fischer":
            main += c.increment
        return SideTime(max(main, 0.0) if c.kind != "fischer" else main, periods, side.moves + 1)

    # ------------------------------------------------------------------ reading
    def remaining(self, color: Color, t: float | None = None) -> float:
        """Main time ``color`` has left at ``t`` (the running side's turn counted so far)."""
        side = self._sides[color]
        main = side.main
        if t is not None and self.running == color and self.turn_started is not None:
            main -= max(0.0, t - self.turn_started)
        return max(main, 0.0) if self.controls[color].kind != "none" else side.main

    def periods_left(self, color: Color) -> int:
        return self._sides[color].periods

    def moves_made(self, color: Color) -> int:
        return self._sides[color].moves

    def used_this_turn(self, t: float) -> float:
        return 0.0 if self.turn_started is None else max(0.0, t - self.turn_started)

    def deadline(self) -> float | None:
        """The time at which the running side flags, or None (no clock running, no limit)."""
        color, started = self.running, self.turn_started
        if color is None or started is None or self.controls[color].kind == "none":
            return None
        c = self.controls[color]
        side = self._sides[color]
        budget = side.main
        if c.kind == "byoyomi":
            budget += c.byoyomi * side.periods
        return started + budget

    def flag(self, t: float) -> Outcome | None:
        """The game's end if the running side's time has run out by ``t``, else None."""
        if self.flagged is not None:
            return _timeout(self.flagged)
        deadline = self.deadline()
        if deadline is None or self.running is None or t < deadline:
            return None
        self.flagged = self.running
        return _timeout(self.running)

    def display(self, color: Color, t: float) -> str:
        """``12:34`` of main time, or ``30s`` of byoyomi once main time is spent."""
        c = self.controls[color]
        if c.kind == "none":
            return "--:--"
        main = self.remaining(color, t)
        if c.kind == "byoyomi" and main <= 0:
            spent = self.used_this_turn(t) - self._sides[color].main if self.running == color else 0
            left = c.byoyomi - (spent % c.byoyomi) if spent > 0 else c.byoyomi
            return f"{left:4.1f}s"
        whole = int(main)
        return f"{whole // 60:02d}:{whole % 60:02d}"

    def engine_limit_ms(self, t: float, mover: Color | None = None) -> dict[str, int]:
        """The USI ``go`` clock parameters at ``t`` for ``mover`` (default: the running side):
        btime/wtime, then the mover's byoyomi or both sides' Fischer increments (ms).

        Each side's time is its main time left (the running side's counted from ``t``); a
        side without a time limit is given none (empty when the mover has no limit)."""
        mover = self.running if mover is None else mover
        if mover is None or self.controls[mover].kind == "none":
            return {}
        out = {}
        for color, key in ((BLACK, "btime"), (WHITE, "wtime")):
            if self.controls[color].kind != "none":
                out[key] = int(self.remaining(color, t) * 1000)
        own = self.controls[mover]
        if own.kind == "byoyomi":
            out["byoyomi"] = int(own.byoyomi * 1000)
        else:
            for color, key in ((BLACK, "binc"), (WHITE, "winc")):
                if self.controls[color].kind == "fischer":
                    out[key] = int(self.controls[color].increment * 1000)
        return out

    def describe(self) -> str:
        """The time control in words (each side's when they differ)."""
        black, white = self.controls
        if black == white:
            return black.describe()
        return f"sente {black.describe()}, gote {white.describe()}"

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> ClockState:
        return ClockState(
            (self._sides[0], self._sides[1]), self.running, self.turn_started, self.flagged
        )

    def restore(self, state: ClockState) -> None:
        self._sides = list(state.sides)
        self.running = state.running
        self.turn_started = state.turn_started
        self.flagged = state.flagged

    def replay(self, times: list[float], first: Color = BLACK) -> None:
        """Charge recorded per-move times (from a journal), sides alternating from ``first``."""
        color = first
        for used in times:
            self._sides[color] = self._charge(color, self._sides[color], used)
            color ^= 1


def _timeout(loser: Color) -> Outcome:
    return Outcome(Termination.TIMEOUT, loser ^ 1, f"{('black', 'white')[loser]} ran out of time")
