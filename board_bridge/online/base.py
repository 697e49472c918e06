"""The online opponent interface shared by the CSA and Lishogi clients: game info, events, errors.

The daemon treats an online server like an engine: it waits for a game, sends the player's
moves, and reads events (the opponent's moves, clock updates, the game's end, a dropped
connection). Both clients implement :class:`OnlineOpponent`; see docs/online.md.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Literal

from board_bridge.shogi import BLACK, WHITE, Board, Color, Move, Outcome

# --------------------------------------------------------------------------- errors


class OnlineError(Exception):
    """Something went wrong talking to an online server."""


class ConnectionLost(OnlineError, ConnectionError):
    """The connection to the server dropped (EOF, reset, or a reconnect that gave up)."""


class LoginFailed(OnlineError, PermissionError):
    """The server refused the credentials (CSA ``LOGIN:incorrect``, HTTP 401/403)."""


class GameRejected(OnlineError):
    """A proposed game was rejected (by us or by the opponent); ``by`` says who."""

    def __init__(self, game_id: str, by: str) -> None:
        self.game_id = game_id
        self.by = by
        super().__init__(f"game {game_id} was rejected by {by}")


class OnlineProtocolError(OnlineError, ValueError):
    """The server said something that breaks the protocol."""


class NotYourTurn(OnlineError, ValueError):
    """A move or a declaration was sent while it was the opponent's turn."""


class OnlineUnsupported(OnlineError, NotImplementedError):
    """The server's protocol has no such action (e.g. abort on a CSA server)."""


# --------------------------------------------------------------------------- values

ClockKind = Literal["none", "sudden-death", "byoyomi", "fischer"]


@dataclass(frozen=True)
class SideTimeControl:
    """One side's time control in seconds (the shape of ``board_bridge.app.clock.TimeControl``).

    ``main`` is None for no limit; ``byoyomi`` per move once main time is spent (``periods``
    of them on Lishogi); ``increment`` added after each move (Fischer)."""

    main: float | None = None
    byoyomi: float = 0.0
    increment: float = 0.0
    periods: int = 1

    @property
    def kind(self) -> ClockKind:
        if self.main is None and not self.byoyomi and not self.increment:
            return "none"
        if self.increment:
            return "fischer"
        if self.byoyomi:
            return "byoyomi"
        return "sudden-death"

    def time_control_args(self) -> dict[str, Any]:
        """Keyword arguments for ``board_bridge.app.clock.TimeControl``."""
        return {
            "kind": self.kind,
            "main": self.main or 0.0,
            "byoyomi": self.byoyomi,
            "increment": self.increment,
            "periods": self.periods,
        }


@dataclass(frozen=True)
class ClockSnapshot:
    """The server's clock: each side's remaining main time (seconds) when taken at ``at``
    (``time.monotonic()``), and whose clock is running then (None: stopped)."""

    remaining: tuple[float | None, float | None]
    byoyomi: tuple[float, float] = (0.0, 0.0)
    increment: tuple[float, float] = (0.0, 0.0)
    running: Color | None = None
    at: float = 0.0

    def remaining_at(self, color: Color, now: float) -> float | None:
        """``color``'s main time left at ``now`` (the running side's turn counted), or None
        when it has no limit. Never negative: once it is 0 the byoyomi is running."""
        left = self.remaining[color]
        if left is None:
            return None
        if self.running == color:
            left -= max(0.0, now - self.at)
        return max(0.0, left)

    def display(self, color: Color, now: float) -> str:
        """``mm:ss`` of main time, or ``30s`` byoyomi once it is spent, or ``--:--``."""
        left = self.remaining_at(color, now)
        if left is None:
            return "--:--"
        if left <= 0 and self.byoyomi[color]:
            used = max(0.0, now - self.at) - (self.remaining[color] or 0.0)
            byo = self.byoyomi[color] - used if self.running == color else self.byoyomi[color]
            return f"{max(byo, 0.0):.0f}s"
        whole = int(left)
        return f"{whole // 60:02d}:{whole % 60:02d}"


@dataclass(frozen=True)
class PlayedMove:
    """A move of the game as the server has it: who, what, and the time it was charged
    (seconds; None when the server does not say)."""

    move: Move
    color: Color
    time: float | None = None


@dataclass(frozen=True)
class GameInfo:
    """A game about to start (or resumed): who plays which side, from which position, under
    which clock. ``moves`` are the moves already played (a resumed game): the board is
    ``start_sfen`` with them pushed."""

    game_id: str
    my_color: Color
    names: tuple[str, str]
    start_sfen: str
    moves: tuple[PlayedMove, ...]
    time_controls: tuple[SideTimeControl, SideTimeControl]
    clock: ClockSnapshot
    max_moves: int | None = None
    declaration: str = ""
    source: Literal["csa", "lishogi"] = "csa"
    raw: Any = field(default=None, compare=False, repr=False)

    @property
    def opponent_color(self) -> Color:
        return self.my_color ^ 1

    @property
    def opponent_name(self) -> str:
        return self.names[self.my_color ^ 1]

    def board(self) -> Board:
        """The current position: the start position with the earlier moves pushed."""
        board = Board(self.start_sfen)
        for played in self.moves:
            board.push_legal(played.move)
        return board

    @property
    def side_to_move(self) -> Color:
        board = Board(self.start_sfen)
        return board.turn if len(self.moves) % 2 == 0 else board.turn ^ 1


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class OpponentMove:
    """The opponent played ``move``; ``time`` is what the server charged (seconds)."""

    move: Move
    time: float | None
    ply: int  # the SFEN move number of the position the move was played from


