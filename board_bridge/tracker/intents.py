"""LED intents: what the board should show, independent of how its LEDs are wired."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field


class Mark(enum.IntEnum):
    """What one square's LED means. A higher value wins when a square has several."""

    NONE = 0
    LAST_MOVE = 1  # from and to squares of the last move
    TARGET = 2  # a legal destination of the lifted piece
    HINT = 3  # the engine's suggestion (analysis display)
    ENGINE_FROM = 4  # the engine's move to make: lift here
    ENGINE_TO = 5  # ... and place here (for a drop, only this one)
    LIFTED = 6  # the square a piece was lifted from
    CHECK = 7  # a king in check
    QUESTION = 8  # a square waiting on a choice (promote? which piece?)
    FILL = 9  # guidance: put a piece here
    CLEAR = 10  # guidance: take the piece off this square
    ERROR = 11  # an illegal state on this square
    GAME_OVER = 12  # the losing king, or all squares at game end


@dataclass(frozen=True)
class LedIntents:
    """Everything the board should show now. Squares use the shogi core's numbering.

    ``marks`` maps a square to its strongest :class:`Mark`; the other fields say
    why, for screens that can show words (the reason of an error, the question).
    """

    marks: dict[int, Mark] = field(default_factory=dict)
    question: str | None = None  # "promote", or "drop:GSP" (the kinds to choose from)
    reason: str | None = None  # why a square is ERROR (an IllegalReason value)
    engine_move: str | None = None  # the engine's move to make, in USI
    engine_drop: str | None = None  # the piece letter to drop, for an engine drop
    game_over: str | None = None  # how the game ended, once it has

    def mark(self, square: int) -> Mark:
        return self.marks.get(square, Mark.NONE)

    def with_marks(self, squares: Iterable[int], mark: Mark) -> dict[int, Mark]:
        """A copy of ``marks`` with ``mark`` added on ``squares`` where it is stronger."""
        out = dict(self.marks)
        for sq in squares:
            if out.get(sq, Mark.NONE) < mark:
                out[sq] = mark
        return out


def merge_marks(*layers: dict[int, Mark]) -> dict[int, Mark]:
    """Combine mark maps; the strongest mark on each square wins."""
    out: dict[int, Mark] = {}
    for layer in layers:
        for sq, mark in layer.items():
            if out.get(sq, Mark.NONE) < mark:
                out[sq] = mark
    return out
