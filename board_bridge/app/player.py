"""A virtual hand for the simulated board: plays one side (or both) and makes the engine's moves.

It watches what a person at the board would see (the daemon's position and LED intents):
when the LEDs show the engine's move it makes that move on the board; when its own side is
to move it plays the next move of its script (a corpus game), or a legal move picked with a
seeded RNG once the script runs out or no longer fits; when a question shows it answers.
With ``wrong_once`` it first makes a different move where the engine's move is shown, waits
for the red lights, and puts it back, as a player who misread the LEDs would.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from board_bridge.app.simulated import SimulatedBoard
from board_bridge.shogi import Board, Move, piece_type_symbol
from board_bridge.tracker.intents import LedIntents, Mark

if TYPE_CHECKING:
    from board_bridge.app.daemon import Daemon

LOGGER = logging.getLogger(__name__)


@dataclass
class PlayerReport:
    """What the hand did: for the tests' and the demo's checks."""

    own_moves: list[str] = field(default_factory=list)
    engine_moves_seen: list[str] = field(default_factory=list)  # as shown by the LEDs
    engine_moves_made: list[str] = field(default_factory=list)
    wrong_moves: list[tuple[str, str]] = field(default_factory=list)  # (shown, made instead)
    errors_seen: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    resigned: bool = False


class ScriptedPlayer:
    """Plays on ``board`` for ``daemon``. ``colors``: the sides this hand plays itself."""

    def __init__(
        self,
        daemon: Daemon,
        board: SimulatedBoard,
        *,
        colors: Sequence[int] = (0,),
        script: Sequence[str] = (),
        seed: int = 1,
        max_moves: int | None = None,
        wrong_once: bool = False,
        poll: float = 0.005,
        think: float = 0.0,
    ) -> None:
        self.daemon = daemon
        self.board = board
        self.colors = frozenset(colors)
        self.script = list(script)
        self.rng = random.Random(seed)
        self.max_moves = max_moves
        self.wrong_once = wrong_once
        self.poll = poll
        self.think = think
        self.report = PlayerReport()
        self._script_ok = True
        self._pending: Move | None = None  # the move the hand is making (for questions)

    def _intents(self) -> LedIntents:
        return self.daemon.shown or LedIntents()

    async def _wait(self, predicate: object, timeout: float = 10.0) -> bool:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            if predicate():  # type: ignore[operator]
                return True
            await self._answer_questions()
            await asyncio.sleep(self.poll)
        return False

    async def _answer_questions(self) -> None:
        intents = self._intents()
        move = self._pending
        if intents.question is None or move is None:
            return
        if intents.question.startswith("promote"):
            answer = "promote" if move.promotion else "nonpromote"
        elif move.drop_piece_type is not None:
            answer = piece_type_symbol(move.drop_piece_type)
        else:
            return
        self.report.questions.append(intents.question)
        self.board.press(answer)
        await asyncio.sleep(self.poll * 4)

    def _game_over(self) -> bool:
        game = self.daemon.game
        return game is None or game.outcome is not None

    async def run(self) -> PlayerReport:
        """Play until the game ends (or ``max_moves`` plies, then resign)."""
        ok = await self._wait(lambda: self.daemon.game is not None and self.daemon.game.started, 30)
        if not ok:
            raise TimeoutError("the daemon never started the game")
        while not self._game_over():
            game = self.daemon.game
            assert game is not None
            position = game.board.copy()
            plies = len(game.moves)
            if (
                self.max_moves is not None
                and plies >= self.max_moves
                and position.turn in self.colors
                and not game.engine_move
            ):
                self.board.press("resign")
                self.report.resigned = True
                await self._wait(self._game_over, 5)
                break
            intents = self._intents()
            if intents.engine_move:
                await self._make_engine_move(position, Move.from_usi(intents.engine_move), plies)
            elif position.turn in self.colors and game.engine_move is None:
                await self._make_own_move(position, plies)
            else:
                await asyncio.sleep(self.poll)
        return self.report

    def _moved(self, plies: int) -> bool:
        game = self.daemon.game
        return game is None or game.outcome is not None or len(game.moves) > plies

    async def _make_engine_move(self, position: Board, move: Move, plies: int) -> None:
        self.report.engine_moves_seen.append(move.usi())
        if self.wrong_once:
            self.wrong_once = False
            wrong = self._wrong_move(position, move)
            if wrong is not None:
                await self._make_wrong(position, move, wrong)
        await self._play(position, move)
        if await self._wait(lambda: self._moved(plies)):
            self.report.engine_moves_made.append(move.usi())
        else:
            LOGGER.warning("the engine's move %s was not taken", move.usi())

    async def _make_own_move(self, position: Board, plies: int) -> None:
        move = self._next_move(position)
        if move is None:
            await asyncio.sleep(self.poll)
            return
        if self.think:
            await asyncio.sleep(self.think)
        await self._play(position, move)
        if await self._wait(lambda: self._moved(plies)):
            self.report.own_moves.append(move.usi())
        else:
            LOGGER.warning("own move %s was not taken", move.usi())

    async def _play(self, position: Board, move: Move) -> None:
        self._pending = move
        await self.board.play_move(position, move)
        await self._answer_questions()

    def _next_move(self, position: Board) -> Move | None:
        index = len(self.daemon.game.moves) if self.daemon.game else 0
        if self._script_ok and index < len(self.script):
            try:
                move = Move.from_usi(self.script[index])
                if position.is_legal(move):
                    return move
            except ValueError:
                pass
            self._script_ok = False  # the game left the script: play on at random
            LOGGER.info("the game left its script at move %d", index + 1)
        moves = position.legal_moves
        return self.rng.choice(moves) if moves else None

    def _wrong_move(self, position: Board, shown: Move) -> Move | None:
        """A quiet move (no capture, no promotion) other than the one shown."""
        quiet = [
            m
            for m in position.legal_moves
            if m != shown
            and m.from_square is not None
            and not m.promotion
            and position.piece_at(m.to_square) is None
            and m.from_square not in (shown.from_square, shown.to_square)
            and m.to_square not in (shown.from_square, shown.to_square)
        ]
        return self.rng.choice(quiet) if quiet else None

    async def _make_wrong(self, position: Board, shown: Move, wrong: Move) -> None:
        assert wrong.from_square is not None
        self.report.wrong_moves.append((shown.usi(), wrong.usi()))
        self.board.lift(wrong.from_square)
        await asyncio.sleep(self.board.step_delay)
        self.board.place(wrong.to_square)
        seen = await self._wait(lambda: self._intents().reason is not None, 5)
        if seen:
            intents = self._intents()
            marked = any(m is Mark.ERROR for m in intents.marks.values())
            self.report.errors_seen.append(
                f"{intents.reason}{'' if marked else ' (no red square)'}"
            )
        await asyncio.sleep(self.board.step_delay)
        self.board.lift(wrong.to_square)  # put it back
        await asyncio.sleep(self.board.step_delay)
        self.board.place(wrong.from_square)
        await self._wait(lambda: self._intents().reason is None, 5)
        await asyncio.sleep(self.board.step_delay)
