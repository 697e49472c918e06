"""clubgen: sensor logs of human over-the-board play, from hands moving in time and space.

Written blind to the move tracker: from ``/work/shared/ARCHITECTURE.md`` (the sensor model,
the physical facts, the sensor-log format), ``docs/sensor-log.md`` and the rules core
(:mod:`board_bridge.shogi`) only. It shares no code or tuning with the tracker or with the
project's other generators; its purpose is to find logs the tracker gets wrong.

Model
-----
Every piece is a physical object with an x/y position in square units (square ``s`` has
its centre at column ``s % 9``, row ``s // 9``). A piece on the surface has a footprint of
0.86 x 0.86 squares; a square's switch closes when a footprint covers at least 36 % of
it and opens again below 26 % (hysteresis). A piece held low (hovering, carried low) acts
like a 0.70-wide footprint with thresholds 40 % / 30 %, so it closes a square only when
almost centred over it. Slides follow minimum-jerk profiles along piecewise-straight
paths, so squares along the path close and open in turn (neighbours overlap briefly).
On top of the geometry the switches bounce and sometimes stick (sensor level), and a
rare ghost closure appears. Polarity and identity cells show the face (and kind) of the
piece that rests on a square; a transient piece over an occupied square does not change
its reading.

Frames: with ``scan_hz=None`` a frame is written at every change, with real-time stamps
rounded to the microsecond. With ``scan_hz`` the matrix is scanned rank by rank (rank a
first): scan ``k`` samples rank ``r`` at ``k/hz + r/(9 hz)`` and the frame is stamped at
``(k+1)/hz``; a frame is written when a scan differs from the last one (so a short pulse
may be seen by one scan only, or not at all, and a scan may show a "torn" board).

Inputs: an occupancy board asks about an optional promotion; occupancy and polarity
boards ask which kind was dropped when several kinds in hand are legal on the square;
identity boards ask nothing. Answers usually come 0.3-2 s after the piece settles.

Kinds and default rates
-----------------------
``rates`` overrides any of these by name; ``noise`` multiplies the NOISE kinds only (the
STYLE kinds choose between equally clean ways of doing something). All are probabilities
(clamped to 1), per ply unless stated.

NOISE kinds (scaled by ``noise``):

- ``knock`` 0.05: a neighbour (of the from-square, the path or the target) is knocked
  before the lift, during the carry or at the landing, and put back. Its switch opens
  for 30-400 ms ("tilt"), or (share ``knock_away``) it is pushed onto an adjacent empty
  square for 0.3-2 s and pushed back.
- ``touch`` 0.03: one of the mover's pieces is touched (lifted 50-350 ms) and put back.
- ``reconsider`` 0.03: a piece is lifted, held 0.5-3 s (perhaps hovering), put back,
  then a different piece is moved.
- ``correction`` 0.03: the piece (or dropped piece, or a capture's attacker) is set down
  on another legal empty square, left 0.3-1.5 s, then moved on to its real square.
- ``illegal`` 0.02: an illegal move (a move the piece cannot make, moving into check,
  a nifu drop, an opponent's piece moved) is left 0.5-3 s, put right, then the real move.
- ``takeback`` 0.01: after the move, it is undone on the board (captured piece back from
  the stand, promoted piece flipped back), a pause, then the same move made again.
- ``hover`` 0.06: the piece to be placed (moved or dropped) hovers low over 1-3 squares
  near its target before landing.
- ``slide_brush`` 0.30: share of diagonal slides that wobble near a corner onto one or
  both squares beside it.
- ``carry_low`` 0.15: a captured piece is carried to the stand low over the board.
- ``straighten`` 0.35: in blitz overlap, the mover still straightening the piece it just
  moved makes its switch open 8-40 ms after the opponent began the reply.
- ``ghost`` 0.01: one ghost closure of an empty square (one scan, or 1-6 ms).
- ``sticky`` 0.01 per opening: a switch stays closed 20-100 ms after the piece left.
- ``bounce`` 0.25 per closing or opening: the switch chatters for 1-5 ms.
- ``unneeded_press`` 0.02: a button pressed when nothing was asked.

STYLE kinds (not scaled):

- ``slide`` 0.30: a straight-line move is slid (0.55 for moves of two squares or more,
  counted as ``slide_long``); knights are always lifted.
- ``capture_target_first`` 0.45, ``capture_attacker_first`` 0.25, ``capture_swap`` 0.18
  (target empty 10-60 ms), ``capture_push`` 0.12 (the attacker pushes the target aside;
  the target square opens for at most a few ms, often not at all): shares of captures.
- ``flip_on_square`` 0.35: share of promotions flipped after landing (else in the air).
- ``answer_early`` 0.12: an answer given with the hand still on the piece (0-150 ms before,
  or within 20 ms of, the landing). ``answer_nudge`` 0.08: a neighbour of the target is knocked
  and put back (a ``knock``) before the answer.
- ``overlap`` 0.6: at ``pace < 0.75`` the reply starts 0.15-0.4 s after the last change.
- ``knock_away`` 0.35: share of knocks that push the piece onto an adjacent empty square.

Timing near the physical limits: every human duration is multiplied by ``pace`` but
floored (a lift-to-landing carry takes at least 60 ms + 10 ms per square, a slide at
most 30 squares/s and at least 60 ms, a hand needs 40 ms between two grips). Bounce stays
within 5 ms of an edge; sticky releases are at most 100 ms; the next ply never starts
before the last ply's sensor tails (and, when scanning, two scans) are over.

``notes[k]`` says in words what the hands (and the sensors, for ``sticky`` and ``ghost``)
did in ply ``k``; ``counts`` (an extra field of :class:`Generated`) counts each kind in the
whole log (``bounce`` and ``overlap`` are counted but not noted per ply). An unneeded press
is only made in a ply that asks nothing: before the move, or 0.2-1 s after it. A takeback's
answer (if the move asks one) is given again after the move is remade.

``marks[k]`` is when ply ``k`` was complete: the last sensor change of the ply (the frame
stamp that shows it, when scanning) or its answer, whichever is later. Between a mark and
the start of the next ply the board does not change and equals the true position.
"""

from __future__ import annotations

import bisect
import math
import random
from collections import Counter
from dataclasses import dataclass, field

from board_bridge.shogi import (
    HAND_PIECE_TYPES,
    KING,
    KNIGHT,
    PAWN,
    Board,
    IllegalReason,
    Move,
    square_name,
    unpromoted,
)
from board_bridge.tracker.events import (
    IDENTITY_CELLS,
    PlayerInput,
    SensorEvent,
    SensorFrame,
)

__all__ = [
    "DEFAULT_RATES",
    "NOISE_KINDS",
    "Generated",
    "GeneratorBug",
    "generate",
    "generate_annotated",
]

NOISE_KINDS: frozenset[str] = frozenset(
    {
        "knock",
        "touch",
        "reconsider",
        "correction",
        "illegal",
        "takeback",
        "hover",
        "slide_brush",
        "carry_low",
        "straighten",
        "ghost",
        "sticky",
        "bounce",
        "unneeded_press",
    }
)

DEFAULT_RATES: dict[str, float] = {
    "knock": 0.05,
    "touch": 0.03,
    "reconsider": 0.03,
    "correction": 0.03,
    "illegal": 0.02,
    "takeback": 0.01,
    "hover": 0.06,
    "slide_brush": 0.30,
    "carry_low": 0.15,
    "straighten": 0.35,
    "ghost": 0.01,
    "sticky": 0.01,
    "bounce": 0.25,
    "unneeded_press": 0.02,
    "slide": 0.30,
    "capture_target_first": 0.45,
    "capture_attacker_first": 0.25,
    "capture_swap": 0.18,
    "capture_push": 0.12,
    "flip_on_square": 0.35,
    "answer_early": 0.12,
    "answer_nudge": 0.08,
    "overlap": 0.6,
    "knock_away": 0.35,
}

