"""Game end under the JSA rules and the variants users play: mate, sennichite, impasse, try."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from board_bridge.shogi.core import BLACK, KING, PIECE_POINTS, WHITE, Color

if TYPE_CHECKING:
    from board_bridge.shogi.board import Board


class Termination(enum.Enum):
    """How a game ended."""

    CHECKMATE = "checkmate"
    NO_LEGAL_MOVES = "no-legal-moves"  # not in check, but no legal move: a loss
    SENNICHITE = "sennichite"  # fourfold repetition: a draw
    PERPETUAL_CHECK = "perpetual-check"  # repetition with one side checking throughout
    IMPASSE = "impasse"  # jishogi by the 24-point count
    DECLARATION = "declaration"  # entering-king declaration (JSA 31-point or CSA 27-point)
    TRY = "try"  # the try rule: a king reached the opponent's king square
    MAX_MOVES = "max-moves"
    ILLEGAL_MOVE = "illegal-move"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    AGREEMENT = "agreement"  # a draw the players agreed
    ABORT = "abort"  # interrupted (中断): no result


@dataclass(frozen=True)
class Outcome:
    """The end of a game: how, and who won (None for a draw or an abort)."""

    termination: Termination
    winner: Color | None
    detail: str = ""

    @property
    def is_draw(self) -> bool:
        return self.winner is None and self.termination is not Termination.ABORT

    def result(self) -> str:
        """``"black wins"``, ``"white wins"``, ``"draw"`` or ``"aborted"``."""
        if self.termination is Termination.ABORT:
            return "aborted"
        if self.winner is None:
            return "draw"
        return ("black", "white")[self.winner] + " wins"

    def __str__(self) -> str:
        text = f"{self.result()} by {self.termination.value}"
        return f"{text} ({self.detail})" if self.detail else text


Declaration = Literal["none", "jsa", "csa27"]


@dataclass(frozen=True)
class Ruleset:
    """Which rule variants a game is played under.

    - ``declaration``: how an entering-king declaration is judged: ``"jsa"`` (31 points
      or more wins, 24-30 draws, fewer loses), ``"csa27"`` (28 points for sente, 27 for
      gote wins, else the declarer loses), or ``"none"`` (not allowed).
    - ``impasse_24``: allow ending a double-entered-king game by the 24-point count.
    - ``try_rule``: a king reaching the opponent's king square (5a / 5i) wins.
    - ``max_moves``: the game is drawn after this many moves (None: no limit).
    - ``illegal_move_loses``: tournament mode; otherwise an illegal move is refused.
    """

    declaration: Declaration = "jsa"
    impasse_24: bool = True
    try_rule: bool = False
    max_moves: int | None = None
    illegal_move_loses: bool = False

    def __post_init__(self) -> None:
        if self.declaration not in ("none", "jsa", "csa27"):
            raise ValueError(f"declaration must be none, jsa or csa27: {self.declaration!r}")
        if self.max_moves is not None and self.max_moves < 1:
            raise ValueError(f"max_moves must be positive: {self.max_moves}")


TRY_SQUARES = (4, 76)  # black's king aims at 5a, white's at 5i


def _in_camp(color: Color, sq: int) -> bool:
    """Is ``sq`` in the enemy camp of ``color`` (the three far ranks)?"""
    return sq < 27 if color == BLACK else sq >= 54


def declaration_points(board: Board, color: Color) -> tuple[int, int]:
    """(points, pieces) of ``color`` for a declaration: pieces in the enemy camp other than
    the king, plus the hand. Points: rook and bishop 5, others 1."""
    cells = board.board_cells()
    points = pieces = 0
    for sq, code in enumerate(cells):
        if code and code >> 4 == color and (code & 15) != KING and _in_camp(color, sq):
            points += PIECE_POINTS[code & 15]
            pieces += 1
    for pt, n in board.pieces_in_hand[color].items():
        points += PIECE_POINTS[pt] * n
    return points, pieces


def material_points(board: Board, color: Color) -> int:
    """All of ``color``'s points, on the board and in hand (the 24-point count)."""
    cells = board.board_cells()
    points = sum(PIECE_POINTS[c & 15] for c in cells if c and c >> 4 == color)
    points += sum(PIECE_POINTS[pt] * n for pt, n in board.pieces_in_hand[color].items())
    return points


