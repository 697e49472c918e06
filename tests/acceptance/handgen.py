"""An independent virtual hand: turns a game into a noisy occupancy sensor log.

Written apart from ``board_bridge.tracker.simulate`` on purpose, with its own timing model
and its own noise, so the tracker is checked against a generator it was not tuned on (the
way the acceptance check uses a generator of its own).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from board_bridge.shogi import (
    BISHOP,
    DRAGON,
    HORSE,
    KING,
    LANCE,
    ROOK,
    Board,
    Move,
    piece_type_symbol,
    square_distance,
)
from board_bridge.shogi.core import PROMOTION_OFFSET
from board_bridge.shogi.tables import BETWEEN
from board_bridge.tracker.events import IDENTITY_CELLS, PlayerInput, SensorEvent, SensorFrame

SLIDERS = {LANCE, BISHOP, ROOK, HORSE, DRAGON}


@dataclass(frozen=True)
class Noise:
    """Probabilities of each kind of noise, per move."""

    bounce: float = 0.7
    slide: float = 0.6
    hover: float = 0.15
    touch: float = 0.1
    knock: float = 0.1
    correction: float = 0.08
    illegal: float = 0.05
    retract: float = 0.04
    hold: float = 0.15
    fast_capture: float = 0.3
    # off by default, and drawn only when on (the suite's logs stay as they were);
    # check_tracker --only raises them
    adjust: float = 0.0  # any piece straightened (lifted, put back) before the move
    drop_correction: float = 0.0  # a dropped piece set down elsewhere first, then moved on
    illegal_drop: float = 0.0  # a piece dropped where it may not go, then back to the hand
    takeback: float = 0.0  # a quiet move and a quiet reply played, both taken back
    # captures with noise of their own (touch, knock, hover, hold at the rates above, and a
    # capturing slider crossing the squares between), either capture order
    rich: float = 0.0
    # a piece pushed to a neighbouring square, not lifted: that square reads occupied a
    # few hundredths of a second before the piece's own reads empty (quiet moves, and
    # captures whose target was taken off first)
    overlap: float = 0.0
    pace: float = 1.0  # every human time (not switch bounce) multiplied by this


class Hand:
    """A player's hands over a board (occupancy, polarity or identity sensing): every
    change becomes a sensor frame."""

    def __init__(
        self,
        sfen: str,
        rng: random.Random,
        noise: Noise,
        t0: float = 0.0,
        sensing: str = "occupancy",
    ) -> None:
        self.board = Board(sfen)
        self.rng = rng
        self.noise = noise
        self.occ = self.board.occupied()
        # what a square's sensor reads of the piece physically standing on it (polarity:
        # "u"/"p", identity: a kind letter), and of the piece in the hand (None: a piece
        # put back shows what it showed before)
        self.sensing = sensing
        self.face = ["u"] * 81
        for sq in range(81):
            piece = self.board.piece_at(sq)
            if piece is not None:
                self.face[sq] = self.seen(piece.piece_type)
        self.holding: str | None = None
        self.t = t0
        self.events: list[SensorEvent] = []
        self._emit()

    # --- low level -------------------------------------------------------------------

    def seen(self, piece_type: int) -> str:
        """What a square shows with a piece of ``piece_type`` face up on it."""
        if self.sensing == "identity":
            return IDENTITY_CELLS[piece_type - 1]
        return "p" if piece_type > KING else "u"

    def _emit(self) -> None:
        if self.sensing != "occupancy":
            cells = "".join(f if o else "." for o, f in zip(self.occ, self.face, strict=True))
        else:
            cells = "".join("x" if o else "." for o in self.occ)
        self.events.append(SensorFrame(round(self.t, 4), cells))

    def _set(self, sq: int, value: bool, dt: float) -> None:
        self.t += dt
        if self.occ[sq] != value:
            self.occ[sq] = value
            if value and self.holding is not None:
                self.face[sq] = self.holding
            self._emit()

    def take(self, sq: int | None, kind: int = 1) -> None:
        """The hand takes the piece standing on ``sq`` (None: one of ``kind`` from the
        hand)."""
        self.holding = self.seen(kind) if sq is None else self.face[sq]

    def final_face(self, move: Move) -> None:
        """The hand turns its piece as ``move`` leaves it, just before it lands."""
        if move.from_square is None:
            assert move.drop_piece_type is not None
            self.holding = self.seen(move.drop_piece_type)
            return
        piece = self.board.piece_at(move.from_square)
        assert piece is not None
        self.holding = self.seen(piece.piece_type + (PROMOTION_OFFSET if move.promotion else 0))

    def dt(self, lo: float, hi: float) -> float:
        """A human time between ``lo`` and ``hi`` seconds, at the hand's pace."""
        return self.rng.uniform(lo, hi) * self.noise.pace

    def wait(self, lo: float, hi: float) -> None:
        self.t += self.dt(lo, hi)

    def lift(self, sq: int, dt: float | None = None) -> None:
        self._set(sq, False, self.dt(0.05, 0.4) if dt is None else dt)

    def land(self, sq: int, dt: float | None = None) -> None:
        self._set(sq, True, self.dt(0.1, 0.9) if dt is None else dt)
        if self.rng.random() < self.noise.bounce:
            for _ in range(self.rng.randint(1, 4)):
                self._set(sq, False, self.rng.uniform(0.0008, 0.004))
                self._set(sq, True, self.rng.uniform(0.0008, 0.005))

    def answer(self, value: str) -> None:
        self.t += self.dt(0.25, 1.8)
        self.events.append(PlayerInput(round(self.t, 4), value))

    # --- noise -----------------------------------------------------------------------

    def slide_over(self, fr: int, to: int) -> None:
        path = sorted(BETWEEN[fr][to], key=lambda s: abs(s - fr))
        for sq in path:
            if not self.occ[sq]:
                self._set(sq, True, self.dt(0.01, 0.06))
                self._set(sq, False, self.dt(0.015, 0.07))

    def hover(self) -> None:
        empty = [s for s in range(81) if not self.occ[s]]
        sq = self.rng.choice(empty)
        self._set(sq, True, self.dt(0.05, 0.3))
        self._set(sq, False, self.dt(0.08, 0.7))

    def knock(self, near: int) -> None:
        occupied = [s for s in range(81) if square_distance(s, near) == 1 and self.occ[s]]
        if occupied:
            sq = self.rng.choice(occupied)
            held, self.holding = self.holding, None  # the knocked piece keeps its face
            self.lift(sq, self.dt(0.05, 0.3))
            self.land(sq, self.dt(0.06, 0.6))
            self.holding = held

    def adjust(self) -> None:
        """Straighten any piece on the board, either side's."""
        sq = self.rng.choice([s for s in range(81) if self.occ[s]])
        self.lift(sq)
        self.land(sq, self.dt(0.08, 0.6))
        self.wait(0.2, 1.0)

    def illegal_drop(self) -> None:
        """Drop a piece from the hand where the rules forbid it (nifu, no further move,
        or leaving the king in check), see the red lights, take it back to the hand."""
        board = self.board
        kinds = [pt for pt, n in board.pieces_in_hand[board.turn].items() if n]
        if not kinds:
            return
        legal = {(m.drop_piece_type, m.to_square) for m in board.legal_drops()}
        bad = [
            (pt, sq)
            for pt in kinds
            for sq in range(81)
            if not self.occ[sq] and (pt, sq) not in legal
        ]
        if not bad:
            return
        pt, sq = self.rng.choice(bad)
        self.wait(0.3, 1.5)
        self.take(None, pt)
        self.land(sq)
        self.wait(1.0, 2.5)  # red lights
        self.lift(sq)
        self.wait(0.4, 1.2)

    def takeback(self) -> None:
        """Play a quiet move and let the opponent reply quietly, then take both back."""
        quiet = self._quiet_moves()
        if not quiet:
            return
        first = self.rng.choice(quiet)
        if not self._ends_nothing(first):
            return
        self.board.push(first)
        avoid = (first.from_square, first.to_square)
        replies = [m for m in self._quiet_moves(avoid) if self._ends_nothing(m)]
        self.board.pop()
        if not replies:
            return
        reply = self.rng.choice(replies)
        assert first.from_square is not None and reply.from_square is not None
        self._simple(first.from_square, first.to_square)
        self.wait(0.6, 3.0)
        self._simple(reply.from_square, reply.to_square)
        self.wait(1.0, 3.0)
        # both taken back, the reply first
        self._simple(reply.to_square, reply.from_square)
        self.wait(0.3, 1.0)
        self._simple(first.to_square, first.from_square)
        self.wait(1.0, 3.0)

    def _quiet_moves(self, avoid: tuple[int | None, ...] = ()) -> list[Move]:
        """Legal moves of a piece on the board to an empty square not in ``avoid``, with no
        promotion and no question."""
        return [
            m
            for m in self.board.legal_moves
            if m.from_square is not None
            and not self.occ[m.to_square]
            and m.to_square not in avoid
            and m.promotion is False
            and not self._promotion_is_optional(m)
        ]

    def touch(self) -> None:
        own = [
            s
            for s in range(81)
            if (p := self.board.piece_at(s)) is not None and p.color == self.board.turn
        ]
        sq = self.rng.choice(own)
        self.lift(sq)
        self.land(sq, self.dt(0.1, 1.0))
        self.wait(0.2, 1.0)

    # --- moves -----------------------------------------------------------------------

    def _quiet_alternative(self, move: Move) -> Move | None:
        """A legal non-capturing move of the same piece elsewhere, needing no question and
        not ending the game (for corrections and retractions)."""
        if move.from_square is None:
            return None
        options = []
        by_to: dict[int, list[Move]] = {}
        for m in self.board.legal_moves_from(move.from_square):
            by_to.setdefault(m.to_square, []).append(m)
        for to, ms in by_to.items():
            if to == move.to_square or self.occ[to] or len(ms) != 1:
                continue
            if self._ends_nothing(ms[0]):
                options.append(ms[0])
        return self.rng.choice(options) if options else None

    def _walk(self, fr: int, to: int) -> None:
        piece = self.board.piece_at(fr)
        if (
            piece is not None
            and piece.piece_type in SLIDERS
            and self.rng.random() < self.noise.slide
        ):
            self.slide_over(fr, to)

    def play(self, move: Move) -> None:
        board, rng, noise = self.board, self.rng, self.noise
        self.wait(0.4, 3.5)
        if rng.random() < noise.touch:
            self.touch()
        if noise.adjust and rng.random() < noise.adjust:
            self.adjust()
        if noise.illegal_drop and rng.random() < noise.illegal_drop:
            self.illegal_drop()
        if noise.takeback and rng.random() < noise.takeback:
            self.takeback()
        fr, to = move.from_square, move.to_square
        self.take(fr, move.drop_piece_type or 1)
        if fr is None:
            self._drop(move)
        elif board.piece_at(to) is None and self._slid(fr, to):
            self.final_face(move)
            self.push_onto(fr, to)
        else:
            if rng.random() < noise.illegal:
                self._illegal_and_back(fr)
            if rng.random() < noise.correction and (alt := self._quiet_alternative(move)):
                self._simple(fr, alt.to_square)
                self.wait(0.5, 2.0)
                self.lift(alt.to_square)
            elif rng.random() < noise.retract and (alt := self._quiet_alternative(move)):
                self._simple(fr, alt.to_square)
                self.wait(2.5, 4.0)
                self.lift(alt.to_square)
                self.land(fr)
                self.wait(0.5, 1.5)
                self.lift(fr)
            else:
                self.lift(fr)
            if rng.random() < noise.hover:
                self.hover()
            if board.piece_at(to) is not None:
                self._capture_onto(move)
            else:
                if rng.random() < noise.knock:
                    self.knock(to)
                self._walk(fr, to)
                self.final_face(move)
                self.land(to)
        self.done(move)

    def done(self, move: Move) -> None:
        """``move`` is on the board: answer the board's promotion question if it asks one
        (a polarity board reads the face instead), and let go of the piece."""
        if self._promotion_is_optional(move) and self.sensing == "occupancy":
            self.answer("promote" if move.promotion else "nonpromote")
        self.board.push(move)
        self.holding = None

    def _slid(self, fr: int, to: int) -> bool:
        """Whether the piece is pushed from ``fr`` to the neighbouring ``to`` (drawn only
        when the kind is on)."""
        near = square_distance(fr, to) <= 1
        return bool(self.noise.overlap) and near and self.rng.random() < self.noise.overlap

    def push_onto(self, fr: int, to: int) -> None:
        """The held piece pushed from ``fr`` onto ``to``: ``to`` closes first (with no
        bounce: the piece slides in, it does not land)."""
        self._set(to, True, self.dt(0.1, 0.9))
        self.lift(fr, self.rng.uniform(0.005, 0.045))

    def _simple(self, fr: int, to: int) -> None:
        self.take(fr)
        self.lift(fr)
        self._walk(fr, to)
        self.land(to)

    def _illegal_and_back(self, fr: int) -> None:
        legal = {m.to_square for m in self.board.legal_moves_from(fr)}
        bad = [s for s in range(81) if not self.occ[s] and s not in legal]
        if not bad:
            return
        target = self.rng.choice(bad)
        self._simple(fr, target)
        self.wait(1.0, 2.5)  # red lights
        self.lift(target)
        self.land(fr)
        self.wait(0.4, 1.2)

    def _rich(self) -> bool:
        """Whether this capture gets noise of its own (drawn only when the kind is on)."""
        return bool(self.noise.rich) and self.rng.random() < self.noise.rich

    def _capture_onto(self, move: Move) -> None:
        rng = self.rng
        to = move.to_square
        if self._rich():
            assert move.from_square is not None
            self._walk(move.from_square, to)
        if rng.random() < self.noise.hold:
            self.wait(0.8, 3.0)  # the attacker held over the board
            if rng.random() < self.noise.knock:
                self.knock(to)
        self.final_face(move)
        style = rng.random()
        if style < self.noise.fast_capture:
            # swap: the target is empty only for tens of milliseconds
            self.lift(to, self.dt(0.2, 1.0))
            self.land(to, self.dt(0.015, 0.08))
        else:
            self.lift(to)
            self.land(to, self.dt(0.2, 1.2))

    def capture_target_first(self, move: Move) -> None:
        """The captured piece is taken off first, then the attacker set down in its place."""
        assert move.from_square is not None
        fr, to = move.from_square, move.to_square
        rich = self._rich()
        noise, rng = self.noise, self.rng
        self.wait(0.4, 2.0)
        if rich and rng.random() < noise.touch:
            self.touch()
        self.lift(to)
        self.wait(0.2, 1.0)
        if rich and rng.random() < noise.knock:
            self.knock(to)
        self.take(fr)
        if self._slid(fr, to):
            self.final_face(move)
            self.push_onto(fr, to)
            self.done(move)
            return
        self.lift(fr)
        if rich:
            if rng.random() < noise.hover:
                self.hover()
            self._walk(fr, to)
            if rng.random() < noise.hold:
                self.wait(0.8, 3.0)
        self.final_face(move)
        self.land(to)
        self.done(move)

    def _promotion_is_optional(self, move: Move) -> bool:
        if move.from_square is None:
            return False
        other = Move(move.from_square, move.to_square, not move.promotion)
        return self.board.is_legal(other)

    def _drop(self, move: Move) -> None:
        assert move.drop_piece_type is not None
        self.wait(0.3, 1.5)
        board = self.board
        if self.noise.drop_correction and self.rng.random() < self.noise.drop_correction:
            elsewhere = [
                m.to_square
                for m in board.legal_drops(move.drop_piece_type)
                if m.to_square != move.to_square and self._ends_nothing(m)
            ]
            if elsewhere:
                first = self.rng.choice(elsewhere)
                self.land(first)
                self.wait(0.3, 1.5)
                self.lift(first)
        self.land(move.to_square)
        kinds = {
            m.drop_piece_type for m in self.board.legal_drops() if m.to_square == move.to_square
        }
        if len(kinds) > 1 and self.sensing != "identity":  # identity boards see the kind
            self.answer(piece_type_symbol(move.drop_piece_type))

    def _ends_nothing(self, move: Move) -> bool:
        self.board.push(move)
        ends = self.board.outcome() is not None
        self.board.pop()
        return not ends