# Footprint width and close/open thresholds (fraction of the square covered).
_SURFACE = (0.86, 0.36, 0.26)
_HOVER = (0.70, 0.40, 0.30)
_INF = math.inf
_TAIL = 0.106  # the longest sensor tail after the last physical change (sticky + bounce)
_STAND_XY = ((10.4, 7.2), (-2.4, 1.8))  # beside black's right hand, white's right hand
_DROP_LETTER = {pt: "PLNSBRGK"[pt - 1] for pt in HAND_PIECE_TYPES}


class GeneratorBug(AssertionError):
    """The generator's own physical model disagrees with the rules core (a generator bug)."""


@dataclass
class Generated:
    events: list[SensorEvent]
    notes: list[list[str]]
    marks: list[float]
    counts: dict[str, int] = field(default_factory=dict)


def generate(
    moves: list[str],
    sfen: str,
    seed: int,
    sensing: str = "occupancy",
    pace: float = 1.0,
    noise: float = 1.0,
    scan_hz: float | None = None,
    rates: dict[str, float] | None = None,
) -> list[SensorEvent]:
    """The events of :func:`generate_annotated`."""
    return generate_annotated(moves, sfen, seed, sensing, pace, noise, scan_hz, rates).events


# --- the physical world -------------------------------------------------------------------


class _Contact:
    __slots__ = ("sq", "on", "off", "ch", "prio")

    def __init__(self, sq: int, on: float, ch: str, prio: int) -> None:
        self.sq = sq
        self.on = on
        self.off = _INF
        self.ch = ch
        self.prio = prio


class _Piece:
    __slots__ = ("pid", "color", "ptype", "sq", "x", "y", "open", "busy")

    def __init__(self, pid: int, color: int, ptype: int, sq: int | None) -> None:
        self.pid = pid
        self.color = color
        self.ptype = ptype
        self.sq = sq
        self.x = 0.0
        self.y = 0.0
        self.open: dict[int, _Contact] = {}
        self.busy = -1.0  # the piece is being handled (knocked) until then


