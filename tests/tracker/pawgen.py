"""pawgen: sensor logs of a human game on a wooden board, written blind to the tracker.

This generator was written (session 48) from the sensor model of ``../shared/ARCHITECTURE.md``
and from first principles only (no look at the tracker's code or at the other generators;
its author saw the tracker's timing defaults, ``TrackerParams``, and set nothing from
them), so that it can find cases the tracker's own tests do not think of.

The model: two players at a wooden board. Between moves a player thinks (quick replies,
ordinary thinks, long thinks). A move is a hand lifting a piece (the switch opens, now and
then with a chatter), carrying or sliding it, and setting it down (the switch closes with
contact bounce). Captures are made in the ways people make them: the target taken off
first, the attacker lifted and held while the target is picked off, or a fast swap that
leaves the target empty for 10-80 ms; the captured piece is then carried to the player's
stand and may pass low over squares. A promotion is a flip in the air or a flip on the
square after landing. Where the sensors cannot tell (occupancy: an optional promotion;
occupancy and polarity: which kind was dropped where several are legal) the player
answers the board's question after the landing; now and then a player presses a button
nobody asked for (ignored by spec).

Noise, each with a rate scaled by ``noise``: a slid piece closing the switches it crosses
(with edge overlap or gap at each square boundary), a held piece hovering over empty
squares, a neighbour knocked and put back, a piece touched and put back, a piece
straightened, a piece nudged across a square edge, a piece set down and moved on to
another legal square (a correction), an illegal move shown for 1-3 s and taken back, a
piece held long while the player hovers over candidate squares. Every noise is physically
consistent (pieces come only from a square, a stand, or a transient switch closure) and
leaves the board as the game says before the next move: the generator checks the cells
after every move against the true position and raises ``GeneratorBug`` if not.

Human times scale with ``pace``, down to what a hand and an eye can do (a reply never
starts within 0.25 s of the last change on the board, a carry takes at least 0.12 s);
``noise`` scales every rate of :data:`RATES` and ``rates`` overrides single ones (for
instance ``{"knock": 0}`` to see what else fails). ``scan_hz`` resamples the log as a
matrix scanned at that rate (each square read at its own phase in the cycle, a frame sent
at each cycle's end when something changed). ``generate_annotated`` also returns, per
ply, what the hands did (``notes``) and when the move was complete (``marks``).
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass, field

from board_bridge.shogi import (
    BISHOP,
    BLACK,
    DRAGON,
    HORSE,
    LANCE,
    PROMOTABLE,
    ROOK,
    Board,
    Move,
    piece_type_symbol,
    square_name,
)
from board_bridge.shogi.core import PROMOTION_OFFSET
from board_bridge.tracker.events import (
    EMPTY,
    INPUT_NONPROMOTE,
    INPUT_PROMOTE,
    PlayerInput,
    SensorEvent,
    SensorFrame,
)
from board_bridge.tracker.positions import cell_of_type, cells_of_codes, check_sensing

US = 1_000_000  # times are kept in integer microseconds
SLIDERS = frozenset({LANCE, BISHOP, ROOK, HORSE, DRAGON})
#: Where each player's stand (komadai) is, in square coordinates (column 0 = file 9,
#: row 0 = rank a): to the right of each player.
STANDS = {BLACK: (9.9, 7.2), 1 - BLACK: (-0.9, 0.8)}


#: Noise rates (per occasion, before scaling by ``noise``); ``rates=`` overrides them.
RATES: dict[str, float] = {
    "bounce": 0.8,  # a landing switch bounces (1-4 times within 1-15 ms)
    "chatter": 0.15,  # a lifted switch closes once more for a millisecond or two
    "hover": 0.05,  # per empty square a carried piece passes over, it closes briefly
    "hover_identity": 0.02,  # the same for a tag reader (needs the tag closer)
    "slide": 0.4,  # a rook, bishop or lance (or promoted) move is slid along the board
    "slide_short": 0.15,  # a one-square move is slid
    "knock": 0.06,  # at a lift or a landing, a neighbour is knocked (20-300 ms)
    "hold": 0.05,  # a lifted piece is held while the player hovers over squares
    "near_hover": 0.05,  # the square before the target closes just before the landing
    "correction": 0.03,  # set down on another legal square first, then moved on
    "unneeded_input": 0.02,  # the kind pressed after a drop the board did not ask about
    "straighten": 0.04,  # the moved piece straightened after the landing
    "nudge": 0.03,  # the moved piece pushed over a square edge for a moment
    "straighten_idle": 0.02,  # a piece straightened during the think
    "touch": 0.04,  # an own piece lifted and put back during the think
    "illegal": 0.02,  # an illegal move shown for 1-3 s, then taken back
}


class GeneratorBug(AssertionError):
    """The generator made a log that breaks its own physical model or the true game."""


def _xy(sq: int) -> tuple[float, float]:
    return (float(sq % 9), float(sq // 9))


def _neighbours(sq: int, orthogonal: bool = False) -> list[int]:
    c, r = sq % 9, sq // 9
    out = []
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (dc or dr) and not (orthogonal and dc and dr):
                cc, rr = c + dc, r + dr
                if 0 <= cc < 9 and 0 <= rr < 9:
                    out.append(rr * 9 + cc)
    return out


def _cheb(a: int, b: int) -> int:
    return max(abs(a % 9 - b % 9), abs(a // 9 - b // 9))


def _line(a: int, b: int) -> list[int] | None:
    """The squares strictly between a and b on a rank, file or diagonal, else None."""
    dc, dr = b % 9 - a % 9, b // 9 - a // 9
    if not (dc == 0 or dr == 0 or abs(dc) == abs(dr)) or (dc == 0 and dr == 0):
        return None
    n = max(abs(dc), abs(dr))
    sc, sr = (dc > 0) - (dc < 0), (dr > 0) - (dr < 0)
    return [(a // 9 + sr * k) * 9 + a % 9 + sc * k for k in range(1, n)]


def _crossed(p0: tuple[float, float], p1: tuple[float, float]) -> list[tuple[int, float]]:
    """Squares under a straight path from p0 to p1, in order, with the path fraction."""
    n = max(2, int(math.dist(p0, p1) * 6))
    out: list[tuple[int, float]] = []
    seen: set[int] = set()
    for k in range(1, n):
        f = k / n
        c = round(p0[0] + (p1[0] - p0[0]) * f)
        r = round(p0[1] + (p1[1] - p0[1]) * f)
        if 0 <= c < 9 and 0 <= r < 9:
            sq = r * 9 + c
            if sq not in seen:
                seen.add(sq)
                out.append((sq, f))
    return out


class _Timeline:
    """Per-square changes in time; each square's own changes strictly ordered."""

    def __init__(self, cells: str) -> None:
        self.start = cells
        self.cells = list(cells)
        self.last = [0] * 81
        self.changes: list[tuple[int, int, int, str]] = []  # (t, seq, square, cell)
        self.inputs: list[tuple[int, str]] = []

    def free(self, sq: int, t: int) -> bool:
        return t > self.last[sq]

    def set(self, t: int, sq: int, cell: str) -> None:
        if t <= self.last[sq]:
            raise GeneratorBug(f"square {square_name(sq)} changed out of order at {t}")
        if cell == self.cells[sq]:
            raise GeneratorBug(f"square {square_name(sq)} set to {cell!r} twice at {t}")
        self.cells[sq] = cell
        self.last[sq] = t
        self.changes.append((t, len(self.changes), sq, cell))

    def add_input(self, t: int, value: str) -> None:
        if self.inputs and t <= self.inputs[-1][0]:
            t = self.inputs[-1][0] + 1
        self.inputs.append((t, value))

    def horizon(self) -> int:
        return max(max(self.last), self.inputs[-1][0] if self.inputs else 0)


