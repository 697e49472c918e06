"""The simulator's virtual board: the physical state of pieces, komadai and the player's hand.

A real board's sensors only see which squares are occupied; the pieces' kinds,
their owners and the komadai are facts of the physical world. The virtual board
keeps that world (which piece stands where, what lies on each komadai, what the
player holds) so the simulator can draw it, and reports the occupancy a real
board would report after every change. Pure: no pygame, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from board_bridge.shogi import (
    HAND_PIECE_TYPES,
    KING,
    PROMOTABLE,
    Board,
    Color,
    Piece,
    PieceType,
    Square,
    unpromoted,
)
from board_bridge.tracker.events import EMPTY, OCCUPIED

PROMOTION_OFFSET: Final = 8


class PhysicalError(ValueError):
    """An action the physical world does not allow (no piece there, hands full, ...)."""


@dataclass(frozen=True)
class Origin:
    """Where a held piece was picked up: a square, or a komadai (``square`` None)."""

    square: Square | None
    hand: Color | None = None


class VirtualBoard:
    """Pieces on 81 squares, two komadai, and at most one piece in the player's hand.

    Every method that changes which squares are occupied returns the new
    occupancy strings (81 cells of ``.``/``x``, one per change, in order), for
    the simulator to send as sensor frames. Methods that do not change
    occupancy (taking a piece from a komadai, flipping one over) return ``[]``.
    """

    def __init__(self, board: Board | None = None) -> None:
        self.squares: list[Piece | None] = [None] * 81
        self.hands: tuple[dict[PieceType, int], dict[PieceType, int]] = ({}, {})
        self.held: Piece | None = None
        self.origin: Origin | None = None
        if board is not None:
            self.set_position(board)

    # ------------------------------------------------------------------ state

    def cells(self) -> str:
        """What an occupancy sensor sees: 81 cells, square order."""
        return "".join(EMPTY if p is None else OCCUPIED for p in self.squares)

    def set_position(self, board: Board) -> None:
        """Stand the pieces as in ``board`` (and drop whatever was held)."""
        self.squares = [board.piece_at(sq) for sq in range(81)]
        black, white = board.pieces_in_hand
        self.hands = (dict(black), dict(white))
        self.held = None
        self.origin = None

    def matches(self, board: Board) -> bool:
        """Whether the occupancy is the board's and nothing is held."""
        return self.held is None and self.cells() == "".join(
            OCCUPIED if o else EMPTY for o in board.occupied()
        )

    def sync(self, board: Board) -> bool:
        """Take the kinds and owners of the pieces from ``board`` when the occupancy is the
        same (after a promotion or a drop answered by a button, say). Returns whether it did."""
        if not self.matches(board):
            return False
        self.set_position(board)
        return True

    def hand_count(self, color: Color, piece_type: PieceType) -> int:
        return self.hands[color].get(piece_type, 0)

    # ------------------------------------------------------------------ actions

    def lift(self, sq: Square) -> list[str]:
        """Pick up the piece on ``sq``."""
        if self.held is not None:
            raise PhysicalError("already holding a piece")
        piece = self.squares[sq]
        if piece is None:
            raise PhysicalError("no piece on that square")
        self.squares[sq] = None
        self.held = piece
        self.origin = Origin(sq)
        return [self.cells()]

    def take_from_hand(self, color: Color, piece_type: PieceType) -> list[str]:
        """Pick up one piece from a komadai (sensors see nothing)."""
        if self.held is not None:
            raise PhysicalError("already holding a piece")
        n = self.hand_count(color, piece_type)
        if n <= 0:
            raise PhysicalError("no such piece on that komadai")
        self._take(color, piece_type)
        self.held = Piece(piece_type, color)
        self.origin = Origin(None, color)
        return []

    def place(self, sq: Square) -> list[str]:
        """Put the held piece on an empty square."""
        if self.held is None:
            raise PhysicalError("not holding a piece")
        if self.squares[sq] is not None:
            raise PhysicalError("that square is occupied")
        self.squares[sq] = self.held
        self.held = None
        self.origin = None
        return [self.cells()]

    def capture(self, sq: Square) -> list[str]:
        """Take the opponent's piece off ``sq`` onto the holder's komadai, then put the held
        piece there: the target empties, then fills (what a real capture looks like)."""
        if self.held is None:
            raise PhysicalError("not holding a piece")
        victim = self.squares[sq]
        if victim is None:
            raise PhysicalError("nothing to capture there")
        if victim.color == self.held.color:
            raise PhysicalError("cannot capture one's own piece")
        if victim.piece_type == KING:
            raise PhysicalError("the king is not captured")
        self.squares[sq] = None
        out = [self.cells()]
        self._give(self.held.color, unpromoted(victim.piece_type))
        out += self.place(sq)
        return out

    def remove_to_hand(self, sq: Square, color: Color) -> list[str]:
        """Take the piece on ``sq`` onto ``color``'s komadai (a capture done by hand)."""
        piece = self.squares[sq]
        if piece is None:
            raise PhysicalError("no piece on that square")
        if piece.piece_type == KING:
            raise PhysicalError("a king does not go on a komadai")
        self.squares[sq] = None
        self._give(color, unpromoted(piece.piece_type))
        return [self.cells()]

    def put_in_hand(self, color: Color) -> list[str]:
        """Lay the held piece on ``color``'s komadai (unpromoted, now ``color``'s)."""
        if self.held is None:
            raise PhysicalError("not holding a piece")
        if self.held.piece_type == KING:
            raise PhysicalError("a king does not go on a komadai")
        self._give(color, unpromoted(self.held.piece_type))
        self.held = None
        self.origin = None
        return []

    def put_back(self) -> list[str]:
        """Return the held piece where it came from."""
        if self.held is None or self.origin is None:
            return []
        if self.origin.square is not None and self.squares[self.origin.square] is None:
            return self.place(self.origin.square)
        color = self.origin.hand if self.origin.hand is not None else self.held.color
        if self.held.piece_type == KING:  # its square was filled meanwhile: first empty one
            free = self.squares.index(None)
            return self.place(free)
        return self.put_in_hand(color)

    def flip(self, sq: Square) -> list[str]:
        """Turn the piece on ``sq`` over (promote it, or unpromote it)."""
        piece = self.squares[sq]
        if piece is None:
            raise PhysicalError("no piece on that square")
        pt = piece.piece_type
        if pt in PROMOTABLE:
            self.squares[sq] = Piece(pt + PROMOTION_OFFSET, piece.color)
        elif pt > KING:
            self.squares[sq] = Piece(pt - PROMOTION_OFFSET, piece.color)
        else:
            raise PhysicalError("that piece has no other face")
        return []

    def _give(self, color: Color, pt: PieceType) -> None:
        hand = self.hands[color]
        hand[pt] = hand.get(pt, 0) + 1

    def _take(self, color: Color, pt: PieceType) -> None:
        hand = self.hands[color]
        hand[pt] -= 1
        if not hand[pt]:
            del hand[pt]

    def hand_view(self, color: Color) -> dict[PieceType, int]:
        """The komadai in the order of :data:`HAND_PIECE_TYPES` (for drawing)."""
        hand = self.hands[color]
        return {pt: hand[pt] for pt in HAND_PIECE_TYPES if hand.get(pt)}
