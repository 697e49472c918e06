"""KI2: moves in Japanese without from-squares, told apart by 右 左 直 上 引 寄 打."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from board_bridge.records.japanese import (
    KI2_MOVE_RE,
    PIECE_NAMES,
    Ki2Move,
    NotationError,
    ki2_words,
    parse_square_jp,
    piece_type_jp,
    resolve_ki2,
    square_jp,
)
from board_bridge.records.model import GameRecord, RecordedMove
from board_bridge.shogi import BLACK, PROMOTABLE, Board, Move, Ruleset

if TYPE_CHECKING:
    from board_bridge.records.kif import _KifReader, _Line


def read_ki2_line(reader: _KifReader, line: _Line, text: str) -> None:
    """Read the moves of one KI2 text line (``▲７六歩　△３四歩``) into ``line``."""
    for token in re.findall(r"[▲△☗☖][^▲△☗☖]*", text):
        body = token[1:].strip()
        if not body:
            continue
        if line.ended or line.illegal is not None:
            if line.illegal is not None:
                reader.lineno = line.illegal_line or reader.lineno
                raise NotationError("an illegal move is followed by more moves")
            reader.warn("a move after the end, skipped")
            return
        color = BLACK if token[0] in "▲☗" else 1
        if color != line.board.turn:
            raise NotationError(f"{token.strip()} is not by the side to move")
        m = KI2_MOVE_RE.match(body)
        if not m:
            raise NotationError(f"not a KI2 move: {body[:20]!r}")
        to = None if m.group("to").startswith("同") else parse_square_jp(m.group("to"))
        mark = m.group("promo") or ""
        if mark == "生":
            mark = "不成"
        ki2 = Ki2Move(to, piece_type_jp(m.group("piece")), m.group("words"), mark)
        last = line.board.peek()
        try:
            move = resolve_ki2(line.board, ki2, last.to_square if last else None)
        except NotationError as exc:
            raise NotationError(f"{token.strip()}: {exc}") from None
        line.board.push(move)
        line.moves.append(RecordedMove(move))


def parse_ki2(text: str, ruleset: Ruleset | None = None) -> GameRecord:
    """Read a KI2 record. Raises RecordParseError with the line number."""
    from board_bridge.records.kif import _KifReader

    return _KifReader(text, ruleset, ki2=True).read()


def ki2_move_text(board: Board, move: Move) -> str:
    """``▲７六歩``, ``△同　銀``, ``▲５八金右``, ``▲２三銀不成``, ``▲５五角打``."""
    mark = "▲" if board.turn == BLACK else "△"
    last = board.peek()
    to = (
        "同\u3000"
        if last is not None and last.to_square == move.to_square
        else square_jp(move.to_square)
    )
    words = ki2_words(board, move)
    if move.drop_piece_type is not None:
        return f"{mark}{to}{PIECE_NAMES[move.drop_piece_type]}{words}"
    piece = board.piece_at(move.from_square)  # type: ignore[arg-type]
    assert piece is not None
    promo = ""
    if move.promotion:
        promo = "成"
    elif piece.piece_type in PROMOTABLE and board.is_legal(
        Move(move.from_square, move.to_square, True)
    ):
        promo = "不成"
    return f"{mark}{to}{PIECE_NAMES[piece.piece_type]}{words}{promo}"


def write_ki2(record: GameRecord, encoding: str = "UTF-8", moves_per_line: int = 6) -> str:
    """The record as KI2 text: the KIF header, then the moves (six to a line by default),
    comments on lines of their own, and the まで line naming how the game ended."""
    from board_bridge.records.kif import result_phrase, write_kif

    bare = record.replace(
        moves=(), outcome=None, end_comment="", variations=(), illegal_move=None, comment=""
    )
    kif = write_kif(bare, encoding)
    out = [ln for ln in kif.rstrip("\n").split("\n") if not ln.startswith("手数----")]
    out[0] = out[0].replace("#KIF", "#KI2")
    out.extend(_comments(record.comment))
    board = Board(record.start_sfen)
    row: list[str] = []
    for rm in record.moves:
        row.append(ki2_move_text(board, rm.move))
        board.push(rm.move)
        if rm.comment or len(row) >= moves_per_line:
            out.append("\u3000".join(row))
            row = []
            out.extend(_comments(rm.comment))
    # An illegal final move cannot be written in KI2 (a reader could not place it): the
    # まで line keeps the result.
    if row:
        out.append("\u3000".join(row))
    if record.outcome is not None:
        plies = len(record.moves) + (1 if record.illegal_move is not None else 0)
        out.append("")
        out.append(result_phrase(record.outcome, plies, rich=True))
    out.extend(_comments(record.end_comment))
    return "\n".join(out) + "\n"


def _comments(text: str) -> list[str]:
    return ["*" + c for c in text.split("\n")] if text else []
