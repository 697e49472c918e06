"""The sixth generator ("dojo"): sensor logs of human over-the-board shogi in a club.

Written blind to the tracker, from the sensor contract only (ARCHITECTURE.md "The sensor
model" and "Sensor log", docs/sensor-log.md). Each game seats two players whose *profiles*
(tidy, nervous, blitz, heavy-handed, hesitant) are drawn from the seed; each profile scales
the hand timings and every noise kind on its own. The physical facts, one noise kind each
(base rate per opportunity, before ``noise`` and the profile multipliers):

``bounce``        a reed switch bounces (1-4 extra toggles within 2-15 ms) on a landing
                  or a lift (per contact)
``slide``         a board move is slid along the board, closing the switches of the
                  squares it crosses (per non-knight board move whose path is a line)
``origin_lag``    in a slide, the origin opens only after the first crossed square closed
                  (per slide)
``pass_over``     a lifted piece carried low triggers the empty squares it passes over
``hover``         a held piece hovers over a square before it is set down: another legal
                  destination (choosing between squares) or the destination itself
``drop_hover``    a piece carried from the komadai hovers over squares on its way
``knock``         the moving hand knocks a neighbour of the origin or destination (it
                  wobbles, or falls and is put back)
``capture_knock`` a neighbour is knocked while a capture is in progress
``sleeve``        the waiting player's sleeve knocks one of their pieces during the
                  mover's think (per ply)
``shove``         ... and pushes it onto an empty neighbour square; put back (per ply)
``touch``         the mover lifts one of their pieces, thinks, and sets it back (per ply)
``correction``    the mover sets the piece on a legal square, then moves it on to the
                  true one before the opponent replies (per ply)
``hold``          a lifted piece (attacker) is held over the board for seconds before the
                  move completes (per board move)
``fast_capture``  the target is snatched as the attacker lands: the target square reads
                  empty for only 15-80 ms (per capture)
``flip``          a promoting piece is set down unpromoted face up and turned over on its
                  square a moment later (per promotion)
``quick_answer``  a promotion/drop question is answered as the piece settles (0.08-0.2 s)
                  rather than after 0.2-3 s (per question)
``illegal``       the mover makes an illegal move (king left in check, a move the piece
                  cannot make, nifu), sees the red lights and takes it back (per ply)

Captures come in three orders (not noise, a habit of each profile): the target removed
first, the attacker lifted first and the target removed while it is held, or the attacker
set on the target as the target is picked up (``fast_capture``).

Inputs: an occupancy board asks for an optional promotion (``promote``/``nonpromote``);
occupancy and polarity boards ask for a drop's kind only when several kinds in hand are
legal on the square. Nothing else is ever sent.

``scan_hz``: the matrix is sampled at that rate (a random phase); a frame is written only
when a scan differs. Short pulses may vanish. Rule kept for fairness: every *meaningful*
empty stretch (a capture's target, a lift to flip, a put-back) lasts at least 1.2 scan
periods, so at least one scan sees it; only noise may be shorter.

Usage: ``generate_annotated(moves, sfen, seed, sensing, pace, noise, scan_hz, rates)``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from board_bridge.shogi import (
    BLACK,
    KNIGHT,
    PAWN,
    Board,
    IllegalReason,
    Move,
    Piece,
    piece_type_symbol,
    square_distance,
    square_name,
    unpromoted,
)
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

SENSINGS = ("occupancy", "polarity", "identity")

DEFAULT_RATES: dict[str, float] = {
    "bounce": 0.45,
    "slide": 0.15,
    "origin_lag": 0.5,
    "pass_over": 0.12,
    "hover": 0.07,
    "drop_hover": 0.2,
    "knock": 0.05,
    "capture_knock": 0.08,
    "sleeve": 0.025,
    "shove": 0.006,
    "touch": 0.04,
    "correction": 0.03,
    "hold": 0.08,
    "fast_capture": 0.2,
    "flip": 0.2,
    "quick_answer": 0.15,
    "illegal": 0.012,
}
RATE_NAMES = tuple(DEFAULT_RATES)


class GeneratorBug(AssertionError):
    """The generator produced something inconsistent (its fault, not the tracker's)."""


@dataclass(frozen=True)
class Profile:
    """A player's habits: timings and a multiplier per noise kind."""

    name: str
    think: float  # median think time, seconds (before pace)
    hand: float  # hand-motion time multiplier
    mult: dict[str, float]
    order: tuple[float, float, float]  # capture habits: target first, attacker first, swap
    jitter: int  # extra bounce toggles pairs (heavy hands bounce more)


def _m(**kw: float) -> dict[str, float]:
    out = dict.fromkeys(RATE_NAMES, 1.0)
    for k, v in kw.items():
        if k not in out:
            raise KeyError(k)
        out[k] = v
    return out


PROFILES: tuple[Profile, ...] = (
    Profile(
        "tidy",
        5.0,
        1.25,
        _m(
            bounce=0.6,
            slide=0.3,
            pass_over=0.5,
            hover=0.5,
            drop_hover=0.5,
            knock=0.3,
            capture_knock=0.3,
            sleeve=0.3,
            shove=0.2,
            touch=0.5,
            correction=0.4,
            hold=0.5,
            fast_capture=0.3,
            flip=0.6,
            quick_answer=0.3,
            illegal=0.5,
        ),
        (0.7, 0.25, 0.05),
        0,
    ),
    Profile(
        "nervous",
        2.5,
        0.9,
        _m(
            bounce=1.2,
            pass_over=1.5,
            hover=2.0,
            drop_hover=1.5,
            knock=1.5,
            capture_knock=1.5,
            sleeve=1.5,
            shove=1.5,
            touch=3.0,
            correction=2.0,
            flip=1.2,
            quick_answer=1.5,
            illegal=1.5,
        ),
        (0.35, 0.45, 0.2),
        1,
    ),
    Profile(
        "blitz",
        1.0,
        0.5,
        _m(
            bounce=1.3,
            slide=2.5,
            hover=0.5,
            knock=1.5,
            capture_knock=1.5,
            touch=0.3,
            hold=0.3,
            fast_capture=2.5,
            flip=0.8,
            quick_answer=2.5,
            illegal=1.5,
        ),
        (0.2, 0.3, 0.5),
        1,
    ),
    Profile(
        "heavy",
        3.0,
        0.8,
        _m(
            bounce=2.0,
            slide=1.5,
            hover=0.8,
            knock=3.0,
            capture_knock=3.0,
            sleeve=3.0,
            shove=3.0,
            touch=0.8,
            correction=0.8,
            hold=0.8,
            fast_capture=1.5,
        ),
        (0.4, 0.3, 0.3),
        2,
    ),
    Profile(
        "hesitant",
        8.0,
        1.4,
        _m(
            bounce=0.8,
            slide=0.5,
            pass_over=1.5,
            hover=2.5,
            drop_hover=2.0,
            knock=0.8,
            sleeve=0.8,
            shove=0.5,
            touch=2.5,
            correction=2.5,
            hold=3.0,
            fast_capture=0.3,
            flip=1.5,
            quick_answer=0.3,
        ),
        (0.3, 0.6, 0.1),
        0,
    ),
)
PROFILE_NAMES = tuple(p.name for p in PROFILES)


@dataclass
class Generated:
    """A generated log: events, per-ply notes and completion marks, noise counts."""

    events: list[SensorEvent]
    notes: list[list[str]]
    marks: list[float]
    counts: dict[str, int] = field(default_factory=dict)
    profiles: tuple[str, str] = ("", "")


def cell_of(piece: Piece, sensing: str) -> str:
    """The cell a piece shows on a board of that sensing."""
    if sensing == "occupancy":
        return OCCUPIED
    if sensing == "polarity":
        return PROMOTED if piece.is_promoted() else UNPROMOTED
    return IDENTITY_CELLS[piece.piece_type - 1]


def cells_of(board: Board, sensing: str) -> str:
    out = []
    for sq in range(81):
        p = board.piece_at(sq)
        out.append(EMPTY if p is None else cell_of(p, sensing))
    return "".join(out)


def _line(a: int, b: int) -> list[int]:
    """Squares strictly between a and b along the straight (or nearest) line."""
    ra, fa = divmod(a, 9)
    rb, fb = divmod(b, 9)
    n = max(abs(ra - rb), abs(fa - fb))
    out: list[int] = []
    for i in range(1, n):
        r = int(math.floor(ra + (rb - ra) * i / n + 0.5))
        f = int(math.floor(fa + (fb - fa) * i / n + 0.5))
        s = r * 9 + f
        if s not in (a, b) and s not in out:
            out.append(s)
    return out


def _straight(a: int, b: int) -> bool:
    ra, fa = divmod(a, 9)
    rb, fb = divmod(b, 9)
    return ra == rb or fa == fb or abs(ra - rb) == abs(fa - fb)


def _neighbours(sq: int) -> list[int]:
    r, f = divmod(sq, 9)
    out = []
    for dr in (-1, 0, 1):
        for df in (-1, 0, 1):
            if (dr or df) and 0 <= r + dr < 9 and 0 <= f + df < 9:
                out.append((r + dr) * 9 + f + df)
    return out


class _Dojo:
    def __init__(
        self,
        sfen: str,
        seed: int,
        sensing: str,
        pace: float,
        noise: float,
        scan_hz: float | None,
        rates: dict[str, float] | None,
    ) -> None:
        if sensing not in SENSINGS:
            raise ValueError(f"unknown sensing {sensing!r} (one of {SENSINGS})")
        if pace <= 0 or noise < 0:
            raise ValueError("pace must be > 0 and noise >= 0")
        if scan_hz is not None and scan_hz <= 0:
            raise ValueError("scan_hz must be > 0")
        base = dict(DEFAULT_RATES)
        for k, v in (rates or {}).items():
            if k not in base:
                raise ValueError(f"unknown rate {k!r} (known: {', '.join(RATE_NAMES)})")
            if v < 0:
                raise ValueError(f"rate {k!r} must be >= 0")
            base[k] = float(v)
        self.base = base
        self.rng = random.Random(seed)
        self.sensing = sensing
        self.pace = pace
        self.noise = noise
        self.scan_hz = scan_hz
        self.period = 1.0 / scan_hz if scan_hz else 0.0
        self.board = Board(sfen)
        self.start_cells = cells_of(self.board, sensing)
        self.cur = list(self.start_cells)
        self.last_t = [0.0] * 81
        self.changes: list[tuple[float, int, int, str]] = []
        self.inputs: list[tuple[float, str, int]] = []  # t, value, ply index
        self.seq = 0
        self.counts: dict[str, int] = dict.fromkeys(RATE_NAMES, 0)
        for extra in ("capture_target_first", "capture_attacker_first", "capture_swap"):
            self.counts[extra] = 0
        self.counts["answers"] = 0
        self.profiles = (self.rng.choice(PROFILES), self.rng.choice(PROFILES))
        self.notes: list[str] = []
        self.t_last_change = 0.0
        self.last_capture_sq: int | None = None

    # --- randomness -------------------------------------------------------------

    def chance(self, kind: str, prof: Profile, scale: float = 1.0) -> bool:
        p = min(0.95, self.base[kind] * self.noise * prof.mult[kind] * scale)
        if p > 0 and self.rng.random() < p:
            self.counts[kind] += 1
            return True
        return False

    def hand(self, prof: Profile, lo: float, hi: float) -> float:
        """A hand-motion duration (scaled by pace and the player's speed)."""
        return self.rng.uniform(lo, hi) * self.pace * prof.hand

    def human(self, lo: float, hi: float, floor: float = 0.05) -> float:
        """A human pause (scaled by pace)."""
        return max(floor, self.rng.uniform(lo, hi) * self.pace)

    def think(self, prof: Profile) -> float:
        x = self.rng.lognormvariate(math.log(prof.think), 0.8)
        return min(20.0, max(0.3, x)) * self.pace

    def visible(self, d: float) -> float:
        """A meaningful duration stretched so that at least one scan sees it."""
        return max(d, 1.2 * self.period + 0.001) if self.period else d

    # --- physical square changes -------------------------------------------------

    def put(self, t: float, sq: int, val: str) -> float:
        t = round(t, 6)
        if t < self.last_t[sq] or t <= 0:
            raise GeneratorBug(
                f"square {square_name(sq)} changes at {t} before its last change {self.last_t[sq]}"
            )
        self.seq += 1
        self.changes.append((t, self.seq, sq, val))
        self.cur[sq] = val
        self.last_t[sq] = t
        self.t_last_change = max(self.t_last_change, t)
        return t

    def _toggles(self, prof: Profile) -> list[float]:
        """Offsets (s) of the extra bounce toggles after a contact, in pairs; [] if none."""
        if not self.chance("bounce", prof):
            return []
        pairs = self.rng.randint(1, 2 + prof.jitter)
        window = self.rng.uniform(0.002, 0.015)
        offs = sorted(self.rng.uniform(0.0003, window) for _ in range(2 * pairs))
        out: list[float] = []
        last = 0.0
        for o in offs:
            o = max(o, last + 0.0003)
            out.append(o)
            last = o
        return out

    def land(self, t: float, sq: int, val: str, prof: Profile, bounce: bool = True) -> float:
        """A piece set on an empty square at t; returns when the square is settled."""
        if self.cur[sq] != EMPTY:
            raise GeneratorBug(f"landing on occupied {square_name(sq)}")
        end = self.put(t, sq, val)
        if bounce:
            for i, o in enumerate(self._toggles(prof)):
                end = self.put(t + o, sq, EMPTY if i % 2 == 0 else val)
        return end

    def lift(self, t: float, sq: int, prof: Profile, bounce: bool = True) -> float:
        """A piece lifted from sq at t; returns when the square reads empty for good."""
        val = self.cur[sq]
        if val == EMPTY:
            raise GeneratorBug(f"lifting from empty {square_name(sq)}")
        end = self.put(t, sq, EMPTY)
        if bounce:
            for i, o in enumerate(self._toggles(prof)):
                end = self.put(t + o, sq, val if i % 2 == 0 else EMPTY)
        return end

    def pulse(self, t: float, sq: int, val: str, dur: float, flicker: bool = False) -> float:
        """An empty square triggered by a piece over it; returns when it reads empty again."""
        if self.cur[sq] != EMPTY:
            raise GeneratorBug(f"pulse on occupied {square_name(sq)}")
        if not flicker:
            self.put(t, sq, val)
            return self.put(t + max(dur, 0.0005), sq, EMPTY)
        end = t
        n = self.rng.randint(2, 3)
        for _ in range(n):
            on = max(0.002, dur / n * self.rng.uniform(0.4, 1.0))
            self.put(end, sq, val)
            end = self.put(end + on, sq, EMPTY)
            end += self.rng.uniform(0.005, 0.06)
        return self.last_t[sq]

    def knock(self, t: float, sq: int, prof: Profile, why: str) -> float:
        """A piece knocked (it wobbles, or falls and is put back on its square)."""
        val = self.cur[sq]
        t1 = self.lift(t, sq, prof)
        if self.rng.random() < 0.7:
            d = self.rng.uniform(0.015, 0.15)
        else:
            d = self.visible(self.rng.uniform(0.2, 1.2))
        end = self.land(t1 + d, sq, val, prof)
        self.notes.append(f"{why} {square_name(sq)} {1000 * d:.0f}ms")
        return end

    # --- choosing squares ----------------------------------------------------------

    def empty_squares(self) -> list[int]:
        return [s for s in range(81) if self.cur[s] == EMPTY]

    def knock_target(self, around: list[int], exclude: set[int], t: float) -> int | None:
        """An occupied neighbour, not part of the move, quiet since before t."""
        cands = sorted(
            {
                n
                for a in around
                for n in _neighbours(a)
                if self.cur[n] != EMPTY and self.last_t[n] < t - 0.002
            }
            - exclude
        )
        return self.rng.choice(cands) if cands else None

    def hand_knock(self, t: float, around: list[int], exclude: set[int], prof: Profile) -> None:
        if self.chance("knock", prof):
            t = t + self.rng.uniform(0.0, 0.04)
            n = self.knock_target(around, exclude, t)
            if n is not None:
                self.knock(t, n, prof, "hand knocks")

    # --- a ply ---------------------------------------------------------------------

    def answer(self, t_settled: float, value: str, prof: Profile, ply: int) -> float:
        if self.chance("quick_answer", prof):
            d = self.rng.uniform(0.08, 0.2)
            how = "quick"
        else:
            d = self.human(0.2, 3.0, floor=0.08)
            how = "after"
        d = max(d, 1.5 * self.period + 0.002) if self.period else d
        t = round(t_settled + d, 6)
        self.inputs.append((t, value, ply))
        self.counts["answers"] += 1
        self.notes.append(f"answer {value} {how} +{d:.2f}s")
        return t

    def sleeve(self, t0: float, t1: float, mover: int, opp: Profile) -> None:
        """The waiting player's sleeve, between t0 and t1 (the mover's think)."""
        waiting = 1 - mover
        if t1 - t0 < 0.5:
            return
        near = range(54, 81) if waiting == BLACK else range(0, 27)
        own = [s for s in near if (p := self.board.piece_at(s)) is not None and p.color == waiting]
        if not own:
            return
        if self.chance("shove", opp):
            cands = [(s, n) for s in own for n in _neighbours(s) if self.cur[n] == EMPTY]
            if cands:
                s, n = self.rng.choice(cands)
                val = self.cur[s]
                dwell = self.visible(self.human(0.2, 1.5))
                back = self.visible(self.human(0.15, 0.5))
                start = t0 + self.rng.uniform(0.05, 0.3)
                if start + dwell + back + 0.15 < t1:
                    e = self.lift(start, s, opp, bounce=False)
                    e = self.land(e + self.rng.uniform(0.01, 0.05), n, val, opp)
                    e = self.lift(e + dwell, n, opp)
                    self.land(e + back, s, val, opp)
                    self.notes.append(
                        f"sleeve shoves {square_name(s)}->{square_name(n)} back after {dwell:.2f}s"
                    )
                    return
        if self.chance("sleeve", opp):
            s = self.rng.choice(own)
            start = t0 + self.rng.uniform(0.05, max(0.06, t1 - t0 - 1.5))
            if start + 1.4 < t1:
                self.knock(start, s, opp, "sleeve knocks")

    def touch(self, t: float, mover: int, prof: Profile, move: Move) -> float:
        own = [
            s
            for s in range(81)
            if (p := self.board.piece_at(s)) is not None
            and p.color == mover
            and self.board.legal_moves_from(s)
        ]
        if not own:
            return t
        if move.from_square is not None and self.rng.random() < 0.4:
            s = move.from_square
        else:
            s = self.rng.choice(own)
        val = self.cur[s]
        e = self.lift(t, s, prof)
        held = self.visible(self.human(0.3, 3.0))
        # sometimes it hovers over a square it could go to while held
        alts = [
            m.to_square for m in self.board.legal_moves_from(s) if self.cur[m.to_square] == EMPTY
        ]
        if alts and self.rng.random() < 0.3 and held > 0.4:
            c = self.rng.choice(alts)
            self.pulse(e + held * 0.3, c, val, self.rng.uniform(0.03, 0.2))
        e = self.land(e + held, s, val, prof)
        self.notes.append(f"touches {square_name(s)} {held:.1f}s, puts it back")
        return e + self.human(0.2, 3.0)

    def illegal(self, t: float, mover: int, prof: Profile, move: Move) -> float:
        b = self.board
        moves: list[tuple[float, Move, IllegalReason]] = []
        empties = [s for s in range(81) if b.piece_at(s) is None]
        for a in range(81):
            p = b.piece_at(a)
            if p is None or p.color != mover:
                continue
            for c in empties:
                if square_distance(a, c) > 3:
                    continue
                m0, m1 = Move(a, c), Move(a, c, True)
                if b.is_legal(m0) or b.is_legal(m1):
                    continue
                reason = b.illegal_reason(m0)
                if reason == IllegalReason.KING_IN_CHECK:
                    w = 6.0
                elif reason == IllegalReason.NOT_A_MOVE_OF_THAT_PIECE and (
                    square_distance(a, c) == 1 or (square_distance(a, c) == 2 and _straight(a, c))
                ):
                    w = 0.3
                else:
                    continue
                if a == move.from_square:
                    w *= 3
                moves.append((w, m0, reason))
        hand = b.pieces_in_hand[mover]
        if hand.get(PAWN):
            legal_on = {m.to_square for m in b.legal_drops()}
            for c in empties:
                m = Move(None, c, drop_piece_type=PAWN)
                if b.illegal_reason(m) != IllegalReason.NIFU:
                    continue
                if self.sensing != "identity" and c in legal_on:
                    continue  # the board would see a legal drop of another kind
                moves.append((2.0, m, IllegalReason.NIFU))
        if not moves:
            self.counts["illegal"] -= 1
            return t
        _w, m, reason = self.rng.choices(moves, weights=[w for w, _m, _r in moves])[0]
        c = m.to_square
        if m.from_square is None:
            val = cell_of(Piece(PAWN, mover), self.sensing)
            e = self.land(t + self.hand(prof, 0.3, 1.0), c, val, prof)
        else:
            a = m.from_square
            val = self.cur[a]
            e = self.lift(t, a, prof)
            e = self.land(e + self.hand(prof, 0.2, 0.8), c, val, prof)
        red = self.visible(max(0.3, self.rng.uniform(0.5, 3.0) * self.pace))
        e = self.lift(e + red, c, prof)
        if m.from_square is not None:
            e = self.land(e + self.hand(prof, 0.15, 0.6), m.from_square, val, prof)
        self.notes.append(f"illegal {m.usi()} ({reason.value}), red {red:.1f}s, taken back")
        return e + self.human(0.3, 3.0)

    def slide(self, t: float, a: int, b: int, val: str, prof: Profile) -> float:
        """Slide a piece from a to b along the empty line between; returns the settle time."""
        path = _line(a, b) + [b]
        step = self.hand(prof, 0.04, 0.15)
        lag = (
            self.rng.uniform(0.005, 0.06)
            if self.chance("origin_lag", prof)
            else -self.rng.uniform(0.0, 0.03)
        )
        prev = a
        tc = t
        first = True
        end = t
        for s in path:
            self.put(tc, s, val)  # closes as the piece arrives
            if first:
                off = max(tc + lag, self.last_t[prev] + 0.0005)
                first = False
            else:
                off = max(tc + self.rng.uniform(-0.02, 0.03), self.last_t[prev] + 0.01)
            end = self.put(off, prev, EMPTY)
            prev = s
            tc = max(tc + step * self.rng.uniform(0.7, 1.3), end + 0.001)
        if self.cur[b] != val:
            raise GeneratorBug("slide lost its piece")
        # a slid piece may still rattle a little as it stops
        if self.rng.random() < 0.3:
            base = self.last_t[b]
            for i, o in enumerate(self._toggles(prof)):
                end = max(end, self.put(base + o, b, EMPTY if i % 2 == 0 else val))
        self.notes.append(
            f"slides {square_name(a)}->{square_name(b)} over {len(path) - 1} (lag {1000 * lag:.0f}ms)"
        )
        return max(end, self.last_t[b])

    def carry(
        self, t: float, a: int | None, b: int, val: str, prof: Profile, alts: list[int]
    ) -> float:
        """A held piece carried to above b (b empty); hovers/pass-overs on the way.

        Returns the time the hand is over b, ready to set the piece down."""
        e = t + self.hand(prof, 0.15, 0.6)
        if a is not None and self.chance("pass_over", prof):
            over = [s for s in _line(a, b) if self.cur[s] == EMPTY]
            for s in over:
                if self.rng.random() < 0.6:
                    e = self.pulse(e, s, val, self.rng.uniform(0.008, 0.06)) + self.rng.uniform(
                        0.01, 0.08
                    )
            if over:
                self.notes.append("passes low over " + ",".join(square_name(s) for s in over))
        if self.chance("hover", prof):
            cands = [s for s in alts if s != b and self.cur[s] == EMPTY]
            if cands and self.rng.random() < 0.7:
                for s in self.rng.sample(cands, min(len(cands), self.rng.randint(1, 2))):
                    d = self.rng.uniform(0.08, 0.6)
                    e = self.pulse(e, s, val, d, flicker=self.rng.random() < 0.4)
                    e += self.hand(prof, 0.1, 0.5)
                    self.notes.append(f"hovers over {square_name(s)} {1000 * d:.0f}ms")
            if self.cur[b] == EMPTY:
                d = self.rng.uniform(0.02, 0.25)
                e = self.pulse(e, b, val, d, flicker=self.rng.random() < 0.3)
                e += self.rng.uniform(0.04, 0.4) * self.pace
                self.notes.append(f"hovers over its square {1000 * d:.0f}ms first")
        return e

    def drop_path(self, t: float, mover: int, b: int, val: str, prof: Profile) -> float:
        """A piece carried from the komadai to above b, perhaps triggering squares."""
        e = t + self.hand(prof, 0.3, 1.0)
        if self.chance("drop_hover", prof):
            # the komadai is at the mover's right: black's beyond 1i, white's beyond 9a
            origin = 80 if mover == BLACK else 0
            over = [s for s in _line(origin, b) if self.cur[s] == EMPTY]
            over = [s for s in over if square_distance(s, b) <= 3] or [
                s for s in _neighbours(b) if self.cur[s] == EMPTY
            ]
            hit = [s for s in over if self.rng.random() < 0.5]
            for s in hit:
                e = self.pulse(e, s, val, self.rng.uniform(0.01, 0.3), self.rng.random() < 0.3)
                e += self.rng.uniform(0.02, 0.2)
            if hit:
                self.notes.append("drop hovers over " + ",".join(square_name(s) for s in hit))
        return e

    def ply(self, k: int, move: Move) -> float:
        b = self.board
        mover = b.turn
        prof = self.profiles[mover]
        opp = self.profiles[1 - mover]
        self.notes = []
        t0 = max(self.t_last_change, self.cursor)
        think = self.think(prof)
        if self.last_capture_sq is not None and move.to_square == self.last_capture_sq:
            think *= 0.3  # recapture
            think = max(think, 0.3 * self.pace)
        t = t0 + think
        self.notes.append(f"{prof.name} thinks {think:.1f}s")
        self.sleeve(t0, t, mover, opp)
        t = max(t, self.t_last_change + 0.05)
        if self.chance("touch", prof):
            t = self.touch(t, mover, prof, move)
        if self.chance("illegal", prof):
            t = self.illegal(t, mover, prof, move)

        after = b.copy(stack=False)
        after.push(move)
        to = move.to_square
        piece_after = after.piece_at(to)
        assert piece_after is not None
        final_val = cell_of(piece_after, self.sensing)
        capture = b.piece_at(to) is not None
        questions: list[str] = []
        if move.drop_piece_type is not None:
            kinds = {m.drop_piece_type for m in b.legal_drops() if m.to_square == to}
            if self.sensing != "identity" and len(kinds) > 1:
                questions.append(piece_type_symbol(move.drop_piece_type))
        else:
            fr = move.from_square
            assert fr is not None
            other = Move(fr, to, not move.promotion)
            if self.sensing == "occupancy" and b.is_legal(other):
                questions.append("promote" if move.promotion else "nonpromote")

        turn_over = move.promotion and self.chance("flip", prof)
        if turn_over:
            set_val = cell_of(Piece(unpromoted(piece_after.piece_type), mover), self.sensing)
        else:
            set_val = final_val

        if move.drop_piece_type is not None:
            settled = self.do_drop(t, mover, move, set_val, prof)
        else:
            settled = self.do_board_move(t, mover, move, set_val, capture, prof)
        if turn_over:
            gap = self.human(0.2, 2.0)
            e = self.lift(max(settled, self.last_t[to]) + gap, to, prof)
            up = self.visible(self.rng.uniform(0.05, 0.4))
            settled = self.land(e + up, to, final_val, prof)
            self.notes.append(f"turns it over on {square_name(to)} after {gap:.1f}s")
        if self.cur[to] != final_val:
            raise GeneratorBug(f"ply {k + 1}: {square_name(to)} shows {self.cur[to]!r}")
        settled = max(settled, self.last_t[to])

        done = settled
        for q in questions:
            # the question shows once the board is quiet (a knocked piece back): answer then
            done = self.answer(max(settled, self.t_last_change), q, prof, k)
        self.board.push(move)
        self.last_capture_sq = to if capture else None
        mark = max(done, self.t_last_change) + max(0.05, 2.0 * self.period + 0.002)
        return round(mark, 6)

    def do_drop(self, t: float, mover: int, move: Move, val: str, prof: Profile) -> float:
        to = move.to_square
        e = t
        if self.chance("correction", prof):
            pt = move.drop_piece_type
            cands = [
                m.to_square
                for m in self.board.legal_drops(pt)
                if m.to_square != to and square_distance(m.to_square, to) <= 2
            ]
            if cands:
                c = self.rng.choice(cands)
                e = self.drop_path(e, mover, c, val, prof)
                e = self.land(e, c, val, prof)
                dwell = self.visible(self.human(0.3, 2.5))
                e = self.lift(e + dwell, c, prof)
                e = e + self.hand(prof, 0.15, 0.5)
                self.notes.append(
                    f"drops on {square_name(c)} first, moves it on after {dwell:.1f}s"
                )
                return self.land(e, to, val, prof)
            self.counts["correction"] -= 1
        e = self.drop_path(e, mover, to, val, prof)
        alts = [m.to_square for m in self.board.legal_drops(move.drop_piece_type)]
        if self.chance("hover", prof):
            cands = [s for s in alts if s != to and square_distance(s, to) <= 2]
            if cands:
                s = self.rng.choice(cands)
                d = self.rng.uniform(0.08, 0.6)
                e = self.pulse(e, s, val, d, flicker=self.rng.random() < 0.4)
                e += self.hand(prof, 0.1, 0.5)
                self.notes.append(f"hovers over {square_name(s)} {1000 * d:.0f}ms")
        e = self.land(e, to, val, prof)
        self.hand_knock(e - 0.01, [to], {to}, prof)
        self.notes.append(f"drops {move.usi()}")
        return e

    def do_board_move(
        self, t: float, mover: int, move: Move, val: str, capture: bool, prof: Profile
    ) -> float:
        b = self.board
        a = move.from_square
        to = move.to_square
        assert a is not None
        a0 = a
        piece = b.piece_at(a)
        assert piece is not None
        moving_val = self.cur[a]
        legal_from = b.legal_moves_from(a)
        alts = [m.to_square for m in legal_from]
        e = t
        # a correction: set on another legal square first, then moved on
        if self.chance("correction", prof):
            cands = [
                c
                for c in alts
                if c != to
                and self.cur[c] == EMPTY
                and (piece.is_promoted() or b.is_legal(Move(a, c)))
                and square_distance(c, to) <= 3
            ]
            if cands:
                c = self.rng.choice(cands)
                e = self.lift(e, a, prof)
                e = self.carry(e, a, c, moving_val, prof, [])
                e = self.land(e, c, moving_val, prof)
                dwell = self.visible(self.human(0.3, 2.5))
                self.notes.append(f"sets it on {square_name(c)} first, moves on after {dwell:.1f}s")
                a = c
                e = e + dwell
            else:
                self.counts["correction"] -= 1
        exclude = {a0, a, to}
        if capture:
            # Fairness: a knocked enemy piece the attacker could have taken, and that reads
            # like the attacker, empties and refills after the attacker's lift exactly as a
            # capture on it would: two legal moves, one log. Knock others only.
            reach = set(alts) if a == a0 else set(range(81))
            for x in reach:
                p = b.piece_at(x)
                if p is not None and p.color != mover and self.cur[x] in (val, moving_val):
                    exclude.add(x)
        slidable = (
            piece.piece_type != KNIGHT
            and _straight(a, to)
            and all(self.cur[s] == EMPTY for s in _line(a, to))
        )
        if not capture:
            if slidable and self.chance("slide", prof):
                e = self.slide(e, a, to, val, prof)
                self.hand_knock(e - 0.02, [to], exclude, prof)
                return e
            l_end = self.lift(e, a, prof)
            self.hand_knock(e, [a], exclude, prof)
            e = l_end
            if self.chance("hold", prof):
                held = self.human(1.0, 5.0)
                e += held
                self.notes.append(f"holds it {held:.1f}s")
            e = self.carry(e, a, to, val, prof, alts)
            e = self.land(e, to, val, prof)
            self.hand_knock(e, [to], exclude, prof)
            self.notes.append(f"moves {square_name(a)}->{square_name(to)}")
            return e
        # a capture
        if self.chance("fast_capture", prof):
            order = 2
        else:
            w = prof.order
            order = self.rng.choices((0, 1), weights=(w[0], w[1] + w[2]))[0]
        if order == 0:
            self.counts["capture_target_first"] += 1
            e = self.lift(e, to, prof)
            if self.chance("capture_knock", prof):
                tk = e + self.rng.uniform(0.0, 0.05)
                n = self.knock_target([to], exclude, tk)
                if n is not None:
                    kend = self.knock(tk, n, prof, "capture knocks")
                    if kend - tk > 0.2:  # it fell: the same hand puts it back first
                        e = max(e, kend + self.hand(prof, 0.1, 0.4))
            e += self.visible(self.human(0.2, 1.5))  # the captured piece to the komadai
            self.notes.append("takes the target first")
            if slidable and self.chance("slide", prof):
                return self.slide(e, a, to, val, prof)
            e = self.lift(e, a, prof)
            e = self.carry(e, a, to, val, prof, alts)
            e = self.land(e, to, val, prof)
            self.hand_knock(e, [to], exclude | {to}, prof)
            return e
        la = e
        e = self.lift(e, a, prof)
        self.hand_knock(la, [a], exclude, prof)
        if self.chance("hold", prof):
            held = self.human(1.0, 5.0)
            e += held
            self.notes.append(f"holds the attacker {held:.1f}s")
        e += self.hand(prof, 0.15, 0.6)
        if self.chance("pass_over", prof):
            over = [s for s in _line(a, to) if self.cur[s] == EMPTY]
            for s in over:
                if self.rng.random() < 0.6:
                    e = self.pulse(e, s, val, self.rng.uniform(0.008, 0.06)) + 0.02
        if self.chance("capture_knock", prof):
            tk = max(la, e - self.rng.uniform(0.0, 0.1))
            n = self.knock_target([to], exclude, tk)
            if n is not None:
                self.knock(tk, n, prof, "capture knocks")
        e = max(e, self.last_t[to] + 0.001)
        e = self.lift(e, to, prof)
        if order == 2:
            self.counts["capture_swap"] += 1
            gap = self.rng.uniform(0.015, 0.08)
            if self.period:
                gap = max(gap, 1.2 * self.period + 0.001)
            self.notes.append(f"swaps: target square empty {1000 * gap:.0f}ms")
        else:
            self.counts["capture_attacker_first"] += 1
            gap = self.visible(self.human(0.1, 1.0))
            self.notes.append(f"attacker first, target off for {gap:.2f}s")
        e = self.land(e + gap, to, val, prof)
        self.hand_knock(e, [to], exclude, prof)
        return e

    cursor: float = 0.5


def _compile(
    start: str,
    changes: list[tuple[float, int, int, str]],
    inputs: list[tuple[float, str, int]],
    period: float,
    phase: float,
) -> list[SensorEvent]:
    changes = sorted(changes)
    frames: list[SensorEvent] = [SensorFrame(0.0, start)]
    cells = list(start)
    last = start
    i, n = 0, len(changes)
    while i < n:
        t = changes[i][0]
        if period:
            s = round(phase + math.ceil((t - phase) / period - 1e-9) * period, 6)
            if s < t:
                s = round(s + period, 6)
        else:
            s = t
        while i < n and changes[i][0] <= s:
            cells[changes[i][2]] = changes[i][3]
            i += 1
        now = "".join(cells)
        if now != last:
            frames.append(SensorFrame(s, now))
            last = now
    events: list[SensorEvent] = frames + [PlayerInput(t, v) for t, v, _k in inputs]
    events.sort(key=lambda ev: (ev.t, 0 if isinstance(ev, SensorFrame) else 1))
    return events


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
    """A sensor log of the game played by two club players, with notes and marks."""
    g = _Dojo(sfen, seed, sensing, pace, noise, scan_hz, rates)
    truth = Board(sfen)
    notes: list[list[str]] = []
    marks: list[float] = []
    for k, usi in enumerate(moves):
        try:
            move = truth.push_usi(usi)
        except ValueError as exc:
            raise GeneratorBug(f"ply {k + 1}: true move {usi} is not legal: {exc}") from exc
        mark = g.ply(k, move)
        g.cursor = mark
        notes.append(g.notes)
        marks.append(mark)
    phase = g.rng.uniform(0.0, g.period) if g.period else 0.0
    events = _compile(g.start_cells, g.changes, g.inputs, g.period, phase)
    _self_check(events, moves, sfen, sensing, marks, g.inputs)
    return Generated(events, notes, marks, g.counts, (g.profiles[0].name, g.profiles[1].name))


def _self_check(
    events: list[SensorEvent],
    moves: list[str],
    sfen: str,
    sensing: str,
    marks: list[float],
    inputs: list[tuple[float, str, int]],
) -> None:
    if not events or not isinstance(events[0], SensorFrame) or events[0].t != 0.0:
        raise GeneratorBug("the log must start with the starting board at t=0")
    board = Board(sfen)
    if events[0].cells != cells_of(board, sensing):
        raise GeneratorBug("the first frame is not the starting position")
    last = -1.0
    for ev in events:
        if ev.t < last:
            raise GeneratorBug(f"time goes backwards at {ev.t}")
        if round(ev.t, 6) != ev.t:
            raise GeneratorBug(f"time not rounded to the microsecond: {ev.t!r}")
        last = ev.t
    if sorted(marks) != marks:
        raise GeneratorBug("marks go backwards")
    frames = [ev for ev in events if isinstance(ev, SensorFrame)]
    fi = 0
    by_ply: dict[int, list[str]] = {}
    for _t, v, k in inputs:
        by_ply.setdefault(k, []).append(v)
    prev_mark = 0.0
    for k, (usi, mark) in enumerate(zip(moves, marks, strict=True)):
        move = Move.from_usi(usi)
        if not board.is_legal(move):
            raise GeneratorBug(f"ply {k + 1}: {usi} is illegal")
        expect: list[str] = []
        if move.drop_piece_type is not None:
            kinds = {
                m.drop_piece_type for m in board.legal_drops() if m.to_square == move.to_square
            }
            if sensing != "identity" and len(kinds) > 1:
                expect = [piece_type_symbol(move.drop_piece_type)]
        elif sensing == "occupancy" and board.is_legal(
            Move(move.from_square, move.to_square, not move.promotion)
        ):
            expect = ["promote" if move.promotion else "nonpromote"]
        if by_ply.get(k, []) != expect:
            raise GeneratorBug(f"ply {k + 1}: inputs {by_ply.get(k)} but expected {expect}")
        for t, _v, kk in inputs:
            if kk == k and not (prev_mark < t <= mark):
                raise GeneratorBug(f"ply {k + 1}: input at {t} outside its ply")
        board.push(move)
        while fi + 1 < len(frames) and frames[fi + 1].t <= mark:
            fi += 1
        want = cells_of(board, sensing)
        if frames[fi].cells != want:
            raise GeneratorBug(
                f"ply {k + 1} ({usi}): frame at {frames[fi].t} differs from the position at "
                f"mark {mark}: {frames[fi].board_string()} vs "
                f"{SensorFrame(0.0, want).board_string()}"
            )
        prev_mark = mark
    if frames[-1].cells != cells_of(board, sensing):
        raise GeneratorBug("the last frame is not the final position")
    if frames[-1].t > (marks[-1] if marks else 0.0):
        raise GeneratorBug("frames after the last mark")
