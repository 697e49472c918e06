"""A minimal CSA move reader for the rules tests (the full parser lives in records/)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from board_bridge.shogi import Board, Move, piece_type_from_symbol, square

CSA_PIECES = {
    "FU": "P",
    "KY": "L",
    "KE": "N",
    "GI": "S",
    "KI": "G",
    "KA": "B",
    "HI": "R",
    "OU": "K",
    "TO": "+P",
    "NY": "+L",
    "NK": "+N",
    "NG": "+S",
    "UM": "+B",
    "RY": "+R",
}


def csa_move_tokens(path: Path) -> Iterator[str]:
    for line in path.read_text(encoding="cp932", errors="replace").splitlines():
        for part in line.strip().split(","):
            part = part.strip()
            if len(part) == 7 and part[0] in "+-" and part[1:5].isdigit():
                yield part


def csa_to_move(board: Board, token: str) -> Move:
    fr, to = token[1:3], token[3:5]
    piece_type = piece_type_from_symbol(CSA_PIECES[token[5:7]])
    dst = square(int(to[0]), int(to[1]))
    if fr == "00":
        return Move(None, dst, drop_piece_type=piece_type)
    src = square(int(fr[0]), int(fr[1]))
    piece = board.piece_at(src)
    assert piece is not None, f"no piece on {fr} for {token}"
    return Move(src, dst, promotion=piece.piece_type != piece_type)