def _centre(sq: int) -> tuple[float, float]:
    return float(sq % 9), float(sq // 9)


def _overlap(w: float, dx: float, dy: float) -> float:
    h = (w + 1.0) / 2.0
    ox = h - abs(dx)
    if ox <= 0.0:
        return 0.0
    oy = h - abs(dy)
    if oy <= 0.0:
        return 0.0
    return min(ox, w) * min(oy, w)


def _minjerk(tau: float) -> float:
    return tau * tau * tau * (10.0 - 15.0 * tau + 6.0 * tau * tau)


def _between(a: int, b: int) -> list[int] | None:
    """Squares strictly between a and b on a rank, file or diagonal; None if not aligned."""
    dr, dc = b // 9 - a // 9, b % 9 - a % 9
    if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)) or a == b:
        return None
    n = max(abs(dr), abs(dc))
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return [(a // 9 + i * sr) * 9 + a % 9 + i * sc for i in range(1, n)]


def _neighbours(sq: int) -> list[int]:
    r, c = divmod(sq, 9)
    return [
        (r + dr) * 9 + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < 9 and 0 <= c + dc < 9
    ]


class _Scene:
    """Hands, pieces and contacts; builds the game ply by ply on a time cursor."""

    def __init__(
        self,
        board: Board,
        sensing: str,
        rng: random.Random,
        pace: float,
        rates: dict[str, float],
        scan_hz: float | None,
    ) -> None:
        self.sensing = sensing
        self.rng = rng
        self.pace = pace
        self.rates = rates
        self.scan_hz = scan_hz
        self.contacts: list[_Contact] = []
        self.at: list[_Piece | None] = [None] * 81
        self.stands: list[list[_Piece]] = [[], []]
        self.inputs: list[tuple[float, str, int, bool]] = []  # t, value, ply, needed
        self.ghosts: list[tuple[float, float, int]] = []  # window lo, hi, ply
        self.ghost_notes: list[tuple[int, str]] = []
        self.counts: Counter[str] = Counter()
        self.notes: list[str] = []
        self.t = 0.0
        self.end = 0.0  # the last physical change of the current ply
        self.last_land = 0.0  # when the last piece was set down
        self.pieces: list[_Piece] = []
        for sq in range(81):
            p = board.piece_at(sq)
            if p is not None:
                pc = self._new_piece(p.color, p.piece_type, sq)
                self.at[sq] = pc
                pc.x, pc.y = _centre(sq)
                pc.open[sq] = self._contact(sq, 0.0, pc, 2)
        for color in (0, 1):
            for pt, n in board.pieces_in_hand[color].items():
                for _ in range(n):
                    self.stands[color].append(self._new_piece(color, pt, None))

    # --- small helpers ------------------------------------------------------------------

    def _new_piece(self, color: int, ptype: int, sq: int | None) -> _Piece:
        pc = _Piece(len(self.pieces), color, ptype, sq)
        self.pieces.append(pc)
        return pc

    def chance(self, kind: str) -> bool:
        return self.rng.random() < self.rates.get(kind, 0.0)

    def hit(self, kind: str, note: str | None = None) -> None:
        self.counts[kind] += 1
        if note is not None:
            self.notes.append(note)

    def dur(self, lo: float, hi: float, floor: float = 0.0) -> float:
        return max(floor, self.rng.uniform(lo, hi) * self.pace)

    def char(self, pc: _Piece) -> str:
        if self.sensing == "occupancy":
            return "x"
        if self.sensing == "polarity":
            return "p" if pc.ptype > KING else "u"
        return IDENTITY_CELLS[pc.ptype - 1]

    def _contact(self, sq: int, t: float, pc: _Piece, prio: int) -> _Contact:
        c = _Contact(sq, t, self.char(pc), prio)
        self.contacts.append(c)
        return c

    def mark_end(self, t: float) -> None:
        self.end = max(self.end, t)

    def covered(self, sq: int) -> bool:
        """Is a piece resting on, or pushed partly onto, ``sq`` now?"""
        if self.at[sq] is not None:
            return True
        return any((p := self.at[q]) is not None and sq in p.open for q in _neighbours(sq))

    # --- physical primitives ------------------------------------------------------------

    def lift(self, pc: _Piece, t: float) -> None:
        """The piece leaves the surface (its switches open); it is held."""
        for c in pc.open.values():
            c.off = t
        pc.open = {}
        if pc.sq is not None:
            if self.at[pc.sq] is not pc:
                raise GeneratorBug(f"lifting a piece from {square_name(pc.sq)} that is not there")
            self.at[pc.sq] = None
        pc.sq = None
        self.mark_end(t)

    def land(self, pc: _Piece, sq: int, t: float, jitter: float = 0.1) -> None:
        """A held piece is set down on ``sq``, a little off centre."""
        if self.at[sq] is not None:
            raise GeneratorBug(f"landing on occupied {square_name(sq)}")
        if pc.sq is not None:
            raise GeneratorBug("landing a piece that is not held")
        keep = pc.open.pop(sq, None)
        for c in pc.open.values():
            c.off = t
        pc.open = {}
        if keep is not None and keep.ch == self.char(pc):
            keep.prio = 2
            pc.open[sq] = keep
        else:
            if keep is not None:
                keep.off = t
            pc.open[sq] = self._contact(sq, t, pc, 2)
        self.at[sq] = pc
        pc.sq = sq
        self.last_land = t
        cx, cy = _centre(sq)
        pc.x = cx + self.rng.uniform(-jitter, jitter)
        pc.y = cy + self.rng.uniform(-jitter, jitter)
        self.mark_end(t)

    def sweep(
        self,
        pc: _Piece,
        pts: list[tuple[float, float]],
        t0: float,
        t1: float,
        hover: bool = False,
        dest: int | None = None,
    ) -> None:
        """Move the piece along ``pts`` from t0 to t1 (minimum jerk), on the surface or low.

        The piece's open contacts carry over (hysteresis); those still closed at the end
        stay open. ``dest``: the square the piece comes to rest on (its contact is its
        rest contact).
        """
        w, fc, fo = _HOVER if hover else _SURFACE
        segs = []
        total = 0.0
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            length = math.hypot(bx - ax, by - ay)
            segs.append((total, length, ax, ay, bx, by))
            total += length
        n = max(6, int(total / 0.02) + 1)
        h = (w + 1.0) / 2.0
        closed = pc.open
        seg_i = 0
        x, y = pts[0]
        for i in range(n + 1):
            tau = i / n
            t = t0 + (t1 - t0) * tau
            s = _minjerk(tau) * total
            while seg_i < len(segs) - 1 and s > segs[seg_i][0] + segs[seg_i][1]:
                seg_i += 1
            if segs:
                s0, length, ax, ay, bx, by = segs[seg_i]
                u = 0.0 if length == 0 else min(1.0, max(0.0, (s - s0) / length))
                x, y = ax + (bx - ax) * u, ay + (by - ay) * u
            fs: dict[int, float] = {}
            for c in range(max(0, math.ceil(x - h)), min(8, math.floor(x + h)) + 1):
                for r in range(max(0, math.ceil(y - h)), min(8, math.floor(y + h)) + 1):
                    f = _overlap(w, x - c, y - r)
                    if f > 0.0:
                        fs[r * 9 + c] = f
            for sq in [q for q in closed if fs.get(q, 0.0) < fo]:
                closed.pop(sq).off = t
            for sq, f in fs.items():
                if f >= fc and sq not in closed:
                    closed[sq] = self._contact(sq, t, pc, 2 if sq == dest else 1)
        pc.x, pc.y = x, y
        self.mark_end(t1)

    def gap(self, pc: _Piece, t: float, t2: float, flip_to: int | None = None) -> None:
        """The piece's switch opens at t and closes at t2 (tilted, touched, flipped)."""
        sq = pc.sq
        if sq is None or set(pc.open) != {sq}:
            raise GeneratorBug("gap on a piece that does not rest on its square")
        pc.open[sq].off = t
        if flip_to is not None:
            pc.ptype = flip_to
        pc.open[sq] = self._contact(sq, t2, pc, 2)
        self.mark_end(t2)

    def carry_time(self, dist: float) -> float:
        floor = 0.06 + 0.01 * dist
        return max(floor, self.pace * (self.rng.uniform(0.22, 0.45) + 0.05 * dist))

    def slide_time(self, dist: float) -> float:
        speed = self.rng.uniform(3.0, 10.0) / self.pace
        return max(0.06, dist / min(30.0, speed), dist / 30.0)

    def grip(self) -> float:
        return self.dur(0.08, 0.3, 0.04)

    # --- composite motions --------------------------------------------------------------

    def slide_path(self, pc: _Piece, to: int) -> list[tuple[float, float]]:
        fr = pc.sq
        assert fr is not None
        tx, ty = _centre(to)
        tx += self.rng.uniform(-0.08, 0.08)
        ty += self.rng.uniform(-0.08, 0.08)
        dr, dc = to // 9 - fr // 9, to % 9 - fr % 9
        pts = [(pc.x, pc.y)]
        if dr and dc:  # diagonal: the path crosses corners
            n = abs(dr)
            sr, sc = dr / n, dc / n
            px, py = sr / math.sqrt(2), -sc / math.sqrt(2)  # perpendicular
            offs = [self.rng.gauss(0.0, 0.05) for _ in range(n)]
            if self.chance("slide_brush"):
                k = self.rng.randrange(n)
                sign = self.rng.choice((-1.0, 1.0))
                offs[k] = sign * self.rng.uniform(0.27, 0.38)
                both = n > 1 and self.rng.random() < 0.5
                if both:
                    k2 = k + 1 if k + 1 < n else k - 1
                    offs[k2] = -sign * self.rng.uniform(0.27, 0.38)
                self.hit(
                    "slide_brush",
                    f"slide_brush: diagonal slide wobbles near {'two corners' if both else 'a corner'}",
                )
            fx, fy = _centre(fr)
            for i in range(n):
                cx = fx + (i + 0.5) * sc
                cy = fy + (i + 0.5) * sr
                pts.append((cx + px * offs[i], cy + py * offs[i]))
        else:
            ax, ay = pts[0]
            for f in (0.33, 0.66):
                pts.append(
                    (
                        ax + (tx - ax) * f + self.rng.gauss(0.0, 0.03),
                        ay + (ty - ay) * f + self.rng.gauss(0.0, 0.03),
                    )
                )
        pts.append((tx, ty))
        return pts

    def slide(self, pc: _Piece, to: int, t: float) -> float:
        """Slide a resting piece to the empty square ``to``; returns the arrival time."""
        fr = pc.sq
        assert fr is not None
        if self.at[to] is not None:
            raise GeneratorBug(f"slide onto occupied {square_name(to)}")
        dist = math.dist(_centre(fr), _centre(to))
        t1 = t + self.slide_time(dist)
        pts = self.slide_path(pc, to)
        self.at[fr] = None
        self.sweep(pc, pts, t, t1, dest=to)
        # the piece now rests on ``to``; any other square still covered is released.
        for sq in [q for q in pc.open if q != to]:
            pc.open.pop(sq).off = t1
        if to not in pc.open:  # never covered enough (cannot happen at the centre)
            pc.open[to] = self._contact(to, t1, pc, 2)
        pc.open[to].prio = 2
        self.at[to] = pc
        pc.sq = to
        self.last_land = t1
        return t1

    def hover_over(self, pc: _Piece, squares: list[int], t: float) -> float:
        """A held piece hovers low over ``squares`` in turn, then rises; returns the end time."""
        pts = []
        for sq in squares:
            cx, cy = _centre(sq)
            pts.append((cx + self.rng.gauss(0, 0.12), cy + self.rng.gauss(0, 0.12)))
            pts.append((cx + self.rng.gauss(0, 0.08), cy + self.rng.gauss(0, 0.08)))
        t1 = t + self.dur(0.25, 0.6, 0.08) * len(squares)
        self.sweep(pc, pts, t, t1, hover=True)
        for c in pc.open.values():
            c.off = t1
        pc.open = {}
        return t1

    def move_piece(
        self,
        pc: _Piece,
        to: int,
        t: float,
        *,
        allow_slide: bool = True,
        flip_to: int | None = None,
        hover: bool = False,
        lifted: bool = False,
        cands: list[int] | None = None,
    ) -> float:
        """Move a resting (or, if ``lifted``, held at its old square) piece to the empty
        square ``to``; returns the landing time."""
        fr = pc.sq if not lifted else None
        if fr is not None and allow_slide and flip_to is None and not hover:
            path = _between(fr, to)
            knight = pc.ptype == KNIGHT
            if path is not None and not knight and not any(self.covered(q) for q in path):
                long = len(path) >= 1
                if self.rng.random() < self.rates.get("slide", 0.0) * (1.8 if long else 1.0):
                    self.hit("slide_long" if long else "slide", None)
                    self.notes.append(f"slide {square_name(fr)}-{square_name(to)}")
                    return self.slide(pc, to, t)
        x0, y0 = pc.x, pc.y
        if fr is not None:
            self.lift(pc, t)
        dist = math.dist((x0, y0), _centre(to))
        t_land = t + self.carry_time(dist)
        if flip_to is not None:
            pc.ptype = flip_to  # flipped in the air
        if hover:
            near = sorted(q for q in (cands or []) if self.at[q] is None and q != to)
            self.rng.shuffle(near)
            seq = near[: self.rng.randint(0, min(3, len(near)))] + [to]
            self.hit("hover", f"hover over {' '.join(square_name(q) for q in seq)}")
            th = t_land - 0.05
            t_end = self.hover_over(pc, seq, th)
            t_land = t_end + self.dur(0.05, 0.25, 0.02)
        self.land(pc, to, t_land)
        return t_land

    def to_stand(self, pc: _Piece, color: int, t: float, low: bool) -> float:
        """A held (just lifted) piece is carried to ``color``'s stand; returns the time."""
        if low:
            sx, sy = _STAND_XY[color]
            x0, y0 = pc.x, pc.y
            pts = [(x0 + (sx - x0) * f, y0 + (sy - y0) * f) for f in (0.05, 0.25, 0.45)]
            t1 = t + self.dur(0.2, 0.45, 0.06)
            self.sweep(pc, pts, t + 0.03, t1, hover=True)
            for c in pc.open.values():
                c.off = t1
            pc.open = {}
            t = t1
        pc.ptype = unpromoted(pc.ptype)
        pc.color = color
        self.stands[color].append(pc)
        return t + self.dur(0.2, 0.5, 0.05)

    def from_stand(self, color: int, ptype: int) -> _Piece:
        for pc in self.stands[color]:
            if pc.ptype == ptype:
                self.stands[color].remove(pc)
                sx, sy = _STAND_XY[color]
                pc.x, pc.y = sx, sy
                return pc
        raise GeneratorBug(f"no {ptype} on the stand of {color}")

    # --- noise helpers ------------------------------------------------------------------

    def knock(self, near: list[int], t: float, until: float, reserved: set[int]) -> None:
        """Knock a piece next to ``near`` at t; it is back by about ``until``."""
        cands = sorted(
            {
                q
                for s in near
                for q in _neighbours(s)
                if q not in reserved
                and (pc := self.at[q]) is not None
                and pc.busy < t
                and set(pc.open) == {q}
            }
        )
        if not cands:
            return
        q = self.rng.choice(cands)
        pc = self.at[q]
        assert pc is not None
        empties = [e for e in _neighbours(q) if self.at[e] is None and e not in reserved]
        if empties and self.chance("knock_away"):
            e = self.rng.choice(empties)
            ex, ey = _centre(e)
            qx, qy = _centre(q)
            f = self.rng.uniform(0.55, 1.0)
            px, py = qx + (ex - qx) * f, qy + (ey - qy) * f
            t1 = t + self.rng.uniform(0.04, 0.12)
            self.sweep(pc, [(pc.x, pc.y), (px, py)], t, t1)
            back = max(until, t1 + 0.1) + self.dur(0.3, 2.0, 0.1)
            t2 = back + self.dur(0.15, 0.4, 0.06)
            self.sweep(pc, [(px, py), (qx + 0.03, qy - 0.02)], back, t2, dest=q)
            if q not in pc.open:
                pc.open[q] = self._contact(q, t2, pc, 2)
            for s in [s for s in pc.open if s != q]:
                pc.open.pop(s).off = t2
            pc.open[q].prio = 2
            reserved.add(e)
            self.hit(
                "knock_away",
                f"knock {square_name(q)} onto {square_name(e)}, pushed back {back - t:.2f}s later",
            )
            end = t2
        else:
            gap = self.dur(0.03, 0.4, 0.01)
            self.gap(pc, t, t + gap)
            self.hit("knock", f"knock {square_name(q)} {gap * 1000:.0f}ms")
            end = t + gap
        reserved.add(q)
        pc.busy = end + 0.05
        self.mark_end(end)

    def reserved_for(self, *squares: int | None) -> set[int]:
        res: set[int] = set()
        for s in squares:
            if s is not None:
                res.add(s)
        return res


# --- the game -------------------------------------------------------------------------------


def _expected_cells(board: Board, sensing: str) -> str:
    out = []
    for sq in range(81):
        p = board.piece_at(sq)
        if p is None:
            out.append(".")
        elif sensing == "occupancy":
            out.append("x")
        elif sensing == "polarity":
            out.append("p" if p.piece_type > KING else "u")
        else:
            out.append(IDENTITY_CELLS[p.piece_type - 1])
    return "".join(out)


def _question(board: Board, move: Move, legal: set[Move], sensing: str) -> str | None:
    """The input a board of this sensing needs for ``move``, if it must ask."""
    if sensing == "identity":
        return None
    if move.drop_piece_type is not None:
        kinds = [
            pt
            for pt in HAND_PIECE_TYPES
            if board.hand_count(board.turn, pt)
            and Move(None, move.to_square, drop_piece_type=pt) in legal
        ]
        return _DROP_LETTER[move.drop_piece_type] if len(kinds) >= 2 else None
    if sensing != "occupancy":
        return None
    alt = Move(move.from_square, move.to_square, not move.promotion)
    if alt in legal:
        return "promote" if move.promotion else "nonpromote"
    return None


class _Game:
    def __init__(self, scene: _Scene, board: Board) -> None:
        self.s = scene
        self.board = board
        self.rng = scene.rng
        self.prev_land: int | None = None

    # --- per ply ------------------------------------------------------------------------

    def play(self, move: Move, ply: int, start: float, overlapped: bool) -> tuple[float, float]:
        """Play one ply from ``start``; returns (last physical change, answer time or 0)."""
        s = self.s
        board = self.board
        legal = set(board.legal_moves)
        if move not in legal:
            raise ValueError(f"ply {ply + 1}: {move.usi()} is not legal in {board.sfen()}")
        s.t = start
        s.end = start
        self.ply_start = start
        question = _question(board, move, legal, s.sensing)
        reserved = s.reserved_for(move.from_square, move.to_square)
        path = _between(move.from_square, move.to_square) if move.from_square is not None else None
        if path:
            reserved.update(path)
            if (
                move.from_square is not None
                and move.to_square // 9 != move.from_square // 9
                and move.to_square % 9 != move.from_square % 9
            ):
                for q in path + [move.from_square]:
                    reserved.update(_neighbours(q))

        # blitz overlap: the previous mover is still straightening its piece
        if overlapped and self.prev_land is not None and self.prev_land not in reserved:
            pc = s.at[self.prev_land]
            if pc is not None and set(pc.open) == {self.prev_land} and s.chance("straighten"):
                t0 = start + s.rng.uniform(0.03, 0.3)
                g = s.rng.uniform(0.008, 0.04)
                s.gap(pc, t0, t0 + g)
                pc.busy = t0 + g + 0.05
                s.hit(
                    "straighten",
                    f"straighten {square_name(self.prev_land)} during reply (open {g * 1000:.0f}ms)",
                )
            reserved.add(self.prev_land)

        pressed = False
        if question is None and s.chance("unneeded_press"):
            value = s.rng.choice(["promote", "nonpromote", *"RBGSNLP"])
            tp = s.t + s.rng.uniform(0.0, 0.1)
            s.inputs.append((tp, value, ply, False))
            s.hit("unneeded_press", f"unneeded press {value!r} before the move")
            pressed = True
            s.t = tp + s.dur(0.1, 0.4, 0.05)

        # pre-move noise
        if s.chance("touch"):
            self.touch(reserved)
        if s.chance("reconsider"):
            self.reconsider(move, legal, reserved)
        if s.chance("illegal"):
            self.illegal(move, legal, reserved)
        ghost_lo = s.t

        land = self.perform(move, legal, reserved)
        answer = 0.0
        if question is not None:
            answer = self.answer(question, ply, land, move.to_square, reserved)
        if s.chance("takeback"):
            land = self.takeback(move, max(s.end, s.t, answer))
            if question is not None:
                answer = self.answer(question, ply, land, move.to_square, reserved)
        if not pressed and question is None and s.chance("unneeded_press"):
            tp = max(s.end, s.t) + s.dur(0.2, 1.0, 0.05)
            value = s.rng.choice(["promote", "nonpromote", *"RBGSNLP"])
            s.inputs.append((tp, value, ply, False))
            s.hit("unneeded_press", f"unneeded press {value!r} after the move")
            s.t = max(s.t, tp)
        if s.chance("ghost"):
            s.ghosts.append((ghost_lo, max(ghost_lo + 0.01, s.end), ply))
        self.prev_land = move.to_square
        return s.end, answer

    # --- the real move ----------------------------------------------------------------

    def perform(self, move: Move, legal: set[Move], reserved: set[int]) -> float:
        """Make the move on the board; returns the final landing time."""
        s = self.s
        c = self.board.turn
        to = move.to_square
        t = s.t + s.grip()
        correction = s.chance("correction")
        hover = s.chance("hover")
        self.hover_cands = [
            m.to_square
            for m in legal
            if m.from_square == move.from_square
            and m.drop_piece_type == move.drop_piece_type
            and max(abs(m.to_square // 9 - to // 9), abs(m.to_square % 9 - to % 9)) <= 2
        ]
        if move.drop_piece_type is not None:
            pc = s.from_stand(c, move.drop_piece_type)
            if correction:
                alts = [
                    m.to_square
                    for m in legal
                    if m.drop_piece_type == move.drop_piece_type
                    and m.to_square != to
                    and m.to_square not in reserved
                ]
                if alts:
                    b1 = s.rng.choice(sorted(alts))
                    t = s.move_piece(pc, b1, t, lifted=True)
                    reserved.add(b1)
                    s.hit("correction", f"correction: dropped on {square_name(b1)} first")
                    t += s.dur(0.3, 1.5, 0.1)
            t = self._place(pc, to, t, None, hover, reserved, lifted=pc.sq is None)
            s.t = t
            return t

        fr = move.from_square
        assert fr is not None
        mover = s.at[fr]
        if mover is None:
            raise GeneratorBug(f"no piece on {square_name(fr)}")
        pc = mover
        flip_to = pc.ptype + 8 if move.promotion else None
        if correction:
            alts = [
                m.to_square
                for m in legal
                if m.from_square == fr
                and s.at[m.to_square] is None
                and m.to_square != to
                and m.to_square not in reserved
            ]
            if alts:
                b1 = s.rng.choice(sorted(alts))
                t = s.move_piece(pc, b1, t)
                reserved.add(b1)
                what = "capture's attacker" if s.at[to] is not None else "piece"
                s.hit("correction", f"correction: {what} set on {square_name(b1)} first")
                t += s.dur(0.3, 1.5, 0.1)
        knock_phase = None
        if s.chance("knock"):
            knock_phase = s.rng.choice(("before", "carry", "landing"))
        if knock_phase == "before":
            s.knock([pc.sq or fr], t, t + 0.3, reserved)
            t += s.dur(0.2, 0.6, 0.1)
        target = s.at[to]
        if target is None:
            t_land = self._place(pc, to, t, flip_to, hover, reserved, knock_phase=knock_phase)
        else:
            t_land = self.capture(pc, target, to, t, flip_to, hover, reserved, knock_phase)
        s.t = t_land
        return t_land

    def _place(
        self,
        pc: _Piece,
        to: int,
        t: float,
        flip_to: int | None,
        hover: bool,
        reserved: set[int],
        *,
        lifted: bool = False,
        knock_phase: str | None = None,
    ) -> float:
        """The final placement on the empty ``to``, with the promotion's flip."""
        s = self.s
        on_square = flip_to is not None and s.chance("flip_on_square")
        t_land = s.move_piece(
            pc,
            to,
            t,
            flip_to=None if on_square else flip_to,
            hover=hover,
            lifted=lifted,
            allow_slide=not (flip_to is not None and not on_square),
            cands=self.hover_cands,
        )
        if knock_phase == "carry":
            s.knock([to], max(t + 0.02, t_land - 0.15), t_land + 0.2, reserved)
        elif knock_phase == "landing":
            s.knock([to], t_land + 0.01, t_land + 0.3, reserved)
        if flip_to is not None:
            if on_square:
                t_land = self.flip_on_square(pc, t_land)
            else:
                s.notes.append("promotion flipped in the air")
        return t_land

    def flip_on_square(self, pc: _Piece, t_land: float) -> float:
        s = self.s
        tf = t_land + s.dur(0.1, 0.6, 0.05)
        if s.sensing == "occupancy" or s.rng.random() < 0.6:
            g = s.dur(0.02, 0.2, 0.01) if s.sensing == "occupancy" else s.rng.uniform(0.008, 0.08)
            s.gap(pc, tf, tf + g, flip_to=pc.ptype + 8)
            s.hit("flip_on_square", f"promotion flipped on the square (open {g * 1000:.0f}ms)")
            return tf + g
        s.gap(pc, tf, tf, flip_to=pc.ptype + 8)
        s.hit("flip_on_square", "promotion flipped on the square (face changes directly)")
        return tf

    def capture(
        self,
        pc: _Piece,
        target: _Piece,
        to: int,
        t: float,
        flip_to: int | None,
        hover: bool,
        reserved: set[int],
        knock_phase: str | None,
    ) -> float:
        s = self.s
        c = pc.color
        styles = ["capture_target_first", "capture_attacker_first", "capture_swap", "capture_push"]
        weights = [max(0.0, s.rates.get(k, 0.0)) for k in styles]
        style = s.rng.choices(styles, weights)[0] if sum(weights) > 0 else styles[0]
        low = s.chance("carry_low")
        if low:
            s.hit("carry_low", "captured piece carried low over the board")
        fr = pc.sq
        assert fr is not None
        if style == "capture_target_first":
            s.lift(target, t)
            keep = s.rng.random() < 0.5  # keep it in the hand while moving the attacker
            if keep:
                t2 = t + s.dur(0.15, 0.5, 0.04)
            else:
                t2 = s.to_stand(target, c, t, low) + s.grip()
            s.hit(style, f"capture: target off first ({'held' if keep else 'to stand'})")
            t_land = self._place(pc, to, t2, flip_to, hover, reserved, knock_phase=knock_phase)
            if keep:
                s.to_stand(target, c, t_land + 0.05, low)
            return t_land
        if style == "capture_attacker_first":
            s.lift(pc, t)
            tt = t + s.dur(0.1, 0.5, 0.04)
            s.lift(target, tt)
            t_land = max(
                tt + s.dur(0.1, 0.5, 0.04),
                t + s.carry_time(math.dist(_centre(fr), _centre(to))),
            )
            s.hit(style, f"capture: attacker first, target empty {(t_land - tt) * 1000:.0f}ms")
            pc.sq = None
            self._land_flip(pc, to, t_land, flip_to, t, reserved, knock_phase)
            s.to_stand(target, c, t_land + 0.02, low)
            return self._after_land(pc, t_land, flip_to)
        if style == "capture_swap":
            s.lift(pc, t)
            t_over = t + s.carry_time(math.dist(_centre(fr), _centre(to)))
            s.lift(target, t_over)
            empty = s.rng.uniform(0.01, 0.06)
            t_land = t_over + empty
            s.hit(style, f"capture: fast swap, target empty {empty * 1000:.0f}ms")
            self._land_flip(pc, to, t_land, flip_to, t, reserved, knock_phase)
            s.to_stand(target, c, t_land + 0.05, low)
            return self._after_land(pc, t_land, flip_to)
        # push aside: the attacker arrives at the target's edge and shoves it off
        s.lift(pc, t)
        t_arr = t + s.carry_time(math.dist(_centre(fr), _centre(to)))
        g = s.rng.uniform(-0.012, 0.004)  # > 0: target gone before the attacker covers
        t_off = t_arr - g if g < 0 else t_arr
        t_on = t_arr if g < 0 else t_arr + g
        # the target is shoved off (perhaps partly onto an empty side square), then picked off
        if target.sq != to or set(target.open) != {to}:
            raise GeneratorBug("the capture target does not rest on its square")
        s.at[to] = None
        target.sq = None
        target.open.pop(to).off = t_off
        side = [q for q in _neighbours(to) if s.at[q] is None and q not in reserved and q != fr]
        pushed = ""
        t_gone = t_off
        if side and s.rng.random() < 0.5:
            e = s.rng.choice(side)
            t_gone = t_off + s.dur(0.05, 0.25, 0.02)
            s._contact(e, t_off - s.rng.uniform(0.0, 0.01), target, 1).off = t_gone
            reserved.add(e)
            pushed = f" onto {square_name(e)}"
        s.mark_end(t_gone)
        flip_note = (
            f", target square open {g * 1000:.1f}ms" if g > 0 else ", target square never opens"
        )
        s.hit(style, f"capture: attacker pushes the target aside{pushed}{flip_note}")
        self._land_flip(pc, to, t_on, flip_to, t, reserved, knock_phase)
        s.to_stand(target, c, t_gone + 0.05, low)
        return self._after_land(pc, t_on, flip_to)

    def _land_flip(
        self,
        pc: _Piece,
        to: int,
        t_land: float,
        flip_to: int | None,
        t_lift: float,
        reserved: set[int],
        knock_phase: str | None,
    ) -> None:
        s = self.s
        self._flip_later = flip_to is not None and s.chance("flip_on_square")
        if flip_to is not None and not self._flip_later:
            pc.ptype = flip_to
            s.notes.append("promotion flipped in the air")
        s.land(pc, to, t_land)
        if knock_phase == "carry":
            s.knock([to], max(t_lift + 0.02, t_land - 0.1), t_land + 0.2, reserved)
        elif knock_phase == "landing":
            s.knock([to], t_land + 0.01, t_land + 0.3, reserved)

    def _after_land(self, pc: _Piece, t_land: float, flip_to: int | None) -> float:
        if flip_to is not None and self._flip_later:
            return self.flip_on_square(pc, t_land)
        return t_land

    # --- answers ----------------------------------------------------------------------

    def answer(self, value: str, ply: int, land: float, to_sq: int, reserved: set[int]) -> float:
        s = self.s
        settle = max(s.end, land)
        land = s.last_land
        if s.chance("answer_early"):
            if s.rng.random() < 0.6:
                ta = land - s.rng.uniform(0.0, 0.15)
                how = "just before landing"
            else:
                ta = land + s.rng.uniform(0.0, 0.02)
                how = "right at landing"
            s.hit("answer_early", f"answer {value!r} {how}")
        elif s.chance("answer_nudge"):
            tk = settle + s.dur(0.1, 0.5, 0.05)
            before = s.end
            s.knock([to_sq], tk, tk, reserved)
            ta = max(s.end, tk) + s.dur(0.2, 1.0, 0.1)
            nudged = "" if s.end > before else " (nothing to nudge)"
            s.hit("answer_nudge", f"answer {value!r} after a neighbour nudge{nudged}")
        else:
            ta = settle + s.rng.uniform(0.3, 2.0) * math.sqrt(self.s.pace)
            s.notes.append(f"answer {value!r} {ta - settle:.2f}s after settling")
        ta = max(ta, self.ply_start + 0.001)
        s.inputs.append((ta, value, ply, True))
        s.t = max(s.t, ta)
        return ta

    # --- pre-move noise ---------------------------------------------------------------

    def own_resting(self, reserved: set[int]) -> list[_Piece]:
        s = self.s
        c = self.board.turn
        return [
            pc
            for pc in s.at
            if pc is not None
            and pc.color == c
            and pc.sq not in reserved
            and pc.busy < s.t
            and set(pc.open) == {pc.sq}
        ]

    def touch(self, reserved: set[int]) -> None:
        s = self.s
        cands = self.own_resting(reserved - {self._mover_sq})
        if not cands:
            return
        pc = s.rng.choice(cands)
        t = s.t + s.grip()
        g = s.dur(0.05, 0.35, 0.02)
        s.gap(pc, t, t + g)
        s.hit("touch", f"touch {square_name(pc.sq or 0)} ({g * 1000:.0f}ms)")
        s.t = t + g + s.dur(0.2, 1.0, 0.05)

    def reconsider(self, move: Move, legal: set[Move], reserved: set[int]) -> None:
        s = self.s
        cands = [pc for pc in self.own_resting(reserved) if pc.sq != move.from_square]
        if not cands:
            return
        pc = s.rng.choice(cands)
        sq = pc.sq
        assert sq is not None
        t = s.t + s.grip()
        s.lift(pc, t)
        hold = s.dur(0.5, 3.0, 0.2)
        targets = [m.to_square for m in legal if m.from_square == sq and s.at[m.to_square] is None]
        note = f"reconsider: {square_name(sq)} lifted {hold:.1f}s, put back"
        t_put = t + hold
        if targets and s.chance("hover"):
            q = s.rng.choice(sorted(targets))
            th = t + hold * 0.3
            t_put = max(t_put, s.hover_over(pc, [q], th) + 0.1)
            s.hit("hover", f"hover over {square_name(q)} while reconsidering")
        pc.x, pc.y = _centre(sq)
        s.land(pc, sq, t_put, jitter=0.06)
        s.hit("reconsider", note)
        s.t = t_put + s.dur(0.3, 1.5, 0.1)

    def illegal(self, move: Move, legal: set[Move], reserved: set[int]) -> None:
        s = self.s
        board = self.board
        c = board.turn
        empty = [q for q in range(81) if s.at[q] is None and q not in reserved]
        options: list[tuple[str, Move]] = []
        kind = s.rng.choice(("shape", "check", "nifu", "opponent"))
        pieces = [
            q
            for q in range(81)
            if (p := s.at[q]) is not None
            and q not in reserved
            and set(p.open) == {q}
            and p.busy < s.t
        ]
        s.rng.shuffle(pieces)
        if kind == "nifu" and board.hand_count(c, PAWN):
            for q in empty:
                m = Move(None, q, drop_piece_type=PAWN)
                if board.illegal_reason(m) == IllegalReason.NIFU:
                    options.append(("nifu", m))
        elif kind == "check":
            for q in pieces:
                pc = s.at[q]
                assert pc is not None
                if pc.color != c:
                    continue
                for e in empty:
                    m = Move(q, e)
                    if (
                        m not in legal
                        and Move(q, e, True) not in legal
                        and board.illegal_reason(m) == IllegalReason.KING_IN_CHECK
                    ):
                        options.append(("into check", m))
                if options:
                    break
        elif kind == "opponent":
            for q in pieces:
                pc = s.at[q]
                assert pc is not None
                if pc.color == c:
                    continue
                for e in _neighbours(q):
                    if e in empty:
                        options.append(("opponent's piece", Move(q, e)))
                if options:
                    break
        if not options:  # a move the piece cannot make
            for q in pieces[:6]:
                pc = s.at[q]
                assert pc is not None
                if pc.color != c:
                    continue
                for e in _neighbours(q) + [q - 18, q + 18]:
                    if 0 <= e < 81 and e in empty and abs(e % 9 - q % 9) <= 1:
                        m = Move(q, e)
                        if (
                            board.illegal_reason(m)
                            in (
                                IllegalReason.NOT_A_MOVE_OF_THAT_PIECE,
                                IllegalReason.PATH_BLOCKED,
                            )
                            and Move(q, e, True) not in legal
                        ):
                            options.append(("not a move of that piece", m))
        if not options:
            return
        what, m = s.rng.choice(options)
        at_note = len(s.notes)
        show = s.rng.uniform(0.5, 3.0)
        t = s.t + s.grip()
        if m.drop_piece_type is not None:
            pc = s.from_stand(c, PAWN)
            t_land = s.move_piece(pc, m.to_square, t, lifted=True)
            t_up = t_land + show
            s.lift(pc, t_up)
            t_back = s.to_stand(pc, c, t_up, False)
        else:
            fr = m.from_square
            assert fr is not None
            pc = s.at[fr]
            assert pc is not None
            t_land = s.move_piece(pc, m.to_square, t)
            t_up = t_land + show
            t_back = s.move_piece(pc, fr, t_up)
        reserved.add(m.to_square)
        s.hit("illegal")
        s.notes.insert(at_note, f"illegal {m.usi()} ({what}) shown {show:.1f}s, then put right")
        s.t = t_back + s.dur(0.3, 1.2, 0.1)

    _mover_sq: int = -1
    hover_cands: list[int] | None = None
    ply_start: float = 0.0
    _flip_later: bool = False

    # --- takeback ---------------------------------------------------------------------

    def takeback(self, move: Move, t: float) -> float:
        s = self.s
        c = self.board.turn
        to = move.to_square
        pc = s.at[to]
        assert pc is not None
        t = max(t, s.end) + s.dur(0.5, 2.0, 0.2)
        captured: _Piece | None = None
        cap_type = self.board.piece_at(to)
        if move.from_square is not None and self.board.piece_at(to) is not None:
            captured = s.stands[c][-1]
        # undo
        if move.drop_piece_type is not None:
            s.lift(pc, t)
            t_back = s.to_stand(pc, c, t, False)
        else:
            fr = move.from_square
            assert fr is not None
            if move.promotion:
                s.lift(pc, t)
                pc.ptype -= 8
                t_back = t + s.carry_time(math.dist(_centre(to), _centre(fr)))
                s.land(pc, fr, t_back)
            else:
                t_back = s.move_piece(pc, fr, t)
        if captured is not None:
            assert cap_type is not None
            s.stands[c].remove(captured)
            captured.color = cap_type.color
            captured.ptype = cap_type.piece_type
            sx, sy = _STAND_XY[c]
            captured.x, captured.y = sx, sy
            tc = t_back + s.grip()
            t_back = tc + s.carry_time(math.dist((sx, sy), _centre(to)))
            s.land(captured, to, t_back)
        s.hit("takeback", f"takeback: {move.usi()} undone, replayed")
        s.mark_end(t_back)
        # redo the same move, simply
        t = t_back + s.dur(0.8, 3.0, 0.3)
        if move.drop_piece_type is not None:
            p2 = s.from_stand(c, move.drop_piece_type)
            t_land = s.move_piece(p2, to, t, lifted=True)
        else:
            fr = move.from_square
            assert fr is not None
            mover = s.at[fr]
            assert mover is not None
            if captured is not None:
                s.lift(captured, t)
                t = s.to_stand(captured, c, t, False)
            t_land = s.move_piece(mover, to, t, flip_to=mover.ptype + 8 if move.promotion else None)
        s.t = t_land
        return t_land


def _signal(contacts: list[_Contact], sq0: str) -> list[list[tuple[float, str]]]:
    """Per square, the reading as transitions [(t, cell)], starting at t=0."""
    per: list[list[_Contact]] = [[] for _ in range(81)]
    for c in contacts:
        if c.off > c.on:
            per[c.sq].append(c)
    out: list[list[tuple[float, str]]] = []
    for sq in range(81):
        evs: list[tuple[float, int, _Contact]] = []
        for c in per[sq]:
            evs.append((round(c.on, 6), 1, c))
            if c.off != _INF:
                evs.append((round(c.off, 6), 0, c))
        evs.sort(key=lambda e: (e[0], e[1]))
        active: list[_Contact] = []
        trans: list[tuple[float, str]] = [(0.0, ".")]
        i = 0
        while i < len(evs):
            t = evs[i][0]
            while i < len(evs) and evs[i][0] == t:
                _, kind, c = evs[i]
                if kind:
                    active.append(c)
                else:
                    active.remove(c)
                i += 1
            ch = max(active, key=lambda a: (a.prio, a.on)).ch if active else "."
            if ch != trans[-1][1]:
                if trans[-1][0] == t:
                    trans.pop()
                    if trans and trans[-1][1] == ch:
                        continue
                trans.append((t, ch))
        if trans[0][1] != sq0[sq]:
            raise GeneratorBug(f"square {square_name(sq)} starts {trans[0][1]!r}, not {sq0[sq]!r}")
        out.append(trans)
    return out


def _effects(
    sig: list[list[tuple[float, str]]],
    rng: random.Random,
    rates: dict[str, float],
    counts: Counter[str],
    starts: list[float],
    notes: list[list[str]],
) -> list[list[tuple[float, str]]]:
    """Switch bounce and slow release on each edge (never across another edge)."""
    pb = rates.get("bounce", 0.0)
    ps = rates.get("sticky", 0.0)
    out = []
    for sq, trans in enumerate(sig):
        new: list[tuple[float, str]] = [trans[0]]
        for i in range(1, len(trans)):
            t, ch = trans[i]
            prev = trans[i - 1][1]
            nxt = trans[i + 1][0] if i + 1 < len(trans) else _INF
            room = nxt - t
            if prev != "." and ch == "." and room > 0.13 and rng.random() < ps:
                d = rng.uniform(0.02, 0.1)
                ply = bisect.bisect_right(starts, t) - 1
                if ply >= 0:
                    notes[ply].append(f"sticky: {square_name(sq)} released {d * 1000:.0f}ms late")
                t = t + d
                counts["sticky"] += 1
                room -= d
            if (prev == ".") != (ch == ".") and room > 0.012 and rng.random() < pb:
                # chatter: the new state, then the old one briefly, then the new one
                a = rng.uniform(0.0003, 0.002)
                b = rng.uniform(0.0003, 0.002)
                if t + a + b < nxt - 0.005 and round(t + a, 6) > new[-1][0]:
                    new.append((round(t, 6), ch))
                    new.append((round(t + a, 6), prev))
                    new.append((round(t + a + b, 6), ch))
                    counts["bounce"] += 1
                    continue
            new.append((round(t, 6), ch))
        out.append(new)
    return out


def generate_annotated(
    moves: list[str],
    sfen: str,
    seed: int,
    sensing: str = "occupancy",
    pace: float = 1.0,
    noise: float = 1.0,
    scan_hz: float | None = None,
    rates: dict[str, float] | None = None,
) -> Generated:
    """A sensor log of the game ``moves`` from ``sfen`` played by human hands."""
    if sensing not in ("occupancy", "polarity", "identity"):
        raise ValueError(f"unknown sensing {sensing!r}")
    if pace <= 0 or noise < 0:
        raise ValueError("pace must be > 0 and noise >= 0")
    eff = {k: (v * noise if k in NOISE_KINDS else v) for k, v in DEFAULT_RATES.items()}
    if rates:
        for k, v in rates.items():
            if k not in DEFAULT_RATES:
                raise ValueError(f"unknown noise kind {k!r}")
            eff[k] = v
    eff = {k: min(1.0, max(0.0, v)) for k, v in eff.items()}
    rng = random.Random(seed)
    board = Board(sfen)
    truth = Board(sfen)
    scene = _Scene(board, sensing, rng, pace, eff, scan_hz)
    game = _Game(scene, board)
    period = 1.0 / scan_hz if scan_hz else 0.0
    expected = [_expected_cells(board, sensing)]
    starts: list[float] = []
    ends: list[float] = []
    answers: list[tuple[str | None, float]] = []
    notes: list[list[str]] = []
    t = rng.uniform(0.5, 2.0) * pace + 0.2
    last_end = 0.0
    overlapped = False
    for ply, usi in enumerate(moves):
        move = Move.from_usi(usi)
        legal = set(board.legal_moves)
        question = _question(board, move, legal, sensing)
        t = max(t, last_end + _TAIL + 2 * period + 0.005)
        starts.append(t)
        scene.notes = []
        if overlapped:
            scene.notes.append(
                f"blitz overlap: reply began {t - last_end:.2f}s after the last change"
            )
        game._mover_sq = move.from_square if move.from_square is not None else -1
        end, answer = game.play(move, ply, t, overlapped)
        answers.append((question, answer))
        board.push(move)
        try:
            truth.push_usi(usi)
        except ValueError as exc:
            raise ValueError(f"ply {ply + 1}: {exc}") from None
        _check_world(scene, board, ply)
        expected.append(_expected_cells(board, sensing))
        notes.append(scene.notes)
        ends.append(end)
        last_end = end
        done = max(end, answer, scene.t)  # the ply's hands and buttons are done
        overlapped = pace < 0.75 and scene.chance("overlap")
        if overlapped:
            scene.hit("overlap")
            t = done + rng.uniform(0.15, 0.4)
        else:
            think = min(25.0, rng.lognormvariate(math.log(2.0), 0.7))
            t = done + max(0.15, think * pace)
    if board.sfen() != truth.sfen():
        raise GeneratorBug("the board model and the rules core disagree")
    sig = _signal(scene.contacts, expected[0])
    sig = _effects(sig, rng, eff, scene.counts, starts, notes)
    starts.append(_INF)
    sig = _ghosts(sig, scene, starts, period, rng)
    for ply, note in scene.ghost_notes:
        notes[ply].append(note)
    frames = _frames(sig, scan_hz)
    marks = _marks(frames, starts, answers)
    _check_log(frames, scene, expected, starts, marks, answers, moves)
    events: list[SensorEvent] = [SensorFrame(ft, cells) for ft, cells in frames]
    events += [PlayerInput(round(ti, 6), v) for ti, v, _p, _n in scene.inputs]
    events.sort(key=lambda e: (e.t, isinstance(e, PlayerInput)))
    return Generated(events, notes, marks, dict(scene.counts))


def _ghosts(
    sig: list[list[tuple[float, str]]],
    scene: _Scene,
    starts: list[float],
    period: float,
    rng: random.Random,
) -> list[list[tuple[float, str]]]:
    for lo, hi, ply in scene.ghosts:
        for _ in range(10):
            sq = rng.randrange(81)
            t = rng.uniform(lo, hi)
            if period:
                k = math.floor(t / period) + 1
                ts = k * period + (sq // 9) * period / 9
                a, b = ts - 0.0002, ts + 0.0002
            else:
                a = t
                b = t + rng.uniform(0.001, 0.006)
            a, b = round(a, 6), round(b, 6)
            if b >= starts[ply + 1] - 0.01 or a <= starts[ply]:
                continue
            trans = sig[sq]
            # the square must be empty from a - 20 ms to b + 20 ms
            before = [x for x in trans if x[0] <= a - 0.02]
            if before[-1][1] != "." or any(a - 0.02 < x[0] <= b + 0.02 for x in trans):
                continue
            ch = (
                "x"
                if scene.sensing == "occupancy"
                else ("u" if scene.sensing == "polarity" else "?")
            )
            trans.extend([(a, ch), (b, ".")])
            trans.sort(key=lambda x: x[0])
            scene.counts["ghost"] += 1
            scene.ghost_notes.append(
                (ply, f"ghost: {square_name(sq)} closed {(b - a) * 1000:.1f}ms")
            )
            break
    return sig


def _frames(sig: list[list[tuple[float, str]]], scan_hz: float | None) -> list[tuple[float, str]]:
    cells = [trans[0][1] for trans in sig]
    frames = [(0.0, "".join(cells))]
    changes: dict[float, list[tuple[int, str]]] = {}
    if scan_hz is None:
        for sq, trans in enumerate(sig):
            for t, ch in trans[1:]:
                changes.setdefault(t, []).append((sq, ch))
    else:
        period = 1.0 / scan_hz
        for sq, trans in enumerate(sig):
            off = (sq // 9) * period / 9
            per_k: dict[int, str] = {}
            for t, ch in trans[1:]:
                k = max(0, math.ceil((t - off) / period - 1e-9))
                per_k[k] = ch
            for k, ch in per_k.items():
                changes.setdefault(round((k + 1) * period, 6), []).append((sq, ch))
    for t in sorted(changes):
        for sq, ch in changes[t]:
            cells[sq] = ch
        row = "".join(cells)
        if row != frames[-1][1]:
            frames.append((t, row))
    return frames


def _marks(
    frames: list[tuple[float, str]], starts: list[float], answers: list[tuple[str | None, float]]
) -> list[float]:
    marks = []
    i = 0
    for ply in range(len(starts) - 1):
        last = starts[ply]
        while i < len(frames) and frames[i][0] < starts[ply + 1]:
            last = max(last, frames[i][0])
            i += 1
        q, ta = answers[ply]
        marks.append(round(max(last, ta if q else 0.0), 6))
    return marks


def _check_world(scene: _Scene, board: Board, ply: int) -> None:
    """The physical world after a ply equals the rules core's position."""
    where = f"after ply {ply + 1}"
    for sq in range(81):
        pc = scene.at[sq]
        p = board.piece_at(sq)
        if (pc is None) != (p is None):
            raise GeneratorBug(
                f"{where}: {square_name(sq)} is {'empty' if pc is None else 'occupied'} in the model"
            )
        if pc is None or p is None:
            continue
        if pc.ptype != p.piece_type or pc.color != p.color or pc.sq != sq:
            raise GeneratorBug(f"{where}: {square_name(sq)} holds the wrong piece")
        if set(pc.open) != {sq} or pc.open[sq].off != _INF:
            raise GeneratorBug(f"{where}: the piece on {square_name(sq)} does not rest on it")
        cx, cy = _centre(sq)
        if abs(pc.x - cx) > 0.2 or abs(pc.y - cy) > 0.2:
            raise GeneratorBug(f"{where}: the piece on {square_name(sq)} is off centre")
    for color in (0, 1):
        have = Counter(pc.ptype for pc in scene.stands[color])
        if any(pc.color != color or pc.sq is not None for pc in scene.stands[color]):
            raise GeneratorBug(f"{where}: a stand holds a piece that is not its own")
        if have != Counter(board.pieces_in_hand[color]):
            raise GeneratorBug(
                f"{where}: stand {color} {dict(have)} != hand {board.pieces_in_hand[color]}"
            )
    placed = sum(1 for q in scene.at if q is not None) + len(scene.stands[0]) + len(scene.stands[1])
    if placed != len(scene.pieces):
        raise GeneratorBug(f"{where}: a piece is still held")
    for c in scene.contacts[-64:]:
        holder = scene.at[c.sq]
        if c.off == _INF and (holder is None or holder.open.get(c.sq) is not c):
            raise GeneratorBug(f"{where}: {square_name(c.sq)} is held closed by nothing")


def _check_log(
    frames: list[tuple[float, str]],
    scene: _Scene,
    expected: list[str],
    starts: list[float],
    marks: list[float],
    answers: list[tuple[str | None, float]],
    moves: list[str],
) -> None:
    """The emitted frames show the true position at every mark and at the end."""
    if frames[0] != (0.0, expected[0]):
        raise GeneratorBug("the first frame is not the start position at t=0")
    if any(b[0] <= a[0] for a, b in zip(frames, frames[1:])):
        raise GeneratorBug("frame times do not increase")
    if frames[-1][1] != expected[-1]:
        raise GeneratorBug("the last frame is not the final position")
    if any(c.off == _INF for c in scene.contacts) and sum(
        c.off == _INF for c in scene.contacts
    ) != sum(1 for q in scene.at if q is not None):
        raise GeneratorBug("open contacts do not match the pieces on the board")
    times = [f[0] for f in frames]
    for ply in range(len(marks)):
        i = bisect.bisect_right(times, marks[ply]) - 1
        if frames[i][1] != expected[ply + 1]:
            raise GeneratorBug(
                f"ply {ply + 1} ({moves[ply]}): the board at its mark is not the position"
            )
        j = bisect.bisect_left(times, starts[ply + 1]) - 1
        if j != i and frames[j][1] != expected[ply + 1]:
            raise GeneratorBug(
                f"ply {ply + 1}: the board changes between its mark and the next ply"
            )
        if marks[ply] >= starts[ply + 1]:
            raise GeneratorBug(f"ply {ply + 1}: its mark is after the next ply began")
        q, _ = answers[ply]
        if q is not None and not any(
            p == ply and v == q and need for _t, v, p, need in scene.inputs
        ):
            raise GeneratorBug(f"ply {ply + 1}: the answer {q!r} was not given")
