"""Value types of the rules core: colours, squares, piece types, pieces and moves."""

from __future__ import annotations

import enum
from typing import Final

Color = int
BLACK: Final = 0  # sente, moves first, at the bottom (ranks g-i)
WHITE: Final = 1  # gote
COLORS: Final = (BLACK, WHITE)
COLOR_NAMES: Final = ("black", "white")

# Piece types. A promotable type promotes to ``type + PROMOTION_OFFSET``.
PieceType = int
PAWN: Final = 1
LANCE: Final = 2
KNIGHT: Final = 3
SILVER: Final = 4
BISHOP: Final = 5
ROOK: Final = 6
GOLD: Final = 7
KING: Final = 8
PROM_PAWN: Final = 9
PROM_LANCE: Final = 10
PROM_KNIGHT: Final = 11
PROM_SILVER: Final = 12
PROM_BISHOP: Final = 13  # horse
PROM_ROOK: Final = 14  # dragon
HORSE: Final = PROM_BISHOP
DRAGON: Final = PROM_ROOK
PROMOTION_OFFSET: Final = 8

PIECE_TYPES: Final = tuple(range(PAWN, PROM_ROOK + 1))
HAND_PIECE_TYPES: Final = (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN)  # SFEN order
PROMOTABLE: Final = frozenset({PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK})

#: SFEN letters of the unpromoted types (upper case = black).
PIECE_SYMBOLS: Final = ("", "p", "l", "n", "s", "b", "r", "g", "k")
PIECE_TYPE_NAMES: Final = (
    "",
    "pawn",
    "lance",
    "knight",
    "silver",
    "bishop",
    "rook",
    "gold",
    "king",
    "promoted pawn",
    "promoted lance",
    "promoted knight",
    "promoted silver",
    "horse",
    "dragon",
)
#: Impasse points: rook and bishop (promoted or not) 5, the king 0, others 1.
PIECE_POINTS: Final = (0, 1, 1, 1, 1, 5, 5, 1, 0, 1, 1, 1, 1, 5, 5)


def unpromoted(piece_type: PieceType) -> PieceType:
    """The type a piece returns to when captured."""
    return piece_type - PROMOTION_OFFSET if piece_type > KING else piece_type


def piece_type_from_symbol(symbol: str) -> PieceType:
    """``"P"`` -> PAWN, ``"+r"`` -> PROM_ROOK (case ignored)."""
    promoted = symbol.startswith("+")
    letter = symbol[1:] if promoted else symbol
    try:
        pt = PIECE_SYMBOLS.index(letter.lower(), 1)
    except ValueError:
        raise ValueError(f"not a piece symbol: {symbol!r}") from None
    if promoted:
        if pt not in PROMOTABLE:
            raise ValueError(f"that piece cannot be promoted: {symbol!r}")
        pt += PROMOTION_OFFSET
    return pt


def piece_type_symbol(piece_type: PieceType) -> str:
    """Upper-case SFEN symbol: PAWN -> ``"P"``, PROM_ROOK -> ``"+R"``."""
    if piece_type > KING:
        return "+" + PIECE_SYMBOLS[piece_type - PROMOTION_OFFSET].upper()
    return PIECE_SYMBOLS[piece_type].upper()


# Squares: 0..80 in SFEN order. Rank a (gote's back rank) is 0, file 9 comes first:
# square = rank * 9 + (9 - file). 9a = 0, 1a = 8, 5e = 40, 1i = 80.
Square = int
SQUARES: Final = tuple(range(81))
FILE_NAMES: Final = "987654321"
RANK_NAMES: Final = "abcdefghi"
SQUARE_NAMES: Final = tuple(f"{FILE_NAMES[s % 9]}{RANK_NAMES[s // 9]}" for s in SQUARES)


def square(file: int, rank: int) -> Square:
    """The square of ``file`` 1-9 and ``rank`` 1-9 (rank 1 = a)."""
    if not (1 <= file <= 9 and 1 <= rank <= 9):
        raise ValueError(f"no such square: file {file}, rank {rank}")
    return (rank - 1) * 9 + (9 - file)


def square_file(sq: Square) -> int:
    """File 1-9 of a square."""
    return 9 - sq % 9


def square_rank(sq: Square) -> int:
    """Rank 1-9 of a square (1 = a)."""
    return sq // 9 + 1


def square_distance(a: Square, b: Square) -> int:
    """The number of king steps between two squares (1: neighbours)."""
    return max(abs(a // 9 - b // 9), abs(a % 9 - b % 9))


def parse_square(name: str) -> Square:
    """``"7g"`` -> 56. Raises ValueError for anything else."""
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError(f"not a square name: {name!r}") from None


def square_name(sq: Square) -> str:
    """56 -> ``"7g"``."""
    return SQUARE_NAMES[sq]


class Piece:
    """A piece on the board: its type and its owner."""

    __slots__ = ("piece_type", "color")

    def __init__(self, piece_type: PieceType, color: Color) -> None:
        self.piece_type = piece_type
        self.color = color

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        letter = symbol[-1:]
        return cls(piece_type_from_symbol(symbol), BLACK if letter.isupper() else WHITE)

    def symbol(self) -> str:
        s = piece_type_symbol(self.piece_type)
        return s if self.color == BLACK else s.lower()

    @property
    def code(self) -> int:
        return self.piece_type | (self.color << 4)

    def is_promoted(self) -> bool:
        return self.piece_type > KING

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Piece)
            and self.piece_type == other.piece_type
            and self.color == other.color
        )

    def __hash__(self) -> int:
        return self.code

    def __repr__(self) -> str:
        return f"Piece.from_symbol({self.symbol()!r})"

    def __str__(self) -> str:
        return self.symbol()


