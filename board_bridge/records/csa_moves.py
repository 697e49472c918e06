"""CSA move tokens (``+7776FU``, ``-0055KA``) to and from the rules core's Move."""

from __future__ import annotations

from typing import Final

from board_bridge.shogi import (
    BLACK,
    KING,
    PROMOTABLE,
    Board,
    Color,
    Move,
    PieceType,
    square,
    square_file,
    square_rank,
)
from board_bridge.shogi.core import PROMOTION_OFFSET

#: CSA piece names, indexed by the rules core's piece types (1 = PAWN ... 14 = DRAGON).
CSA_PIECE_NAMES: Final = (
    "",
    "FU",
    "KY",
    "KE",
    "GI",
    "KA",
    "HI",
    "KI",
    "OU",
    "TO",
    "NY",
    "NK",
    "NG",
    "UM",
    "RY",
)
CSA_PIECE_TYPES: Final = {name: pt for pt, name in enumerate(CSA_PIECE_NAMES) if name}


class CsaMoveError(ValueError):
    """A CSA move token that cannot be read, or that does not fit the position."""


def csa_piece_type(name: str) -> PieceType:
    """``"FU"`` -> PAWN, ``"RY"`` -> DRAGON. Raises CsaMoveError."""
    try:
        return CSA_PIECE_TYPES[name]
    except KeyError:
        raise CsaMoveError(f"not a CSA piece name: {name!r}") from None


def csa_color(sign: str) -> Color:
    """``"+"`` -> BLACK, ``"-"`` -> WHITE."""
    if sign == "+":
        return BLACK
    if sign == "-":
        return 1
    raise CsaMoveError(f"not a CSA colour sign: {sign!r}")


def _square(token: str, digits: str) -> int:
    if len(digits) != 2 or not digits.isdigit() or "0" in digits:
        raise CsaMoveError(f"bad square {digits!r} in CSA move {token!r}")
    return square(int(digits[0]), int(digits[1]))


def move_from_csa(board: Board, token: str) -> Move:
    """The Move of a CSA token such as ``+7776FU``, ``-8822UM`` or ``-0055KA``.

    The sign must be the side to move; promotion is inferred from the piece named
    (the piece after the move) and the piece on the from-square. The move's legality is
    not checked here (use ``board.illegal_reason``), only that it fits the position:
    a piece of the mover on the from-square, and a named piece it can become.
    Raises CsaMoveError (a ValueError) with the token in the message.
    """
    tok = token.strip()
    if len(tok) != 7:
        raise CsaMoveError(f"a CSA move has 7 characters (+7776FU): {token!r}")
    color = csa_color(tok[0])
    if color != board.turn:
        side = "black (+)" if board.turn == BLACK else "white (-)"
        raise CsaMoveError(f"CSA move {token!r} is not by the side to move, {side}")
    named = csa_piece_type(tok[5:7])
    to = _square(tok, tok[3:5])
    if tok[1:3] == "00":
        if named >= KING:
            raise CsaMoveError(f"only unpromoted non-king pieces can be dropped: {token!r}")
        return Move(None, to, drop_piece_type=named)
    fr = _square(tok, tok[1:3])
    piece = board.piece_at(fr)
    if piece is None:
        raise CsaMoveError(f"CSA move {token!r}: no piece on {tok[1:3]}")
    if piece.color != color:
        raise CsaMoveError(f"CSA move {token!r}: the piece on {tok[1:3]} is the opponent's")
    if piece.piece_type == named:
        return Move(fr, to)
    if piece.piece_type in PROMOTABLE and piece.piece_type + PROMOTION_OFFSET == named:
        return Move(fr, to, promotion=True)
    have = CSA_PIECE_NAMES[piece.piece_type]
    raise CsaMoveError(f"CSA move {token!r}: the piece on {tok[1:3]} is {have}, not {tok[5:7]}")


def move_to_csa(board: Board, move: Move) -> str:
    """The CSA token of ``move`` played by the side to move of ``board``: ``+7776FU``.

    The piece named is the piece after the move (``+8822UM`` for a promoting bishop).
    Raises CsaMoveError when there is no piece of the side to move on the from-square.
    """
    sign = "+" if board.turn == BLACK else "-"
    to = f"{square_file(move.to_square)}{square_rank(move.to_square)}"
    if move.drop_piece_type is not None:
        return f"{sign}00{to}{CSA_PIECE_NAMES[move.drop_piece_type]}"
    assert move.from_square is not None
    piece = board.piece_at(move.from_square)
    if piece is None or piece.color != board.turn:
        raise CsaMoveError(f"move {move.usi()}: no piece of the side to move on its square")
    pt = piece.piece_type
    if move.promotion:
        if pt not in PROMOTABLE:
            raise CsaMoveError(f"move {move.usi()}: that piece cannot promote")
        pt += PROMOTION_OFFSET
    fr = f"{square_file(move.from_square)}{square_rank(move.from_square)}"
    return f"{sign}{fr}{to}{CSA_PIECE_NAMES[pt]}"
