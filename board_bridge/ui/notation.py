"""Moves written for people on the screen: Japanese (▲７六歩) or Western (P-7f) notation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from board_bridge.shogi import BLACK, KING, PROMOTABLE, Board, Move, square_file, square_rank
from board_bridge.ui.glyphs import KANJI, LATIN

FULLWIDTH_DIGITS: Final = "０１２３４５６７８９"
KANJI_NUMERALS: Final = "〇一二三四五六七八九"
#: Two-character names used in kifu for promoted pieces.
KIFU_NAMES: Final[dict[int, str]] = {
    **KANJI,
    9: "と",
    10: "成香",
    11: "成桂",
    12: "成銀",
    13: "馬",
    14: "龍",
}


def _could_promote(board: Board, move: Move, piece_type: int) -> bool:
    if move.from_square is None or piece_type not in PROMOTABLE:
        return False
    color = board.turn
    zone = (0, 1, 2) if color == BLACK else (6, 7, 8)
    return move.from_square // 9 in zone or move.to_square // 9 in zone


def move_text(board: Board, move: Move, japanese: bool, previous: Move | None = None) -> str:
    """One move as people write it, from the position it is played in (not pushed)."""
    color = board.turn
    if move.drop_piece_type is not None:
        pt = move.drop_piece_type
    else:
        assert move.from_square is not None
        piece = board.piece_at(move.from_square)
        pt = piece.piece_type if piece is not None else KING
    to = move.to_square
    if japanese:
        mark = "▲" if color == BLACK else "△"
        if previous is not None and previous.to_square == to:
            where = "同　"
        else:
            where = FULLWIDTH_DIGITS[square_file(to)] + KANJI_NUMERALS[square_rank(to)]
        text = mark + where + KIFU_NAMES[pt]
        if move.drop_piece_type is not None:
            text += "打"
        elif move.promotion:
            text += "成"
        elif _could_promote(board, move, pt):
            text += "不成"
        return text
    letter = LATIN[pt]
    dest = move.usi()[-3:-1] if move.promotion else move.usi()[-2:]
    if move.drop_piece_type is not None:
        return f"{letter}*{dest}"
    sep = "x" if board.piece_at(to) is not None else "-"
    suffix = "+" if move.promotion else ("=" if _could_promote(board, move, pt) else "")
    return f"{letter}{sep}{dest}{suffix}"


def line_moves(board: Board, usi_moves: Iterable[str], japanese: bool, limit: int = 8) -> list[str]:
    """Each move of a line (an engine's best line) from ``board``, written for people;
    stops at the first illegal move, and after ``limit`` moves (then ``…`` follows)."""
    b = board.copy(stack=False)
    out: list[str] = []
    previous = board.peek()
    for i, usi in enumerate(usi_moves):
        if i >= limit:
            out.append("…")
            break
        try:
            move = Move.from_usi(usi)
        except ValueError:
            break
        if not b.is_legal(move):
            break
        out.append(move_text(b, move, japanese, previous))
        b.push(move)
        previous = move
    return out


def line_text(board: Board, usi_moves: Iterable[str], japanese: bool, limit: int = 8) -> str:
    """A line of moves as one string."""
    return (" " if japanese else " ").join(line_moves(board, usi_moves, japanese, limit))