class Move:
    """A move: from a square to a square, perhaps promoting; or a drop from the hand.

    ``from_square`` is None for a drop, whose kind is ``drop_piece_type``.
    """

    __slots__ = ("from_square", "to_square", "promotion", "drop_piece_type")

    def __init__(
        self,
        from_square: Square | None,
        to_square: Square,
        promotion: bool = False,
        drop_piece_type: PieceType | None = None,
    ) -> None:
        if (from_square is None) == (drop_piece_type is None):
            raise ValueError("a move has either a from-square or a drop piece type")
        if drop_piece_type is not None and promotion:
            raise ValueError("a drop cannot promote")
        self.from_square = from_square
        self.to_square = to_square
        self.promotion = promotion
        self.drop_piece_type = drop_piece_type

    @classmethod
    def from_usi(cls, usi: str) -> Move:
        """Parse ``7g7f``, ``8h2b+`` or ``P*5e``. Raises ValueError (InvalidMoveError)."""
        try:
            if len(usi) == 4 and usi[1] == "*":
                pt = piece_type_from_symbol(usi[0])
                if pt not in HAND_PIECE_TYPES or not usi[0].isupper():
                    raise ValueError
                return cls(None, parse_square(usi[2:4]), drop_piece_type=pt)
            if len(usi) in (4, 5):
                promotion = len(usi) == 5
                if promotion and usi[4] != "+":
                    raise ValueError
                return cls(parse_square(usi[0:2]), parse_square(usi[2:4]), promotion)
        except ValueError:
            pass
        raise InvalidMoveError(f"not a USI move: {usi!r}")

    def usi(self) -> str:
        to = SQUARE_NAMES[self.to_square]
        if self.drop_piece_type is not None:
            return f"{PIECE_SYMBOLS[self.drop_piece_type].upper()}*{to}"
        assert self.from_square is not None
        return SQUARE_NAMES[self.from_square] + to + ("+" if self.promotion else "")

    def is_drop(self) -> bool:
        return self.drop_piece_type is not None

    def _key(self) -> tuple[int, int, bool, int]:
        return (
            -1 if self.from_square is None else self.from_square,
            self.to_square,
            self.promotion,
            self.drop_piece_type or 0,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Move.from_usi({self.usi()!r})"

    def __str__(self) -> str:
        return self.usi()


class IllegalReason(enum.Enum):
    """Why a move is illegal: a fixed set the LEDs and the screen can explain."""

    NO_PIECE = "no-piece"
    NOT_OWN_PIECE = "not-own-piece"
    WRONG_SIDE = "wrong-side"
    CAPTURES_OWN_PIECE = "captures-own-piece"
    NOT_A_MOVE_OF_THAT_PIECE = "not-a-move-of-that-piece"
    PATH_BLOCKED = "path-blocked"
    NOT_IN_HAND = "not-in-hand"
    SQUARE_OCCUPIED = "square-occupied"
    NIFU = "nifu"
    PAWN_DROP_MATE = "pawn-drop-mate"
    DEAD_PIECE = "dead-piece"
    CANNOT_PROMOTE = "cannot-promote"
    KING_IN_CHECK = "king-in-check"
    GAME_OVER = "game-over"

    @property
    def description(self) -> str:
        return _REASON_TEXT[self]


_REASON_TEXT: Final = {
    IllegalReason.NO_PIECE: "there is no piece on that square",
    IllegalReason.NOT_OWN_PIECE: "that piece is not the mover's",
    IllegalReason.WRONG_SIDE: "it is the other side's turn",
    IllegalReason.CAPTURES_OWN_PIECE: "a piece cannot capture its own side's piece",
    IllegalReason.NOT_A_MOVE_OF_THAT_PIECE: "that piece does not move that way",
    IllegalReason.PATH_BLOCKED: "the path is blocked",
    IllegalReason.NOT_IN_HAND: "that piece is not in hand",
    IllegalReason.SQUARE_OCCUPIED: "a piece can only be dropped on an empty square",
    IllegalReason.NIFU: "two unpromoted pawns on one file (nifu)",
    IllegalReason.PAWN_DROP_MATE: "checkmate by a pawn drop (uchifuzume)",
    IllegalReason.DEAD_PIECE: "the piece would have no further move (it must promote)",
    IllegalReason.CANNOT_PROMOTE: "that piece cannot promote on this move",
    IllegalReason.KING_IN_CHECK: "the king would be left in check",
    IllegalReason.GAME_OVER: "the game is over",
}


class InvalidMoveError(ValueError):
    """A move string that cannot be parsed."""


class IllegalMoveError(ValueError):
    """A move that is not legal in the position; ``reason`` says why."""

    def __init__(self, move: Move | str, reason: IllegalReason) -> None:
        self.move = move
        self.reason = reason
        text = move.usi() if isinstance(move, Move) else move
        super().__init__(f"illegal move {text}: {reason.description}")


class InvalidSfenError(ValueError):
    """An SFEN string that cannot be read."""
