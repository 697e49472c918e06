"""The asyncio USI client: one engine subprocess, a command state machine, timeouts everywhere."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import signal
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from types import TracebackType
from typing import Final, Literal

from board_bridge.engine.errors import (
    EngineError,
    EngineProtocolError,
    EngineTerminated,
    EngineTimeout,
    UnsupportedError,
)
from board_bridge.engine.profiles import (
    EngineConfig,
    EngineProfile,
    OptionValue,
    Timeouts,
    profile_for,
)
from board_bridge.engine.protocol import (
    RESIGN,
    Info,
    Limit,
    Option,
    PlayResult,
    Side,
    format_setoption,
    go_command,
    merge_options,
    parse_bestmove,
    parse_info,
    parse_option,
    position_command,
    side_to_move,
)

LOGGER = logging.getLogger(__name__)

#: Longest line read from an engine; longer ones are dropped as garbage.
LINE_LIMIT: Final = 1 << 20
#: Info lines kept for a consumer of an analysis stream that reads slower than the engine writes.
INFO_BACKLOG: Final = 1000
STDERR_TAIL: Final = 20

GameResult = Literal["win", "lose", "draw"]
MoveValidator = Callable[[str], bool]


class _Wake:
    """Queue marker: a deadline changed, look again."""


_WAKE: Final = _Wake()
_Line = str | None | _Wake  # None marks the end of the engine's stdout


class Search:
    """One running ``go``: its info stream, and its result once ``bestmove`` arrives.

    Iterate it (``async for info in search``) for every ``info`` line as it comes; read
    :attr:`info` for everything so far merged (the principal line: ``multipv`` 1);
    ``await search.wait()`` for the :class:`PlayResult`; :meth:`stop` ends it early;
    :meth:`ponderhit` turns a ``go ponder`` into a normal search.
    """

    def __init__(
        self,
        engine: UsiEngine,
        command: str,
        side: Side,
        limit: Limit,
        *,
        pondering: bool,
    ) -> None:
        self.engine = engine
        self.command = command
        self.side: Side = side
        self.limit = limit
        self.pondering = pondering
        self.started = time.monotonic()
        self.info = Info()
        self.multipv: dict[int, Info] = {}
        self._backlog: collections.deque[Info] = collections.deque(maxlen=INFO_BACKLOG)
        self._changed = asyncio.Event()
        self._result: asyncio.Future[PlayResult] = asyncio.get_running_loop().create_future()
        self._stop_sent = False
        self.deadline: float | None = None
        self._set_deadline_for_limit()

    # -- state
    @property
    def done(self) -> bool:
        return self._result.done()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def _set_deadline_for_limit(self) -> None:
        if self.pondering or self.limit.infinite:
            self.deadline = None
        else:
            budget = self.limit.budget_ms(self.side)
            self.deadline = time.monotonic() + self.engine.timeouts.search_deadline(budget)

    def _add_info(self, info: Info) -> None:
        index = info.multipv or 1
        self.multipv[index] = self.multipv.get(index, Info()).merged(info)
        if index == 1:
            self.info = self.info.merged(info)
        self._backlog.append(info)
        self._changed.set()

    def _finish(self, result: PlayResult | None, error: BaseException | None) -> None:
        if self._result.done():
            return
        if error is not None:
            self._result.set_exception(error)
            self._result.exception()  # mark retrieved: the caller may never wait
        else:
            assert result is not None
            self._result.set_result(result)
        self._changed.set()

    # -- public API
    async def wait(self) -> PlayResult:
        """The result: waits for ``bestmove`` (bounded by the search's deadline)."""
        return await asyncio.shield(self._result)

    async def stop(self) -> PlayResult:
        """Send ``stop`` (once) and wait for ``bestmove``; a finished search just returns."""
        if not self.done and not self._stop_sent:
            self._stop_sent = True
            self.pondering = False
            self.deadline = time.monotonic() + self.engine.timeouts.stop
            self.engine._wake()
            try:
                await self.engine._send("stop")
            except EngineError as exc:
                self._finish(None, exc)
        return await self.wait()

    async def ponderhit(self) -> None:
        """The expected move was played: the ponder search becomes the real one.

        The deadline is now the time budget of the limit given to ``go ponder``.
        """
        if not self.pondering:
            raise EngineError("ponderhit: this search is not pondering")
        self.pondering = False
        if self.done:
            return
        self.started = time.monotonic()
        self._set_deadline_for_limit()
        self.engine._wake()
        await self.engine._send("ponderhit")

    def __aiter__(self) -> AsyncIterator[Info]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Info]:
        while True:
            while self._backlog:
                yield self._backlog.popleft()
            if self.done:
                if self._result.exception() is not None:
                    raise self._result.exception()  # type: ignore[misc]
                return
            self._changed.clear()
            if not self._backlog and not self.done:
                await self._changed.wait()


