"""What the tracker tells its caller: moves made or corrected, questions, errors, set-up.

The tracker (``board_bridge.tracker.Tracker``) is fed :mod:`events` and returns a list of
these values from each call. They are plain frozen dataclasses so the daemon, the
journal and the tests can match on them.

Contract (the daemon and the records rely on it):

- ``MoveMade`` is emitted once a legal move is settled on the board (and any question is
  answered). The daemon journals it at once.
- Until the opponent starts a reply (or the clock is pressed), the mover may still change
  it: ``MoveCorrected`` replaces the last move, ``MoveRetracted`` removes it (the piece was
  put back where it came from).
- ``TakeBack`` (casual mode only) removes the last move after the opponent had replied or
  the move was closed: the board was set back to the position before it.
- ``MoveClosed`` says the last move can no longer be corrected (the opponent started).
"""

from __future__ import annotations

from dataclasses import dataclass

from board_bridge.shogi import Move, Outcome


@dataclass(frozen=True)
class MoveMade:
    move: Move
    t: float
    ply: int  # the SFEN move number of the position the move was played from


@dataclass(frozen=True)
class MoveCorrected:
    old: Move
    new: Move
    t: float
    ply: int


@dataclass(frozen=True)
class MoveRetracted:
    move: Move
    t: float
    ply: int


@dataclass(frozen=True)
class MoveClosed:
    move: Move
    t: float
    ply: int


@dataclass(frozen=True)
class TakeBack:
    move: Move
    t: float
    ply: int


@dataclass(frozen=True)
class QuestionAsked:
    """The board must ask: ``kind`` is ``"promote"`` (options ``promote``/``nonpromote``)
    or ``"drop"`` (options are piece letters). ``square`` is where it happened."""

    kind: str
    options: tuple[str, ...]
    square: int
    t: float


@dataclass(frozen=True)
class QuestionCancelled:
    t: float


@dataclass(frozen=True)
class IllegalState:
    """The board is in a state no legal move explains. ``reason`` is an IllegalReason value
    (``"nifu"``, ...) or one of ``"unexpected"`` (not the engine's move), ``"unknown"``
    (no move explains it), and on identity boards ``"wrong-piece"`` (a kind where the game
    has another) or ``"unknown-tag"`` (a tag nobody registered). ``clear``/``fill``:
    squares to empty/fill to get back."""

    reason: str
    clear: frozenset[int]
    fill: frozenset[int]
    t: float


@dataclass(frozen=True)
class StateRestored:
    """The board is back in a state the tracker understands."""

    t: float


@dataclass(frozen=True)
class SetupProgress:
    """Before play: the board does not match the position yet."""

    clear: frozenset[int]
    fill: frozenset[int]
    t: float


@dataclass(frozen=True)
class SetupComplete:
    t: float


@dataclass(frozen=True)
class Resynced:
    """After a reconnect the board was found some legal plies ahead: these moves were
    recovered and are now part of the game (each was also emitted as ``MoveMade``)."""

    moves: tuple[Move, ...]
    t: float


@dataclass(frozen=True)
class GameEnded:
    outcome: Outcome
    t: float


TrackerOutput = (
    MoveMade
    | MoveCorrected
    | MoveRetracted
    | MoveClosed
    | TakeBack
    | QuestionAsked
    | QuestionCancelled
    | IllegalState
    | StateRestored
    | SetupProgress
    | SetupComplete
    | Resynced
    | GameEnded
)
