"""A second, deliberately different sensor-log generator, to check the tracker is robust to
the physical facts and not tuned to ``board_bridge.tracker.simulate``.

Where the simulator mutates a board step by step, this one schedules *contacts* (square,
time, new reading) on a timeline from a few independent processes (the moving hand, switch
chatter, stray knocks, inputs) and renders the frames at the end. Its distributions differ
too: gamma thinking times, log-uniform hand speed, Poisson-distributed bounce counts with
exponential contact times, chatter on lifts, swaps as fast as 12 ms, pieces dragged across
every square under their path (knights included), corrections always long enough to be
recorded, inputs as early as 0.15 s after the piece lands, unsolicited inputs while the
board is at rest.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from board_bridge.shogi import KING, Board, Move
from board_bridge.tracker.events import (
    EMPTY,
    INPUT_NONPROMOTE,
    INPUT_PROMOTE,
    OCCUPIED,
    PROMOTED,
    UNPROMOTED,
    PlayerInput,
    SensorEvent,
    SensorFrame,
)


@dataclass(frozen=True)
class AltNoise:
    drag: float = 0.35  # a piece is dragged over the squares under its path
    hover: float = 0.2
    touch: float = 0.08
    knock_rate: float = 0.03  # stray knocks per second of thinking
    knock_held: float = 0.08  # of captures
    swap: float = 0.35  # of captures: the target swapped out in 12-50 ms
    target_first: float = 0.4
    correction: float = 0.05
    illegal: float = 0.02
    stray_input: float = 0.05


def _line(a: int, b: int) -> list[int]:
    """Squares under a straight path from a to b (rounded), without the ends."""
    ra, ca = divmod(a, 9)
    rb, cb = divmod(b, 9)
    n = max(abs(rb - ra), abs(cb - ca))
    out = []
    for i in range(1, n):
        r = round(ra + (rb - ra) * i / n)
        c = round(ca + (cb - ca) * i / n)
        sq = r * 9 + c
        if sq not in (a, b) and sq not in out:
            out.append(sq)
    if n == 1 and ra != rb and ca != cb:
        out.append(ra * 9 + cb)  # a diagonal step brushes a corner square
    return out


class _Timeline:
    def __init__(self, cells: list[str], rng: random.Random) -> None:
        self.cells = cells  # the board as the hand believes it, at self.t
        self.rng = rng
        self.t = 0.0
        self.contacts: list[tuple[float, int, int, str]] = []  # (t, seq, square, cell)
        self.inputs: list[tuple[float, str]] = []
        self._seq = 0

    def at(self, t: float, sq: int, cell: str) -> None:
        self._seq += 1
        self.contacts.append((round(t, 6), self._seq, sq, cell))

    def chatter(self, t: float, sq: int, cell: str, mean: float) -> float:
        """Bounce: a Poisson number of open/close pairs with exponential contact times
        (capped at 9 ms), ending in ``cell``. Returns the time the contact is final."""
        n = min(6, self._poisson(mean))
        for _ in range(n):
            self.at(t, sq, cell)
            t += min(0.009, self.rng.expovariate(1 / 0.0025)) + 0.0005
            self.at(t, sq, EMPTY)
            t += min(0.009, self.rng.expovariate(1 / 0.0025)) + 0.0005
        self.at(t, sq, cell)
        return t

    def _poisson(self, lam: float) -> int:
        k, p, limit = 0, 1.0, math.exp(-lam)
        while True:
            p *= self.rng.random()
            if p <= limit:
                return k
            k += 1

    def lift(self, sq: int) -> str:
        cell = self.cells[sq]
        self.at(self.t, sq, EMPTY)
        if self.rng.random() < 0.3:  # release chatter
            tt = self.t
            for _ in range(self.rng.randint(1, 2)):
                tt += 0.001
                self.at(tt, sq, cell)
                tt += 0.001
                self.at(tt, sq, EMPTY)
            self.t = tt
        self.cells[sq] = EMPTY
        return cell

    def land(self, sq: int, cell: str) -> None:
        self.t = self.chatter(self.t, sq, cell, 2.0)
        self.cells[sq] = cell

    def advance(self, dt: float) -> None:
        self.t = round(self.t + dt, 6)

    def frames(self, start: list[str]) -> list[SensorEvent]:
        cells = list(start)
        events: list[SensorEvent] = [SensorFrame(0.0, "".join(cells))]
        contacts = sorted(self.contacts)
        i = 0
        while i < len(contacts):
            t = contacts[i][0]
            while i < len(contacts) and contacts[i][0] == t:
                cells[contacts[i][2]] = contacts[i][3]
                i += 1
            frame = "".join(cells)
            last = events[-1]
            if isinstance(last, SensorFrame) and last.cells == frame:
                continue
            events.append(SensorFrame(t, frame))
        events += [PlayerInput(t, v) for t, v in self.inputs]
        events.sort(key=lambda e: (e.t, isinstance(e, PlayerInput)))
        return events


def generate(
    moves: list[str],
    sfen: str,
    seed: int,
    sensing: str = "occupancy",
    noise: AltNoise | None = None,
) -> list[SensorEvent]:
    """A noisy log of the game (see the module docstring)."""
    n = noise or AltNoise()
    rng = random.Random(seed * 7919 + 17)
    board = Board(sfen)
    polarity = sensing == "polarity"

    def cell(piece_type: int) -> str:
        return (PROMOTED if piece_type > KING else UNPROMOTED) if polarity else OCCUPIED

    start = [
        EMPTY if board.piece_at(s) is None else cell(board.piece_at(s).piece_type)
        for s in range(81)
    ]  # type: ignore[union-attr]
    tl = _Timeline(list(start), rng)
    speed = math.exp(rng.uniform(math.log(0.4), math.log(2.5)))

    def hand(lo: float, hi: float) -> float:
        return rng.uniform(lo, hi) / speed

    for index, usi in enumerate(moves):
        move = Move.from_usi(usi)
        # thinking, with stray knocks of pieces away from the move
        think = 0.6 + rng.gammavariate(2.0, 0.8) / math.sqrt(speed)
        busy = {move.to_square} | ({move.from_square} if move.from_square is not None else set())
        t_end = tl.t + think
        tk = tl.t + 1.2  # the thinking hand comes back over the board after a moment
        while True:
            tk += rng.expovariate(n.knock_rate) if n.knock_rate else 1e9
            if tk > t_end - 1.5:
                break
            occupied = [s for s in range(81) if tl.cells[s] != EMPTY and s not in busy]
            k = rng.choice(occupied)
            gone = rng.uniform(0.15, 1.2)
            tl.at(tk, k, EMPTY)
            tl.chatter(tk + gone, k, tl.cells[k], 1.5)
            tk += gone + 0.1
        if rng.random() < n.stray_input:
            tl.inputs.append(
                (tl.t + think / 2, rng.choice(["promote", "nonpromote", "G", "P", "undo"]))
            )
        tl.t = round(t_end, 6)
        mover_cells = [s for s in range(81) if (p := board.piece_at(s)) and p.color == board.turn]
        if rng.random() < n.touch:
            tl.advance(rng.uniform(0.6, 1.2))  # touched while thinking, not at once
            s = rng.choice(mover_cells)
            c = tl.lift(s)
            tl.advance(0.2 + rng.gammavariate(2.0, 0.25))
            tl.land(s, c)
            tl.advance(hand(0.3, 0.9))
        if rng.random() < n.illegal:
            tl.advance(rng.uniform(0.6, 1.2))
            empties = [s for s in range(81) if board.piece_at(s) is None]
            for a in rng.sample(mover_cells, min(6, len(mover_cells))):
                bad = [
                    c
                    for c in empties
                    if not board.is_legal(Move(a, c)) and not board.is_legal(Move(a, c, True))
                ]
                if bad:
                    c = rng.choice(bad)
                    piece = tl.lift(a)
                    tl.advance(hand(0.2, 0.6))
                    tl.land(c, piece)
                    tl.advance(rng.uniform(1.5, 3.0))
                    tl.lift(c)
                    tl.advance(hand(0.2, 0.6))
                    tl.land(a, piece)
                    tl.advance(hand(0.5, 1.0))
                    break
        fr, to = move.from_square, move.to_square
        if fr is None:
            face = cell(1)
        else:
            p = board.piece_at(fr)
            assert p is not None
            face = cell(p.piece_type + (8 if move.promotion else 0))
        capture = fr is not None and board.piece_at(to) is not None
        # a correction: first onto a wrong legal empty square, long enough to be recorded
        wrong = None
        if rng.random() < n.correction:
            options = []
            for m in board.legal_moves:
                if (
                    m.from_square == fr
                    and m.to_square != to
                    and board.piece_at(m.to_square) is None
                ):
                    if fr is None and m.drop_piece_type != move.drop_piece_type:
                        continue
                    board.push(m)
                    over = board.outcome() is not None
                    board.pop()
                    if not over:
                        options.append(m)
            if options:
                wrong = rng.choice(options)
        if capture and rng.random() < n.target_first:
            tl.lift(to)
            tl.advance(hand(0.2, 0.7))
        piece = tl.lift(fr) if fr is not None else face
        tl.advance(hand(0.15, 0.6) if fr is not None else rng.uniform(0.5, 1.2))  # from the stand
        if capture and rng.random() < n.knock_held and fr is not None:
            near = [
                m.to_square
                for m in board.legal_moves_from(fr)
                if m.to_square != to and board.piece_at(m.to_square) is not None
            ]
            if near:
                k = rng.choice(near)
                c = tl.lift(k)
                tl.advance(rng.uniform(0.1, 0.4))
                tl.land(k, c)
                tl.advance(rng.uniform(0.05, 0.2))
        if wrong is not None:
            wface = face
            if fr is not None and polarity:
                p = board.piece_at(fr)
                assert p is not None
                wface = cell(p.piece_type + (8 if wrong.promotion else 0))
            tl.land(wrong.to_square, wface)
            tl.advance(rng.uniform(0.8, 2.5))
            tl.lift(wrong.to_square)
            tl.advance(hand(0.2, 0.5))
        here = wrong.to_square if wrong is not None else fr
        if rng.random() < n.hover:
            r, c = divmod(to, 9)
            spots = [
                rr * 9 + cc
                for rr in range(max(0, r - 2), min(9, r + 3))
                for cc in range(max(0, c - 2), min(9, c + 3))
                if tl.cells[rr * 9 + cc] == EMPTY and rr * 9 + cc not in (to, here)
            ]
            if spots:
                h = rng.choice(spots)
                tl.at(tl.t, h, piece)
                tl.advance(rng.uniform(0.04, 0.2))
                tl.at(tl.t, h, EMPTY)
                tl.advance(hand(0.05, 0.3))
        if here is not None and rng.random() < n.drag:
            for s in _line(here, to):
                if tl.cells[s] == EMPTY:
                    tl.at(tl.t, s, piece)
                    tl.advance(rng.uniform(0.01, 0.06))
                    tl.at(tl.t, s, EMPTY)
        if capture and tl.cells[to] != EMPTY:
            tl.lift(to)
            if rng.random() < n.swap:
                tl.advance(rng.uniform(0.012, 0.05))
            else:
                tl.advance(hand(0.2, 0.7))
        tl.land(to, face)
        # the board's question, answered quickly or not
        if fr is None:
            kinds = {m.drop_piece_type for m in board.legal_drops() if m.to_square == to}
            answer = usi[0] if len(kinds) > 1 else None
        elif not polarity and board.is_legal(Move(fr, to, not move.promotion)):
            answer = INPUT_PROMOTE if move.promotion else INPUT_NONPROMOTE
        else:
            answer = None
        if answer is not None:
            tl.advance(0.15 + rng.lognormvariate(math.log(0.8), 0.6))
            tl.inputs.append((tl.t, answer))
        board.push(move)
        if index == len(moves) - 1:
            tl.advance(1.0)
    return tl.frames(start)