class UsiEngine:
    """A USI engine subprocess.

    ``await start()`` launches it (usi -> id/option -> usiok, options, isready -> readyok).
    Then :meth:`new_game`, :meth:`play`, :meth:`analysis`/:meth:`analyse`, :meth:`ponder`,
    :meth:`stop`, :meth:`game_over` and :meth:`quit` (also the async context manager's exit).
    Every wait is bounded by :class:`Timeouts`; an engine that hangs is killed and raises
    :class:`EngineTimeout`, one that dies raises :class:`EngineTerminated`. After either,
    this object is finished: start a new one (:class:`ManagedEngine` does this for you).
    """

    def __init__(
        self,
        command: Sequence[str] | str,
        *,
        options: Mapping[str, OptionValue] | None = None,
        profile: str | EngineProfile | None = None,
        timeouts: Timeouts | Mapping[str, float] | None = None,
        cwd: str | None = None,
        ponder: bool = False,
        name: str | None = None,
    ) -> None:
        self.command: tuple[str, ...] = (command,) if isinstance(command, str) else tuple(command)
        if not self.command:
            raise ValueError("an engine command is needed")
        self._user_options = dict(options or {})
        self._forced_profile = profile
        # A Timeouts instance is used whole; a mapping overrides defaults and the profile's.
        self._fixed_timeouts = timeouts if isinstance(timeouts, Timeouts) else None
        self._timeout_overrides: dict[str, float] = (
            {} if isinstance(timeouts, Timeouts) else dict(timeouts or {})
        )
        Timeouts.from_dict(self._timeout_overrides)  # unknown names fail here, not later
        self.timeouts: Timeouts = self._timeouts_for(None)
        self.cwd = cwd
        self.want_ponder = ponder
        self._label = name or os.path.basename(self.command[0])
        self.id: dict[str, str] = {}
        self.options: dict[str, Option] = {}
        self.profile: EngineProfile = (
            profile if isinstance(profile, EngineProfile) else profile_for("", None)
        )
        self.needs_restart = False
        self._process: asyncio.subprocess.Process | None = None
        self._lines: asyncio.Queue[_Line] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
        self._lock = asyncio.Lock()
        self._search: Search | None = None
        self._pump: asyncio.Task[None] | None = None
        self._dead: EngineError | None = None
        self._eof = False
        self._closed = False
        self._closing: asyncio.Task[None] | None = None

    @classmethod
    def from_config(cls, config: EngineConfig) -> UsiEngine:
        return cls(
            config.command,
            options=config.options,
            profile=config.profile,
            timeouts=dict(config.timeouts),
            cwd=config.cwd,
            ponder=config.ponder,
            name=config.name,
        )

    # ------------------------------------------------------------------ properties
    @property
    def name(self) -> str:
        """The engine's ``id name`` (or the program's name before it said one)."""
        return self.id.get("name", self._label)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    @property
    def returncode(self) -> int | None:
        return self._process.returncode if self._process else None

    @property
    def alive(self) -> bool:
        return (
            self._process is not None
            and self._process.returncode is None
            and self._dead is None
            and not self._closed
        )

    @property
    def searching(self) -> bool:
        return self._search is not None and not self._search.done

    @property
    def stderr_tail(self) -> list[str]:
        return list(self._stderr_tail)

    def __repr__(self) -> str:
        return f"<UsiEngine {self.name!r} pid={self.pid} alive={self.alive}>"

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Launch the engine and bring it to ready: usi/usiok, options, isready/readyok."""
        if self._process is not None:
            raise EngineError(f"engine {self.name} was already started")
        try:
            self._process = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=self.cwd,
                limit=LINE_LIMIT,
            )
        except OSError as exc:
            self._closed = True
            raise EngineTerminated(f"cannot start engine {self.command[0]!r}: {exc}") from exc
        LOGGER.info("engine %s started (pid %d)", self._label, self._process.pid)
        self._tasks = [
            asyncio.create_task(self._read_stdout(), name=f"usi-stdout-{self._process.pid}"),
            asyncio.create_task(self._read_stderr(), name=f"usi-stderr-{self._process.pid}"),
        ]
        try:
            async with self._lock:
                await self._handshake()
            await self._apply_startup_options()
            await self.ping()
        except BaseException:
            await self._kill()
            raise

    async def _handshake(self) -> None:
        self._forced_timeouts_for_profile()
        await self._send("usi")
        deadline = time.monotonic() + self.timeouts.startup
        while True:
            line = await self._next_line(deadline, "answer 'usi' with 'usiok'")
            if line.startswith("id "):
                _, _, rest = line.partition(" ")
                key, _, value = rest.strip().partition(" ")
                if key in ("name", "author"):
                    self.id[key] = value.strip()
            elif line.startswith("option "):
                option = parse_option(line)
                if option is not None:
                    self.options[option.name] = option
            elif line == "usiok":
                break
            elif line:
                LOGGER.debug("engine %s before usiok: ignoring %r", self._label, line)
        forced = self._forced_profile
        if isinstance(forced, EngineProfile):
            self.profile = forced
        else:
            self.profile = profile_for(self.id.get("name", ""), forced)
        self.timeouts = self._timeouts_for(self.profile)
        LOGGER.info(
            "engine %s: id name %r, %d options, profile %s",
            self._label,
            self.name,
            len(self.options),
            self.profile.key,
        )

    def _forced_timeouts_for_profile(self) -> None:
        if isinstance(self._forced_profile, EngineProfile):
            self.timeouts = self._timeouts_for(self._forced_profile)
        elif isinstance(self._forced_profile, str):
            self.timeouts = self._timeouts_for(profile_for("", self._forced_profile))

    def _timeouts_for(self, profile: EngineProfile | None) -> Timeouts:
        if self._fixed_timeouts is not None:
            return self._fixed_timeouts
        merged = {**_timeouts_dict(Timeouts()), **dict(profile.timeouts if profile else {})}
        merged.update(self._timeout_overrides)
        return Timeouts.from_dict(merged)

    async def _apply_startup_options(self) -> None:
        profile_options = {
            name: value
            for name, value in self.profile.options.items()
            if self.option(name) is not None or name.upper().startswith("USI_")
        }
        ponder_options: dict[str, OptionValue] = {}
        if self.want_ponder:
            if self.profile.can_ponder and self.profile.ponder_option is not None:
                ponder_options[self.profile.ponder_option] = True
            else:
                LOGGER.warning("engine %s cannot ponder: pondering stays off", self.name)
        merged = merge_options(profile_options, ponder_options, self._user_options)
        if merged:
            await self.configure(merged)

    def option(self, name: str) -> Option | None:
        """The announced option called ``name`` (compared case-insensitively)."""
        if name in self.options:
            return self.options[name]
        lowered = name.lower()
        for option in self.options.values():
            if option.name.lower() == lowered:
                return option
        return None

    async def configure(self, options: Mapping[str, OptionValue]) -> None:
        """``setoption`` for each option; checks names, types and ranges first.

        Names the engine did not announce are refused (:class:`UnsupportedError`), except
        the ``USI_*`` options the protocol defines (USI_Hash, USI_Ponder), sent as given.
        """
        lines: list[str] = []
        for name, value in options.items():
            option = self.option(name)
            if option is None:
                if not name.upper().startswith("USI_"):
                    raise UnsupportedError(f"engine {self.name} has no option {name!r}")
                text = None if value is None else _plain_value(value)
                lines.append(format_setoption(name, text))
            else:
                lines.append(format_setoption(option.name, option.format_value(value)))
        async with self._idle():
            for line in lines:
                await self._send(line)

    async def ping(self) -> None:
        """``isready`` and wait for ``readyok`` (blank and other lines are skipped)."""
        async with self._idle():
            await self._isready()

    async def _isready(self) -> None:
        await self._send("isready")
        deadline = time.monotonic() + self.timeouts.ready
        while True:
            line = await self._next_line(deadline, "answer 'isready' with 'readyok'")
            if line == "readyok":
                return
            if line:
                LOGGER.debug("engine %s waiting for readyok: ignoring %r", self.name, line)

    async def new_game(self) -> None:
        """``isready``/``readyok`` then ``usinewgame``: the next search is a new game."""
        async with self._idle():
            await self._isready()
            await self._send("usinewgame")

    async def game_over(self, result: GameResult) -> None:
        """``gameover win|lose|draw`` from the engine's point of view (stops a search first)."""
        if result not in ("win", "lose", "draw"):
            raise ValueError(f"game result must be win, lose or draw, not {result!r}")
        async with self._idle():
            if self.profile.send_gameover:
                await self._send(f"gameover {result}")

    async def quit(self) -> None:
        """Stop any search, send ``quit``, and make sure the process is gone and reaped.

        Safe to call twice and after a crash: the engine gets ``timeouts.quit`` seconds to
        exit, then SIGTERM, then SIGKILL.
        """
        if self._closing is None:
            self._closing = asyncio.create_task(self._quit())
        await asyncio.shield(self._closing)

    close = quit

    async def kill(self) -> None:
        """End the process now (SIGTERM, then SIGKILL), without ``quit``; safe twice."""
        self._closed = True
        if self._dead is None:
            self._dead = EngineTerminated(f"engine {self.name} was killed")
        await self._kill()

    async def _quit(self) -> None:
        if self._process is None:
            self._closed = True
            return
        if self.alive:
            with contextlib.suppress(EngineError):
                if self.searching and self._search is not None:
                    await self._search.stop()
            with contextlib.suppress(EngineError):
                await self._send("quit")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._process.wait(), self.timeouts.quit)
        self._closed = True
        if self._dead is None:
            self._dead = EngineTerminated(f"engine {self.name} was closed")
        await self._kill()

    async def __aenter__(self) -> UsiEngine:
        if self._process is None:
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
    async def go(
        self,
        position: str,
        moves: Sequence[str],
        limit: Limit,
        *,
        ponder: bool = False,
    ) -> Search:
        """Send ``position`` and ``go``; return the running :class:`Search`.

        A search still running is stopped first. Parameters the engine's profile says it
        lacks are translated (see :func:`go_command`) or refused before anything is sent.
        """
        spec = position_command(position, moves)
        side = side_to_move(position, moves)
        command = go_command(
            limit,
            side,
            ponder=ponder,
            supported=self.profile.go_params,
            swap_clocks=self.profile.swap_clocks,
        )
        async with self._idle():
            self._check_alive()
            self._drain_stale()
            await self._send(spec)
            search = Search(self, command, side, limit, pondering=ponder)
            self._search = search
            self._pump = asyncio.create_task(
                self._run_search(search), name=f"usi-search-{self.pid}"
            )
            await self._send(command)
        return search

    async def play(
        self,
        position: str,
        moves: Sequence[str],
        limit: Limit,
        *,
        validate: MoveValidator | None = None,
    ) -> PlayResult:
        """Search ``position`` after ``moves`` within ``limit``; the engine's move.

        ``bestmove`` may be ``resign`` or ``win``. ``validate(move) -> bool`` (e.g. the rules
        core's legality test) turns an illegal move into :class:`EngineProtocolError`.
        Cancelling the call stops the engine's search.
        """
        search = await self.go(position, moves, limit)
        try:
            result = await search.wait()
        except asyncio.CancelledError:
            if not search.done:
                task = asyncio.create_task(self._stop_quietly(search))
                self._tasks.append(task)
            raise
        if validate is not None and result.is_move and not validate(result.bestmove):
            raise EngineProtocolError(
                f"engine {self.name} played {result.bestmove}, which is illegal in "
                f"{position_command(position, moves)!r}"
            )
        return result

    async def ponder(self, position: str, moves: Sequence[str], limit: Limit) -> Search:
        """``go ponder``: ``moves`` end with the reply the engine expects (its ponder move).

        Call :meth:`Search.ponderhit` when that move is played, else :meth:`Search.stop`
        (and ignore its result). Refused for engines that cannot ponder.
        """
        if not self.profile.can_ponder:
            raise UnsupportedError(f"engine {self.name} cannot ponder")
        return await self.go(position, moves, limit, ponder=True)

    async def analysis(
        self, position: str, moves: Sequence[str] = (), limit: Limit | None = None
    ) -> Search:
        """Start an analysis (``go infinite`` by default); iterate it for :class:`Info`."""
        return await self.go(position, moves, limit or Limit(infinite=True))

    async def analyse(self, position: str, moves: Sequence[str], limit: Limit) -> Info:
        """A bounded analysis: the final merged :class:`Info` (score, pv, depth, ...)."""
        if limit.infinite:
            raise ValueError("analyse() needs a bounded limit; use analysis() for infinite")
        search = await self.go(position, moves, limit)
        return (await search.wait()).info

    async def stop(self) -> PlayResult | None:
        """Stop the running search, if any; its result (None when nothing was running)."""
        search = self._search
        if search is None or search.done:
            return None
        return await search.stop()

    @contextlib.asynccontextmanager
    async def _idle(self) -> AsyncIterator[None]:
        """Hold the command lock with no search running (a running one is stopped first).

        A search does not hold the lock while it runs: its pump task alone reads the
        engine's output until ``bestmove``, and every other command waits here for that.
        """
        while True:
            await self._stop_search()
            await self._lock.acquire()
            if self._search is None or self._search.done:
                break
            self._lock.release()
        try:
            yield
        finally:
            self._lock.release()

    async def _stop_search(self) -> None:
        search = self._search
        if search is not None and not search.done:
            with contextlib.suppress(EngineError):
                await search.stop()
        if self._pump is not None and not self._pump.done():
            await asyncio.wait({self._pump})  # its outcome lives in the Search

    async def _stop_quietly(self, search: Search) -> None:
        with contextlib.suppress(EngineError):
            await search.stop()

    async def _run_search(self, search: Search) -> None:
        """Feed the engine's lines to ``search`` until bestmove, EOF or its deadline."""
        try:
            while True:
                line = await self._next_line(search.deadline, "answer 'go' with 'bestmove'", search)
                word = line.split(maxsplit=1)[0] if line else ""
                if word == "info":
                    search._add_info(parse_info(line))
                elif word == "bestmove":
                    try:
                        move, ponder = parse_bestmove(line)
                    except EngineProtocolError:
                        raise EngineProtocolError(
                            f"engine {self.name} sent an illegal bestmove string: {line!r}"
                        ) from None
                    if move == RESIGN and self.profile.restart_after_resign:
                        self.needs_restart = True
                    search._finish(PlayResult(move, ponder, search.info), None)
                    return
                elif line:
                    LOGGER.debug("engine %s during search: ignoring %r", self.name, line)
        except EngineError as exc:
            search._finish(None, exc)
        except BaseException as exc:  # cancelled: the engine is being torn down
            search._finish(None, EngineTerminated(f"engine {self.name}: search abandoned"))
            if isinstance(exc, asyncio.CancelledError):
                raise

    # ------------------------------------------------------------------ I/O
    def _check_alive(self) -> None:
        if self._dead is not None:
            raise EngineTerminated(f"engine {self.name} is not running: {self._dead}")
        if self._process is None:
            raise EngineTerminated(f"engine {self.name} was not started")
        if self._closed:
            raise EngineTerminated(f"engine {self.name} was closed")

    async def _send(self, line: str) -> None:
        self._check_alive()
        assert self._process is not None and self._process.stdin is not None
        LOGGER.debug("%s << %s", self._label, line)
        try:
            self._process.stdin.write(line.encode() + b"\n")
            await asyncio.wait_for(self._process.stdin.drain(), self.timeouts.write)
        except (BrokenPipeError, ConnectionResetError) as exc:
            error = await self._terminated(f"while sending {line.split()[0]!r}")
            raise error from exc
        except TimeoutError:
            raise await self._timed_out(f"read the command {line.split()[0]!r}") from None

    def _wake(self) -> None:
        self._lines.put_nowait(_WAKE)

    def _drain_stale(self) -> None:
        while True:
            try:
                item = self._lines.get_nowait()
            except asyncio.QueueEmpty:
                return
            if item is None:
                self._lines.put_nowait(None)  # keep the end-of-output mark
                return
            if isinstance(item, str) and item:
                LOGGER.debug("engine %s: dropping stale %r", self.name, item)

    async def _next_line(
        self, deadline: float | None, doing: str, search: Search | None = None
    ) -> str:
        """The engine's next stdout line; raises on EOF or when ``deadline`` passes."""
        while True:
            if search is not None:
                deadline = search.deadline
            if self._eof and self._lines.empty():
                raise await self._terminated(f"while waiting for it to {doing}")
            timeout = None if deadline is None else deadline - time.monotonic()
            if timeout is not None and timeout <= 0:
                raise await self._timed_out(doing)
            try:
                item = await asyncio.wait_for(self._lines.get(), timeout)
            except TimeoutError:
                continue  # loop re-checks the (possibly moved) deadline
            if item is None:
                self._eof = True
                continue
            if isinstance(item, _Wake):
                continue
            return item

    async def _read_stdout(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        stdout = self._process.stdout
        try:
            while True:
                try:
                    raw = await stdout.readline()
                except ValueError:
                    LOGGER.warning("engine %s: dropped an over-long output line", self._label)
                    continue
                if not raw:
                    break
                line = raw.decode("utf-8", errors="replace").strip()
                LOGGER.debug("%s >> %s", self._label, line)
                self._lines.put_nowait(line)
        except (ConnectionError, OSError) as exc:
            LOGGER.debug("engine %s: stdout closed: %s", self._label, exc)
        finally:
            self._lines.put_nowait(None)

    async def _read_stderr(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        stderr = self._process.stderr
        pending = b""
        with contextlib.suppress(ConnectionError, OSError):
            while True:
                chunk = await stderr.read(4096)
                if not chunk:
                    break
                pending += chunk
                *complete, pending = pending.split(b"\n")
                for raw in complete:
                    self._note_stderr(raw)
                if len(pending) > 4096:
                    self._note_stderr(pending)
                    pending = b""
        if pending:
            self._note_stderr(pending)

    def _note_stderr(self, raw: bytes) -> None:
        text = raw.decode("utf-8", errors="replace").rstrip()
        if text:
            self._stderr_tail.append(text[:300])
            LOGGER.debug("%s stderr: %s", self._label, text)

    # ------------------------------------------------------------------ faults
    async def _terminated(self, doing: str) -> EngineTerminated:
        """The engine's output ended: reap it and describe how it died."""
        if self._dead is not None and self._closed:
            return EngineTerminated(f"engine {self.name} was closed")
        code = None
        if self._process is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                code = await asyncio.wait_for(self._process.wait(), 2.0)
        await self._drain_stderr_task()
        message = f"engine {self.name} exited ({_describe_exit(code)}) {doing}"
        tail = self._stderr_tail and " | ".join(list(self._stderr_tail)[-3:])
        if tail:
            message += f"; its last error output: {tail}"
        error = EngineTerminated(message)
        if self._dead is None:
            self._dead = error
            LOGGER.error("%s", message)
        await self._kill()
        return error

    async def _timed_out(self, doing: str) -> EngineTimeout:
        message = f"engine {self.name} did not {doing} in time; it hangs and was killed"
        error = EngineTimeout(message)
        if self._dead is None:
            self._dead = error
            LOGGER.error("%s", message)
        await self._kill()
        return error

    async def _drain_stderr_task(self) -> None:
        if len(self._tasks) > 1:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._tasks[1]), 1.0)

    async def _kill(self) -> None:
        """Make sure the process is gone and reaped, and the reader tasks ended."""
        process = self._process
        if process is not None and process.returncode is None:
            for sig, wait in ((signal.SIGTERM, self.timeouts.terminate), (signal.SIGKILL, 5.0)):
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(sig)
                try:
                    await asyncio.wait_for(process.wait(), wait)
                    break
                except TimeoutError:
                    continue
        if self._dead is None:
            self._dead = EngineTerminated(f"engine {self.name} was stopped")
        current = asyncio.current_task()
        for task in self._tasks:
            if task is current or task.done():
                continue
            try:
                await asyncio.wait_for(asyncio.shield(task), 2.0)
            except (TimeoutError, Exception):
                task.cancel()
        if process is not None and process.stdin is not None:
            process.stdin.close()
        search = self._search
        if search is not None and not search.done:
            search._finish(None, self._dead)


def _plain_value(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    if "\n" in text or "\r" in text:
        raise UnsupportedError("an option value cannot contain a line break")
    return text


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "exit code unknown"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _timeouts_dict(timeouts: Timeouts) -> dict[str, float]:
    return {name: getattr(timeouts, name) for name in Timeouts.__dataclass_fields__}
