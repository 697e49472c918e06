"""The daemon's engine supervisor: restarts a crashed, hung or confused engine and retries."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TypeVar

from board_bridge.engine.client import GameResult, MoveValidator, Search, UsiEngine
from board_bridge.engine.errors import (
    EngineError,
    EngineProtocolError,
    EngineTerminated,
    UnsupportedError,
)
from board_bridge.engine.profiles import EngineConfig, OptionValue
from board_bridge.engine.protocol import (
    Info,
    Limit,
    PlayResult,
    merge_options,
    position_command,
    side_to_move,
)

LOGGER = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class RestartPolicy:
    """How hard the supervisor tries: ``max_failures`` faults in a row (a good search resets
    the count) before it gives up; waits ``backoff`` seconds before the first restart,
    doubling up to ``backoff_max``."""

    max_failures: int = 3
    backoff: float = 0.5
    backoff_max: float = 8.0

    def delay(self, failures: int) -> float:
        return float(min(self.backoff_max, self.backoff * (2 ** max(0, failures - 1))))


@dataclass(frozen=True)
class EngineEvent:
    """What the supervisor tells the daemon (for its log and its screen)."""

    kind: str  # "started", "fault", "restarting", "restarted", "gave-up", "closed"
    message: str
    error: EngineError | None = None


class EngineGaveUp(EngineError):
    """The engine failed ``max_failures`` times in a row; the game itself is untouched."""


class ManagedEngine:
    """A :class:`UsiEngine` that is restarted whenever it fails, keeping the game going.

    The game lives in the caller: every search gets the whole position (start + moves), so
    a fresh engine needs only its options, ``usinewgame`` and that position. On a crash,
    hang, or protocol fault (garbage bestmove, an illegal move caught by ``validate``) the
    supervisor logs a clear error, kills the engine, waits (backoff), starts a new one,
    re-sends options and ``usinewgame``, and searches again with the time still left.
    After ``policy.max_failures`` faults in a row it raises :class:`EngineGaveUp`.

    Pondering (``EngineConfig.ponder`` on an engine that can) is automatic: after each
    move the engine ponders on its expected reply, and the next :meth:`play` turns that
    into ``ponderhit`` when the opponent played it, or stops it otherwise.
    """

    def __init__(
        self,
        config: EngineConfig,
        *,
        policy: RestartPolicy | None = None,
        on_event: Callable[[EngineEvent], None] | None = None,
    ) -> None:
        self.config = config
        self.policy = policy or RestartPolicy()
        self.on_event = on_event
        self.engine: UsiEngine | None = None
        self.failures = 0
        self.restarts = 0
        self.last_error: EngineError | None = None
        self._options: dict[str, OptionValue] = {}
        self._in_game = False
        self._lock = asyncio.Lock()
        self._ponder: tuple[str, tuple[str, ...], Search] | None = None
        self._closed = False

    # ------------------------------------------------------------------ info
    @property
    def name(self) -> str:
        return self.engine.name if self.engine else (self.config.name or self.config.path)

    @property
    def alive(self) -> bool:
        return self.engine is not None and self.engine.alive

    def _emit(self, kind: str, message: str, error: EngineError | None = None) -> None:
        log = LOGGER.error if kind in ("fault", "gave-up") else LOGGER.info
        log("%s", message)
        if self.on_event is not None:
            try:
                self.on_event(EngineEvent(kind, message, error))
            except Exception:  # a broken listener must not break the game
                LOGGER.exception("engine event listener failed")

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Start the engine (retrying per the policy when it fails to start)."""
        async with self._lock:
            await self._run(self._ensure_started, "start")

    async def _ensure_started(self) -> UsiEngine:
        if self._closed:
            raise EngineTerminated(f"engine {self.name} was closed")
        engine = self.engine
        if engine is not None and engine.alive and not engine.needs_restart:
            return engine
        if engine is not None:  # dead, or wedged (GPSShogi after resigning): no quit dance
            await engine.kill()
            self.engine = None
        self._ponder = None
        engine = UsiEngine.from_config(self.config)
        await engine.start()
        if self._options:
            await engine.configure(self._options)
        if self._in_game:
            await engine.new_game()
        self.engine = engine
        self._emit("started", f"engine {engine.name} ready (pid {engine.pid})")
        return engine

    async def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set options now and after every restart."""
        async with self._lock:
            engine = await self._run(self._ensure_started, "start")
            await self._drop_ponder()
            await engine.configure(options)  # refuses unknown names before remembering them
            self._options = merge_options(self._options, options)

    async def new_game(self) -> None:
        async with self._lock:
            self._in_game = True

            async def attempt() -> None:
                engine = await self._ensure_started()
                await self._drop_ponder()
                await engine.new_game()

            await self._run(attempt, "start a new game")

    async def game_over(self, result: GameResult) -> None:
        """``gameover``; a failure here is logged, never raised (the game is over anyway)."""
        async with self._lock:
            self._in_game = False
            await self._drop_ponder()
            engine = self.engine
            if engine is None or not engine.alive:
                return
            try:
                await engine.game_over(result)
            except EngineError as exc:
                self._emit("fault", f"engine {self.name}: gameover failed: {exc}", exc)

    async def quit(self) -> None:
        """Quit the engine; safe twice."""
        async with self._lock:
            self._closed = True
            self._ponder = None
            if self.engine is not None:
                await self.engine.quit()
                self._emit("closed", f"engine {self.engine.name} closed")

    close = quit

    async def __aenter__(self) -> ManagedEngine:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.quit()

    # ------------------------------------------------------------------ searching
    async def play(
        self,
        position: str,
        moves: Sequence[str],
        limit: Limit,
        *,
        validate: MoveValidator | None = None,
    ) -> PlayResult:
        """The engine's move in ``position`` after ``moves``, restarting it as needed.

        A retried search gets ``limit`` minus the time the failed attempts took (on the
        mover's clock, then its byoyomi). When pondering is on, the engine then ponders
        on its expected reply until the next call.
        """
        moves = tuple(moves)
        side = side_to_move(position, moves)
        started = time.monotonic()
        async with self._lock:
            result = await self._take_ponder(position, moves, limit, validate)

            async def attempt() -> PlayResult:
                engine = await self._ensure_started()
                spent = int((time.monotonic() - started) * 1000)
                return await engine.play(
                    position, moves, limit.spend(side, spent), validate=validate
                )

            if result is None:
                result = await self._run(attempt, "search")
            await self._start_ponder(position, moves, result, limit)
            return result

    async def analyse(self, position: str, moves: Sequence[str], limit: Limit) -> Info:
        """A bounded analysis (for a hint), restarting the engine as needed."""
        async with self._lock:
            await self._drop_ponder()

            async def attempt() -> Info:
                engine = await self._ensure_started()
                return await engine.analyse(position, tuple(moves), limit)

            return await self._run(attempt, "analyse")

    async def analysis(
        self, position: str, moves: Sequence[str] = (), limit: Limit | None = None
    ) -> Search:
        """Start a stream of :class:`Info` (infinite by default) for a hint display.

        A dead engine is restarted first; a fault during the stream ends it with the
        error (the next call restarts). :meth:`play` and the others stop it.
        """
        async with self._lock:
            await self._drop_ponder()

            async def attempt() -> Search:
                engine = await self._ensure_started()
                return await engine.analysis(position, tuple(moves), limit)

            return await self._run(attempt, "start analysis")

    async def stop(self) -> None:
        """Stop whatever the engine is searching (analysis or ponder)."""
        async with self._lock:
            self._ponder = None
            if self.engine is not None and self.engine.alive:
                with contextlib.suppress(EngineError):
                    await self.engine.stop()

    # ------------------------------------------------------------------ pondering
    async def _start_ponder(
        self, position: str, moves: tuple[str, ...], result: PlayResult, limit: Limit
    ) -> None:
        engine = self.engine
        if (
            not self.config.ponder
            or result.ponder is None
            or not result.is_move
            or engine is None
            or not engine.alive
            or not engine.profile.can_ponder
        ):
            return
        expected = (*moves, result.bestmove, result.ponder)
        try:
            search = await engine.ponder(position, expected, limit)
        except EngineError as exc:  # pondering is a bonus: the next play restarts if needed
            LOGGER.warning("engine %s: could not start pondering: %s", self.name, exc)
            return
        self._ponder = (position, expected, search)

    async def _take_ponder(
        self,
        position: str,
        moves: tuple[str, ...],
        limit: Limit,
        validate: MoveValidator | None,
    ) -> PlayResult | None:
        """The ponder search's result if it pondered on exactly this position, else None."""
        if self._ponder is None:
            return None
        ponder_position, ponder_moves, search = self._ponder
        self._ponder = None
        if ponder_position != position or ponder_moves != moves:
            with contextlib.suppress(EngineError):
                await search.stop()
            return None
        try:
            await search.ponderhit()
            result = await search.wait()
        except EngineError as exc:
            self._fault(exc, "ponderhit")
            await self._discard_engine()
            return None
        if validate is not None and result.is_move and not validate(result.bestmove):
            self._fault(
                EngineProtocolError(
                    f"engine {self.name} played {result.bestmove}, which is illegal in "
                    f"{position_command(position, moves)!r}"
                ),
                "ponderhit",
            )
            await self._discard_engine()
            return None
        self.failures = 0
        return result

    async def _drop_ponder(self) -> None:
        if self._ponder is not None:
            search = self._ponder[2]
            self._ponder = None
            with contextlib.suppress(EngineError):
                await search.stop()

    # ------------------------------------------------------------------ supervision
    def _fault(self, error: EngineError, doing: str) -> None:
        self.failures += 1
        self.last_error = error
        self._emit(
            "fault",
            f"engine {self.name} failed to {doing} "
            f"({self.failures}/{self.policy.max_failures}): {error}",
            error,
        )

    async def _discard_engine(self) -> None:
        self._ponder = None
        if self.engine is not None:
            await self.engine.kill()
            self.engine = None

    async def _run(self, attempt: Callable[[], Awaitable[T]], doing: str) -> T:
        """Run ``attempt`` until it succeeds, restarting the engine after each fault."""
        while True:
            try:
                result = await attempt()
            except UnsupportedError:
                raise  # the caller asked for something impossible: not the engine's fault
            except EngineError as exc:
                self._fault(exc, doing)
                await self._discard_engine()
                if self._closed:
                    raise
                if self.failures >= self.policy.max_failures:
                    message = (
                        f"engine {self.name} failed {self.failures} times in a row; giving up "
                        f"(last error: {exc})"
                    )
                    self._emit("gave-up", message, exc)
                    raise EngineGaveUp(message) from exc
                delay = self.policy.delay(self.failures)
                self._emit("restarting", f"restarting engine {self.name} in {delay:.1f} s")
                await asyncio.sleep(delay)
                self.restarts += 1
                continue
            self.failures = 0
            return result
