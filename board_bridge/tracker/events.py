"""Sensor events: whole-board frames and player inputs, each stamped with its time."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

#: Cell characters of a sensor frame. Occupancy boards use EMPTY/OCCUPIED;
#: polarity boards use UNPROMOTED/PROMOTED (a magnet's face) instead of OCCUPIED.
EMPTY: Final = "."
OCCUPIED: Final = "x"
UNPROMOTED: Final = "u"
PROMOTED: Final = "p"
#: Identity boards (a tag per piece or per face) show the kind and face up, never the
#: owner: the cell of piece type 1..14 of :mod:`board_bridge.shogi` (pawn ... dragon).
#: Upper case is an unpromoted face, lower case a promoted one (``t``: tokin).
IDENTITY_CELLS: Final = "PLNSBRGKtlnsbr"
#: An identity board's tag that is not registered: occupied, kind unknown.
UNKNOWN_TAG: Final = "?"
CELLS: Final = frozenset({EMPTY, OCCUPIED, UNPROMOTED, PROMOTED, UNKNOWN_TAG, *IDENTITY_CELLS})

#: Inputs a board may send (a choice on its buttons or screen). Unknown inputs are ignored.
INPUT_PROMOTE: Final = "promote"
INPUT_NONPROMOTE: Final = "nonpromote"
DROP_INPUTS: Final = frozenset("RBGSNLP")


class SensorLogError(ValueError):
    """A sensor-log line or frame that cannot be read."""


@dataclass(frozen=True, slots=True)
class SensorFrame:
    """The whole board as the sensors see it at time ``t`` (seconds, monotonic).

    ``cells`` holds 81 characters in SFEN order: rank a (gote's back rank) first,
    each rank from file 9 to file 1, so ``cells[i]`` is square ``i`` of
    :mod:`board_bridge.shogi` (``i = rank * 9 + (9 - file)``).
    """

    t: float
    cells: str

    def __post_init__(self) -> None:
        if len(self.cells) != 81 or not set(self.cells) <= CELLS:
            raise SensorLogError(f"a frame needs 81 cells of {sorted(CELLS)}: {self.cells!r}")

    @classmethod
    def from_board_string(cls, t: float, board: str) -> SensorFrame:
        ranks = board.split("/")
        if len(ranks) != 9 or any(len(r) != 9 for r in ranks):
            raise SensorLogError(f"a board needs 9 ranks of 9 cells separated by '/': {board!r}")
        return cls(t, "".join(ranks))

    def board_string(self) -> str:
        return "/".join(self.cells[i : i + 9] for i in range(0, 81, 9))

    def occupied(self, square: int) -> bool:
        return self.cells[square] != EMPTY


@dataclass(frozen=True, slots=True)
class PlayerInput:
    """A choice the player made at time ``t``: ``promote``, ``nonpromote``, a piece letter, ..."""

    t: float
    value: str


SensorEvent = SensorFrame | PlayerInput


def parse_event(line: str) -> SensorEvent:
    """One JSON line of a sensor log."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise SensorLogError(f"not JSON: {exc}") from exc
    if not isinstance(obj, dict) or not isinstance(obj.get("t"), int | float):
        raise SensorLogError('an event needs a numeric "t"')
    t = float(obj["t"])
    if "board" in obj:
        if not isinstance(obj["board"], str):
            raise SensorLogError('"board" must be a string')
        return SensorFrame.from_board_string(t, obj["board"])
    if "input" in obj:
        if not isinstance(obj["input"], str):
            raise SensorLogError('"input" must be a string')
        return PlayerInput(t, obj["input"])
    raise SensorLogError('an event needs "board" or "input"')


def format_event(event: SensorEvent) -> str:
    """One JSON line of a sensor log (no newline)."""
    t = round(event.t, 6)
    if isinstance(event, SensorFrame):
        return json.dumps({"t": t, "board": event.board_string()})
    return json.dumps({"t": t, "input": event.value})
