"""An online opponent in the engine's seat: the daemon's ``EnginePlayer`` shape over any client.

The daemon asks an engine ``play(root, moves, limit)`` and gets a ``PlayResult``. This
adapter sends the player's newest move to the server and answers with the opponent's
reply, so the daemon can use a CSA or Lishogi opponent as it uses an engine. The server's
times and clocks are kept in :attr:`OnlineEnginePlayer.times` and :attr:`clock` for the
record and the board's clock; a game end other than the opponent resigning or declaring
raises :class:`OnlineGameOver` carrying the server's :class:`GameOver`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from board_bridge.engine.protocol import PlayResult
from board_bridge.online.base import (
    ClockSnapshot,
    ClockUpdate,
    ConnectionLost,
    Disconnected,
    GameInfo,
    GameOver,
    MoveConfirmed,
    OnlineError,
    OnlineOpponent,
    OpponentMove,
)
from board_bridge.shogi import STARTING_SFEN, Board, Move, Termination

LOGGER = logging.getLogger(__name__)


class OnlineGameOver(OnlineError):
    """The server ended the game (time up, illegal move, sennichite, ...)."""

    def __init__(self, event: GameOver) -> None:
        self.event = event
        super().__init__(f"the server ended the game: {event.outcome} ({event.reason})")


class OnlineEnginePlayer:
    """Wraps an :class:`OnlineOpponent` as the daemon's engine (see adapters.EnginePlayer)."""

    def __init__(self, client: OnlineOpponent, wait_game_timeout: float | None = None) -> None:
        self.client = client
        self.wait_game_timeout = wait_game_timeout
        self.game: GameInfo | None = None
        self.times: list[float | None] = []  # the server's time of every move, in order
        self.clock: ClockSnapshot | None = None
        self.over: GameOver | None = None

    @property
    def name(self) -> str:
        if self.game is not None:
            return f"{self.game.opponent_name} ({self.game.source})"
        return type(self.client).__name__

    async def start(self) -> None:
        await self.client.connect()

    async def new_game(self) -> None:
        self.game = await self.client.wait_game(self.wait_game_timeout)
        self.times = [p.time for p in self.game.moves]
        self.clock = self.game.clock
        self.over = None

    async def play(
        self, position: str, moves: Sequence[str], limit: Any = None, *, validate: Any = None
    ) -> PlayResult:
        game = self.game
        if game is None:
            raise OnlineError("no online game: call new_game() first")
        root = position[5:] if position.startswith("sfen ") else position
        root = STARTING_SFEN if root.strip() == "startpos" else root
        if Board(root).sfen(move_number=False) != Board(game.start_sfen).sfen(move_number=False):
            raise OnlineError("the daemon's game does not start where the server's does")
        known = len(self.times)
        new = list(moves[known:])
        if len(new) > 1:
            raise OnlineError(f"{len(new)} moves to send at once: {new}")
        if new:
            await self.client.send_move(Move.from_usi(new[0]))
        while True:
            event = await self.client.next_event()
            if isinstance(event, ClockUpdate):
                self.clock = event.clock
            elif isinstance(event, MoveConfirmed):
                self.times.append(event.time)
            elif isinstance(event, OpponentMove):
                self.times.append(event.time)
                return PlayResult(event.move.usi())
            elif isinstance(event, GameOver):
                self.over = event
                outcome = event.outcome
                # the opponent (in the engine's seat) resigned: the daemon's usual path
                if (
                    outcome.winner == game.my_color
                    and outcome.termination is Termination.RESIGNATION
                ):
                    return PlayResult("resign")
                raise OnlineGameOver(event)
            elif isinstance(event, Disconnected):
                if not event.retrying:
                    raise ConnectionLost(event.reason)
                LOGGER.warning("online opponent: %s", event.reason)

    async def analyse(self, position: str, moves: Sequence[str], limit: Any) -> Any:
        raise OnlineError("an online opponent gives no hints")

    async def game_over(self, result: Any) -> None:
        """The daemon's game ended on the board (e.g. the player resigned): tell the server."""
        if self.over is None and result == "win":  # the 'engine' (server side) won
            try:
                await self.client.resign()
            except OnlineError as exc:
                LOGGER.info("resign not sent: %s", exc)

    async def quit(self) -> None:
        await self.client.close()
