"""Per-position facts the tracker asks for often: expected sensor cells, legal moves by square."""

from __future__ import annotations

from board_bridge.shogi import HAND_PIECE_TYPES, KING, Board, Move
from board_bridge.shogi.core import PROMOTION_OFFSET
from board_bridge.tracker.events import EMPTY, IDENTITY_CELLS, OCCUPIED, PROMOTED, UNPROMOTED

#: The kinds of board sensors: what a square's cell tells about the piece on it.
SENSINGS = ("occupancy", "polarity", "identity")

#: Per sensing, the cell of each piece type (index 0: an empty square).
_CELL_OF_TYPE: dict[str, str] = {
    "occupancy": EMPTY + OCCUPIED * 14,
    "polarity": EMPTY + UNPROMOTED * KING + PROMOTED * (14 - KING),
    "identity": EMPTY + IDENTITY_CELLS,
}


def check_sensing(sensing: str) -> str:
    """``sensing`` if it is one of SENSINGS, else a ValueError that lists them."""
    if sensing not in SENSINGS:
        raise ValueError(f"sensing must be one of {', '.join(SENSINGS)}, not {sensing!r}")
    return sensing


def cell_of_type(piece_type: int, sensing: str) -> str:
    """The cell a square shows with a piece of ``piece_type`` on it (0: empty)."""
    return _CELL_OF_TYPE[sensing][piece_type]


def cells_of_codes(codes: list[int], sensing: str) -> str:
    """What the sensors see for a board given as piece codes (see ``Board.board_cells``)."""
    table = _CELL_OF_TYPE[sensing]
    return "".join(table[c & 15] for c in codes)


_DIFFS: dict[tuple[str, str], tuple[int, ...]] = {}
_DIFFS_MAX = 4096  # (the tracker compares the same few states and positions again and again)


def diff(a: str, b: str) -> tuple[int, ...]:
    """Squares where two 81-cell strings differ (remembered: nine in ten calls repeat one)."""
    if a == b:
        return ()
    key = (a, b)
    known = _DIFFS.get(key)
    if known is not None:
        return known
    out: list[int] = []
    for r in range(0, 81, 9):
        if a[r : r + 9] != b[r : r + 9]:
            out.extend(i for i in range(r, r + 9) if a[i] != b[i])
    if len(_DIFFS) >= _DIFFS_MAX:
        _DIFFS.clear()
    found = _DIFFS[key] = tuple(out)
    return found


class PosInfo:
    """A position (never mutated) with its expected cells and its legal moves indexed."""

    __slots__ = ("board", "codes", "exp", "turn", "sensing", "_from", "_drops", "_onto", "_legal")

    def __init__(self, board: Board, sensing: str) -> None:
        self.board = board
        self.codes = board.board_cells()
        self.turn = board.turn
        self.sensing = sensing
        self.exp = cells_of_codes(self.codes, sensing)
        self._legal: list[Move] | None = None
        self._from: dict[int, list[Move]] = {}
        self._drops: dict[int, list[Move]] = {}
        self._onto: dict[int, list[Move]] = {}

    def _index(self) -> list[Move]:
        if self._legal is None:
            legal = self.board.legal_moves
            for m in legal:
                if m.from_square is None:
                    self._drops.setdefault(m.to_square, []).append(m)
                else:
                    self._from.setdefault(m.from_square, []).append(m)
                    self._onto.setdefault(m.to_square, []).append(m)
            self._legal = legal
        return self._legal

    @property
    def legal(self) -> list[Move]:
        return self._index()

    def moves_from(self, sq: int) -> list[Move]:
        self._index()
        return self._from.get(sq, [])

    def drops_to(self, sq: int) -> list[Move]:
        self._index()
        return self._drops.get(sq, [])

    def moves_onto(self, sq: int) -> list[Move]:
        """Legal board moves (not drops) ending on ``sq``."""
        self._index()
        return self._onto.get(sq, [])

    def own(self, sq: int) -> bool:
        c = self.codes[sq]
        return bool(c) and c >> 4 == self.turn

    def theirs(self, sq: int) -> bool:
        c = self.codes[sq]
        return bool(c) and c >> 4 != self.turn

    def opponent_holds(self) -> bool:
        """Does the side not to move hold a piece in hand (one it could drop in reply)?"""
        board, them = self.board, 1 - self.turn
        return any(board.hand_count(them, pt) for pt in HAND_PIECE_TYPES)

    def face_after(self, move: Move) -> str:
        """The cell the destination of ``move`` shows once it is made."""
        if move.from_square is None:
            pt = move.drop_piece_type or 0
        else:
            pt = self.codes[move.from_square] & 15
            if move.promotion:
                pt += PROMOTION_OFFSET
        return _CELL_OF_TYPE[self.sensing][pt]

    def changes(self, move: Move) -> dict[int, str]:
        """The cells ``move`` changes: square -> new cell."""
        out: dict[int, str] = {}
        face = self.face_after(move)
        if move.from_square is not None:
            out[move.from_square] = EMPTY
        if self.exp[move.to_square] != face:
            out[move.to_square] = face
        return out


class PositionCache:
    """PosInfo by position (board, hands, side to move); bounded."""

    def __init__(self, sensing: str, size: int = 512) -> None:
        self.sensing = sensing
        self.size = size
        self._cache: dict[int, PosInfo] = {}

    def get(self, board: Board) -> PosInfo:
        """The PosInfo of ``board`` (copied: the caller may go on mutating its board)."""
        key = board.position_key()
        info = self._cache.get(key)
        if info is None:
            if len(self._cache) >= self.size:
                self._cache.clear()
            info = PosInfo(board.copy(stack=False), self.sensing)
            self._cache[key] = info
        return info

    def after(self, info: PosInfo, *moves: Move) -> PosInfo:
        """The PosInfo of ``info``'s position after ``moves`` (trusted legal)."""
        board = info.board.copy(stack=False)
        for m in moves:
            board.push(m)
        return self.get(board)
