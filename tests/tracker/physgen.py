"""The seventh sensor-log generator: the physics of pieces, hands and sensors, solved exactly.

Written blind to the tracker (only its event types and log writer were read), to find logs
where the tracker reads a wrong move. A game (USI moves from an SFEN) becomes a sensor log by
simulating, in continuous space and time:

- pieces: objects with a position (``x`` = 9 - file, ``y`` = rank index, in square units,
  square centres at integers), a height ``z`` above the board (a piece is 0.25 thick), a face
  and a kind; pieces in hand lie on their owner's komadai, beside the board;
- hands: each player's hand moves pieces along straight segments, vertical (lift, set down,
  a flip's hop) or horizontal at one height (a carry, high above every sensor or low enough
  to close the switches it passes over, or a slide on the board), with a smooth velocity
  profile and Fitts-like durations drawn per player; set-downs have a Gaussian placement
  error, and a piece the sensors cannot see is straightened within 0.1-0.6 s;
- sensors, under each square centre: a switch that closes when a piece comes within ``r_on``
  and below ``z_on`` and opens when no piece is within ``r_off`` and below ``z_off``
  (hysteresis), bouncing a few ms on each transition; a polarity board's hall sensor shows
  the face of the piece resident longest; an identity board's reader shows a tag's letter
  once it has dwelt 20-60 ms in range (a piece slid fast over a square is never read) and
  loses it a few ms after it leaves.

The sensor timelines are solved from the segments (line/circle intersections, inverse
easing), never sampled. Frames are then written at each change, or per matrix scan
(``scan_hz``: rank a first, each rank a ninth of a period after the last) when the scan
differs from the last. Noise comes from the physics, never from scripted event patterns:
brushed and knocked pieces, low carries and slides over empty squares, hovers, touches,
corrections, illegal moves taken back, long holds, fast captures, flips on the square.

Fairness (every log one a human would call unambiguous, at each ply, not only in hindsight):
a meaningful empty stretch (a capture's target, a flip's hop) lasts at least 20 ms and 1.8
scan periods (bounce takes at most a third of it); a piece knocked before the landing is put
back before it, one knocked as the piece lands within 0.6 s; nothing is knocked while the
board shows the mover's move finished (a correction's square at rest); an opponent piece the moving
piece could capture is never knocked off its square (in a capture ply no opponent piece is),
nor, at the landing, a piece that could have moved to the landing square or could capture
there, nor the piece the opponent has just moved; the attacker of an attacker-first capture
comes in high; a held piece lands at most 3 s after its lift; the next ply starts no sooner
than 0.3 s (times ``pace``) after this one has settled.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from board_bridge.shogi import BLACK, HAND_PIECE_TYPES, KING, SQUARE_NAMES, Board, Move
from board_bridge.shogi.core import PIECE_SYMBOLS
from board_bridge.tracker.events import (
    EMPTY,
    IDENTITY_CELLS,
    OCCUPIED,
    PROMOTED,
    UNPROMOTED,
    PlayerInput,
    SensorEvent,
    SensorFrame,
)

INF = math.inf
EPS = 1e-9
SENSINGS = ("occupancy", "polarity", "identity")

#: One rate per noise kind: a probability per opportunity, times ``noise`` (and, for the
#: clumsy kinds, the player's clumsiness); ``rates`` overrides them by name.
DEFAULT_RATES: dict[str, float] = {
    "bounce": 0.5,  # per switch transition (occupancy, polarity): 2 or 4 toggles in 2-15 ms
    "offcentre": 0.05,  # per set-down: placed beyond r_on, unseen until straightened
    "brush": 0.05,  # per ply: the sleeve displaces a piece near the arm, put back
    "knock": 0.05,  # per ply: fingers displace a neighbour of the lift/landing square
    "hover": 0.04,  # per ply: the carried piece held low over an empty square
    "lowcarry": 0.12,  # per carry: carried just above the pieces, closing empty squares
    "slide": 0.15,  # per straight short move: slid along the board instead of lifted
    "touch": 0.04,  # per ply: an own piece lifted and put back before the move
    "correction": 0.03,  # per ply: set down on another legal square, then moved on
    "illegal": 0.02,  # per ply: an illegal move made, red lights seen, taken back
    "hold": 0.04,  # per ply: the lifted piece held over the board 1-3 s
    "fastcap": 0.3,  # per attacker-first capture: target snatched as the attacker lands
    "flipafter": 0.3,  # per promotion: set down, then turned over on the square
    "quickinput": 0.2,  # per input: answered within 0.08-0.2 s
}
CLUMSY_KINDS = frozenset({"offcentre", "brush", "knock", "touch"})

Z_HIGH = 0.6  # at or above this height no sensor sees a piece
LOW_Z = (0.27, 0.33)  # a low carry: clears the pieces (0.25 thick), under every z_on
DIRS8 = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))

# A segment: (t0, t1, x0, y0, z0, x1, y1, z1), vertical (x, y fixed) or horizontal (z fixed).
Seg = tuple[float, float, float, float, float, float, float, float]


class GeneratorBug(AssertionError):
    """The generated log breaks the sensor-log contract: a bug in this generator."""


@dataclass
class Generated:
    events: list[SensorEvent]  # SensorFrame(t, cells) and PlayerInput(t, value), time order
    notes: list[list[str]]  # per ply, what the hands did, with times
    marks: list[float]  # per ply, a time when the ply is complete and the board at rest
    counts: dict[str, int]  # how many of each noise kind were used


def _ease(u: float) -> float:
    return u * u * (3.0 - 2.0 * u)


def _uneased(s: float) -> float:
    """The inverse of :func:`_ease` on [0, 1]."""
    if s <= 0.0:
        return 0.0
    if s >= 1.0:
        return 1.0
    return 0.5 - math.sin(math.asin(1.0 - 2.0 * s) / 3.0)


def _region(seg: Seg, cx: float, cy: float, r: float, zt: float) -> tuple[float, float] | None:
    """When, during ``seg``, the piece is within ``r`` of (cx, cy) and below ``zt``."""
    t0, t1, x0, y0, z0, x1, y1, z1 = seg
    if x0 == x1 and y0 == y1:
        if (x0 - cx) ** 2 + (y0 - cy) ** 2 >= r * r:
            return None
        if z0 == z1:
            return (t0, t1) if z0 < zt else None
        if z1 > z0:
            if zt <= z0:
                return None
            if zt >= z1:
                return (t0, t1)
            return (t0, t0 + (t1 - t0) * _uneased((zt - z0) / (z1 - z0)))
        if zt <= z1:
            return None
        if zt >= z0:
            return (t0, t1)
        return (t0 + (t1 - t0) * _uneased((z0 - zt) / (z0 - z1)), t1)
    if z0 >= zt:
        return None
    dx, dy = x1 - x0, y1 - y0
    px, py = x0 - cx, y0 - cy
    a = dx * dx + dy * dy
    b = 2.0 * (dx * px + dy * py)
    c = px * px + py * py - r * r
    disc = b * b - 4.0 * a * c
    if disc <= 0.0:
        return None
    root = math.sqrt(disc)
    s1 = (-b - root) / (2.0 * a)
    s2 = (-b + root) / (2.0 * a)
    if s2 <= 0.0 or s1 >= 1.0:
        return None
    ta = t0 if s1 <= 0.0 else t0 + (t1 - t0) * _uneased(s1)
    tb = t1 if s2 >= 1.0 else t0 + (t1 - t0) * _uneased(s2)
    return (ta, tb) if tb > ta else None


def _merge(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1] + EPS:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _xy(sq: int) -> tuple[float, float]:
    return float(sq % 9), float(sq // 9)


def _sq_at(x: float, y: float) -> int | None:
    c, r = round(x), round(y)
    return r * 9 + c if 0 <= c <= 8 and 0 <= r <= 8 else None


def _kdist(a: int, b: int) -> int:
    return max(abs(a // 9 - b // 9), abs(a % 9 - b % 9))


def _letter(kind: int, promoted: bool) -> str:
    return IDENTITY_CELLS[kind + (8 if promoted else 0) - 1]


def position_cells(board: Board, sensing: str) -> str:
    """What a board of kind ``sensing`` shows for ``board``'s position, at rest."""
    out = []
    for sq in range(81):
        p = board.piece_at(sq)
        if p is None:
            out.append(EMPTY)
        elif sensing == "occupancy":
            out.append(OCCUPIED)
        elif sensing == "polarity":
            out.append(PROMOTED if p.piece_type > KING else UNPROMOTED)
        else:
            out.append(IDENTITY_CELLS[p.piece_type - 1])
    return "".join(out)