@dataclass
class Generated:
    """A generated log with, per ply, what the hands did and when the move was complete."""

    events: list[SensorEvent]
    notes: list[list[str]] = field(default_factory=list)
    marks: list[float] = field(default_factory=list)


class _Gen:
    def __init__(
        self,
        sfen: str,
        seed: int,
        sensing: str,
        pace: float,
        noise: float,
        regret: float,
        rates: dict[str, float] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        unknown = set(rates or ()) - set(RATES)
        if unknown:
            raise ValueError(f"unknown noise rates {sorted(unknown)}; known: {sorted(RATES)}")
        self.rates = {**RATES, **(rates or {})}
        self.sensing = check_sensing(sensing)
        self.pace = pace
        self.noise = noise
        self.regret = regret
        self.board = Board(sfen)
        self.tl = _Timeline(self.truth())
        self.now = 0
        self.note: list[str] = []
        self.involved: set[int] = set()
        self.notes: list[list[str]] = []
        self.marks: list[int] = []

    # --- small helpers -------------------------------------------------------------

    def truth(self) -> str:
        return cells_of_codes(self.board.board_cells(), self.sensing)

    def cell(self, piece_type: int) -> str:
        return cell_of_type(piece_type, self.sensing)

    def chance(self, name: str) -> bool:
        """A noise event happens (its rate scaled by ``noise``)."""
        rate = self.rates[name] * self.noise
        return rate > 0 and self.rng.random() < min(1.0, rate)

    def human(self, lo: float, hi: float, floor: float | None = None) -> int:
        """A human duration, uniform in [lo, hi] seconds, scaled by pace (microseconds).

        A hand and an eye have limits no pace goes under: ``floor`` (default: ``lo`` up
        to a quarter second) is kept whatever the pace.
        """
        f = min(lo, 0.25) if floor is None else floor
        return max(int(f * US), int(self.rng.uniform(lo, hi) * self.pace * US), 1000)

    def human_logn(self, median: float, sigma: float, floor: float) -> int:
        t = self.rng.lognormvariate(math.log(median), sigma) * self.pace
        return int(max(t, floor) * US)

    def phys(self, lo_ms: float, hi_ms: float) -> int:
        """A physical duration in [lo, hi] milliseconds, not scaled (microseconds)."""
        return max(1, int(self.rng.uniform(lo_ms, hi_ms) * 1000))

    def think(self) -> int:
        r = self.rng.random()
        if r < 0.22:
            return self.human(0.25, 1.0)  # a quick reply
        if r < 0.9:
            return self.human_logn(3.0, 0.7, 0.3)
        return self.human(10.0, 60.0)  # a long think

    # --- primitives on the sensors ------------------------------------------------

    def land(self, sq: int, cell: str, t: int) -> int:
        """A piece set down on ``sq`` at ``t``: the switch closes and bounces; returns the end."""
        self.tl.set(t, sq, cell)
        end = t
        if self.chance("bounce"):
            limit = t + self.phys(1, 15)
            for _ in range(self.rng.choice((1, 1, 2, 2, 3, 4))):
                a = end + self.phys(0.2, 3.0)
                b = a + self.phys(0.2, 3.0)
                if b > limit:
                    break
                self.tl.set(a, sq, EMPTY)
                self.tl.set(b, sq, cell)
                end = b
        return end

    def lift(self, sq: int, t: int) -> int:
        """The piece on ``sq`` lifted at ``t`` (sometimes the switch chatters once)."""
        cell = self.tl.cells[sq]
        if cell == EMPTY:
            raise GeneratorBug(f"lifting empty {square_name(sq)}")
        self.tl.set(t, sq, EMPTY)
        if self.chance("chatter"):
            a = t + self.phys(0.3, 2.5)
            b = a + self.phys(0.3, 2.5)
            self.tl.set(a, sq, cell)
            self.tl.set(b, sq, EMPTY)
            return b
        return t

    def hover(self, sq: int, t: int, cell: str, dur: int | None = None) -> bool:
        """A held piece low over an empty square closes its switch briefly."""
        if self.tl.cells[sq] != EMPTY or not self.tl.free(sq, t):
            return False
        d = dur if dur is not None else self.phys(5, 60)
        self.tl.set(t, sq, cell)
        self.tl.set(t + d, sq, EMPTY)
        self.note.append(f"hover {square_name(sq)} {d / 1000:.0f}ms")
        return True

    def carry_hovers(
        self,
        p0: tuple[float, float],
        p1: tuple[float, float],
        t0: int,
        t1: int,
        cell: str,
        avoid: set[int],
    ) -> None:
        name = "hover_identity" if self.sensing == "identity" else "hover"
        for sq, f in _crossed(p0, p1):
            if sq in avoid or not self.chance(name):
                continue
            t = t0 + int((t1 - t0) * f)
            d = min(self.phys(5, 60), max(1, (t1 - t) - 2000))
            if t > t0 and t + d < t1:
                self.hover(sq, t, cell, d)

    def knock(self, around: set[int], t: int, exclude: set[int]) -> None:
        """A neighbour of the working hand knocked: its switch opens 20-300 ms and closes."""
        cands = sorted(
            {n for sq in around for n in _neighbours(sq)}
            - exclude
            - self.involved
            - {n for n in range(81) if self.tl.cells[n] == EMPTY}
        )
        if not cands:
            return
        n = self.rng.choice(cands)
        start = t + int(self.rng.uniform(-20, 60) * 1000)
        if not self.tl.free(n, start):
            return
        cell = self.tl.cells[n]
        d = self.phys(20, 300)
        self.tl.set(start, n, EMPTY)
        self.land(n, cell, start + d)
        self.note.append(f"knock {square_name(n)} {d / 1000:.0f}ms ({(start - t) / 1000:+.0f}ms)")

    def slide(self, o: int, d: int, cell: str, t0: int) -> int:
        """Slide a piece along the board from o to d (the squares between are empty)."""
        path = [o, *(_line(o, d) or []), d]
        tau = self.human(0.06, 0.25)
        t = t0
        for k in range(len(path) - 1):
            u, v = path[k], path[k + 1]
            tb = t0 + tau // 2 + k * tau
            width = min(self.phys(3, 40), tau // 2 - 1000)
            width = max(width, 2)
            if self.rng.random() < 0.5:  # the piece straddles the edge: both closed
                t_close, t_open = tb - width // 2, tb + width // 2
            else:  # neither switch sees it for a moment
                t_open, t_close = tb - width // 2, tb + width // 2
            if v == d:
                if t_close < t_open:
                    t = max(self.land(d, cell, t_close), t_open)
                    self.tl.set(t_open, u, EMPTY)
                else:
                    self.tl.set(t_open, u, EMPTY)
                    t = self.land(d, cell, t_close)
            elif t_open < t_close:
                self.tl.set(t_open, u, EMPTY)
                self.tl.set(t_close, v, cell)
            else:
                self.tl.set(t_close, v, cell)
                self.tl.set(t_open, u, EMPTY)
        self.note.append(f"slide {square_name(o)}-{square_name(d)}")
        return t

    # --- hands ---------------------------------------------------------------------

    def go(
        self, o: int, d: int, cell: str, pt: int, exclude: set[int], may_hold: bool = True
    ) -> None:
        """Move the piece (type ``pt``) on ``o`` to the empty ``d`` (carried, or slid)."""
        if self.tl.cells[d] != EMPTY:
            raise GeneratorBug(f"moving onto occupied {square_name(d)}")
        line = _line(o, d)
        dist = _cheb(o, d)
        slide_rate = "slide" if dist > 1 else "slide_short"
        sliding_piece = pt in SLIDERS or dist == 1
        if (
            line is not None
            and sliding_piece
            and all(self.tl.cells[s] == EMPTY for s in line)
            and all(self.tl.free(s, self.now) for s in line)
            and self.chance(slide_rate)
        ):
            t = self.slide(o, d, cell, self.now)
            self.now = t
            return
        t = self.lift(o, self.now)
        if self.chance("knock"):
            self.knock({o}, t, exclude | {o, d})
        if may_hold and self.chance("hold"):
            # held while the player ponders, hovering over squares near the origin
            near = [s for s in range(81) if 0 < _cheb(o, s) <= 2 and s != d]
            for s in self.rng.sample(near, min(len(near), self.rng.randint(1, 3))):
                t += self.human(0.3, 1.2)
                self.hover(s, t, cell)
            t += self.human(0.3, 1.5)
            self.note.append(f"held {square_name(o)}")
        carry = max(
            int((0.15 + 0.07 * dist) * self.rng.lognormvariate(0, 0.25) * self.pace * US),
            120_000,
        ) + self.phys(20, 40)
        t_land = t + carry
        self.carry_hovers(_xy(o), _xy(d), t, t_land, cell, {o, d})
        if self.chance("near_hover"):
            before = [s for s, _ in _crossed(_xy(o), _xy(d)) if s != d] or _neighbours(d)
            s = before[-1]
            dur = self.phys(5, 40)
            start = t_land - dur - self.phys(5, 30)
            if start > t and s != d:
                self.hover(s, start, cell, dur)
        end = self.land(d, cell, t_land)
        if self.chance("knock"):
            self.knock({d}, t_land, exclude | {o, d})
        self.now = end

    def to_stand(self, sq: int, cell: str, t0: int, color: int) -> int:
        """Carry a captured piece from above ``sq`` to the stand; returns the arrival."""
        t1 = t0 + self.human(0.3, 1.0)
        self.carry_hovers(_xy(sq), STANDS[color], t0, t1, cell, {sq})
        return t1

    def capture(self, o: int, b: int, cell: str, pt: int, exclude: set[int]) -> None:
        """The piece on ``o`` captures on ``b`` (the stand receives the captured piece)."""
        color = self.board.turn
        tcell = self.tl.cells[b]
        style = self.rng.choices(("first", "held", "swap"), (35, 35, 30))[0]
        if style == "first":
            t = self.lift(b, self.now)
            if self.rng.random() < 0.6:
                self.note.append("capture: target off to the stand, then the attacker")
                self.now = self.to_stand(b, tcell, t, color) + self.human(0.1, 0.8)
                self.go(o, b, cell, pt, exclude, may_hold=False)
            else:
                self.note.append("capture: target lifted, attacker moved, then to the stand")
                self.now = t + self.human(0.15, 0.6)
                self.go(o, b, cell, pt, exclude, may_hold=False)
                self.now = self.to_stand(b, tcell, self.now + self.human(0.05, 0.3), color)
            return
        t = self.lift(o, self.now)
        if self.chance("knock"):
            self.knock({o}, t, exclude | {o, b})
        if style == "held":
            h = self.human(0.2, 1.5) if self.rng.random() < 0.8 else self.human(1.5, 5.0)
            tb = t + h
            gap = self.human(0.05, 0.8)
            self.note.append(f"capture: attacker held {h / US:.2f}s, target off {gap / US:.2f}s")
        else:
            dist = _cheb(o, b)
            tb = t + max(int((0.15 + 0.07 * dist) * self.pace * US), 120_000) + self.phys(20, 80)
            self.carry_hovers(_xy(o), _xy(b), t, tb, cell, {o, b})
            gap = self.phys(10, 80)
            self.note.append(f"capture: swap, target empty {gap / 1000:.0f}ms")
        self.lift(b, tb)
        end = self.land(b, cell, tb + gap)
        if self.chance("knock"):
            self.knock({b}, tb + gap, exclude | {o, b})
        self.now = self.to_stand(b, tcell, end + self.human(0.05, 0.3), color)

    # --- noise between moves -----------------------------------------------------------

    def straighten(self, sq: int) -> None:
        if not self.tl.free(sq, self.now) or self.tl.cells[sq] == EMPTY:
            return
        cell = self.tl.cells[sq]
        d = self.phys(10, 80)
        self.tl.set(self.now, sq, EMPTY)
        self.now = self.land(sq, cell, self.now + d)
        self.note.append(f"straighten {square_name(sq)} {d / 1000:.0f}ms")

    def nudge(self, sq: int) -> None:
        """The piece on ``sq`` pushed over a square edge onto an empty neighbour and back."""
        cands = [
            n
            for n in _neighbours(sq, orthogonal=True)
            if self.tl.cells[n] == EMPTY and self.tl.free(n, self.now)
        ]
        if not cands or self.tl.cells[sq] == EMPTY or not self.tl.free(sq, self.now):
            return
        n = self.rng.choice(cands)
        cell = self.tl.cells[sq]
        total = self.human(0.03, 0.3)
        t = self.now
        self.tl.set(t, n, cell)
        if self.rng.random() < 0.5 and total > 20000:
            a = t + total // 4
            b = t + 3 * total // 4
            self.tl.set(a, sq, EMPTY)
            self.tl.set(b, sq, cell)
            self.note.append(f"nudge {square_name(sq)} over {square_name(n)} (own opened)")
        else:
            self.note.append(f"nudge {square_name(sq)} over {square_name(n)}")
        self.tl.set(t + total, n, EMPTY)
        self.now = t + total

    def touch(self, sq: int) -> None:
        """A piece lifted and put back."""
        cell = self.tl.cells[sq]
        t = self.lift(sq, self.now)
        t += self.human(0.2, 1.2)
        self.now = self.land(sq, cell, t)
        self.note.append(f"touch {square_name(sq)}")

    def own_squares(self) -> list[int]:
        turn = self.board.turn
        out = []
        for sq in range(81):
            p = self.board.piece_at(sq)
            if p is not None and p.color == turn:
                out.append(sq)
        return out

    def illegal_shown(self, move: Move) -> None:
        """A piece set down where it may not go, left while the red lights show, taken back."""
        own = self.own_squares()
        if move.from_square is not None and self.rng.random() < 0.6:
            s = move.from_square
        else:
            s = self.rng.choice(own)
        legal = {m.to_square for m in self.board.legal_moves_from(s)}
        cands = [
            y
            for y in range(81)
            if 0 < _cheb(s, y) <= 2 and self.tl.cells[y] == EMPTY and y not in legal
        ]
        if not cands:
            return
        y = self.rng.choice(cands)
        cell = self.tl.cells[s]
        piece = self.board.piece_at(s)
        assert piece is not None
        self.involved |= {s, y}
        self.note.append(f"illegal {square_name(s)}-{square_name(y)} shown")
        self.go(s, y, cell, piece.piece_type, set(), may_hold=False)
        self.now += self.human(1.0, 3.0, 0.7)
        self.go(y, s, cell, piece.piece_type, set(), may_hold=False)
        self.now += self.human(0.3, 2.0)

    def regretted(self, move: Move) -> None:
        """A legal move (not the one played) set down, then taken back at once."""
        cands = [
            m
            for m in self.board.legal_moves
            if m.from_square is not None
            and m != move
            and not m.promotion
            and self.tl.cells[m.to_square] == EMPTY
        ]
        if not cands:
            return
        m = self.rng.choice(cands)
        assert m.from_square is not None
        cell = self.tl.cells[m.from_square]
        piece = self.board.piece_at(m.from_square)
        assert piece is not None
        self.involved |= {m.from_square, m.to_square}
        self.note.append(f"regret {m.usi()} shown")
        self.go(m.from_square, m.to_square, cell, piece.piece_type, set(), may_hold=False)
        self.now += self.human(0.3, 1.5)
        self.go(m.to_square, m.from_square, cell, piece.piece_type, set(), may_hold=False)
        self.now += self.human(0.3, 2.0)

    # --- moves -------------------------------------------------------------------------

    def drop_kinds(self, sq: int) -> set[int]:
        return {
            m.drop_piece_type
            for m in self.board.legal_drops()
            if m.to_square == sq and m.drop_piece_type is not None
        }

    def answer(self, t: int, value: str, needed: bool) -> None:
        self.tl.add_input(t, value)
        self.note.append(f"input {value}" + ("" if needed else " (unneeded)"))

    def play_drop(self, move: Move) -> tuple[str, bool] | None:
        pt = move.drop_piece_type
        assert pt is not None
        b = move.to_square
        color = self.board.turn
        cell = self.cell(pt)
        dest = b
        others = [
            m.to_square
            for m in self.board.legal_drops(pt)
            if m.to_square != b and _cheb(m.to_square, b) <= 2
        ]
        correction = bool(others) and self.chance("correction")
        if correction:
            dest = self.rng.choice(others)
            self.note.append(f"drop corrected from {square_name(dest)}")
        t0 = self.now + self.human(0.1, 0.4)  # the piece picked from the stand
        t1 = t0 + self.human(0.3, 0.9)
        self.carry_hovers(STANDS[color], _xy(dest), t0, t1, cell, {dest})
        self.now = self.land(dest, cell, t1)
        if correction:
            self.now += self.human(0.25, 1.5)
            self.go(dest, b, cell, pt, {dest, b}, may_hold=False)
        kinds = self.drop_kinds(b)
        letter = piece_type_symbol(pt).upper()
        if self.sensing != "identity" and len(kinds) > 1:
            return letter, True
        if self.chance("unneeded_input"):
            return letter, False
        return None

    def play_board(self, move: Move) -> tuple[str, bool] | None:
        a, b = move.from_square, move.to_square
        assert a is not None
        piece = self.board.piece_at(a)
        assert piece is not None
        pt = piece.piece_type
        face_from = self.cell(pt)
        face_after = self.cell(pt + PROMOTION_OFFSET if move.promotion else pt)
        capture = self.board.piece_at(b) is not None
        optional = (
            pt in PROMOTABLE
            and self.board.is_legal(Move(a, b, True))
            and self.board.is_legal(Move(a, b, False))
        )
        flip_after = move.promotion and self.rng.random() < 0.25
        land_face = face_from if flip_after else face_after
        origin = a
        if self.chance("correction"):
            xs = [
                m.to_square
                for m in self.board.legal_moves_from(a)
                if m.to_square != b and self.tl.cells[m.to_square] == EMPTY
            ]
            if xs:
                x = self.rng.choice(sorted(set(xs)))
                xface = face_from
                if pt in PROMOTABLE and not self.board.is_legal(Move(a, x, False)):
                    xface = self.cell(pt + PROMOTION_OFFSET)
                self.note.append(f"correction via {square_name(x)}")
                self.go(a, x, xface, pt, {a, b, x})
                self.now += self.human(0.25, 1.5)
                origin = x
        if capture:
            self.capture(origin, b, land_face, pt, {a, b, origin})
        else:
            self.go(origin, b, land_face, pt, {a, b, origin})
        if flip_after:
            self.note.append("flipped on the square")
            t = self.lift(b, self.now + self.human(0.15, 0.8))
            self.now = self.land(b, face_after, t + self.human(0.15, 0.5))
        value = INPUT_PROMOTE if move.promotion else INPUT_NONPROMOTE
        if optional and self.sensing == "occupancy":
            return value, True
        if optional and self.rng.random() < 0.3:
            return value, False
        return None

    def after_landing(self, b: int) -> None:
        """The mover's hand adjusts the piece it set down (now and then)."""
        if self.chance("straighten"):
            self.now += self.human(0.1, 0.6)
            self.straighten(b)
        if self.chance("nudge"):
            self.now += self.human(0.05, 0.5)
            self.nudge(b)

    def play(self, usi: str) -> None:
        move = Move.from_usi(usi)
        if not self.board.is_legal(move):
            raise ValueError(f"illegal move {usi} in {self.board.sfen()}")
        self.note = []
        self.involved = {b for b in (move.from_square, move.to_square) if b is not None}
        self.now = self.tl.horizon() + self.think()
        if self.chance("straighten_idle"):
            sq = self.rng.randrange(81)
            if self.tl.cells[sq] != EMPTY:
                self.involved.add(sq)
                self.straighten(sq)
                self.now += self.human(0.2, 1.0)
        if self.chance("touch"):
            own = [s for s in self.own_squares() if s != move.from_square]
            if own:
                sq = self.rng.choice(own)
                self.involved.add(sq)
                self.touch(sq)
                self.now += self.human(0.3, 2.0)
        if self.chance("illegal"):
            self.illegal_shown(move)
        if self.regret and self.rng.random() < self.regret:
            self.regretted(move)
        if move.from_square is None:
            pending = self.play_drop(move)
        else:
            pending = self.play_board(move)
        b = move.to_square
        landed = self.now
        if pending is None:
            self.after_landing(b)
        else:
            # The board asks (or the player answers anyway) a little after the landing.
            # One hand: the answer comes when the hand is off the pieces, before or after
            # it adjusts the piece; now and then the other hand presses meanwhile.
            value, needed = pending
            t_in = landed + self.human(0.3, 3.0)
            r = self.rng.random()
            if r < 0.15:
                self.after_landing(b)
                self.note.append("answered with the other hand")
            elif r < 0.6:
                t_in = max(t_in, self.tl.horizon() + self.human(0.1, 0.4))
                self.now = t_in + self.human(0.2, 0.8)
                self.after_landing(b)
            else:
                self.after_landing(b)
                t_in = max(t_in, self.tl.horizon() + self.human(0.1, 0.4))
            self.answer(t_in, value, needed)
        self.board.push(move)
        if "".join(self.tl.cells) != self.truth():
            raise GeneratorBug(f"after {usi} the board is not the true position")
        self.notes.append(self.note)
        self.marks.append(self.tl.horizon())


def _frames(tl: _Timeline) -> list[tuple[int, str]]:
    cells = list(tl.start)
    out = [(0, tl.start)]
    changes = sorted(tl.changes)
    i = 0
    while i < len(changes):
        t = changes[i][0]
        while i < len(changes) and changes[i][0] == t:
            cells[changes[i][2]] = changes[i][3]
            i += 1
        s = "".join(cells)
        if s != out[-1][1]:
            out.append((t, s))
    return out


def _scan(tl: _Timeline, hz: float) -> list[tuple[int, str]]:
    """The board as a matrix scanned at ``hz``: square i read at phase i/81 of each cycle."""
    period = US / hz
    per_sq: dict[int, list[tuple[int, str]]] = {}
    for t, _seq, sq, cell in sorted(tl.changes):
        per_sq.setdefault(sq, []).append((t, cell))
    updates: dict[int, dict[int, str]] = {}
    for sq, changes in per_sq.items():
        phase = sq * period / 81
        by_cycle: dict[int, str] = {}
        for t, cell in changes:
            k = max(0, math.ceil((t - phase) / period))
            by_cycle[k] = cell  # the last change before the read wins
        prev = tl.start[sq]
        for k in sorted(by_cycle):
            if by_cycle[k] != prev:
                updates.setdefault(k, {})[sq] = by_cycle[k]
                prev = by_cycle[k]
    cells = list(tl.start)
    out = [(0, tl.start)]
    for k in sorted(updates):
        for sq, cell in updates[k].items():
            cells[sq] = cell
        s = "".join(cells)
        if s != out[-1][1]:
            out.append((round((k + 1) * period), s))
    return out


def _merge(frames: list[tuple[int, str]], inputs: list[tuple[int, str]]) -> list[SensorEvent]:
    items: list[tuple[int, int, str]] = [(t, 0, s) for t, s in frames]
    items += [(t, 1, v) for t, v in inputs]
    items.sort()
    out: list[SensorEvent] = []
    last = -1
    for t, kind, v in items:
        t = max(t, last + 1)
        last = t
        out.append(SensorFrame(t / US, v) if kind == 0 else PlayerInput(t / US, v))
    return out


def generate_annotated(
    moves: list[str],
    sfen: str,
    seed: int,
    sensing: str = "occupancy",
    pace: float = 1.0,
    noise: float = 1.0,
    scan_hz: float | None = None,
    regret: float = 0.0,
    rates: dict[str, float] | None = None,
) -> Generated:
    """Like :func:`generate`, with per-ply notes and the time each move was complete."""
    g = _Gen(sfen, seed, sensing, pace, noise, regret, rates)
    for usi in moves:
        g.play(usi)
    frames = _scan(g.tl, scan_hz) if scan_hz else _frames(g.tl)
    events = _merge(frames, g.tl.inputs)
    _check(events, g, sfen, moves, sensing, 2 / scan_hz + 0.005 if scan_hz else 0.0)
    return Generated(events, g.notes, [m / US for m in g.marks])


def _check(
    events: list[SensorEvent], g: _Gen, sfen: str, moves: list[str], sensing: str, lag: float
) -> None:
    """The log's own consistency: times, first and last frames, each move's end state."""
    board = Board(sfen)
    first = events[0]
    if not isinstance(first, SensorFrame) or first.t != 0 or first.cells != g.tl.start:
        raise GeneratorBug("the first event is not the starting frame")
    if any(b.t <= a.t for a, b in zip(events, events[1:], strict=False)):
        raise GeneratorBug("times do not increase strictly")
    frames = [e for e in events if isinstance(e, SensorFrame)]
    times = [f.t for f in frames]
    for k, usi in enumerate(moves):
        board.push_usi(usi)
        want = cells_of_codes(board.board_cells(), sensing)
        # the frame in effect a little after the move was complete (a scan may lag a cycle)
        t = g.marks[k] / US + lag
        nxt = g.marks[k + 1] / US if k + 1 < len(moves) else math.inf
        if t >= nxt:
            continue
        i = bisect.bisect_right(times, t) - 1
        if frames[i].cells != want and not _busy(g, g.marks[k], int(t * US)):
            raise GeneratorBug(f"after ply {k + 1} ({usi}) the frame is not the true position")
    if frames[-1].cells != cells_of_codes(board.board_cells(), sensing):
        raise GeneratorBug("the log does not end in the true final position")


def _busy(g: _Gen, t0: int, t1: int) -> bool:
    """Did the next move's hands change something between t0 and t1?"""
    return any(t0 < c[0] <= t1 for c in g.tl.changes)


def generate(
    moves: list[str],
    sfen: str,
    seed: int,
    sensing: str = "occupancy",
    pace: float = 1.0,
    noise: float = 1.0,
    scan_hz: float | None = None,
    regret: float = 0.0,
    rates: dict[str, float] | None = None,
) -> list[SensorEvent]:
    """A realistic, seeded sensor log of the game ``moves`` played from ``sfen``.

    ``sensing`` is occupancy, polarity or identity; ``pace`` scales human times, ``noise``
    the noise rates; ``scan_hz`` resamples the log as a matrix scanned at that rate;
    ``regret`` is the rate of a legal move set down and taken back before the real one
    (off by default: whether a board should accept that is a rule of the house);
    ``rates`` overrides single noise rates of :data:`RATES` (e.g. ``{"knock": 0}``).
    """
    return generate_annotated(
        moves, sfen, seed, sensing, pace, noise, scan_hz, regret, rates
    ).events