@dataclass(frozen=True)
class MoveConfirmed:
    """The server accepted the player's ``move`` and charged ``time`` seconds for it (the
    record takes this time, so it matches the server's)."""

    move: Move
    time: float | None
    ply: int


@dataclass(frozen=True)
class ClockUpdate:
    """The server's clock after a move (or a resync); show it on the board's clock."""

    clock: ClockSnapshot


@dataclass(frozen=True)
class GameOver:
    """The game ended. ``outcome`` in the rules core's terms; ``reason`` the server's words
    (CSA ``#RESIGN #WIN``, Lishogi status ``resign``)."""

    outcome: Outcome
    reason: str
    my_color: Color

    @property
    def result_for_me(self) -> Literal["win", "lose", "draw", "aborted"]:
        if self.outcome.winner is None:
            return "aborted" if not self.outcome.is_draw else "draw"
        return "win" if self.outcome.winner == self.my_color else "lose"


@dataclass(frozen=True)
class Disconnected:
    """The connection dropped. ``retrying``: the client reconnects by itself (Lishogi) and
    will go on with the game; otherwise the game is lost to this client (CSA)."""

    reason: str
    retrying: bool = False


@dataclass(frozen=True)
class Reconnected:
    """The connection is back and the game state was re-read from the server."""

    moves_played: int


OnlineEvent = OpponentMove | MoveConfirmed | ClockUpdate | GameOver | Disconnected | Reconnected


class OnlineOpponent(abc.ABC):
    """An online server as the daemon's opponent. Every wait takes an optional timeout
    (seconds) and raises :class:`TimeoutError` when it passes.

    Lifecycle: ``connect()`` -> ``wait_game()`` -> loop over ``next_event()`` (sending the
    player's moves with ``send_move()``) until :class:`GameOver` -> ``close()``.
    """

    @abc.abstractmethod
    async def connect(self) -> None:
        """Connect and log in. Raises LoginFailed, ConnectionLost, TimeoutError."""

    @abc.abstractmethod
    async def wait_game(self, timeout: float | None = None) -> GameInfo:
        """Wait until a game starts (CSA: Game_Summary, AGREE, START; Lishogi: gameStart
        then gameFull). Raises GameRejected when the game was rejected."""

    @abc.abstractmethod
    async def send_move(self, move: Move, time_used: float | None = None) -> None:
        """Send the player's move. The server measures the time; ``time_used`` is only the
        daemon's own measure, for logs. The server's verdict comes as an event
        (:class:`MoveConfirmed` or :class:`GameOver`)."""

    @abc.abstractmethod
    async def next_event(self, timeout: float | None = None) -> OnlineEvent:
        """The next event of the game. After a :class:`Disconnected` that is not retrying,
        further calls raise :class:`ConnectionLost`."""

    @abc.abstractmethod
    async def resign(self) -> None:
        """Resign the game (CSA ``%TORYO``, Lishogi /resign). The end comes as GameOver."""

    @abc.abstractmethod
    async def declare_win(self) -> None:
        """Declare an entering-king win (CSA ``%KACHI``)."""

    @abc.abstractmethod
    async def abort(self) -> None:
        """Abort a game that has barely started (Lishogi /abort)."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Log out and close; safe to call twice."""

    # set by each client's __init__ and kept up to date by it
    _state: str
    _clock: ClockSnapshot
    _board: Board | None

    @property
    def state(self) -> str:
        """``new``, then ``waiting`` (CSA: logged in) or ``connected`` (Lishogi), ``game``,
        ``over``, ``lost`` or ``closed``."""
        return self._state

    @property
    def clock(self) -> ClockSnapshot:
        """The latest server clock."""
        return self._clock

    @property
    def board(self) -> Board:
        """A copy of the game's current position."""
        if self._board is None:
            raise OnlineError("no game yet")
        return self._board.copy()

    async def __aenter__(self) -> OnlineOpponent:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def color_name(color: Color) -> str:
    return ("black", "white")[color]


__all__ = [
    "BLACK",
    "WHITE",
    "ClockKind",
    "ClockSnapshot",
    "ClockUpdate",
    "ConnectionLost",
    "Disconnected",
    "GameInfo",
    "GameOver",
    "GameRejected",
    "LoginFailed",
    "MoveConfirmed",
    "NotYourTurn",
    "OnlineError",
    "OnlineEvent",
    "OnlineOpponent",
    "OnlineProtocolError",
    "OnlineUnsupported",
    "OpponentMove",
    "PlayedMove",
    "Reconnected",
    "SideTimeControl",
    "color_name",
]