def expected_inputs(board: Board, move: Move, sensing: str) -> list[str]:
    """The inputs a board of kind ``sensing`` asks for ``move`` (docs/sensor-log.md)."""
    if sensing == "identity":
        return []
    if move.drop_piece_type is None:
        if sensing != "occupancy":
            return []
        fr, to = move.from_square, move.to_square
        both = board.is_legal(Move(fr, to, True)) and board.is_legal(Move(fr, to, False))
        return (["promote"] if move.promotion else ["nonpromote"]) if both else []
    hand = board.pieces_in_hand[board.turn]
    kinds = [
        pt
        for pt in HAND_PIECE_TYPES
        if hand.get(pt) and board.is_legal(Move(None, move.to_square, drop_piece_type=pt))
    ]
    return [PIECE_SYMBOLS[move.drop_piece_type].upper()] if len(kinds) > 1 else []


@dataclass
class _Plan:
    """The noise chosen for one ply, up front, so the squares it uses are known."""

    illegal: int | None = None  # the square of an illegal move made and taken back
    corr: int | None = None  # the square of a correction
    hold: bool = False
    hover: int | None = None
    brush: bool = False
    knock: bool = False
    knock_at_lift: bool = False
    promote_after: bool = False


class _Piece:
    __slots__ = ("pid", "owner", "kind", "promoted", "x", "y", "z", "t", "segs", "flips", "start")

    def __init__(self, pid: int, owner: int, kind: int, promoted: bool, x: float, y: float):
        self.pid = pid
        self.owner = owner
        self.kind = kind  # the unpromoted piece type
        self.promoted = promoted
        self.x, self.y, self.z = x, y, 0.0
        self.t = 0.0  # the end of its last segment
        self.segs: list[Seg] = []
        self.flips: list[tuple[float, bool]] = [(-INF, promoted)]
        self.start = (x, y, 0.0)

    def face_at(self, t: float) -> bool:
        face = self.flips[0][1]
        for tf, f in self.flips:
            if tf <= t:
                face = f
            else:
                break
        return face


class _Player:
    def __init__(self, side: int, rng: random.Random):
        self.side = side
        self.fa = rng.uniform(0.08, 0.16)  # Fitts intercept, s
        self.fb = rng.uniform(0.06, 0.12)  # Fitts slope, s per bit
        self.sigma = rng.uniform(0.03, 0.085)  # placement error per axis, squares
        self.clumsy = rng.uniform(0.5, 1.5)
        self.low = rng.uniform(0.4, 1.6)  # habit: low carries
        self.slide = rng.uniform(0.4, 1.6)  # habit: slides
        self.target_first = rng.uniform(0.1, 0.9)  # habit: capture order
        self.flip_after = rng.uniform(0.4, 1.6)  # habit: promote on the square
        self.think = rng.uniform(0.6, 1.5)
        self.home = (4.0, 10.5) if side == BLACK else (4.0, -2.5)
        self.body = (4.0, 11.5) if side == BLACK else (4.0, -3.5)

    def komadai(self, rng: random.Random) -> tuple[float, float]:
        if self.side == BLACK:
            return rng.uniform(9.9, 11.1), rng.uniform(5.8, 8.4)
        return rng.uniform(-3.1, -1.9), rng.uniform(-0.4, 2.2)


