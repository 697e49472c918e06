"""A blocking wrapper of the USI client for scripts and tests (its own event loop thread)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Mapping, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from types import TracebackType
from typing import Any, TypeVar

from board_bridge.engine.client import GameResult, MoveValidator, UsiEngine
from board_bridge.engine.errors import EngineTimeout
from board_bridge.engine.profiles import EngineConfig, EngineProfile, OptionValue, Timeouts
from board_bridge.engine.protocol import Info, Limit, Option, PlayResult

T = TypeVar("T")

#: Added to every blocking call on top of the engine's own timeouts, so a wedged loop
#: still returns control to the script.
CALL_GRACE = 30.0


class SimpleEngine:
    """``UsiEngine`` for code without an event loop: every method blocks until done.

    >>> with SimpleEngine.popen("/usr/games/fairy-stockfish") as engine:  # doctest: +SKIP
    ...     engine.play("startpos", [], Limit(byoyomi=100)).bestmove
    """

    def __init__(self, engine_factory: Any, *, start: bool = True) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="usi-simple-engine", daemon=True
        )
        self._thread.start()
        self._closed = False
        try:
            self.engine: UsiEngine = self._call(_build(engine_factory))
            if start:
                self._call(self.engine.start())
        except BaseException:
            self._shutdown_loop()
            raise

    @classmethod
    def popen(
        cls,
        command: Sequence[str] | str,
        *,
        options: Mapping[str, OptionValue] | None = None,
        profile: str | EngineProfile | None = None,
        timeouts: Timeouts | Mapping[str, float] | None = None,
        cwd: str | None = None,
    ) -> SimpleEngine:
        def factory() -> UsiEngine:
            return UsiEngine(command, options=options, profile=profile, timeouts=timeouts, cwd=cwd)

        return cls(factory)

    @classmethod
    def from_config(cls, config: EngineConfig) -> SimpleEngine:
        return cls(lambda: UsiEngine.from_config(config))

    def _call(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        if self._closed:
            coro.close()
            raise RuntimeError("SimpleEngine is closed")
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result(timeout)
        except FutureTimeout:
            if future.done():  # the call itself raised a TimeoutError (EngineTimeout)
                raise
            future.cancel()
            raise EngineTimeout("the engine call did not finish in time") from None

    def _bound(self, seconds: float) -> float:
        return seconds + CALL_GRACE

    # -- the engine's API, blocking
    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def options(self) -> dict[str, Option]:
        return self.engine.options

    def configure(self, options: Mapping[str, OptionValue]) -> None:
        self._call(self.engine.configure(options), self._bound(self.engine.timeouts.ready))

    def ping(self) -> None:
        self._call(self.engine.ping(), self._bound(self.engine.timeouts.ready))

    def new_game(self) -> None:
        self._call(self.engine.new_game(), self._bound(self.engine.timeouts.ready))

    def play(
        self,
        position: str,
        moves: Sequence[str],
        limit: Limit,
        *,
        validate: MoveValidator | None = None,
    ) -> PlayResult:
        budget = self.engine.timeouts.search_deadline(_budget(limit))
        return self._call(
            self.engine.play(position, moves, limit, validate=validate), self._bound(budget)
        )

    def analyse(self, position: str, moves: Sequence[str], limit: Limit) -> Info:
        budget = self.engine.timeouts.search_deadline(_budget(limit))
        return self._call(self.engine.analyse(position, moves, limit), self._bound(budget))

    def game_over(self, result: GameResult) -> None:
        self._call(self.engine.game_over(result), self._bound(self.engine.timeouts.stop))

    def quit(self) -> None:
        """Quit the engine and stop the loop thread; safe twice."""
        if self._closed:
            return
        try:
            self._call(self.engine.quit(), self._bound(self.engine.timeouts.quit + 10))
        finally:
            self._shutdown_loop()

    close = quit

    def _shutdown_loop(self) -> None:
        self._closed = True
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        if not self._thread.is_alive():
            self._loop.close()

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.quit()


async def _build(factory: Any) -> UsiEngine:
    engine = factory()
    if not isinstance(engine, UsiEngine):
        raise TypeError("the engine factory must return a UsiEngine")
    return engine


def _budget(limit: Limit) -> int | None:
    black, white = limit.budget_ms("b"), limit.budget_ms("w")
    if black is None or white is None:
        return None
    return max(black, white)
