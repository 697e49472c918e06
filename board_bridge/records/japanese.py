"""Japanese move notation shared by KIF and KI2: numerals, piece names, squares, 同, and the
KI2 disambiguation words (右 左 直 上 引 寄 打)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from board_bridge.shogi import (
    BISHOP,
    BLACK,
    DRAGON,
    GOLD,
    HORSE,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    PROM_KNIGHT,
    PROM_LANCE,
    PROM_PAWN,
    PROM_SILVER,
    ROOK,
    SILVER,
    Board,
    Color,
    Move,
    PieceType,
    Square,
    square,
    square_file,
    square_rank,
)

ZEN_DIGITS: Final = "０１２３４５６７８９"
KANJI_DIGITS: Final = "〇一二三四五六七八九"

#: The names KIF and KI2 write, by piece type.
PIECE_NAMES: Final = {
    PAWN: "歩", LANCE: "香", KNIGHT: "桂", SILVER: "銀", GOLD: "金", BISHOP: "角",
    ROOK: "飛", KING: "玉", PROM_PAWN: "と", PROM_LANCE: "成香", PROM_KNIGHT: "成桂",
    PROM_SILVER: "成銀", HORSE: "馬", DRAGON: "龍",
}  # fmt: skip
#: Every name a reader accepts (the one-letter forms of BOD diagrams and old files too).
PIECE_BY_NAME: Final = {
    **{name: pt for pt, name in PIECE_NAMES.items()},
    "王": KING, "杏": PROM_LANCE, "圭": PROM_KNIGHT, "全": PROM_SILVER, "竜": DRAGON,
    "仝": PROM_SILVER, "个": PROM_PAWN,
}  # fmt: skip
#: One-letter names used in BOD board diagrams.
BOD_NAMES: Final = {
    PAWN: "歩", LANCE: "香", KNIGHT: "桂", SILVER: "銀", GOLD: "金", BISHOP: "角",
    ROOK: "飛", KING: "玉", PROM_PAWN: "と", PROM_LANCE: "杏", PROM_KNIGHT: "圭",
    PROM_SILVER: "全", HORSE: "馬", DRAGON: "龍",
}  # fmt: skip
HAND_ORDER: Final = (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN)

PIECE_NAME_RE: Final = "成香|成桂|成銀|[歩香桂銀金角飛玉王と杏圭全馬龍竜仝个]"
SQUARE_RE: Final = "[１-９1-9][一二三四五六七八九１-９1-9]"
SAME_RE: Final = "同[\u3000 ]*"
BLACK_MARKS: Final = "▲☗"
WHITE_MARKS: Final = "△☖▽"


class NotationError(ValueError):
    """A Japanese move that cannot be read or does not fit the position."""


def kanji_number(n: int) -> str:
    """1 -> 一, 10 -> 十, 18 -> 十八 (hand counts and ranks)."""
    if n < 10:
        return KANJI_DIGITS[n]
    return "十" + (KANJI_DIGITS[n - 10] if n > 10 else "")


def parse_kanji_number(text: str) -> int:
    """一 -> 1, 十八 -> 18, also ASCII and full-width digits. Raises ValueError."""
    text = text.strip()
    if not text:
        raise ValueError("empty number")
    if text.isdigit():
        return int(text.translate(str.maketrans(ZEN_DIGITS, "0123456789")))
    if text.startswith("十"):
        rest = text[1:]
        return 10 + (KANJI_DIGITS.index(rest) if rest else 0)
    if len(text) == 1 and text in KANJI_DIGITS:
        return KANJI_DIGITS.index(text)
    raise ValueError(f"not a number: {text!r}")


def digit_value(ch: str) -> int:
    for table in (ZEN_DIGITS, KANJI_DIGITS, "0123456789"):
        i = table.find(ch)
        if i > 0:
            return i
    raise ValueError(f"not a digit 1-9: {ch!r}")


def parse_square_jp(text: str) -> Square:
    """``７六`` (or ``76``) -> the square of file 7, rank 6."""
    return square(digit_value(text[0]), digit_value(text[1]))


def square_jp(sq: Square) -> str:
    """The square as KIF writes it: file in full-width digits, rank in kanji: ``７六``."""
    return ZEN_DIGITS[square_file(sq)] + KANJI_DIGITS[square_rank(sq)]


def piece_type_jp(name: str) -> PieceType:
    try:
        return PIECE_BY_NAME[name]
    except KeyError:
        raise NotationError(f"not a piece name: {name!r}") from None


def hand_text(hand: dict[PieceType, int]) -> str:
    """``{GOLD: 1, PAWN: 8}`` -> ``金　歩八`` (``なし`` when empty)."""
    parts = []
    for pt in HAND_ORDER:
        n = hand.get(pt, 0)
        if n:
            parts.append(PIECE_NAMES[pt] + (kanji_number(n) if n > 1 else ""))
    return "\u3000".join(parts) if parts else "なし"


def parse_hand_text(text: str) -> dict[PieceType, int]:
    """``金 歩八`` -> ``{GOLD: 1, PAWN: 8}``. Raises NotationError."""
    text = text.strip().strip("\u3000")
    hand: dict[PieceType, int] = {}
    if not text or text == "なし":
        return hand
    for item in re.split(r"[\s\u3000、,]+", text):
        if not item:
            continue
        name, count = item[0], item[1:]
        pt = piece_type_jp(name)
        if pt not in HAND_ORDER:
            raise NotationError(f"{name} cannot be in hand")
        try:
            n = parse_kanji_number(count) if count else 1
        except ValueError:
            raise NotationError(f"bad count in hand item {item!r}") from None
        hand[pt] = hand.get(pt, 0) + n
    return hand


# --- KI2 disambiguation ---------------------------------------------------------------

LR_WORDS: Final = ("右", "左")
VERTICAL_WORDS: Final = ("上", "引", "寄", "直")
KI2_MOVE_RE: Final = re.compile(
    rf"(?P<to>{SQUARE_RE}|{SAME_RE})(?P<piece>{PIECE_NAME_RE})"
    r"(?P<words>[右左直上引寄行入]*)(?P<promo>不成|生|成|打)?"
)


@dataclass(frozen=True)
class Ki2Move:
    """The parts of a KI2 move: target (None for 同), piece, words, promotion mark."""

    to: Square | None
    piece_type: PieceType
    words: str
    mark: str  # "", "成", "不成" or "打"


def _forward(color: Color, fr: Square, to: Square) -> int:
    """+1 when the move goes toward the opponent, -1 back, 0 sideways."""
    d = square_rank(fr) - square_rank(to)
    if color != BLACK:
        d = -d
    return (d > 0) - (d < 0)


def _matches_vertical(word: str, color: Color, fr: Square, to: Square) -> bool:
    f = _forward(color, fr, to)
    if word == "上" or word == "行":
        return f > 0
    if word == "引":
        return f < 0
    if word == "寄":
        return f == 0
    if word == "直" or word == "入":
        return f > 0 and square_file(fr) == square_file(to)
    return True


def filter_by_words(moves: list[Move], words: str, color: Color) -> list[Move]:
    """Keep the moves the words 上 引 寄 直 (vertical) and 右 左 (which piece) allow."""
    out = [m for m in moves if m.from_square is not None]
    for w in words:
        if w in VERTICAL_WORDS or w in "行入":
            out = [m for m in out if _matches_vertical(w, color, m.from_square, m.to_square)]  # type: ignore[arg-type]
    for w in words:
        if w in LR_WORDS and out:
            # Right for black is the smaller file; for white, the larger.
            files = [square_file(m.from_square) for m in out]  # type: ignore[arg-type]
            rightmost = min(files) if color == BLACK else max(files)
            leftmost = max(files) if color == BLACK else min(files)
            want = rightmost if w == "右" else leftmost
            out = [m for m in out if square_file(m.from_square) == want]  # type: ignore[arg-type]
    return out


def ki2_candidates(board: Board, to: Square, piece_type: PieceType, mark: str) -> list[Move]:
    """Legal moves of the side to move to ``to`` by a ``piece_type`` (the piece before
    the move), with the promotion the mark says: 成 promotes, 不成 / none does not."""
    out = []
    for m in board.legal_moves:
        if m.to_square != to:
            continue
        if m.drop_piece_type is not None:
            if m.drop_piece_type == piece_type:
                out.append(m)
            continue
        piece = board.piece_at(m.from_square)  # type: ignore[arg-type]
        if piece is None or piece.piece_type != piece_type:
            continue
        if m.promotion != (mark == "成"):
            continue
        out.append(m)
    return out


def resolve_ki2(board: Board, ki2: Ki2Move, last_to: Square | None) -> Move:
    """The legal move a KI2 move names. Raises NotationError when none or several fit."""
    to = ki2.to if ki2.to is not None else last_to
    if to is None:
        raise NotationError("同 with no previous move")
    cands = ki2_candidates(board, to, ki2.piece_type, ki2.mark)
    drops = [m for m in cands if m.drop_piece_type is not None]
    board_moves = [m for m in cands if m.drop_piece_type is None]
    if ki2.mark == "打":
        if not drops:
            raise NotationError("no such drop is legal")
        return drops[0]
    if board_moves:
        chosen = filter_by_words(board_moves, ki2.words, board.turn) if ki2.words else board_moves
        if len(chosen) == 1:
            return chosen[0]
        if not chosen:
            raise NotationError(f"no piece fits the words {ki2.words!r}")
        raise NotationError("ambiguous move: more than one piece can make it")
    if drops and not ki2.words:
        return drops[0]
    raise NotationError("no legal move fits")


def ki2_words(board: Board, move: Move) -> str:
    """The fewest disambiguation words (右 左 直 上 引 寄, or 打) that single out ``move``
    among the legal moves of the same kind of piece to the same square."""
    if move.drop_piece_type is not None:
        others = ki2_candidates(board, move.to_square, move.drop_piece_type, "")
        return "打" if any(m.drop_piece_type is None for m in others) else ""
    piece = board.piece_at(move.from_square)  # type: ignore[arg-type]
    assert piece is not None
    mark = "成" if move.promotion else ""
    cands = [
        m
        for m in ki2_candidates(board, move.to_square, piece.piece_type, mark)
        if m.drop_piece_type is None
    ]
    if len(cands) <= 1:
        return ""
    color = board.turn
    options = ["上", "引", "寄", "直", "右", "左"]
    options += [lr + v for lr in LR_WORDS for v in ("上", "引", "寄", "直")]
    for words in options:
        if filter_by_words(cands, words, color) == [move]:
            return words
    raise NotationError(f"cannot single out {move.usi()} in KI2 words")
