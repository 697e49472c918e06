"""motorgen: a third independent sensor-log generator for a reed-switch shogi board,
written without reading the tracker or the other generators (simulate.py, altgen.py,
handgen.py), from ARCHITECTURE.md's physical facts alone.

Model (own design, first principles):

* Each player has a fixed "hand speed" (lognormal) and a thinking style; every move adds
  its own jitter and the game speeds up after the opening middle (time pressure).
* Motor primitives, not fixed phases: reach (no sensor effect), grip, lift (switch opens),
  transport with a Fitts'-law duration (a + b*log2(1 + distance)), land (switch closes),
  release.  Sometimes the mover holds the piece in the air a while (indecision).
* Thinking time: a three-part mixture (quick / normal / deep Pareto tail), faster in the
  opening.
* Captures: one hand target-first (target carried to the stand, then the attacker moved),
  two hands target-first (one hand lifts the target, the other the attacker just after),
  two hands attacker-first (attacker held over the target, the target snatched out,
  attacker dropped in; with noise some of these are "fast": the target reads empty for
  only 12..90 ms).
* Noise (each rate multiplied by ``noise``): contact bounce on landing and on lifting,
  a carried piece (captured piece to the stand, piece from the stand to a drop, a long
  move) held low enough to close an empty switch it passes over, hesitation over a square
  next to the destination, sliders dragged along the board, a neighbour knocked and pushed
  back, a piece straightened (switch opens for a few tens of ms), a piece touched and put
  back between moves (either player), a correction (piece set down on a legal, quiet
  square for >= 0.6 s then moved on), an illegal move or illegal drop shown for ~1-3 s and
  taken back, and a rare stray input when no question is pending.

Every noise event leaves the board as the true game says; every move's end state is
checked against the rules core.
"""

from __future__ import annotations

import math
import random

from board_bridge.shogi import (
    BISHOP,
    BLACK,
    DRAGON,
    HORSE,
    LANCE,
    ROOK,
    Board,
    Move,
)
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame

SLIDERS = {ROOK, BISHOP, LANCE, DRAGON, HORSE}
KIND_LETTER = {6: "R", 5: "B", 7: "G", 4: "S", 3: "N", 2: "L", 1: "P"}

# base rates of the noise kinds (per opportunity), multiplied by ``noise``
RATES = {
    "bounce_land": 0.03,  # per landing
    "bounce_lift": 0.015,  # per lift
    "hover_carry": 0.04,  # per carry over empty squares
    "hesitate": 0.02,  # per board move / drop landing
    "drag": 0.30,  # per eligible slider move
    "knock": 0.02,  # per move
    "straighten": 0.012,  # per move (after landing or between moves)
    "touch": 0.02,  # per think window
    "correction": 0.02,  # per board move
    "drop_correction": 0.03,  # per drop
    "illegal": 0.012,  # per board move
    "illegal_drop": 0.04,  # per drop (only if some square is illegal for every kind)
    "stray_input": 0.01,  # per think window
    "fast_capture": 0.25,  # share of attacker-first captures that are fast
}


def _lognorm(rng: random.Random, median: float, sigma: float) -> float:
    return median * math.exp(rng.gauss(0.0, sigma))