def declare(board: Board, ruleset: Ruleset) -> Outcome:
    """The side to move declares an entering-king win; judged by ``ruleset.declaration``.

    A declaration that does not meet the conditions loses."""
    c = board.turn
    invalid = Outcome(Termination.DECLARATION, c ^ 1, "declaration conditions not met")
    if ruleset.declaration == "none":
        return Outcome(Termination.DECLARATION, c ^ 1, "declarations are not allowed")
    k = board.king_square(c)
    if k is None or not _in_camp(c, k) or board.is_check():
        return invalid
    points, pieces = declaration_points(board, c)
    if pieces < 10:
        return invalid
    if ruleset.declaration == "jsa":
        if points >= 31:
            return Outcome(Termination.DECLARATION, c, f"{points} points")
        if points >= 24:
            return Outcome(Termination.DECLARATION, None, f"{points} points")
        return Outcome(Termination.DECLARATION, c ^ 1, f"{points} points")
    need = 28 if c == BLACK else 27
    if points >= need:
        return Outcome(Termination.DECLARATION, c, f"{points} points")
    return Outcome(Termination.DECLARATION, c ^ 1, f"{points} points, {need} needed")


def impasse_24(board: Board) -> Outcome | None:
    """Adjudicate a double-entered-king game by the 24-point count, or None when the
    kings have not both entered the enemy camp. A side with fewer than 24 points loses;
    otherwise it is a draw."""
    for color in (BLACK, WHITE):
        k = board.king_square(color)
        if k is None or not _in_camp(color, k):
            return None
    black, white = material_points(board, BLACK), material_points(board, WHITE)
    detail = f"black {black}, white {white} points"
    if black < 24 <= white:
        return Outcome(Termination.IMPASSE, WHITE, detail)
    if white < 24 <= black:
        return Outcome(Termination.IMPASSE, BLACK, detail)
    return Outcome(Termination.IMPASSE, None, detail)


def repetition_outcome(board: Board) -> Outcome | None:
    """Sennichite: the current position has occurred four times. A draw, unless every move
    of one side since the first occurrence gave check: that side loses."""
    keys = board.history_keys()
    current = keys[-1]
    if keys.count(current) < 4:
        return None
    first = keys.index(current)
    n = len(keys) - 1 - first  # moves since the first occurrence
    replay = board.copy()
    undone = [replay.pop() for _ in range(n)]
    checked = [True, True]  # per mover: every move gave check
    for move in reversed(undone):
        mover = replay.turn
        replay.push(move)
        if not replay.is_check():
            checked[mover] = False
    for color in (BLACK, WHITE):
        if checked[color]:
            return Outcome(Termination.PERPETUAL_CHECK, color ^ 1, "perpetual check")
    return Outcome(Termination.SENNICHITE, None)


def outcome(board: Board, ruleset: Ruleset | None = None) -> Outcome | None:
    """The end the position itself decides (mate, repetition, try, move limit), or None."""
    rules = ruleset or Ruleset()
    mover = board.turn ^ 1  # who made the last move
    if rules.try_rule and board.move_stack and board.king_square(mover) == TRY_SQUARES[mover]:
        return Outcome(Termination.TRY, mover)
    if not board.has_legal_move():
        if board.is_check():
            return Outcome(Termination.CHECKMATE, board.turn ^ 1)
        return Outcome(Termination.NO_LEGAL_MOVES, board.turn ^ 1)
    rep = repetition_outcome(board)
    if rep is not None:
        return rep
    if rules.max_moves is not None and board.ply - 1 >= rules.max_moves:
        return Outcome(Termination.MAX_MOVES, None, f"{rules.max_moves} moves")
    return None
