"""The daemon: one asyncio loop wiring the sensor source, tracker, journal, clock, engine and LEDs.

Everything that changes the game happens in one task, :meth:`Daemon._process_loop`, which
takes items from one inbox in order: sensor events (from the source's reader task), ticks
(from the tick task: the tracker's settle timers and the clock's flag), and engine results
(from engine tasks). So the tracker, the journal and the clock are never touched by two
tasks at once, and every move is journalled (fsync'd) before the LEDs acknowledge it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from board_bridge.app import adapters
from board_bridge.app.adapters import EnginePlayer, GameStore, Journal
from board_bridge.app.clock import ClockState, GameClock
from board_bridge.app.config import Config
from board_bridge.app.notify import Notifier
from board_bridge.drivers.base import LedSink, SensorSource, SourceDisconnected
from board_bridge.shogi import BLACK, Board, Move, Outcome, Termination
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame
from board_bridge.tracker.intents import LedIntents
from board_bridge.tracker.outputs import (
    GameEnded,
    IllegalState,
    MoveClosed,
    MoveCorrected,
    MoveMade,
    MoveRetracted,
    QuestionAsked,
    SetupComplete,
    TakeBack,
)

LOGGER = logging.getLogger(__name__)

#: Inputs the daemon handles itself; all others go to the tracker.
INPUT_CLOCK = "clock"
INPUT_RESIGN = "resign"
#: Seconds to wait after a take-back before the engine moves again (another may follow).
TAKEBACK_GRACE = 2.0
#: How long after a tracker deadline the wake-up tick comes (so the timer has surely run out).
TIMER_SLACK = 0.0005
#: Seconds an online game waits after the player's move before sending it (a correction
#: can no longer be made once the server has the move).
ONLINE_SEND_DELAY = 1.0
#: Seconds the game-over picture stays before a change on the board starts the next game.
GAME_OVER_HOLD = 3.0
#: Seconds past its grace a flag waits at most for the board's late events (link trouble).
FLAG_BOARD_WAIT = 2.0


class DaemonError(RuntimeError):
    """An expected failure that stops the daemon (printed as one line, no traceback)."""


@dataclass(frozen=True)
class _Tick:
    t: float
    #: how far the tracker's timers may run: never past an event of the board still on
    #: its way (the source's watermark when the tick was queued); None: ``t``
    board_t: float | None = None


@dataclass(frozen=True)
class _EngineDone:
    generation: int
    result: Any  # PlayResult
    t: float


@dataclass(frozen=True)
class _EngineFailed:
    generation: int
    error: BaseException
    t: float


@dataclass(frozen=True)
class _HintDone:
    generation: int
    move: Move | None


@dataclass(frozen=True)
class _StartEngine:
    generation: int


@dataclass(frozen=True)
class _SendMove:
    generation: int


@dataclass(frozen=True)
class _Reconnected:
    t: float
    resumed: bool = False  # the source resent every event made while it was away


@dataclass(frozen=True)
class _SourceEnded:
    pass


@dataclass(frozen=True)
class _OnlineGame:
    info: Any  # board_bridge.online.base.GameInfo


_Item = (
    SensorEvent
    | _Tick
    | _EngineDone
    | _EngineFailed
    | _HintDone
    | _StartEngine
    | _SendMove
    | _Reconnected
    | _SourceEnded
    | _OnlineGame
)

TrackerFactory = Callable[..., Any]


def default_tracker_factory(**kwargs: Any) -> Any:
    from board_bridge.tracker import Tracker

    return Tracker(**kwargs)


@dataclass
class MoveLog:
    """One move of the game as the daemon keeps it (mirrors the journal)."""

    move: Move
    time_used: float
    clock_before: ClockState


class Game:
    """One game: the tracker, the clock, the journal and the engine's turn."""

    def __init__(self, tracker: Any, clock: GameClock, start_sfen: str) -> None:
        self.tracker = tracker
        self.clock = clock
        self.start_sfen = start_sfen
        self.journal: Journal | None = None
        self.moves: list[MoveLog] = []
        self.started = False  # set-up complete, play running
        self.outcome: Outcome | None = None
        self.over_at: float | None = None
        self.engine_task: asyncio.Task[None] | None = None
        self.engine_generation = 0
        self.engine_move: Move | None = None  # the engine's move, waiting to be made
        self.engine_time: float = 0.0  # its thinking time, recorded with that move
        self.hint_task: asyncio.Task[None] | None = None
        self.header: dict[str, Any] = {}
        self.online: Any = None  # the server's GameInfo, for an online game

    @property
    def board(self) -> Board:
        board: Board = self.tracker.board
        return board

    def usi_moves(self) -> list[str]:
        return [m.move.usi() for m in self.moves]