def _xy(sq: int) -> tuple[float, float]:
    return float(sq % 9), float(sq // 9)


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _stand(color: int) -> tuple[float, float]:
    # sente's stand sits right of sente (beyond file 1, low ranks), gote's mirrored
    return (10.6, 7.2) if color == BLACK else (-1.6, 0.8)


def _path_squares(p0: tuple[float, float], p1: tuple[float, float]) -> list[int]:
    """Board squares under a straight carry from p0 to p1, in order."""
    n = max(2, int(_dist(p0, p1) * 5))
    out: list[int] = []
    for i in range(n + 1):
        x = p0[0] + (p1[0] - p0[0]) * i / n
        y = p0[1] + (p1[1] - p0[1]) * i / n
        c, r = round(x), round(y)
        if 0 <= c <= 8 and 0 <= r <= 8:
            sq = r * 9 + c
            if not out or out[-1] != sq:
                out.append(sq)
    return out


class _Gen:
    def __init__(self, sfen: str, seed: int, sensing: str, pace: float, noise: float) -> None:
        if sensing not in ("occupancy", "polarity"):
            raise ValueError(f"sensing must be occupancy or polarity: {sensing!r}")
        self.rng = random.Random(seed)
        self.board = Board(sfen)
        self.sensing = sensing
        self.pace = pace
        self.noise = noise
        self.ev: list[tuple[float, int, int | None, str]] = []  # (t, seq, sq|None, value)
        self.seq = 0
        self.cur = self._expected()
        self.start = list(self.cur)
        self.last_t = [0.0] * 81
        rng = self.rng
        self.hand_speed = [_lognorm(rng, 1.0, 0.22), _lognorm(rng, 1.0, 0.22)]
        self.think_base = [_lognorm(rng, 5.0, 0.45), _lognorm(rng, 5.0, 0.45)]
        self.k = 1.0  # current move's motor time factor
        self.log_notes: list[tuple[float, str]] = []  # (t, what) for debugging

    # --- helpers ---------------------------------------------------------------
    def p(self, kind: str) -> bool:
        return self.rng.random() < min(1.0, RATES[kind] * self.noise)

    def face_of(self, piece) -> str:
        if self.sensing == "occupancy":
            return "x"
        return "p" if piece.is_promoted() else "u"

    def _expected(self) -> list[str]:
        return [
            "." if (pc := self.board.piece_at(sq)) is None else self.face_of(pc) for sq in range(81)
        ]

    def note(self, t: float, what: str) -> None:
        self.log_notes.append((t, what))

    def put(self, t: float, sq: int, v: str) -> None:
        assert t >= self.last_t[sq] - 1e-9, (t, sq, self.last_t[sq])
        self.last_t[sq] = t
        self.seq += 1
        self.ev.append((t, self.seq, sq, v))
        self.cur[sq] = v

    def inp(self, t: float, value: str) -> None:
        self.seq += 1
        self.ev.append((t, self.seq, None, value))

    def u(self, a: float, b: float) -> float:
        return self.rng.uniform(a, b)

    def h(self, a: float, b: float) -> float:
        """A motor time in [a, b] seconds at normal pace, scaled by this move's hand."""
        return self.rng.uniform(a, b) * self.k

    def transport(self, d: float) -> float:
        base = 0.11 + 0.085 * math.log2(1.0 + d)
        return max(0.05, base * self.k * _lognorm(self.rng, 1.0, 0.12))

    def land(self, t: float, sq: int, v: str) -> float:
        """Piece reaches the square at t; returns when the switch is settled."""
        self.put(t, sq, v)
        if self.p("bounce_land"):
            tt = t
            for _ in range(self.rng.randint(1, 3)):
                tt += self.u(0.0004, 0.0025)
                self.put(tt, sq, ".")
                tt += self.u(0.0004, 0.0025)
                self.put(tt, sq, v)
            return tt
        return t

    def lift(self, t: float, sq: int) -> float:
        v = self.cur[sq]
        assert v != ".", (t, sq)
        self.put(t, sq, ".")
        if self.p("bounce_lift"):
            tt = t
            for _ in range(self.rng.randint(1, 2)):
                tt += self.u(0.0005, 0.002)
                self.put(tt, sq, v)
                tt += self.u(0.0005, 0.002)
                self.put(tt, sq, ".")
            return tt
        return t

    def hover_triggers(
        self, t0: float, dur: float, path: list[int], face: str, avoid: set[int], ctx: str = ""
    ) -> None:
        """A carried piece held low closes (briefly) empty switches it passes over."""
        if len(path) < 3 or not self.p("hover_carry"):
            return
        inner = path[1:-1]
        low = inner[:2] + inner[-2:]
        cands = [
            s
            for s in dict.fromkeys(low)
            if self.cur[s] == "." and s not in avoid and self.last_t[s] < t0 - 0.05
        ]
        if not cands:
            return
        n = 1 if self.rng.random() < 0.8 else 2
        for s in self.rng.sample(cands, min(n, len(cands))):
            frac = (path.index(s) + self.u(-0.3, 0.3)) / (len(path) - 1)
            ts = t0 + dur * min(0.95, max(0.05, frac))
            width = min(self.u(0.012, 0.09) * max(0.6, self.k), 0.12, t0 + dur - 0.01 - ts)
            if width < 0.008:
                continue
            self.put(ts, s, face)
            self.put(ts + width, s, ".")
            self.note(ts, f"hover trigger {s} {ctx}")

    # --- thinking window noise ------------------------------------------------
    def think(self, t: float, mover: int, ply: int) -> float:
        rng = self.rng
        base = self.think_base[mover]
        r = rng.random()
        if r < 0.5:
            th = _lognorm(rng, base * 0.35, 0.5)
        elif r < 0.95:
            th = _lognorm(rng, base * 1.3, 0.6)
        else:
            th = min(base * 3.0 * (rng.paretovariate(1.4)), 120.0)
        if ply < 12:
            th *= 0.4
        th = max(0.25, th) * self.pace
        th = max(th, 0.12)
        end = t + th
        # noise during the window, one after another
        cursor = t + min(0.3, th * 0.2)
        events = []
        if self.p("touch"):
            events.append("touch")
        if self.p("straighten"):
            events.append("straighten")
        if self.p("stray_input"):
            events.append("stray")
        rng.shuffle(events)
        for e in events:
            if e == "touch":
                who = mover if rng.random() < 0.7 else 1 - mover
                own = [
                    s
                    for s in range(81)
                    if (pc := self.board.piece_at(s)) is not None and pc.color == who
                ]
                s = rng.choice(own)
                hold = min(1.4, self.u(0.15, 1.0) * self.pace * self.hand_speed[who])
                hold = max(hold, 0.08)
                if cursor + hold + 0.6 * self.pace > end:
                    end = cursor + hold + 0.6 * self.pace
                v = self.cur[s]
                self.k = self.pace * self.hand_speed[who]
                self.lift(cursor, s)
                tt = self.land(cursor + hold, s, v)
                self.note(cursor, f"touch {s} by {who}")
                cursor = tt + self.u(0.3, 1.0) * self.pace
            elif e == "straighten":
                occ = [s for s in range(81) if self.cur[s] != "."]
                s = rng.choice(occ)
                v = self.cur[s]
                self.lift(cursor, s)
                tt = self.land(cursor + self.u(0.008, 0.06), s, v)
                self.note(cursor, f"straighten {s}")
                cursor = tt + self.u(0.2, 0.8) * self.pace
            else:
                self.inp(cursor, rng.choice(["promote", "nonpromote", *"RBGSNLP"]))
                self.note(cursor, "stray input")
                cursor += self.u(0.3, 1.0) * self.pace
            end = max(end, cursor)
        return end + 0.05

    # --- legal helpers -------------------------------------------------------
    def legal_to(self, fr: int) -> set[int]:
        return {m.to_square for m in self.board.legal_moves_from(fr)}

    def quiet_only_moves(self, fr: int) -> list[int]:
        """Destinations from fr that are legal, not captures, and have no promotion choice
        (only the unpromoted move is legal)."""
        ms = self.board.legal_moves_from(fr)
        promo = {m.to_square for m in ms if m.promotion}
        return sorted(
            {
                m.to_square
                for m in ms
                if not m.promotion and m.to_square not in promo and self.cur[m.to_square] == "."
            }
        )

    def drop_kinds_at(self, sq: int) -> set[int]:
        return {m.drop_piece_type for m in self.board.legal_drops() if m.to_square == sq}

    # --- move execution --------------------------------------------------------
    def do_move(self, t: float, move: Move, ply: int) -> float:
        b = self.board
        mover = b.turn
        self.k = self.pace * self.hand_speed[mover] * _lognorm(self.rng, 1.0, 0.18)
        if ply > 70:
            self.k *= 0.85
        t += self.h(0.2, 0.55)  # reach
        if move.from_square is None:
            # an illegal drop first?
            hand = b.pieces_in_hand[mover]
            if hand and self.p("illegal_drop"):
                legal_sqs = {m.to_square for m in b.legal_drops()}
                bad = [s for s in range(81) if self.cur[s] == "." and s not in legal_sqs]
                if bad:
                    t = self.illegal_drop(t, mover, self.rng.choice(bad))
            t_end = self.drop(t, move, mover)
        else:
            if self.p("illegal"):
                t = self.illegal_move(t, mover)
            t_end = self.board_move(t, move, mover)
        # the board asks?
        question = None
        if move.from_square is None:
            kinds = self.drop_kinds_at(move.to_square)
            if len(kinds) > 1:
                question = KIND_LETTER[move.drop_piece_type]
        elif self.sensing == "occupancy":
            legal = b.legal_moves_from(move.from_square)
            variants = {m.promotion for m in legal if m.to_square == move.to_square}
            if variants == {True, False}:
                question = "promote" if move.promotion else "nonpromote"
        t_end = max(t_end, max(self.last_t))
        b.push(move)
        exp = self._expected()
        assert exp == self.cur, (ply, move.usi(), [i for i in range(81) if exp[i] != self.cur[i]])
        if question is not None:
            t_end += min(2.0, max(0.4, _lognorm(self.rng, 0.8, 0.4) * self.pace))
            self.inp(t_end, question)
        return t_end

    def illegal_move(self, t: float, mover: int) -> float:
        b = self.board
        cands = []
        for s in range(81):
            pc = b.piece_at(s)
            if pc is None or pc.color != mover:
                continue
            legal = self.legal_to(s)
            for x in range(81):
                if (
                    self.cur[x] == "."
                    and x not in legal
                    and max(abs(x % 9 - s % 9), abs(x // 9 - s // 9)) <= 2
                ):
                    cands.append((s, x))
        if not cands:
            return t
        s, x = self.rng.choice(cands)
        v = self.cur[s]
        self.note(t, f"illegal {s}->{x}")
        self.lift(t, s)
        t += self.transport(_dist(_xy(s), _xy(x)))
        t = self.land(t, x, v)
        t += max(0.8, self.u(1.0, 3.0) * min(self.pace, 1.3))  # red lights, then realises
        self.lift(t, x)
        t += self.transport(_dist(_xy(s), _xy(x)))
        t = self.land(t, s, v)
        return t + self.h(0.4, 1.5)

    def illegal_drop(self, t: float, mover: int, x: int) -> float:
        stand = _stand(mover)
        d = _dist(stand, _xy(x))
        self.note(t, f"illegal drop at {x}")
        t += self.h(0.15, 0.4)  # pick from the stand
        t += self.transport(d)
        t = self.land(t, x, "u" if self.sensing == "polarity" else "x")
        t += max(0.8, self.u(1.0, 3.0) * min(self.pace, 1.3))
        self.lift(t, x)
        t += self.transport(d)
        return t + self.h(0.4, 1.5)

    def drop(self, t: float, move: Move, mover: int) -> float:
        face = "u" if self.sensing == "polarity" else "x"
        stand = _stand(mover)
        t += self.h(0.15, 0.45)  # pick from the stand
        B = move.to_square
        if self.p("drop_correction"):
            cands = [
                s
                for s in range(81)
                if s != B
                and self.cur[s] == "."
                and self.drop_kinds_at(s) == {move.drop_piece_type}
                and max(abs(B % 9 - s % 9), abs(B // 9 - s // 9)) <= 3
            ]
            if cands:
                c1 = self.rng.choice(cands)
                d = _dist(stand, _xy(c1))
                t0 = t
                dur = self.transport(d)
                self.hover_triggers(
                    t0, dur, _path_squares(stand, _xy(c1)), face, {c1, B}, "dropcorr"
                )
                t = self.land(t0 + dur, c1, face)
                self.note(t, f"drop correction at {c1}")
                t += max(0.6, self.u(0.7, 2.0) * self.pace)
                self.lift(t, c1)
                t += self.transport(_dist(_xy(c1), _xy(B)))
                t = self.land(t, B, face)
                return self.after_land(t, B, None, drop=True)
        d = _dist(stand, _xy(B))
        dur = self.transport(d)
        path = _path_squares(stand, _xy(B))
        self.hover_triggers(t, dur, path, face, {B}, "drop")
        t_land = t + dur
        t_land = self.hesitate(t_land, B, face, path, set())
        t = self.land(t_land, B, face)
        return self.after_land(t, B, None, drop=True)

    def hesitate(self, t_land: float, B: int, face: str, path: list[int], avoid: set[int]) -> float:
        """The piece held low next to its destination: a neighbour's switch closes briefly."""
        if not self.p("hesitate"):
            return t_land
        nb = [
            s
            for s in range(81)
            if s != B
            and s not in avoid
            and self.cur[s] == "."
            and self.last_t[s] < t_land - 0.1
            and max(abs(B % 9 - s % 9), abs(B // 9 - s // 9)) == 1
        ]
        if not nb:
            return t_land
        s = self.rng.choice(nb)
        w = min(0.15, self.u(0.03, 0.12) * max(0.7, self.k))
        ts = t_land - 0.02
        self.put(ts, s, face)
        self.put(ts + w, s, ".")
        self.note(ts, f"hesitate over {s}")
        return ts + w + self.h(0.05, 0.25)

    def after_land(self, t: float, B: int, busy: set[int] | None, drop: bool = False) -> float:
        """Release; perhaps knock a neighbour or straighten the piece."""
        t_land = t
        t += self.h(0.08, 0.2)
        avoid = busy or set()
        if self.p("knock"):
            nb = [
                s
                for s in range(81)
                if s != B
                and s not in avoid
                and self.cur[s] != "."
                and max(abs(B % 9 - s % 9), abs(B // 9 - s // 9)) == 1
            ]
            if nb:
                s = self.rng.choice(nb)
                v = self.cur[s]
                if drop or self.rng.random() < 0.5:
                    # the withdrawing hand knocks it, well after the release
                    tk = t_land + max(0.1, self.h(0.15, 0.4))
                else:
                    # the descending hand knocks it while the piece is still in the air
                    tk = t_land - self.h(0.04, 0.15)
                    if self.last_t[s] > tk - 0.05:
                        tk = t_land + max(0.1, self.h(0.15, 0.4))
                t = max(t, tk)
                self.lift(tk, s)
                tb = tk + min(1.5, max(0.15, self.u(0.25, 1.2) * self.pace))
                t = self.land(tb, s, v)
                self.note(tk, f"knock {s}")
                t += self.h(0.05, 0.2)
        if self.p("straighten"):
            v = self.cur[B]
            ts = t + self.h(0.1, 0.5)
            self.lift(ts, B)
            t = self.land(ts + self.u(0.008, 0.05), B, v)
            self.note(ts, f"straighten moved {B}")
            t += 0.05
        return t

    def board_move(self, t: float, move: Move, mover: int) -> float:
        b = self.board
        A, B = move.from_square, move.to_square
        pc = b.piece_at(A)
        f0 = self.face_of(pc)
        if self.sensing == "occupancy":
            f1 = "x"
        else:
            f1 = "p" if (pc.is_promoted() or move.promotion) else "u"
        target = b.piece_at(B)
        src = A
        # a correction: set down on a legal quiet square first, then moved on
        if self.p("correction"):
            cands = [c for c in self.quiet_only_moves(A) if c != B]
            if cands:
                c1 = self.rng.choice(cands)
                self.lift(t, A)
                t += self.transport(_dist(_xy(A), _xy(c1)))
                t = self.land(t, c1, f0)
                self.note(t, f"correction via {c1}")
                t += max(0.6, self.u(0.7, 2.2) * self.pace)
                src = c1
        if target is None:
            return self.quiet_move(t, src, B, f0, f1, pc.piece_type)
        return self.capture(t, src, B, f0, f1, target, mover)

    def quiet_move(self, t: float, A: int, B: int, f0: str, f1: str, pt: int) -> float:
        dA, dB = _xy(A), _xy(B)
        dc, dr = B % 9 - A % 9, B // 9 - A // 9
        straight = dc == 0 or dr == 0 or abs(dc) == abs(dr)
        n = max(abs(dc), abs(dr))
        if pt in SLIDERS and straight and n >= 2 and self.p("drag"):
            sc = (dc > 0) - (dc < 0)
            sr = (dr > 0) - (dr < 0)
            path = [A + i * (sr * 9 + sc) for i in range(1, n)]
            if all(self.cur[s] == "." for s in path):
                per = min(0.16, max(0.04, self.u(0.05, 0.13) * self.k))
                self.lift(t, A)
                self.note(t, f"drag {A}->{B}")
                for i, s in enumerate(path):
                    t_in = t + (i + 0.5) * per + self.u(-0.01, 0.01)
                    t_out = t_in + per * self.u(0.45, 0.95)
                    self.put(t_in, s, f0)
                    self.put(t_out, s, ".")
                t_land = t + (n - 0.3) * per + per * 0.9
                t = self.land(t_land, B, f1)
                return self.after_land(t, B, {A})
        self.lift(t, A)
        t0 = t
        dur = self.transport(_dist(dA, dB))
        if self.rng.random() < 0.08:  # indecision: piece held in the air a while
            dur += self.u(0.5, 3.0) * self.pace
        path = _path_squares(dA, dB)
        if n >= 3:
            self.hover_triggers(t0, dur, path, f0, {A, B}, "quiet")
        t_land = self.hesitate(t0 + dur, B, f1, path, {A})
        t = self.land(t_land, B, f1)
        return self.after_land(t, B, {A})

    def capture(self, t: float, A: int, B: int, f0: str, f1: str, target, mover: int) -> float:
        rng = self.rng
        stand = _stand(mover)
        tface = self.face_of(target)
        dAB = _dist(_xy(A), _xy(B))
        to_stand = _path_squares(_xy(B), stand)
        style = rng.choices(["one", "two_tf", "two_af"], [0.4, 0.25, 0.35])[0]
        if style == "one":
            # lift the target, carry it to the stand, come back for the attacker
            self.lift(t, B)
            dur = self.transport(_dist(_xy(B), stand))
            self.hover_triggers(t, dur, to_stand, tface, {A, B}, "cap-one")
            t += dur + self.h(0.1, 0.3)
            t += self.transport(_dist(stand, _xy(A))) + self.h(0.05, 0.15)
            self.lift(t, A)
            t += self.transport(dAB)
            t = self.land(t, B, f1)
            return self.after_land(t, B, {A})
        if style == "two_tf":
            tB = t
            self.lift(tB, B)
            tA = tB + self.h(0.03, 0.5)
            self.lift(tA, A)
            t_land = tA + self.transport(dAB)
            dur = self.transport(_dist(_xy(B), stand))
            self.hover_triggers(tB, dur, to_stand, tface, {A, B}, "cap-two-tf")
            t_end = self.land(t_land, B, f1)
            t_end = self.after_land(t_end, B, {A})
            return max(t_end, tB + dur + 0.05)
        # attacker first: held over the target, target swapped out by the other hand
        tA = t
        self.lift(tA, A)
        tB = tA + self.transport(dAB) + self.h(0.0, 0.4)
        self.lift(tB, B)
        if self.p("fast_capture"):
            gap = self.u(0.012, 0.09)
            self.note(tB, "fast capture")
        else:
            gap = max(0.1, self.u(0.12, 0.5) * self.k)
        t_land = tB + gap
        t_end = self.land(t_land, B, f1)
        # the other hand leaves with the target at once, or after a short pause
        t_go = tB + self.h(0.0, 0.15)
        dur = self.transport(_dist(_xy(B), stand))
        self.hover_triggers(t_go, dur, to_stand, tface, {A, B}, "cap-two-af")
        t_end = self.after_land(t_end, B, {A})
        return max(t_end, t_go + dur + 0.05)

    # --- output -------------------------------------------------------------------
    def frames(self) -> list[SensorEvent]:
        out: list[SensorEvent] = [SensorFrame(0.0, "".join(self.start))]
        cells = list(self.start)
        last = "".join(cells)
        evs = sorted(self.ev, key=lambda e: (round(e[0], 4), e[1]))
        i = 0
        last_t = 0.0
        while i < len(evs):
            tq = round(evs[i][0], 4)
            inputs = []
            while i < len(evs) and round(evs[i][0], 4) == tq:
                _t, _s, sq, v = evs[i]
                if sq is None:
                    inputs.append(v)
                else:
                    cells[sq] = v
                i += 1
            now = "".join(cells)
            if now != last:
                tt = max(tq, last_t + 0.0001)
                out.append(SensorFrame(tt, now))
                last_t = tt
                last = now
            for v in inputs:
                tt = max(tq, last_t + 0.0001)
                out.append(PlayerInput(tt, v))
                last_t = tt
        return out


def generate(
    moves: list[str],
    sfen: str,
    seed: int,
    sensing: str = "occupancy",
    pace: float = 1.0,
    noise: float = 1.0,
    notes: list | None = None,
) -> list[SensorEvent]:
    g = _Gen(sfen, seed, sensing, pace, noise)
    t = g.u(1.0, 3.0) * pace
    for ply, usi in enumerate(moves):
        mv = Move.from_usi(usi)
        if not g.board.is_legal(mv):
            raise ValueError(f"ply {ply}: illegal move {usi}")
        t = g.think(t, g.board.turn, ply)
        t = g.do_move(t, mv, ply)
        g.note(t, f"end ply {ply} {usi}")
    if notes is not None:
        notes.extend(g.log_notes)
    return g.frames()