class _Sim:
    def __init__(
        self,
        moves: list[str],
        sfen: str,
        seed: int,
        sensing: str,
        pace: float,
        noise: float,
        scan_hz: float | None,
        rates: dict[str, float] | None,
    ):
        if sensing not in SENSINGS:
            raise ValueError(f"sensing must be one of {SENSINGS}: {sensing!r}")
        if pace <= 0 or noise < 0 or (scan_hz is not None and scan_hz <= 0):
            raise ValueError("pace and scan_hz must be positive, noise not negative")
        unknown = set(rates or {}) - set(DEFAULT_RATES)
        if unknown:
            raise ValueError(f"unknown noise kinds: {sorted(unknown)}")
        self.moves = moves
        self.sfen = sfen
        self.sensing = sensing
        self.pace = pace
        self.scan_hz = scan_hz
        base = {**DEFAULT_RATES, **(rates or {})}
        self.rates = {k: v * noise for k, v in base.items()}
        self.counts = dict.fromkeys(DEFAULT_RATES, 0)
        self.rng = random.Random(seed)
        self.srng = random.Random(self.rng.getrandbits(64))  # the sensors' own randomness
        rng = self.rng
        # Sensor geometry per square, drawn for every board kind alike (hands do not know).
        self.r_on = [rng.uniform(0.29, 0.35) for _ in range(81)]
        self.r_off = [r + rng.uniform(0.07, 0.11) for r in self.r_on]
        self.z_on = [rng.uniform(0.36, 0.44) for _ in range(81)]
        self.z_off = [z + rng.uniform(0.06, 0.10) for z in self.z_on]
        self.r_id = [rng.uniform(0.30, 0.38) for _ in range(81)]
        self.z_id = [rng.uniform(0.30, 0.40) for _ in range(81)]
        self.players = (_Player(0, rng), _Player(1, rng))
        period = 1.0 / scan_hz if scan_hz else 0.0
        self.gap_min = max(0.02, 1.8 * period)  # a meaningful empty stretch
        self.mark_delay = 0.09 + 2.0 * period
        self.min_gap = max(0.3 * pace, self.mark_delay + 0.03)
        self.board = Board(sfen)
        self.pieces: list[_Piece] = []
        self.at: list[int | None] = [None] * 81
        self.komadai: tuple[list[int], list[int]] = ([], [])
        for sq in range(81):
            p = self.board.piece_at(sq)
            if p is not None:
                kind = p.piece_type - 8 if p.piece_type > KING else p.piece_type
                x, y = _xy(sq)
                self._new_piece(p.color, kind, p.piece_type > KING, x, y)
                self.at[sq] = self.pieces[-1].pid
        for side, hand in enumerate(self.board.pieces_in_hand):
            for pt, n in hand.items():
                for _ in range(n):
                    x, y = self.players[side].komadai(rng)
                    self._new_piece(side, pt, False, x, y)
                    self.komadai[side].append(self.pieces[-1].pid)
        self.notes: list[list[str]] = []
        self.marks: list[float] = []
        self.inputs: list[tuple[float, str]] = []
        self.t_next = pace * rng.uniform(0.5, 2.0)
        # per ply state
        self.P = self.players[0]
        self.note: list[str] = []
        self.involved: set[int] = set()
        self.moved: set[int] = set()
        self.capture_ply = False
        self.capturable: set[int] = set()
        self.reach_b: set[int | None] = set()
        self.last_to: int | None = None
        self.after = self.board
        self.hand = (0.0, 0.0)

    def _new_piece(self, owner: int, kind: int, promoted: bool, x: float, y: float) -> None:
        self.pieces.append(_Piece(len(self.pieces), owner, kind, promoted, x, y))

    # --- chances and durations --------------------------------------------------------

    def _chance(self, kind: str, factor: float = 1.0) -> bool:
        if kind in CLUMSY_KINDS:
            factor *= self.P.clumsy
        return self.rng.random() < min(1.0, self.rates[kind] * factor)

    def _dur(self, lo: float, hi: float) -> float:
        return self.pace * self.rng.uniform(lo, hi)

    def _fitts(self, d: float) -> float:
        P = self.P
        return self.pace * (P.fa + P.fb * math.log2(1.0 + d / 0.5)) * self.rng.uniform(0.85, 1.15)

    def _rsafe(self, sq: int) -> float:
        """Beyond this offset some board would not see a piece set down: straighten it."""
        return min(self.r_on[sq], self.r_id[sq]) - 0.02

    def _say(self, t: float, text: str) -> None:
        self.note.append(f"{t:.3f} {text}")

    # --- motion primitives ----------------------------------------------------------------

    def _vseg(self, p: _Piece, t0: float, dur: float, z1: float) -> float:
        if t0 < p.t - EPS:
            raise GeneratorBug(f"piece {p.pid} moved twice at once ({t0} < {p.t})")
        t0 = max(t0, p.t)
        p.segs.append((t0, t0 + dur, p.x, p.y, p.z, p.x, p.y, z1))
        p.z, p.t = z1, t0 + dur
        self.moved.add(p.pid)
        return p.t

    def _hseg(self, p: _Piece, t0: float, dur: float, x1: float, y1: float) -> float:
        if t0 < p.t - EPS:
            raise GeneratorBug(f"piece {p.pid} moved twice at once ({t0} < {p.t})")
        t0 = max(t0, p.t)
        p.segs.append((t0, t0 + dur, p.x, p.y, p.z, x1, y1, p.z))
        p.x, p.y, p.t = x1, y1, t0 + dur
        self.moved.add(p.pid)
        return p.t

    def _flip(self, p: _Piece, t: float, promoted: bool) -> None:
        on_board = -0.5 <= p.x <= 8.5 and -0.5 <= p.y <= 8.5
        if on_board and p.z < Z_HIGH - EPS:
            raise GeneratorBug(f"piece {p.pid} flipped within a sensor's reach")
        p.flips.append((t, promoted))
        p.promoted = promoted

    def _reach(self, t: float, x: float, y: float) -> float:
        t += self._fitts(math.hypot(x - self.hand[0], y - self.hand[1]))
        self.hand = (x, y)
        return t

    def _carry(self, t: float, p: _Piece, x: float, y: float, z: float | None = None) -> float:
        if z is not None and abs(p.z - z) > EPS:
            t = self._vseg(p, t, self._dur(0.02, 0.06), z)
        d = math.hypot(x - p.x, y - p.y)
        if d > EPS:
            t = self._hseg(p, t, self._fitts(d), x, y)
        self.hand = (x, y)
        return t

    def _pick(self, t: float, p: _Piece, z: float, what: str = "lift") -> float:
        t = self._reach(t, p.x, p.y) + self._dur(0.03, 0.12)
        t0 = max(t, p.t)
        s = _sq_at(p.x, p.y)
        self._say(t0, f"{what} {'komadai' if s is None else SQUARE_NAMES[s]} ({z:.2f})")
        return self._vseg(p, t0, self._dur(0.03, 0.08), z)

    def _carry_z(self, allow_low: bool = True) -> float:
        if allow_low and self._chance("lowcarry", self.P.low):
            self.counts["lowcarry"] += 1
            return self.rng.uniform(*LOW_Z)
        return self.rng.uniform(Z_HIGH, 1.5)

    def _offset(self, sq: int) -> tuple[float, float]:
        s = self.P.sigma
        ex, ey = self.rng.gauss(0.0, s), self.rng.gauss(0.0, s)
        if self._chance("offcentre"):
            dirs = self._free_dirs(sq)
            if dirs:
                dc, dr = self.rng.choice(dirs)
                ang = math.atan2(dr, dc) + self.rng.uniform(-0.3, 0.3)
                m = self.rng.uniform(self._rsafe(sq) + 0.03, 0.47)
                ex, ey = m * math.cos(ang), m * math.sin(ang)
        m = math.hypot(ex, ey)
        if m > 0.47:
            ex, ey = ex * 0.47 / m, ey * 0.47 / m
        return ex, ey

    def _free_dirs(self, sq: int) -> list[tuple[int, int]]:
        """Directions toward a neighbour square that is empty now and after the ply."""
        out = []
        c, r = sq % 9, sq // 9
        for dc, dr in DIRS8:
            if 0 <= c + dc <= 8 and 0 <= r + dr <= 8:
                e = (r + dr) * 9 + c + dc
                if self.at[e] is None and self.after.piece_at(e) is None and e not in self.involved:
                    out.append((dc, dr))
        return out

    def _arrive_after(self, z0: float, dur: float, sq: int) -> float:
        """How long into a descent from ``z0`` some sensor of ``sq`` may first see the piece."""
        best = dur
        for thr in (self.z_on[sq], self.z_id[sq]):
            if thr >= z0:
                return 0.0
            best = min(best, dur * _uneased((z0 - thr) / z0))
        return best

    def _left_at(self, p: _Piece, sq: int, since: float) -> float:
        """When ``p`` was last within any sensor's reach of ``sq`` (segments from ``since``)."""
        cx, cy = _xy(sq)
        last = since
        for seg in p.segs:
            if seg[1] <= since - EPS:
                continue
            for r, zt in ((self.r_off[sq], self.z_off[sq]), (self.r_id[sq], self.z_id[sq])):
                reg = _region(seg, cx, cy, r, zt)
                if reg is not None:
                    last = max(last, reg[1])
        return last

    def _straighten(self, t: float, p: _Piece, sq: int, why: str) -> float:
        cx, cy = _xy(sq)
        tx, ty = cx + self.rng.gauss(0.0, 0.02), cy + self.rng.gauss(0.0, 0.02)
        t0 = max(t, p.t)
        t = self._hseg(p, t0, self._dur(0.06, 0.16), tx, ty)
        self._say(t0, f"straighten {SQUARE_NAMES[sq]} ({why})")
        return t

    def _set_down(self, t: float, p: _Piece, sq: int, not_before: float | None = None) -> float:
        """Carry ``p`` (in the air) over ``sq`` and set it down; straighten it if unseen."""
        cx, cy = _xy(sq)
        ex, ey = self._offset(sq)
        t = self._carry(t, p, cx + ex, cy + ey)
        dur = self._dur(0.03, 0.09)
        if not_before is not None:
            t = max(t, not_before - self._arrive_after(p.z, dur, sq))
        t = self._vseg(p, t, dur, 0.0)
        d = math.hypot(ex, ey)
        self._say(t, f"set {SQUARE_NAMES[sq]} (off {d:.2f})")
        if d > self._rsafe(sq):
            self.counts["offcentre"] += 1
            t = self._straighten(t + self.rng.uniform(0.1, 0.6), p, sq, "set down unseen")
        return t

    # --- noise that displaces a piece ---------------------------------------------------

    def _disturb(self, t: float, kind: str, near: int) -> float:
        """A brush (sleeve, near the arm reaching ``near``) or knock (fingers, a neighbour).

        Returns when the displaced piece is back (or at rest, if left slightly off). Fairness:
        an opponent piece leaves its square only if the moving piece could not capture it
        (in a capture ply, never), so emptying and refilling it cannot read as a capture; a
        knock as the piece lands never moves a piece that could have moved to the landing
        square itself, or could capture there (its square opening as that one closes, or
        before a flip's hop, would read as that move)."""
        cands = []
        nc, nr = near % 9, near // 9
        if kind == "knock":
            squares = [
                (nr + dr) * 9 + nc + dc
                for dc, dr in DIRS8
                if 0 <= nc + dc <= 8 and 0 <= nr + dr <= 8
            ]
        else:
            bx, by = self.P.body
            ax, ay = bx - nc, by - nr
            n = math.hypot(ax, ay)
            ux, uy = ax / n, ay / n
            squares = []
            for s in range(81):
                if s == near:
                    continue
                sx, sy = s % 9 - nc, s // 9 - nr
                along = sx * ux + sy * uy
                if 0.3 < along < 2.5 and abs(sx * uy - sy * ux) < 0.6:
                    squares.append(s)
        for s in squares:
            pid = self.at[s]
            if pid is None or s in self.involved or self.pieces[pid].t > t:
                continue
            if self.pieces[pid].owner != self.P.side and (self.capture_ply or s in self.capturable):
                continue
            if kind == "knock" and s in self.reach_b:
                continue
            cands.append(s)
        if not cands:
            return t
        s = self.rng.choice(cands)
        q = self.pieces[self.at[s]]  # type: ignore[index]
        cx, cy = _xy(s)
        dirs = self._free_dirs(s)
        self.involved.add(s)
        if dirs:
            dc, dr = self.rng.choice(dirs)
            e = s + dr * 9 + dc
            ang = math.atan2(dr, dc) + self.rng.uniform(-0.2, 0.2)
            cls = self.rng.choices(("small", "medium", "large"), (0.3, 0.45, 0.25))[0]
            if cls == "large":
                self.involved.add(e)
                ex, ey = _xy(e)
                rr = self.rng.uniform(0.0, min(self.r_on[e], self.r_id[e]) - 0.06)
                a2 = self.rng.uniform(0.0, 2.0 * math.pi)
                nx, ny = ex + rr * math.cos(a2), ey + rr * math.sin(a2)
            else:
                if cls == "small":
                    m = self.rng.uniform(0.06, self.r_off[s] - 0.03)
                else:
                    far = 1.0 - max(self.r_on[e], self.r_id[e]) - 0.05
                    m = self.rng.uniform(self.r_off[s] + 0.02, far)
                nx, ny = cx + m * math.cos(ang), cy + m * math.sin(ang)
        else:
            cls = "tiny"
            a2 = self.rng.uniform(0.0, 2.0 * math.pi)
            m = self.rng.uniform(0.03, 0.12)
            nx, ny = cx + m * math.cos(a2), cy + m * math.sin(a2)
        t0 = max(t, q.t)
        t1 = self._hseg(q, t0, self.rng.uniform(0.02, 0.06), nx, ny)
        self.counts[kind] += 1
        d = math.hypot(nx - cx, ny - cy)
        text = f"{kind} {SQUARE_NAMES[s]} {cls} {d:.2f}"
        if cls == "large":
            text += f" onto {SQUARE_NAMES[_sq_at(nx, ny)]}"  # type: ignore[index]
        self._say(t0, text)
        if cls in ("medium", "large") or d > self._rsafe(s) or self.rng.random() < 0.5:
            t1 = self._straighten(t1 + self.rng.uniform(0.1, 0.45), q, s, f"{kind}ed")
        return t1

    # --- noise chosen per ply -------------------------------------------------------------

    def _pick_touch(self, A: int | None, B: int) -> int | None:
        if A is not None and self.rng.random() < 0.5:
            return A
        own = [
            s
            for s in range(81)
            if self.at[s] is not None
            and self.pieces[self.at[s]].owner == self.P.side  # type: ignore[index]
            and s not in self.involved
            and (_kdist(s, B) <= 2 or (A is not None and _kdist(s, A) <= 2))
        ]
        return self.rng.choice(own) if own else None

    def _pick_illegal(self, mv: Move) -> int | None:
        b, B = self.board, mv.to_square
        cands = []
        for c in range(81):
            if self.at[c] is not None or c in self.involved or _kdist(c, B) > 1:
                continue
            if mv.drop_piece_type is not None:
                if not b.is_legal(Move(None, c, drop_piece_type=mv.drop_piece_type)):
                    cands.append(c)
            elif not (
                b.is_legal(Move(mv.from_square, c, False))
                or b.is_legal(Move(mv.from_square, c, True))
            ):
                cands.append(c)
        return self.rng.choice(cands) if cands else None

    def _pick_correction(self, mv: Move) -> int | None:
        b, B = self.board, mv.to_square
        if mv.drop_piece_type is not None:
            moves = b.legal_drops(mv.drop_piece_type)
        else:
            moves = b.legal_moves_from(mv.from_square)  # type: ignore[arg-type]
        cands = sorted(
            {
                m.to_square
                for m in moves
                if m.to_square != B
                and self.at[m.to_square] is None
                and m.to_square not in self.involved
            }
        )
        near = [c for c in cands if _kdist(c, B) <= 2]
        pool = near or cands
        return self.rng.choice(pool) if pool else None

    def _pick_hover(self, B: int) -> int | None:
        cands = [
            e
            for e in range(81)
            if _kdist(e, B) == 1
            and self.at[e] is None
            and self.after.piece_at(e) is None
            and e not in self.involved
        ]
        return self.rng.choice(cands) if cands else None

    # --- one ply --------------------------------------------------------------------------

    def ply(self, k: int, usi: str) -> None:
        b = self.board
        try:
            mv = Move.from_usi(usi)
        except ValueError as exc:
            raise GeneratorBug(f"ply {k + 1}: {exc}") from None
        if not b.is_legal(mv):
            raise GeneratorBug(f"ply {k + 1}: {usi} is not legal")
        side = b.turn
        self.P = P = self.players[side]
        self.after = b.copy(stack=False)
        self.after.push(mv)
        self.note = []
        self.moved = set()
        self.hand = P.home
        A, B = mv.from_square, mv.to_square
        capture = A is not None and self.at[B] is not None
        self.capture_ply = capture
        # pieces that could move to B now, or capture what lands there
        self.reach_b = {m.from_square for m in b.legal_moves if m.to_square == B} | {
            m.from_square for m in self.after.legal_moves if m.to_square == B
        }
        self.capturable = (
            set()
            if A is None
            else {m.to_square for m in b.legal_moves_from(A) if self.at[m.to_square] is not None}
        )
        self.involved = {B} if A is None else {A, B}
        if self.last_to is not None:
            # the piece the opponent just moved is left alone: knocked off its square and
            # put back it would look like the opponent taking back and redoing its move
            self.involved.add(self.last_to)
        t = self.t_next
        # noise decided up front, so the squares they use are known to each other
        touch = self._pick_touch(A, B) if self._chance("touch") else None
        if touch is not None:
            self.involved.add(touch)
        plan = _Plan()
        u = self.rng.random()
        if u < self.rates["illegal"]:
            plan.illegal = self._pick_illegal(mv)
        elif u < self.rates["illegal"] + self.rates["correction"]:
            plan.corr = self._pick_correction(mv)
        for c in (plan.illegal, plan.corr):
            if c is not None:
                self.involved.add(c)
        plan.hold = self._chance("hold")
        plan.hover = self._pick_hover(B) if self._chance("hover") and not plan.hold else None
        if plan.hover is not None:
            self.involved.add(plan.hover)
        plan.brush = self._chance("brush")
        plan.knock = self._chance("knock")
        plan.knock_at_lift = self.rng.random() < 0.4
        plan.promote_after = mv.promotion and self._chance("flipafter", P.flip_after)
        promote_after = plan.promote_after

        if touch is not None:
            t = self._touch(t, touch)
        t, p = self._drop(t, mv, plan) if A is None else self._move(t, mv, plan)
        landed = t
        if promote_after:
            self.counts["flipafter"] += 1
            t = self._flip_on_square(t + self._dur(0.15, 0.6), p, B)
            landed = t
        if mv.promotion and not p.promoted:
            raise GeneratorBug(f"ply {k + 1}: promotion not made physically")
        # the answers the board asks for, after the piece has landed
        end = max([landed] + [self.pieces[pid].t for pid in self.moved])
        # drawn on every board alike, so the hands do not depend on what the board asks
        quick = self._chance("quickinput")
        delays = (self.rng.uniform(0.08, 0.2), max(0.08, self._dur(0.2, 3.0)))
        for value in expected_inputs(b, mv, self.sensing):
            if quick:
                self.counts["quickinput"] += 1
            delay = delays[0] if quick else delays[1]
            if self.scan_hz:
                delay += 1.5 / self.scan_hz
            ti = landed + delay
            self.inputs.append((ti, value))
            self._say(ti, f"input {value}")
            end = max(end, ti)
        # the true position, logically
        if A is not None:
            self.at[A] = None
        self.at[B] = p.pid
        self.last_to = B
        b.push(mv)
        self.notes.append(self.note)
        self.marks.append(end + self.mark_delay)
        think = P.think * self.rng.lognormvariate(math.log(1.6), 0.8)
        self.t_next = end + max(self.min_gap, self.pace * min(10.0, max(0.3, think)))

    def _touch(self, t: float, s: int) -> float:
        q = self.pieces[self.at[s]]  # type: ignore[index]
        z = self.rng.uniform(0.1, 0.9)
        t = self._pick(t, q, z, "touch")
        self.counts["touch"] += 1
        t += self._dur(0.1, 0.8)
        t = self._set_down(t, q, s)
        return t + self._dur(0.2, 1.0)

    def _drop(self, t: float, mv: Move, plan: _Plan) -> tuple[float, _Piece]:
        side, B, kind = self.P.side, mv.to_square, mv.drop_piece_type
        assert kind is not None
        illegal, corr, hold, hover, brush, knock = (
            plan.illegal,
            plan.corr,
            plan.hold,
            plan.hover,
            plan.brush,
            plan.knock,
        )
        pid = next(i for i in self.komadai[side] if self.pieces[i].kind == kind)
        self.komadai[side].remove(pid)
        p = self.pieces[pid]
        # the carry height is chosen at each lift and kept until the piece is set down
        t = self._pick(t, p, self._carry_z(), f"pick {PIECE_SYMBOLS[kind].upper()} from")
        if illegal is not None:
            self.counts["illegal"] += 1
            t = self._set_down(t, p, illegal)
            self._say(t, f"illegal drop on {SQUARE_NAMES[illegal]}, red lights")
            t += self._dur(0.4, 1.5)
            t = self._pick(t, p, self._carry_z())
            kx, ky = self.P.komadai(self.rng)
            t = self._carry(t, p, kx, ky)
            t = self._vseg(p, t, self._dur(0.03, 0.08), 0.0)
            self._say(t, "taken back to the komadai")
            t = self._pick(t + self._dur(0.2, 0.8), p, self._carry_z())
        if hold:
            t = self._hold(t, p, B)
        if corr is not None:
            self.counts["correction"] += 1
            t = self._set_down(t, p, corr)
            self._say(t, f"correction: {SQUARE_NAMES[corr]} was not meant, moved on")
            t += self._dur(0.3, 1.5)
            t = self._pick(t, p, self._carry_z())
        if hover is not None:
            t = self._hover(t, p, hover)
        if brush:
            # the sleeve, as the arm reaches out over the board, the piece held up out of
            # every sensor's reach (never while the board shows a finished drop, as a piece
            # held low would); the brushed piece is put back before the landing
            if p.z < Z_HIGH:
                t = self._vseg(p, t, self._dur(0.02, 0.06), self.rng.uniform(Z_HIGH, 1.2))
            t = max(t, self._disturb(t, "brush", B) + self._dur(0.05, 0.2))
        t = self._set_down(t, p, B)
        if knock:
            self._disturb(t, "knock", B)
        return t, p

    def _hold(self, t: float, p: _Piece, B: int, extra: float = 0.0) -> float:
        """The lifted piece held up over the board; it lands at most 3 s after the lift
        (``extra``: how long the landing may take beyond the carry, e.g. a capture's)."""
        self.counts["hold"] += 1
        lifted = t
        if p.z < Z_HIGH:
            t = self._vseg(p, t, self._dur(0.02, 0.06), self.rng.uniform(Z_HIGH, 1.2))
        bx, by = _xy(B)
        t = self._carry(t, p, 0.5 * (p.x + bx), 0.5 * (p.y + by))
        P = self.P
        dist = math.hypot(bx - p.x, by - p.y)
        rest = self.pace * (1.15 * (P.fa + P.fb * math.log2(1.0 + dist / 0.5)) + 0.1) + extra
        d = max(0.2, min(self.pace * self.rng.uniform(1.0, 3.0), lifted + 2.7 - t - rest))
        self._say(t, f"hold in the air {d:.2f}s")
        return t + d

    def _hover(self, t: float, p: _Piece, e: int) -> float:
        self.counts["hover"] += 1
        ex, ey = _xy(e)
        t = self._carry(t, p, ex + self.rng.gauss(0.0, 0.05), ey + self.rng.gauss(0.0, 0.05))
        z0 = p.z
        zh = self.rng.uniform(0.05, 0.3)
        t = self._vseg(p, t, self._dur(0.03, 0.08), zh)
        d = self._dur(0.15, 0.6)
        self._say(t, f"hover low ({zh:.2f}) over {SQUARE_NAMES[e]} {d:.2f}s")
        t = self._vseg(p, t + d, self._dur(0.03, 0.08), max(z0, LOW_Z[1]))
        return t

    def _flip_on_square(self, t: float, p: _Piece, B: int) -> float:
        t0 = max(t, p.t)
        rise = self._dur(0.025, 0.075)
        top = self.rng.uniform(Z_HIGH, 0.9)
        t1 = self._vseg(p, t0, rise, top)
        self._flip(p, t1, True)
        leave = self._left_at(p, B, t0)
        dur = self._dur(0.025, 0.075)
        td = max(
            t1, leave + self.gap_min * self.rng.uniform(1.0, 1.5) - self._arrive_after(top, dur, B)
        )
        t = self._vseg(p, td, dur, 0.0)
        self._say(t0, f"turned over on {SQUARE_NAMES[B]} (hop {t - t0:.3f}s)")
        cx, cy = _xy(B)
        if math.hypot(p.x - cx, p.y - cy) > self._rsafe(B):
            t = self._straighten(t + self.rng.uniform(0.1, 0.6), p, B, "flipped unseen")
        return t

    def _slide_path_ok(self, A: int, B: int) -> bool:
        dc, dr = B % 9 - A % 9, B // 9 - A // 9
        n = max(abs(dc), abs(dr))
        if n == 0 or n > 3 or (dc and dr and abs(dc) != abs(dr)):
            return False
        sc, sr = (dc > 0) - (dc < 0), (dr > 0) - (dr < 0)
        return all(self.at[A + i * (sr * 9 + sc)] is None for i in range(1, n))

    def _move(self, t: float, mv: Move, plan: _Plan) -> tuple[float, _Piece]:
        illegal, corr, hold, hover, brush, knock = (
            plan.illegal,
            plan.corr,
            plan.hold,
            plan.hover,
            plan.brush,
            plan.knock,
        )
        knock_at_lift, promote_after = plan.knock_at_lift, plan.promote_after
        P = self.P
        A, B = mv.from_square, mv.to_square
        assert A is not None
        pa, pb = self.at[A], self.at[B]
        assert pa is not None
        p = self.pieces[pa]
        target = None if pb is None else self.pieces[pb]
        in_hand = mv.promotion and not promote_after
        target_first = target is not None and self.rng.random() < P.target_first
        if illegal is not None:
            self.counts["illegal"] += 1
            t = self._pick(t, p, self._carry_z())
            t = self._set_down(t, p, illegal)
            self._say(t, f"illegal move {SQUARE_NAMES[A]}{SQUARE_NAMES[illegal]}, red lights")
            t += self._dur(0.4, 1.5)
            t = self._pick(t, p, self._carry_z())
            t = self._set_down(t, p, A)
            self._say(t, f"taken back to {SQUARE_NAMES[A]}")
            t += self._dur(0.2, 0.8)
        if brush:  # the sleeve, reaching for A; the piece is put back before the lift
            fixed = self._disturb(t + 0.5 * self._fitts(3.0), "brush", A)
            t = max(t, fixed + self._dur(0.05, 0.2))
        t_leave = None
        if target is not None and target_first:
            t, t_leave = self._remove_target(t, target, B, to_komadai=self.rng.random() < 0.6)
        slide = (
            (target is None or target_first)
            and illegal is None
            and corr is None
            and hover is None
            and not hold
            and not in_hand
            and self._slide_path_ok(A, B)
            and self._chance("slide", P.slide)
        )
        if slide:
            self.counts["slide"] += 1
            t = self._reach(t, p.x, p.y) + self._dur(0.03, 0.1)
            bx, by = _xy(B)
            ex, ey = self._offset(B)
            ex, ey = 0.7 * ex, 0.7 * ey
            dur = 1.2 * self._fitts(math.hypot(bx + ex - p.x, by + ey - p.y))
            if knock and knock_at_lift:
                t = max(t, self._disturb(t, "knock", A) + self._dur(0.05, 0.2))
            if t_leave is not None:
                seg = (0.0, dur, p.x, p.y, 0.0, bx + ex, by + ey, 0.0)
                arr = min(
                    (
                        reg[0]
                        for r, zt in ((self.r_on[B], self.z_on[B]), (self.r_id[B], self.z_id[B]))
                        if (reg := _region(seg, bx, by, r, zt)) is not None
                    ),
                    default=dur,
                )
                t = max(t, t_leave + self.gap_min * self.rng.uniform(1.0, 1.5) - arr)
            t0 = max(t, p.t)
            t = self._hseg(p, t0, dur, bx + ex, by + ey)
            self.hand = (bx, by)
            d = math.hypot(ex, ey)
            self._say(t0, f"slide {SQUARE_NAMES[A]}->{SQUARE_NAMES[B]} (off {d:.2f})")
            if d > self._rsafe(B):
                self.counts["offcentre"] += 1
                t = self._straighten(t + self.rng.uniform(0.1, 0.6), p, B, "slid unseen")
            t_end = t
        else:
            z = self._carry_z(allow_low=not in_hand and (target is None or target_first))
            t = self._pick(t, p, z)
            if knock and knock_at_lift:  # put back before the piece lands
                t = max(t, self._disturb(t, "knock", A) + self._dur(0.05, 0.2))
            if hold:
                attacker_first = target is not None and not target_first
                t = self._hold(t, p, B, 0.95 * self.pace if attacker_first else 0.0)
            if corr is not None:
                self.counts["correction"] += 1
                t = self._set_down(t, p, corr)
                self._say(t, f"correction: {SQUARE_NAMES[corr]} was not meant, moved on")
                t += self._dur(0.3, 1.5)
                z = self._carry_z(allow_low=not in_hand and (target is None or target_first))
                t = self._pick(t, p, z)
            if hover is not None:
                t = self._hover(t, p, hover)
            bx, by = _xy(B)
            if target is not None and not target_first:
                t, t_end = self._attacker_first(t, p, target, B, in_hand)
            else:
                if in_hand:
                    if p.z < Z_HIGH:
                        t = self._vseg(p, t, self._dur(0.02, 0.06), self.rng.uniform(Z_HIGH, 1.2))
                    t = self._carry(t, p, 0.5 * (p.x + bx), 0.5 * (p.y + by))
                    self._flip(p, t, True)
                    self._say(t, "turned over in the hand")
                gap = self.gap_min * self.rng.uniform(1.0, 1.5)
                t = self._set_down(t, p, B, None if t_leave is None else t_leave + gap)
                t_end = t
        if knock and not knock_at_lift:
            self._disturb(t, "knock", B)
        if target is not None and target_first and target.z > 0.0:
            t_end = max(t_end, self._to_komadai(t, target, None))
        t = max(t, t_end)
        return t, p

    def _remove_target(self, t: float, q: _Piece, B: int, to_komadai: bool) -> tuple[float, float]:
        """Target first: lift the captured piece off ``B``; carry it to the komadai, or hold it."""
        z = self._carry_z() if to_komadai else self.rng.uniform(Z_HIGH, 1.2)
        t0 = t
        t = self._pick(t, q, z, "take")
        if to_komadai:
            t = self._to_komadai(t, q, z)
        else:
            # held in the other hand, away from the board's sensors
            sx, sy = self.P.home
            t = self._carry(t, q, q.x + 0.3 * (sx - q.x), q.y + 0.3 * (sy - q.y), max(q.z, Z_HIGH))
            self._say(t, "captured piece held in the other hand")
        return t, self._left_at(q, B, t0)

    def _to_komadai(self, t: float, q: _Piece, z: float | None) -> float:
        """Carry a captured piece (in the air) to the capturer's komadai, at height ``z``."""
        kx, ky = self.P.komadai(self.rng)
        t = self._carry(max(t, q.t), q, kx, ky, self._carry_z() if z is None else z)
        t = self._vseg(q, t, self._dur(0.03, 0.08), 0.0)
        if q.promoted:
            self._flip(q, t, False)
        self.komadai[self.P.side].append(q.pid)
        q.owner = self.P.side
        self._say(t, "captured piece on the komadai")
        return t

    def _attacker_first(
        self, t: float, p: _Piece, q: _Piece, B: int, in_hand: bool
    ) -> tuple[float, float]:
        """Attacker first: over ``B`` high, the target pinched out, the attacker set down.
        Returns when the attacker has landed and when the captured piece is on the komadai."""
        if p.z < Z_HIGH:
            t = self._vseg(p, t, self._dur(0.02, 0.06), self.rng.uniform(Z_HIGH, 1.2))
        bx, by = _xy(B)
        ex, ey = self._offset(B)
        tm = t + 0.5 * self._fitts(math.hypot(bx - p.x, by - p.y))
        t = self._carry(t, p, bx + ex, by + ey)
        if in_hand:
            self._flip(p, t, True)
            self._say(tm, "turned over in the hand")
        t += self._dur(0.0, 0.15)
        t0 = max(t, q.t)
        t1 = self._vseg(q, t0, self._dur(0.03, 0.08), self.rng.uniform(Z_HIGH + 0.05, 1.0))
        leave = self._left_at(q, B, t0)
        dur = self._dur(0.03, 0.09)
        if self._chance("fastcap"):
            self.counts["fastcap"] += 1
            gap = self.rng.uniform(self.gap_min, self.gap_min + 0.05)
            how = "fast capture"
        else:
            gap = max(self.gap_min * 1.2, self._dur(0.1, 0.6))
            how = "capture"
        td = max(t0, leave + gap - self._arrive_after(p.z, dur, B))
        t = self._vseg(p, td, dur, 0.0)
        d = math.hypot(ex, ey)
        self._say(t0, f"{how}: target pinched out of {SQUARE_NAMES[B]}, attacker set @{t:.3f}")
        if d > self._rsafe(B):
            self.counts["offcentre"] += 1
            t = self._straighten(t + self.rng.uniform(0.1, 0.6), p, B, "set down unseen")
        t2 = self._to_komadai(max(t1, td + dur), q, None)
        return t, max(t, t2)

    # --- sensors ----------------------------------------------------------------------------

    def _timelines(self, p: _Piece) -> list[Seg]:
        out: list[Seg] = []
        t = 0.0
        x, y, z = p.start
        for seg in p.segs:
            if seg[0] > t:
                out.append((t, seg[0], x, y, z, x, y, z))
            out.append(seg)
            t = seg[1]
            x, y, z = seg[5], seg[6], seg[7]
        out.append((t, INF, x, y, z, x, y, z))
        return out

    def _candidates(self, seg: Seg) -> list[int]:
        x0, y0, z0, x1, y1, z1 = seg[2], seg[3], seg[4], seg[5], seg[6], seg[7]
        if min(z0, z1) >= Z_HIGH:
            return []
        if x0 == x1 and y0 == y1:
            s = _sq_at(x0, y0)
            return [] if s is None else [s]
        c0 = max(0, math.floor(min(x0, x1) - 0.5))
        c1 = min(8, math.ceil(max(x0, x1) + 0.5))
        r0 = max(0, math.floor(min(y0, y1) - 0.5))
        r1 = min(8, math.ceil(max(y0, y1) + 0.5))
        return [r * 9 + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]

    def sense(self) -> list[list[tuple[float, str]]]:
        """Per square, the sensor's value changes ``(t, cell)``, the first at t = 0."""
        identity = self.sensing == "identity"
        members: list[list[tuple[Any, ...]]] = [[] for _ in range(81)]
        for p in self.pieces:
            hold: dict[int, list[tuple[float, float]]] = {}
            act: dict[int, list[tuple[float, float]]] = {}
            for seg in self._timelines(p):
                for s in self._candidates(seg):
                    cx, cy = _xy(s)
                    if identity:
                        reg = _region(seg, cx, cy, self.r_id[s], self.z_id[s])
                        if reg:
                            hold.setdefault(s, []).append(reg)
                        continue
                    reg = _region(seg, cx, cy, self.r_off[s], self.z_off[s])
                    if reg:
                        hold.setdefault(s, []).append(reg)
                        reg = _region(seg, cx, cy, self.r_on[s], self.z_on[s])
                        if reg:
                            act.setdefault(s, []).append(reg)
            for s in sorted(hold):
                acts = _merge(act.get(s, []))
                for h0, h1 in _merge(hold[s]):
                    promoted = p.face_at(h0)
                    if identity:
                        members[s].append((h0, h1, _letter(p.kind, promoted), p.pid))
                        continue
                    a = next((a0 for a0, _a1 in acts if h0 - EPS <= a0 <= h1 + EPS), None)
                    val = OCCUPIED
                    if self.sensing == "polarity":
                        val = PROMOTED if promoted else UNPROMOTED
                    members[s].append((h0, h1, a, val, p.pid))
        out = []
        for s in range(81):
            if identity:
                reads = []
                for r0, r1, val, pid in sorted(members[s]):
                    if r0 <= 0.0:
                        start = 0.0
                    else:
                        dwell = self.srng.uniform(0.02, 0.06)
                        if r1 - r0 < dwell:
                            continue
                        start = r0 + dwell
                    end = r1 if r1 == INF else r1 + self.srng.uniform(0.002, 0.015)
                    reads.append((start, end, val, pid))
                comps = [(st, en, st, val) for st, en, val, _pid in reads]
            else:
                comps = [(h0, h1, a, val) for h0, h1, a, val, _pid in members[s]]
            out.append(self._resident(sorted(comps)))
        return out

    @staticmethod
    def _resident(members: list[tuple[Any, ...]]) -> list[tuple[float, str]]:
        """A sensor's value changes from its members ``(start, end, switch-on time, value)``:
        on from the first switch-on of a run of overlapping members to the run's end, showing
        the value of the member present longest."""
        changes: list[tuple[float, str]] = [(0.0, EMPTY)]
        i, n = 0, len(members)
        while i < n:
            comp = [members[i]]
            end = members[i][1]
            j = i + 1
            while j < n and members[j][0] <= end + EPS:
                comp.append(members[j])
                end = max(end, members[j][1])
                j += 1
            i = j
            ons = [m[2] for m in comp if m[2] is not None]
            if not ons:
                continue
            t = min(ons)
            while t < end - EPS:
                cover = [m for m in comp if m[0] <= t + EPS and m[1] > t + EPS]
                res = min(cover, key=lambda m: m[0])
                changes.append((t, res[3]))
                t = res[1]
            if end < INF:
                changes.append((end, EMPTY))
        out: list[tuple[float, str]] = []
        for t, v in changes:
            if out and t <= out[-1][0] + EPS:
                out[-1] = (out[-1][0], v)
                if len(out) > 1 and out[-2][1] == v:
                    out.pop()
            elif not out or out[-1][1] != v:
                out.append((t, v))
        return out

    def bounce(self, changes: list[list[tuple[float, str]]]) -> list[list[tuple[float, str]]]:
        if self.sensing == "identity":
            return changes
        rate = min(1.0, self.rates["bounce"])
        out = []
        for ch in changes:
            new: list[tuple[float, str]] = [ch[0]]
            for i in range(1, len(ch)):
                t, v = ch[i]
                prev = ch[i - 1][1]
                new.append((t, v))
                if (prev == EMPTY) == (v == EMPTY) or self.srng.random() >= rate:
                    continue
                nxt = ch[i + 1][0] if i + 1 < len(ch) else INF
                w = min(self.srng.uniform(0.002, 0.015), (nxt - t) / 3.0)
                k = 2 * self.srng.choice((1, 1, 2))
                times = sorted(self.srng.uniform(0.0, w) for _ in range(k))
                for j, dt in enumerate(times):
                    new.append((t + dt, prev if j % 2 == 0 else v))
                self.counts["bounce"] += 1
            out.append(new)
        return out

    def frames(self, changes: list[list[tuple[float, str]]]) -> list[SensorFrame]:
        cells = [ch[0][1] for ch in changes]
        frames = [SensorFrame(0.0, "".join(cells))]
        if self.scan_hz:
            period = 1.0 / self.scan_hz
            phase = self.srng.uniform(0.0, period)
            seen: dict[int, dict[int, str]] = {}
            for s, ch in enumerate(changes):
                for t, v in ch[1:]:
                    k = math.ceil((t - phase - (s // 9) * period / 9.0) / period - 1e-9)
                    seen.setdefault(k, {})[s] = v
            groups = [(phase + k * period + 8.0 * period / 9.0, seen[k]) for k in sorted(seen)]
        else:
            flat = sorted((t, s, v) for s, ch in enumerate(changes) for t, v in ch[1:])
            groups = []
            for t, s, v in flat:
                rt = round(t, 6)
                if groups and groups[-1][0] == rt:
                    groups[-1][1][s] = v
                else:
                    groups.append((rt, {s: v}))
        for t, upd in groups:
            for s, v in upd.items():
                cells[s] = v
            text = "".join(cells)
            if text != frames[-1].cells:
                frames.append(SensorFrame(round(t, 6), text))
        return frames


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
    """A realistic sensor log of the game, with per-ply notes, marks and noise counts."""
    sim = _Sim(moves, sfen, seed, sensing, pace, noise, scan_hz, rates)
    for k, usi in enumerate(moves):
        sim.ply(k, usi)
    changes = sim.bounce(sim.sense())
    frames = sim.frames(changes)
    inputs = [PlayerInput(round(t, 6), v) for t, v in sim.inputs]
    merged: list[tuple[float, int, int, SensorEvent]] = [
        (f.t, 0, i, f) for i, f in enumerate(frames)
    ] + [(e.t, 1, i, e) for i, e in enumerate(inputs)]
    merged.sort(key=lambda m: m[:3])
    gen = Generated([m[3] for m in merged], sim.notes, sim.marks, sim.counts)
    _self_check(gen, moves, sfen, sensing)
    return gen


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
    """A realistic sensor log of the game (see :func:`generate_annotated`)."""
    return generate_annotated(moves, sfen, seed, sensing, pace, noise, scan_hz, rates).events


def _self_check(gen: Generated, moves: list[str], sfen: str, sensing: str) -> None:
    """Raise :class:`GeneratorBug` if the log breaks the sensor-log contract."""

    def bug(msg: str) -> None:
        raise GeneratorBug(msg)

    ev = gen.events
    board = Board(sfen)
    if not ev or not isinstance(ev[0], SensorFrame) or ev[0].t != 0.0:
        bug("the log must open with a frame at t=0")
    if ev[0].cells != position_cells(board, sensing):  # type: ignore[union-attr]
        bug("the first frame is not the start position")
    if not (len(gen.notes) == len(gen.marks) == len(moves)):
        bug("one note list and one mark per ply")
    last = 0.0
    for e in ev:
        if e.t < last or e.t != round(e.t, 6):
            bug(f"time not monotonic or not rounded: {e.t}")
        last = e.t
    frames = [e for e in ev if isinstance(e, SensorFrame)]
    inputs = [e for e in ev if isinstance(e, PlayerInput)]
    fi = ii = 0
    prev_mark = 0.0
    for k, usi in enumerate(moves):
        mark = gen.marks[k]
        if mark <= prev_mark:
            bug(f"ply {k + 1}: marks not increasing")
        try:
            move = Move.from_usi(usi)
        except ValueError:
            bug(f"ply {k + 1}: not a USI move: {usi}")
        if not board.is_legal(move):
            bug(f"ply {k + 1}: {usi} is not legal")
        want = expected_inputs(board, move, sensing)
        capture = move.from_square is not None and board.piece_at(move.to_square) is not None
        board.push(move)
        lo = fi
        while fi + 1 < len(frames) and frames[fi + 1].t <= mark:
            fi += 1
        if frames[fi].cells != position_cells(board, sensing):
            bug(f"ply {k + 1} {usi}: the frame at its mark {mark:.6f} is not the position")
        if capture and not any(f.cells[move.to_square] == EMPTY for f in frames[lo : fi + 1]):
            bug(f"ply {k + 1} {usi}: the captured piece's square is never seen empty")
        got = []
        while ii < len(inputs) and inputs[ii].t <= mark:
            if inputs[ii].t <= prev_mark:
                bug(f"ply {k + 1}: input outside its ply")
            got.append(inputs[ii].value)
            ii += 1
        if got != want:
            bug(f"ply {k + 1} {usi}: inputs {got} but the board asks {want}")
        prev_mark = mark
    if ii != len(inputs):
        bug("inputs after the last ply")
    if frames[-1].cells != position_cells(board, sensing):
        bug("the last frame is not the final position")