def capture_first_log(sfen: str, moves: list[Move], seed: int) -> list[SensorEvent]:
    """Like :func:`make_log` but every capture takes the captured piece off first."""
    return make_log(sfen, moves, seed, target_first=True)


def make_log(
    sfen: str,
    moves: list[Move],
    seed: int,
    noise: Noise | None = None,
    target_first: bool = False,
    sensing: str = "occupancy",
) -> list[SensorEvent]:
    """The log of ``moves`` played by a hand with ``noise`` (``target_first``: captures
    lift the captured piece first; ``sensing``: what the board reads of each piece)."""
    rng = random.Random(seed)
    hand = Hand(sfen, rng, noise or Noise(), sensing=sensing)
    hand.wait(0.5, 2.0)
    for move in moves:
        if target_first and move.from_square is not None and hand.board.piece_at(move.to_square):
            hand.capture_target_first(move)
        else:
            hand.play(move)
    hand.wait(1.0, 2.0)
    hand._emit()  # a last frame, unchanged, to close the log in time
    return hand.events


def random_game(seed: int, plies: int = 120) -> tuple[str, list[Move]]:
    """A fresh random legal game (drops, odd non-promotions and all)."""
    rng = random.Random(seed)
    board = Board()
    moves = []
    for _ in range(plies):
        legal = board.legal_moves
        if not legal or board.outcome() is not None:
            break
        move = rng.choice(legal)
        board.push(move)
        if board.outcome() is not None:
            board.pop()
            break
        moves.append(move)
    return board.root_sfen, moves


def random_record(seed: int) -> dict[str, Any]:
    """``random_game(seed)`` as a corpus record: its SFEN and its moves in USI."""
    sfen, moves = random_game(seed)
    return {"sfen": sfen, "moves": [m.usi() for m in moves]}
