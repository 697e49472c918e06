"""The asyncio CSA server protocol client (Floodgate, shogi-server): a line-based state machine.

One TCP connection: ``LOGIN`` -> Game_Summary -> ``AGREE`` -> ``START`` -> moves with their
``,T`` times -> the end messages -> ``LOGOUT``. Idle connections get an empty keep-alive line
(at least 30 seconds apart, as the protocol asks). See docs/online.md.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Final

from board_bridge.online.base import (
    ClockSnapshot,
    ClockUpdate,
    ConnectionLost,
    Disconnected,
    GameInfo,
    GameOver,
    GameRejected,
    LoginFailed,
    MoveConfirmed,
    NotYourTurn,
    OnlineError,
    OnlineEvent,
    OnlineOpponent,
    OnlineProtocolError,
    OnlineUnsupported,
    OpponentMove,
    PlayedMove,
    SideTimeControl,
)
from board_bridge.online.csa_protocol import (
    END_REASONS,
    END_RESULTS,
    MOVE_LINE_RE,
    SPECIAL_LINE_RE,
    CsaParseError,
    GameSummary,
    TimeRule,
    end_outcome,
    initial_remaining,
    move_from_csa,
    move_to_csa,
    parse_game_summary,
)
from board_bridge.shogi import Board, Move, Outcome

LOGGER = logging.getLogger(__name__)

DEFAULT_PORT: Final = 4081
#: The protocol asks clients to leave at least 30 seconds between keep-alive lines.
MIN_KEEPALIVE: Final = 30.0
LINE_LIMIT: Final = 1 << 16

AgreeCallback = Callable[[GameSummary], bool | Awaitable[bool]]


class CsaClient(OnlineOpponent):
    """A CSA server protocol client playing one game at a time for the daemon.

    ``agree`` decides on each Game_Summary (default: agree to every game). ``keepalive`` is
    the idle time before an empty line is sent; below 30 seconds only with
    ``allow_short_keepalive`` (tests). ``clock`` is the time source (``time.monotonic``).
    """

    def __init__(
        self,
        host: str,
        port: int = DEFAULT_PORT,
        user: str = "",
        password: str = "",
        *,
        agree: AgreeCallback | None = None,
        keepalive: float = MIN_KEEPALIVE,
        allow_short_keepalive: bool = False,
        connect_timeout: float = 10.0,
        logout_timeout: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if keepalive < MIN_KEEPALIVE and not allow_short_keepalive:
            raise ValueError(
                f"keep-alive lines must be at least {MIN_KEEPALIVE:g} s apart: {keepalive}"
            )
        if keepalive <= 0:
            raise ValueError(f"keepalive must be positive: {keepalive}")
        if not user or any(c.isspace() for c in user) or any(c.isspace() for c in password):
            raise ValueError("a CSA user name and password have no spaces (and a name is needed)")
        self.host = host
        self.port = port
        self.user = user
        self._password = password
        self._agree = agree
        self.keepalive = keepalive
        self.connect_timeout = connect_timeout
        self.logout_timeout = logout_timeout
        self._now = clock
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._write_lock = asyncio.Lock()
        self._keepalive_task: asyncio.Task[None] | None = None
        self._last_write = 0.0
        self.keepalives_sent: list[float] = []  # when each keep-alive line went out
        self._state = "new"
        self._lost_reason: str | None = None
        self._pending: collections.deque[OnlineEvent] = collections.deque()
        self.summary: GameSummary | None = None
        self.game: GameInfo | None = None
        self._board: Board | None = None
        self._rules: tuple[TimeRule, TimeRule] = (TimeRule(), TimeRule())
        self._remaining: list[int | None] = [None, None]
        self._clock = ClockSnapshot((None, None))
        self.history: list[PlayedMove] = []
        self.outcome: Outcome | None = None
        self.end_lines: list[str] = []  # the special move, reason and result lines
        self.special_time: float | None = None  # the T of %TORYO/%KACHI, in seconds
        self._special: str | None = None
        self._reason: str | None = None

    def __repr__(self) -> str:
        return (
            f"CsaClient(host={self.host!r}, port={self.port}, user={self.user!r}, "
            f"password='***', state={self._state!r})"
        )

    # ------------------------------------------------------------------ connection
    async def connect(self) -> None:
        if self._state != "new":
            raise OnlineError(f"connect() on a client that is {self._state}")
        try:
            async with asyncio.timeout(self.connect_timeout):
                self._reader, self._writer = await asyncio.open_connection(
                    self.host, self.port, limit=LINE_LIMIT
                )
        except (OSError, TimeoutError) as exc:
            self._state = "lost"
            raise ConnectionLost(f"cannot connect to {self.host}:{self.port}: {exc}") from exc
        await self._send(f"LOGIN {self.user} {self._password}", log=f"LOGIN {self.user} ***")
        async with asyncio.timeout(self.connect_timeout):
            while True:
                line = await self._read_line()
                if not line:
                    continue
                break
        if line == f"LOGIN:{self.user} OK":
            self._state = "waiting"
            self._keepalive_task = asyncio.create_task(self._keepalive_loop())
            LOGGER.info("logged in to %s:%s as %s", self.host, self.port, self.user)
            return
        await self._drop()
        self._state = "closed"
        if line.startswith("LOGIN:incorrect"):
            raise LoginFailed(f"the server refused the login of {self.user!r}")
        raise OnlineProtocolError(f"unexpected answer to LOGIN: {line!r}")

    async def close(self) -> None:
        if self._state in ("closed", "new"):
            self._state = "closed"
            return
        if self._state != "lost" and self._writer is not None:
            with contextlib.suppress(OnlineError, TimeoutError, OSError):
                await self._send("LOGOUT")
                async with asyncio.timeout(self.logout_timeout):
                    while True:
                        line = await self._read_line()
                        if line == "LOGOUT:completed":
                            break
        self._state = "closed"
        await self._drop()

    async def _drop(self) -> None:
        task, self._keepalive_task = self._keepalive_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await writer.wait_closed()

    # ------------------------------------------------------------------ line I/O
    async def _read_line(self) -> str:
        if self._reader is None or self._state in ("lost", "closed"):
            raise ConnectionLost(self._lost_reason or "not connected")
        try:
            raw = await self._reader.readline()
        except (ConnectionError, OSError, asyncio.LimitOverrunError, ValueError) as exc:
            self._lost(f"read failed: {exc}")
            raise ConnectionLost(self._lost_reason or "") from exc
        if not raw.endswith(b"\n"):
            self._lost("the server closed the connection")
            raise ConnectionLost(self._lost_reason or "")
        line = raw.decode("ascii", errors="replace").rstrip("\r\n")
        LOGGER.debug("<< %s", line)
        return line

    async def _send(self, line: str, log: str | None = None) -> None:
        if self._writer is None or self._state in ("lost", "closed"):
            raise ConnectionLost(self._lost_reason or "not connected")
        if "\n" in line or "\r" in line:
            raise ValueError("a CSA line cannot hold a line break")
        async with self._write_lock:
            try:
                self._writer.write(line.encode("ascii") + b"\n")
                await self._writer.drain()
            except (ConnectionError, OSError) as exc:
                self._lost(f"write failed: {exc}")
                raise ConnectionLost(self._lost_reason or "") from exc
            self._last_write = self._now()
        LOGGER.debug(">> %s", line if log is None else log)

    def _lost(self, reason: str) -> None:
        if self._state not in ("lost", "closed"):
            LOGGER.warning("connection to %s:%s lost: %s", self.host, self.port, reason)
            self._lost_reason = f"connection to {self.host}:{self.port} lost: {reason}"
            self._state = "lost"

    async def _keepalive_loop(self) -> None:
        """Send an empty line when nothing was written for ``keepalive`` seconds."""
        while self._state not in ("lost", "closed"):
            wait = self._last_write + self.keepalive - self._now()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            try:
                await self._send("", log="(keep-alive)")
            except ConnectionLost:
                return
            self.keepalives_sent.append(self._last_write)

    # ------------------------------------------------------------------ game start
    async def wait_game(self, timeout: float | None = None) -> GameInfo:
        if self._state not in ("waiting", "over"):
            raise OnlineError(f"wait_game() on a client that is {self._state}")
        async with asyncio.timeout(timeout):
            summary = await self._read_summary()
            self.summary = summary
            if not await self._decide(summary):
                await self._send(f"REJECT {summary.game_id}")
                await self._await_start(summary)  # raises GameRejected
            await self._send(f"AGREE {summary.game_id}")
            await self._await_start(summary)
        self._start_game(summary)
        assert self.game is not None
        return self.game

    async def _read_summary(self) -> GameSummary:
        lines: list[str] | None = None
        while True:
            line = await self._read_line()
            if lines is None:
                if line == "BEGIN Game_Summary":
                    lines = [line]
                elif line:
                    LOGGER.info("ignored while waiting for a game: %r", line)
                continue
            lines.append(line)
            if line == "END Game_Summary":
                try:
                    return parse_game_summary(lines)
                except (CsaParseError, ValueError) as exc:
                    raise OnlineProtocolError(f"bad Game_Summary: {exc}") from exc

    async def _decide(self, summary: GameSummary) -> bool:
        if self._agree is None:
            return True
        answer = self._agree(summary)
        if inspect.isawaitable(answer):
            answer = await answer
        return bool(answer)

    async def _await_start(self, summary: GameSummary) -> None:
        while True:
            line = await self._read_line()
            if line.startswith("START:"):
                if line[6:] != summary.game_id:
                    raise OnlineProtocolError(f"START for another game: {line!r}")
                return
            if line.startswith("REJECT:"):
                rest = line[7:]
                game_id, _, by = rest.partition(" by ")
                self._state = "waiting"
                raise GameRejected(game_id, by or "?")
            if line:
                LOGGER.info("ignored before START: %r", line)

    def _start_game(self, summary: GameSummary) -> None:
        self._rules = summary.times
        remaining = initial_remaining(summary)
        self._remaining = [remaining[0], remaining[1]]
        board = summary.position.board()
        self._board = board
        self.history = [
            PlayedMove(
                pm.move, pm.color, None if pm.time is None else pm.time * self._unit(pm.color)
            )
            for pm in summary.position.moves
        ]
        self.outcome = None
        self.end_lines = []
        self._special = self._reason = None
        self.special_time = None
        self._pending.clear()
        self._set_clock(running=board.turn)
        controls = tuple(
            SideTimeControl(
                None if rule.total_time is None else rule.total_time * rule.unit_seconds,
                rule.byoyomi * rule.unit_seconds,
                rule.increment * rule.unit_seconds,
            )
            for rule in summary.times
        )
        self.game = GameInfo(
            game_id=summary.game_id,
            my_color=summary.your_turn,
            names=summary.names,
            start_sfen=summary.position.start_sfen,
            moves=tuple(self.history),
            time_controls=(controls[0], controls[1]),
            clock=self._clock,
            max_moves=summary.max_moves,
            declaration=summary.declaration,
            source="csa",
            raw=summary,
        )
        self._state = "game"
        LOGGER.info(
            "game %s started: %s (black) vs %s (white), we are %s",
            summary.game_id,
            summary.name_black,
            summary.name_white,
            ("black", "white")[summary.your_turn],
        )

    def _unit(self, color: int) -> float:
        return self._rules[color].unit_seconds

    def _set_clock(self, running: int | None) -> None:
        rules = self._rules
        self._clock = ClockSnapshot(
            remaining=(
                None if self._remaining[0] is None else self._remaining[0] * rules[0].unit_seconds,
                None if self._remaining[1] is None else self._remaining[1] * rules[1].unit_seconds,
            ),
            byoyomi=(
                rules[0].byoyomi * rules[0].unit_seconds,
                rules[1].byoyomi * rules[1].unit_seconds,
            ),
            increment=(
                rules[0].increment * rules[0].unit_seconds,
                rules[1].increment * rules[1].unit_seconds,
            ),
            running=running,
            at=self._now(),
        )

    # ------------------------------------------------------------------ playing
    def _my_turn_board(self) -> Board:
        if self._state != "game" or self._board is None or self.game is None:
            raise OnlineError(f"no game in progress (the client is {self._state})")
        if self._board.turn != self.game.my_color:
            raise NotYourTurn("it is the opponent's turn")
        return self._board

    async def send_move(
        self, move: Move, time_used: float | None = None, *, check_legal: bool = True
    ) -> None:
        """Send the player's move as ``+7776FU``. With ``check_legal`` (the default) an
        illegal move raises IllegalMoveError and is not sent (the server would end the game
        with #ILLEGAL_MOVE)."""
        board = self._my_turn_board()
        if check_legal:
            board.check_legal(move)
        token = move_to_csa(board, move)
        LOGGER.info(
            "sending %s (%s)%s",
            token,
            move.usi(),
            "" if time_used is None else f" after {time_used:.1f}s",
        )
        await self._send(token)

    async def resign(self) -> None:
        self._my_turn_board()
        await self._send("%TORYO")

    async def declare_win(self) -> None:
        self._my_turn_board()
        await self._send("%KACHI")

    async def abort(self) -> None:
        raise OnlineUnsupported("the CSA server protocol has no abort for clients")

    async def send_raw(self, line: str) -> None:
        """Send one protocol line as it is (for diagnostics and tests)."""
        await self._send(line)

    # ------------------------------------------------------------------ events
    async def next_event(self, timeout: float | None = None) -> OnlineEvent:
        if self._pending:
            return self._pending.popleft()
        if self._state == "lost":
            raise ConnectionLost(self._lost_reason or "the connection was lost")
        if self._state != "game":
            raise OnlineError(f"no game in progress (the client is {self._state})")
        async with asyncio.timeout(timeout):
            while not self._pending:
                try:
                    line = await self._read_line()
                except ConnectionLost as exc:
                    self._set_clock(running=None)
                    return Disconnected(str(exc), retrying=False)
                self._handle_game_line(line)
        return self._pending.popleft()

    def _handle_game_line(self, line: str) -> None:
        board = self._board
        game = self.game
        assert board is not None and game is not None
        if not line:
            return
        m = MOVE_LINE_RE.fullmatch(line)
        if m is not None:
            token = m.group("move")
            color = board.turn
            try:
                move = move_from_csa(board, token)
            except CsaParseError as exc:
                raise OnlineProtocolError(f"the server sent a move we cannot read: {exc}") from exc
            reason = board.illegal_reason(move)
            if reason is not None:
                raise OnlineProtocolError(
                    f"the server sent an illegal move {token}: {reason.value}"
                )
            units = int(m.group("time")) if m.group("time") is not None else None
            seconds = None if units is None else units * self._unit(color)
            ply = board.ply
            board.push(move)
            self.history.append(PlayedMove(move, color, seconds))
            rule = self._rules[color]
            self._remaining[color] = rule.after_move(self._remaining[color], units or 0)
            self._set_clock(running=board.turn)
            if color == game.my_color:
                self._pending.append(MoveConfirmed(move, seconds, ply))
            else:
                self._pending.append(OpponentMove(move, seconds, ply))
            self._pending.append(ClockUpdate(self._clock))
            return
        s = SPECIAL_LINE_RE.fullmatch(line)
        if s is not None:
            self._special = s.group("special")
            self.end_lines.append(line)
            if s.group("time") is not None:
                self.special_time = int(s.group("time")) * self._unit(board.turn)
            return
        if line in END_REASONS:
            self._reason = line
            self.end_lines.append(line)
            return
        if line in END_RESULTS:
            self.end_lines.append(line)
            outcome = end_outcome(game.my_color, self._reason, line, self._special)
            self.outcome = outcome
            self._state = "over"
            self._set_clock(running=None)
            LOGGER.info("game %s over: %s", game.game_id, outcome)
            self._pending.append(GameOver(outcome, " ".join(self.end_lines), game.my_color))
            return
        LOGGER.info("ignored during the game: %r", line)