class Daemon:
    """``board-bridge run``: plays game after game on one board until stopped.

    ``source``/``sink``/``engine``/``store`` default to what ``config`` says; tests and the
    demo pass their own. ``clock`` is the time base of events, ticks and the game clock.
    """

    def __init__(
        self,
        config: Config,
        *,
        source: SensorSource | None = None,
        sink: LedSink | None = None,
        engine: EnginePlayer | None = None,
        store: GameStore | None = None,
        tracker_factory: TrackerFactory | None = None,
        clock: Callable[[], float] = time.monotonic,
        notifier: Notifier | None = None,
    ) -> None:
        self.config = config
        self.source = source if source is not None else adapters.make_source(config)
        self.sink = sink if sink is not None else adapters.make_sink(config, self.source)
        self.engine = engine
        self.online = config.online is not None
        if self.engine is None and self.online:
            self.engine = adapters.make_online(config.online)
        elif self.engine is None and config.needs_engine:
            assert config.engine is not None
            self.engine = adapters.make_engine(config.engine)
        #: the sides the engine (or the online opponent) plays; online: set for each game
        self.engine_colors: frozenset[int] = config.game.engine_colors
        self.store = store if store is not None else adapters.make_store(config)
        self.tracker_factory = tracker_factory or default_tracker_factory
        self.now = clock
        if notifier is None:
            notifier = Notifier() if config.daemon.notify else Notifier(environ={})
        self.notifier = notifier
        self.game: Game | None = None
        self.games_finished: list[tuple[Outcome, list[Any]]] = []
        self.ready = asyncio.Event()
        self.on_output: Callable[[Any], None] | None = None  # observers (tests, UI)
        self.on_game_end: Callable[[Outcome, list[Any]], None] | None = None
        self._inbox: asyncio.Queue[_Item] = asyncio.Queue()
        self._stop = asyncio.Event()
        self._stop_reason = ""
        self._shown: LedIntents | None = None
        self._last_event = 0.0  # daemon time of the last sensor event (tick pacing)
        self._last_event_t = float("-inf")  # its event time
        self._completed_at: float | None = None  # the event that completed a reported move
        self._last_status = ""
        self._processed_at = clock()  # when the game task last took an item (watchdog)
        self._tasks: list[asyncio.Task[None]] = []
        self._online_wait: asyncio.Task[None] | None = None
        self._last_frame: SensorFrame | None = None
        self._board_time = float("-inf")  # how far the tracker's timers were run

    @property
    def shown(self) -> LedIntents | None:
        """The intents last sent to the LEDs."""
        return self._shown

    # ================================================================== lifecycle
    def stop(self, reason: str = "stopped") -> None:
        """Ask the daemon to stop (from a signal handler or a test)."""
        if not self._stop.is_set():
            LOGGER.info("stopping: %s", reason)
            self._stop_reason = reason
            self._stop.set()

    async def run(self) -> None:
        """Run until :meth:`stop`, the source ends, or ``game.max_games`` games are over."""
        try:
            await self._start()
        except BaseException:
            await self._shutdown()
            raise
        self.notifier.ready(self._status_text())
        self.ready.set()
        self._tasks = [
            asyncio.create_task(self._read_source(), name="bb-source"),
            asyncio.create_task(self._tick_loop(), name="bb-tick"),
            asyncio.create_task(self._process_loop(), name="bb-process"),
        ]
        stopper = asyncio.create_task(self._stop.wait())
        try:
            done, _ = await asyncio.wait(
                [stopper, *self._tasks], return_when=asyncio.FIRST_COMPLETED
            )
            for task in done:
                if task is not stopper and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
        finally:
            stopper.cancel()
            await self._shutdown()

    async def _start(self) -> None:
        try:
            await self.sink.start()
        except (OSError, ValueError) as exc:
            raise DaemonError(f"LED sink {self.config.leds.sink!r}: {exc}") from exc
        try:
            await self.source.start()
        except (OSError, ValueError) as exc:
            raise DaemonError(f"board source {self.config.board.source!r}: {exc}") from exc
        if self.engine is not None:
            from board_bridge.engine import EngineError
            from board_bridge.online.base import OnlineError

            try:
                await self.engine.start()
            except (EngineError, OnlineError) as exc:
                what = "online" if self.online else "engine"
                raise DaemonError(f"{what}: {exc}") from exc
            LOGGER.info("%s %s ready", "online" if self.online else "engine", self.engine.name)
        if self.online:
            self._wait_for_online_game()
        else:
            await self._begin_game(resume=True)

    async def _shutdown(self) -> None:
        self.notifier.stopping()
        if self._online_wait is not None:
            self._tasks.append(self._online_wait)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        game = self.game
        if game is not None:
            self._cancel_engine(game)
            self._cancel_hint(game)
            if game.journal is not None and game.outcome is None:
                # left unfinished on purpose: the next start resumes it
                with contextlib.suppress(Exception):
                    game.journal.close()
        if self.engine is not None:
            with contextlib.suppress(Exception):
                await self.engine.quit()
        set_context = getattr(self.sink, "set_context", None)
        if set_context is not None and self.game is not None:
            result = f"game over: {self.game.outcome}; " if self.game.outcome else ""
            set_context(self.game.board, f"{result}stopped ({self._stop_reason}), LEDs off")
        with contextlib.suppress(Exception):
            await self.sink.show(LedIntents())  # LEDs off
        with contextlib.suppress(Exception):
            await self.sink.close()
        with contextlib.suppress(Exception):
            await self.source.close()
        self.notifier.close()

    # ================================================================== tasks
    async def _read_source(self) -> None:
        """Source events into the inbox; reconnects when the board goes away."""
        reconnecting = False
        while not self._stop.is_set():
            try:
                async for event in self.source.events():
                    if reconnecting:
                        reconnecting = False
                        resumed = adapters.source_resumed(self.source)
                        self._inbox.put_nowait(_Reconnected(event.t, resumed))
                    self._inbox.put_nowait(event)
                self._inbox.put_nowait(_SourceEnded())
                return
            except SourceDisconnected as exc:
                reconnecting = True
                LOGGER.warning("board disconnected: %s; waiting for it", exc)
                self.notifier.status("board disconnected")
                await asyncio.sleep(self.config.board.reconnect_delay)

    async def _tick_loop(self) -> None:
        """Ticks: fast while the board is active (settle timers), slow when idle; always in
        time for the clock's flag fall; the systemd watchdog is fed from here."""
        cfg = self.config.daemon
        last_watchdog = 0.0
        while True:
            now = self.now()
            active = now - self._last_event < cfg.active_window
            delay = cfg.tick if active else cfg.idle_tick
            game = self.game
            if game is not None and game.outcome is None:
                deadline = game.clock.deadline()
                if deadline is not None and deadline > now:
                    delay = min(delay, deadline - now + 0.001)
            interval = self.notifier.watchdog_interval
            if interval is not None:
                delay = min(delay, interval)
            await asyncio.sleep(delay)
            now = self.now()
            self._inbox.put_nowait(self._new_tick(now))
            if interval is not None and now - last_watchdog >= interval:
                last_watchdog = now
                if now - self._processed_at < 2 * interval:  # the game task keeps up
                    self.notifier.watchdog()

    async def _process_loop(self) -> None:
        while True:
            item = await self._inbox.get()
            self._processed_at = self.now()
            try:
                await self._process(item)
            except asyncio.CancelledError:
                raise
            except DaemonError:
                raise
            except Exception:
                LOGGER.exception("internal error while handling %r", item)
            if self._stop.is_set():
                return
            if self._inbox.empty():
                await self._refresh_leds()

    # ================================================================== inbox items
    async def _process(self, item: _Item) -> None:
        game = self.game
        if isinstance(item, _SourceEnded):
            self.stop("the sensor source ended")
            return
        if isinstance(item, _Tick):
            if game is not None:
                await self._tick(game, item.t, item.board_t)
            return
        if isinstance(item, SensorFrame):
            self._last_frame = item  # what the board shows, for a game that starts later
        if isinstance(item, _OnlineGame):
            await self._begin_online_game(item.info)
            return
        if game is None:
            return
        if isinstance(item, _Reconnected):
            self.notifier.status(self._status_text())
            if item.resumed:
                # every event made while it was away follows, with its own time: the
                # tracker goes on as if the link had never broken
                LOGGER.info("board back; the events made while it was away follow")
                return
            LOGGER.info("board back")
            outputs = game.tracker.resync(item.t)
            await self._handle_outputs(game, outputs)
        elif isinstance(item, PlayerInput | SensorFrame):
            self._last_event = self.now()
            self._schedule_deadlines(game, item.t)
            await self._sensor_event(game, item)
        elif isinstance(item, _EngineDone):
            if item.generation == game.engine_generation and game.outcome is None:
                await self._engine_answered(game, item.result, item.t)
        elif isinstance(item, _EngineFailed):
            if item.generation == game.engine_generation and game.outcome is None:
                over = getattr(item.error, "event", None)  # OnlineGameOver: the server ended it
                if over is not None and isinstance(getattr(over, "outcome", None), Outcome):
                    LOGGER.info("the server ended the game: %s", over.outcome)
                    await self._end_game(game, over.outcome, item.t)
                    return
                LOGGER.error("engine failed: %s; the game is stopped (aborted)", item.error)
                await self._end_game(
                    game, Outcome(Termination.ABORT, None, "engine failed"), item.t
                )
        elif isinstance(item, _HintDone):
            if item.generation == game.engine_generation and game.outcome is None:
                game.tracker.hint(item.move)
        elif isinstance(item, _SendMove) and item.generation == game.engine_generation:
            if game.outcome is None:
                await self._handle_outputs(game, game.tracker.close_move(self.now()))
                self._launch_engine(game)
        elif isinstance(item, _StartEngine) and item.generation == game.engine_generation:
            self._start_turn(game, self.now())

    async def _sensor_event(self, game: Game, event: SensorEvent) -> None:
        if game.outcome is not None:
            # the game is over: a change on the board (after a moment) starts the next one
            if (
                game.over_at is not None
                and event.t - game.over_at >= GAME_OVER_HOLD
                and not isinstance(event, PlayerInput)
                and not self._games_done()
                and not self.online  # online, the server starts the next game
            ):
                await self._begin_game(resume=False)
                assert self.game is not None
                await self._handle_outputs(self.game, self.game.tracker.feed(event))
            return
        if isinstance(event, PlayerInput) and event.value == INPUT_CLOCK:
            await self._clock_pressed(game, event.t)
            return
        if isinstance(event, PlayerInput) and event.value == INPUT_RESIGN:
            if game.started:
                # the person at the board resigns: against an engine or an online opponent
                # that is the side it does not play, between two people the side to move
                people = {0, 1} - self.engine_colors
                loser = people.pop() if len(people) == 1 else game.board.turn
                await self._end_game(game, Outcome(Termination.RESIGNATION, loser ^ 1), event.t)
            return
        # a frame makes the tracker decide on the state before it: that one completed a move;
        # an input (an answer) completes the move itself
        self._completed_at = self._last_event_t if isinstance(event, SensorFrame) else event.t
        self._last_event_t = event.t
        await self._handle_outputs(game, game.tracker.feed(event))

    def _schedule_deadlines(self, game: Game, t: float) -> None:
        """Tick exactly when the tracker's timers after an event at ``t`` run out (settle,
        capture settle, ...), so a settled move is acknowledged at once, not at the next
        periodic tick."""
        params = getattr(game.tracker, "params", None)
        if params is None:
            return
        loop = asyncio.get_running_loop()
        now = self.now()
        # every TrackerParams field is a span of seconds the tracker may wait after an event
        names = (
            [f.name for f in dataclasses.fields(params)] if dataclasses.is_dataclass(params) else []
        )
        for name in names:
            delay = getattr(params, name, None)
            if isinstance(delay, int | float) and delay > 0:
                loop.call_later(max(0.0, t + delay - now) + TIMER_SLACK, self._deadline_tick)

    def _deadline_tick(self) -> None:
        self._inbox.put_nowait(self._new_tick(self.now()))

    def _new_tick(self, now: float) -> _Tick:
        """A tick for ``now``. Every event the source yielded so far is in the inbox ahead of
        it; the source's watermark says whether events from before ``now`` may still come
        (a frame resent after damage on the line, the events made while the cable was out):
        the tracker's timers must not run past them."""
        return _Tick(now, adapters.source_watermark(self.source))

    async def _tick(self, game: Game, t: float, board_t: float | None = None) -> None:
        if game.outcome is not None:
            return
        board_t = t if board_t is None else min(t, board_t)
        deadline = game.clock.deadline()
        if deadline is not None and t >= deadline and game.started:
            grace_end = self._flag_grace_end(game, deadline)
            # the board's events lag (the link): the tracker has not seen that time yet
            lagging = grace_end is not None and board_t < t and self._board_time < grace_end
            if grace_end is not None and (
                t < grace_end or (lagging and t < grace_end + FLAG_BOARD_WAIT)
            ):
                # a move completed before the deadline may still be settling: wait for it
                loop = asyncio.get_running_loop()
                loop.call_later(max(grace_end - t, 0.05) + TIMER_SLACK, self._deadline_tick)
            else:
                flag = game.clock.flag(t)
                if flag is not None:
                    LOGGER.info("flag fall: %s", flag)
                    await self._end_game(game, flag, t)
                    return
        self._completed_at = self._last_event_t
        self._board_time = max(self._board_time, board_t)
        await self._handle_outputs(game, game.tracker.tick(board_t))

    def _flag_grace_end(self, game: Game, deadline: float) -> float | None:
        """Until when a flag waits for the tracker: the board changed during the turn and
        before the deadline, so the move that change completed may still be settling."""
        started = game.clock.turn_started
        params = getattr(game.tracker, "params", None)
        if started is None or params is None or not started < self._last_event_t < deadline:
            return None
        settle = max(
            float(getattr(params, "settle", 0.0)), float(getattr(params, "capture_settle", 0.0))
        )
        return self._last_event_t + settle + 0.05

    def _move_time(self, game: Game, t: float) -> float:
        """When the move being reported was really completed on the board: the event that
        completed it, before the tracker's settle time (never before the turn began)."""
        done = t if self._completed_at is None else min(t, self._completed_at)
        started = game.clock.turn_started
        return max(done, started) if started is not None else done

    # ================================================================== tracker outputs
    async def _handle_outputs(self, game: Game, outputs: Iterable[Any] | None) -> None:
        for output in outputs or ():
            if self.on_output is not None:
                self.on_output(output)
            if game.outcome is not None and not isinstance(output, GameEnded):
                continue
            await self._handle_output(game, output)

    async def _handle_output(self, game: Game, out: Any) -> None:
        if isinstance(out, SetupComplete):
            await self._setup_complete(game, out.t)
        elif isinstance(out, MoveMade):
            await self._move_made(game, out.move, out.t)
        elif isinstance(out, MoveCorrected):
            await self._move_corrected(game, out.new, out.t)
        elif isinstance(out, MoveRetracted):
            await self._move_retracted(game, out.t)
        elif isinstance(out, TakeBack):
            await self._take_back(game, out.t)
        elif isinstance(out, MoveClosed):
            LOGGER.debug("move %s closed", out.move)
        elif isinstance(out, QuestionAsked):
            LOGGER.info("question: %s (%s)", out.kind, "/".join(out.options))
        elif isinstance(out, IllegalState):
            LOGGER.warning(
                "board: %s (clear %s, fill %s)", out.reason, sorted(out.clear), sorted(out.fill)
            )
        elif isinstance(out, GameEnded):
            await self._end_game(game, out.outcome, out.t, from_tracker=True)

    async def _setup_complete(self, game: Game, t: float) -> None:
        if game.started:
            return
        game.started = True
        if game.journal is None:
            game.header = self._header()
            game.journal = await self._write(self.store.create, game.header, game.start_sfen)
            LOGGER.info("new game, journal %s", game.journal.path)
            if self.engine is not None and not self.online:
                await self.engine.new_game()
        else:
            LOGGER.info("position restored on the board: the game goes on")
        self._start_turn(game, t)

    def _start_turn(self, game: Game, t: float) -> None:
        """The side to move starts: its clock runs; the engine thinks if it is its turn."""
        if game.outcome is not None or not game.started:
            return
        turn = game.board.turn
        if game.clock.running is None and game.clock.flagged is None:
            game.clock.start(turn, t)
        if turn in self.engine_colors and game.engine_move is None:
            if self.online and game.moves and not self.config.clock.button:
                # a move sent to a server cannot be corrected: wait a moment for the
                # player's correction, then close the move and send it
                self._cancel_engine(game)
                asyncio.get_running_loop().call_later(
                    ONLINE_SEND_DELAY,
                    self._inbox.put_nowait,
                    _SendMove(game.engine_generation),
                )
            else:
                self._launch_engine(game)
        elif self.config.game.hints and self.engine is not None:
            self._launch_hint(game)

    async def _move_made(self, game: Game, move: Move, t: float) -> None:
        mover = game.board.turn ^ 1  # the tracker's board already has the move
        before = game.clock.snapshot()
        self._cancel_hint(game)
        game.tracker.hint(None)
        engine_moved = game.engine_move is not None and move == game.engine_move
        done = self._move_time(game, t)  # when the move was really made on the board
        if engine_moved:
            used = game.engine_time  # its thinking time; its clock stopped at its answer
            game.engine_move = None
            game.tracker.expect(None)
        else:
            self._cancel_engine(game)  # a move made before the engine answered
            if game.clock.running == mover and self.config.clock.button:
                used = game.clock.used_this_turn(done)  # the clock runs until the press
            elif game.clock.running == mover:
                flag = game.clock.flag(done)
                if flag is not None:
                    await self._end_game(game, flag, t)
                    return
                used = game.clock.stop(done)
            else:
                used = 0.0
        assert game.journal is not None
        await self._write(game.journal.append_move, move, used, done)
        game.moves.append(MoveLog(move, used, before))
        LOGGER.info("move %d: %s (%.1fs)", len(game.moves), move.usi(), used)
        self.notifier.status(self._status_text())
        if not self.config.clock.button or engine_moved or mover in self.engine_colors:
            # a person's time starts when the move was made on the board; the engine's
            # when it can know of it (now: the tracker needed its settle time)
            engine_next = game.board.turn in self.engine_colors
            self._start_turn(game, self.now() if engine_next else done)

    async def _write(self, func: Callable[..., Any], *args: Any) -> Any:
        """A journal write, off the loop (fsync). If it fails the move is not on disk, so it
        must not be acknowledged: the daemon stops with a clear error, and its restart
        resumes the game from what the journal holds."""
        try:
            return await asyncio.to_thread(func, *args)
        except OSError as exc:
            raise DaemonError(f"cannot write the game journal: {exc}") from exc

    async def _clock_pressed(self, game: Game, t: float) -> None:
        """The clock button: the player who just moved ends the turn."""
        if not game.started or not game.moves:
            return
        mover = game.board.turn ^ 1
        if game.clock.running != mover:
            return  # pressed by the side to move, or twice: ignored
        flag = game.clock.flag(t)
        if flag is not None:
            await self._end_game(game, flag, t)
            return
        await self._handle_outputs(game, game.tracker.close_move(t))
        game.clock.stop(t)
        self._start_turn(game, t)

    async def _move_corrected(self, game: Game, new: Move, t: float) -> None:
        last = game.moves[-1]
        game.clock.restore(last.clock_before)
        if game.clock.running is not None and not self.config.clock.button:
            done = self._move_time(game, t)
            used = game.clock.stop(done)
            t = self.now() if game.board.turn in self.engine_colors else done
        else:
            used = last.time_used
        assert game.journal is not None
        await self._write(game.journal.correct_last, new, used, t)
        game.moves[-1] = MoveLog(new, used, last.clock_before)
        LOGGER.info("move %d corrected to %s", len(game.moves), new.usi())
        self._restart_turn(game, t)

    async def _move_retracted(self, game: Game, t: float) -> None:
        last = game.moves.pop()
        assert game.journal is not None
        await self._write(game.journal.retract_last, t)
        game.clock.restore(last.clock_before)
        LOGGER.info("move %s retracted", last.move.usi())
        self._cancel_engine(game)
        self._cancel_hint(game)
        mover = game.board.turn
        if mover in self.engine_colors:
            # the engine's own move was put back: show it again
            game.engine_move = last.move
            game.engine_time = last.time_used
            game.tracker.expect(last.move)
        else:
            self._start_turn(game, t)

    async def _take_back(self, game: Game, t: float) -> None:
        last = game.moves.pop()
        assert game.journal is not None
        await self._write(game.journal.take_back, t)
        LOGGER.info("move %s taken back", last.move.usi())
        self._cancel_engine(game)
        self._cancel_hint(game)
        game.engine_move = None
        game.tracker.expect(None)
        game.clock.restore(last.clock_before)
        game.clock.running = None
        game.clock.turn_started = None
        turn = game.board.turn
        if turn in self.engine_colors:
            # another take-back may follow (the player's own move): wait a moment
            generation = game.engine_generation
            asyncio.get_running_loop().call_later(
                TAKEBACK_GRACE, self._inbox.put_nowait, _StartEngine(generation)
            )
        else:
            self._start_turn(game, t)

    def _restart_turn(self, game: Game, t: float) -> None:
        """After a correction: a search for the old position is worthless."""
        self._cancel_engine(game)
        self._cancel_hint(game)
        game.engine_move = None
        game.tracker.expect(None)
        self._start_turn(game, t)

    # ================================================================== engine
    def _launch_engine(self, game: Game) -> None:
        assert self.engine is not None
        self._cancel_engine(game)
        game.engine_generation += 1
        generation = game.engine_generation
        engine = self.engine
        position = game.board.copy()
        root = position.root_sfen
        moves = game.usi_moves()
        clock = game.clock
        now = self.now()
        started = clock.turn_started if clock.turn_started is not None else now
        settings = self.config.engine
        margin = settings.margin if settings else 100
        limit = adapters.engine_limit(
            clock.engine_limit_ms(started, position.turn),
            settings.movetime if settings else 1000,
            position.turn == BLACK,
            int((now - started) * 1000) + margin,
        )

        def legal(usi: str) -> bool:
            try:
                return position.is_legal(Move.from_usi(usi))
            except ValueError:
                return False

        async def think() -> None:
            try:
                result = await engine.play(root, moves, limit, validate=legal)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._inbox.put_nowait(_EngineFailed(generation, exc, self.now()))
                return
            self._inbox.put_nowait(_EngineDone(generation, result, self.now()))

        LOGGER.debug("engine thinking (%s)", limit)
        game.engine_task = asyncio.create_task(think(), name="bb-engine")

    def _cancel_engine(self, game: Game) -> None:
        game.engine_generation += 1
        if game.engine_task is not None and not game.engine_task.done():
            game.engine_task.cancel()
        game.engine_task = None

    async def _engine_answered(self, game: Game, result: Any, t: float) -> None:
        mover = game.board.turn
        used = game.clock.stop(t) if game.clock.running is not None else 0.0
        if getattr(result, "resigned", False):
            LOGGER.info("engine resigns")
            await self._end_game(game, Outcome(Termination.RESIGNATION, mover ^ 1), t)
            return
        if getattr(result, "declared_win", False):
            outcome = game.board.declare(self.config.game.ruleset)
            LOGGER.info("engine declares a win: %s", outcome)
            await self._end_game(game, outcome, t)
            return
        move = Move.from_usi(result.bestmove)
        times = getattr(self.engine, "times", None) if self.online else None
        if times is not None and len(times) > len(game.moves) and times[len(game.moves)]:
            used = float(times[len(game.moves)])  # the server's time for the move
        game.engine_move = move
        game.engine_time = used
        LOGGER.info("engine plays %s (%.2fs): make it on the board", move.usi(), used)
        game.tracker.expect(move)

    def _launch_hint(self, game: Game) -> None:
        assert self.engine is not None and self.config.engine is not None
        self._cancel_hint(game)
        engine = self.engine
        generation = game.engine_generation
        root, moves = game.board.root_sfen, game.usi_moves()
        limit = adapters.hint_limit(self.config.engine.hint_time)

        async def analyse() -> None:
            try:
                info = await engine.analyse(root, moves, limit)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                LOGGER.warning("hint failed: %s", exc)
                return
            pv = getattr(info, "pv", None) or ()
            move = None
            if pv:
                with contextlib.suppress(ValueError):
                    move = Move.from_usi(pv[0])
            self._inbox.put_nowait(_HintDone(generation, move))

        game.hint_task = asyncio.create_task(analyse(), name="bb-hint")

    def _cancel_hint(self, game: Game) -> None:
        if game.hint_task is not None and not game.hint_task.done():
            game.hint_task.cancel()
        game.hint_task = None

    # ================================================================== game begin/end
    def _games_done(self) -> bool:
        limit = self.config.game.max_games
        return bool(limit) and len(self.games_finished) >= limit

    def _new_tracker(self, sfen: str) -> Any:
        return self.tracker_factory(
            sfen=sfen,
            sensing=self.config.board.sensing,
            mode=self.config.game.mode,
            ruleset=self.config.game.ruleset,
            setup=True,
            # moves sent to a server cannot be taken back if a later state proves the
            # tracker read a capture wrong
            revise=not self.online,
        )

    async def _begin_game(self, *, resume: bool) -> None:
        resumed = None
        if resume:
            path = await asyncio.to_thread(self.store.find_unfinished)
            if path is not None:
                try:
                    resumed = await asyncio.to_thread(self.store.resume, path)
                except Exception as exc:  # a damaged journal must not stop the board
                    LOGGER.error("cannot resume %s: %s; starting a new game", path, exc)
        clock = GameClock(*self.config.clock.controls)
        if resumed is not None:
            tracker = self._new_tracker(resumed.start_sfen)
            game = Game(tracker, clock, resumed.start_sfen)
            game.journal = resumed.journal
            game.header = dict(resumed.header)
            t = self.now()
            for move, used in zip(resumed.moves, resumed.times, strict=False):
                game.moves.append(MoveLog(move, used, clock.snapshot()))
                clock.replay([used], first=tracker.board.turn)
                tracker.apply_move(move, t)
            LOGGER.info(
                "resuming the unfinished game %s after %d moves: set the board up as shown",
                resumed.journal.path,
                len(resumed.moves),
            )
        else:
            game = Game(
                self._new_tracker(self.config.game.start_sfen), clock, self.config.game.start_sfen
            )
        self.game = game
        self._shown = None

    def _wait_for_online_game(self) -> None:
        """Ask the server for the next game in the background; it arrives in the inbox."""
        from board_bridge.online.base import OnlineError

        engine = self.engine
        assert engine is not None

        async def wait() -> None:
            while True:
                try:
                    await engine.new_game()
                except OnlineError as exc:
                    LOGGER.warning("online: %s; trying again", exc)
                    await asyncio.sleep(5.0)
                    continue
                self._inbox.put_nowait(_OnlineGame(getattr(engine, "game", None)))
                return

        LOGGER.info("waiting for an online game")
        self.notifier.status("waiting for an online game")
        self._online_wait = asyncio.create_task(wait(), name="bb-online-wait")

    async def _begin_online_game(self, info: Any) -> None:
        """The server's game: its start, the moves already played, its clocks, our side."""
        from board_bridge.app.clock import TimeControl

        self.engine_colors = frozenset({info.opponent_color})
        black, white = (TimeControl(**tc.time_control_args()) for tc in info.time_controls)
        clock = GameClock(black, white)
        tracker = self._new_tracker(info.start_sfen)
        game = Game(tracker, clock, info.start_sfen)
        game.online = info
        t = self.now()
        for played in info.moves:
            used = played.time or 0.0
            game.moves.append(MoveLog(played.move, used, clock.snapshot()))
            clock.replay([used], first=tracker.board.turn)
            tracker.apply_move(played.move, t)
        LOGGER.info(
            "online game %s: %s (sente) v %s (gote); the board plays %s",
            info.game_id,
            *info.names,
            ("sente", "gote")[info.my_color],
        )
        self.game = game
        self._shown = None
        if self._last_frame is not None:  # the board as it is now: set-up starts from it
            frame = SensorFrame(self.now(), self._last_frame.cells)
            await self._handle_outputs(game, tracker.feed(frame))

    async def _end_game(
        self, game: Game, outcome: Outcome, t: float, from_tracker: bool = False
    ) -> None:
        if game.outcome is not None:
            return
        game.outcome = outcome
        game.over_at = t
        self._cancel_engine(game)
        self._cancel_hint(game)
        if game.clock.running is not None:
            game.clock.stop(t)
        if not from_tracker:
            outputs = game.tracker.end_game(outcome, t)
            for output in outputs or ():
                if self.on_output is not None:
                    self.on_output(output)
        LOGGER.info("game over: %s", outcome)
        paths: list[Any] = []
        if game.journal is not None:
            try:
                paths = await asyncio.to_thread(game.journal.finish, outcome, t)
                await asyncio.to_thread(self.store.add_to_library, paths, outcome)
            except Exception as exc:
                LOGGER.error("could not finish the record %s: %s", game.journal.path, exc)
            for path in paths:
                LOGGER.info("record written: %s", path)
        if self.engine is not None and game.started:
            engine_colors = self.engine_colors
            if len(engine_colors) == 1:
                (color,) = engine_colors
                result = (
                    "draw"
                    if outcome.winner is None
                    else ("win" if outcome.winner == color else "lose")
                )
                with contextlib.suppress(Exception):
                    await self.engine.game_over(result)
        self.games_finished.append((outcome, paths))
        self.notifier.status(f"game over: {outcome}")
        if self.on_game_end is not None:
            self.on_game_end(outcome, paths)
        if self._games_done():
            await self._refresh_leds()
            self.stop(f"{len(self.games_finished)} game(s) played")
        elif self.online:
            self._wait_for_online_game()

    def _header(self) -> dict[str, Any]:
        """The record's header: players, start time, time control (journal header keys)."""
        g = self.config.game
        engine_name = self.engine.name if self.engine is not None else "engine"
        header: dict[str, Any] = {
            "sente": g.black or (engine_name if BLACK in self.engine_colors else "sente"),
            "gote": g.white or (engine_name if 1 in self.engine_colors else "gote"),
            "started": datetime.now().astimezone().replace(microsecond=0).isoformat(),
            "event": g.event,
        }
        control = self.config.clock.control
        if control.kind != "none":
            header["time_total"] = control.main
            if control.kind == "byoyomi":
                header["byoyomi"] = control.byoyomi
            elif control.kind == "fischer":
                header["increment"] = control.increment
        if self.config.clock.white is not None:  # time odds: say both in words
            header["time_control"] = self.config.clock.describe()
        game = self.game
        if game is not None and game.online is not None:
            info = game.online
            header["sente"], header["gote"] = info.names
            header["time_control"] = game.clock.describe()
            header["online_game"] = f"{info.source} {info.game_id}"
        return header

    # ================================================================== LEDs
    def _status_text(self) -> str:
        game = self.game
        if game is None:
            return "starting"
        if game.outcome is not None:
            return f"game over: {game.outcome}"
        if not game.started:
            return "set up the board"
        board = game.board
        t = self.now()
        side = "black" if board.turn == BLACK else "white"
        clock = f"  black {game.clock.display(0, t)}  white {game.clock.display(1, t)}"
        return f"move {len(game.moves) + 1}, {side} to move{clock if game.clock.describe() != 'no time limit' else ''}"

    async def _refresh_leds(self) -> None:
        game = self.game
        if game is None:
            return
        intents: LedIntents = game.tracker.intents
        set_context = getattr(self.sink, "set_context", None)
        status = ""
        if set_context is not None:
            status = self._status_text()
            set_context(game.board, status)
        redraw = bool(getattr(self.sink, "redraw", False))
        if intents == self._shown and not (redraw and status != self._last_status):
            return
        self._shown = intents
        self._last_status = status
        try:
            await self.sink.show(intents)
        except Exception as exc:  # LEDs failing must not stop the game
            LOGGER.error("LED sink: %s", exc)
