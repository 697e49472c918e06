"""The Lishogi Board API client (aiohttp): event stream, seeks, challenges, the game stream, moves.

Lishogi is a fork of lichess; its Board API streams NDJSON (one JSON object a line, blank
lines as keep-alive). The personal token goes in the ``Authorization`` header and nowhere
else: never in a log line, a repr or an error message. A dropped stream is re-opened with
backoff and the game carried on from ``gameFull``'s moves. See docs/online.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import aiohttp

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
    OpponentMove,
    PlayedMove,
    Reconnected,
    SideTimeControl,
)
from board_bridge.shogi import (
    BLACK,
    STARTING_SFEN,
    WHITE,
    Board,
    Color,
    IllegalMoveError,
    Move,
    Outcome,
    Termination,
)

LOGGER = logging.getLogger(__name__)

DEFAULT_BASE_URL: Final = "https://lishogi.org"
#: Game statuses of a game still being played.
PLAYING: Final = frozenset({"created", "started"})
#: Lishogi status names (scalashogi Status) -> how the game ended.
STATUS_TERMINATION: Final = {
    "aborted": Termination.ABORT,
    "mate": Termination.CHECKMATE,
    "resign": Termination.RESIGNATION,
    "stalemate": Termination.NO_LEGAL_MOVES,
    "timeout": Termination.TIMEOUT,  # the opponent left the game and it was claimed
    "draw": Termination.AGREEMENT,  # an agreed draw
    "outoftime": Termination.TIMEOUT,
    "cheat": Termination.ABORT,
    "noStart": Termination.ABORT,
    "unknownFinish": Termination.ABORT,
    "tryRule": Termination.TRY,
    "perpetualCheck": Termination.PERPETUAL_CHECK,
    "impasse27": Termination.DECLARATION,
    "impasse": Termination.DECLARATION,
    "repetition": Termination.SENNICHITE,
    "royalsLost": Termination.ABORT,
    "bareKing": Termination.ABORT,
    "specialVariantEnd": Termination.ABORT,
    "variantEnd": Termination.ABORT,
}
#: Colour names Lishogi uses. Older Lishogi JSON kept chess names for backwards support,
#: with "white" meaning sente (see docs/online.md).
COLOR_NAMES: Final = {"sente": BLACK, "gote": WHITE, "white": BLACK, "black": WHITE}

ChallengeFilter = Callable[[dict[str, Any]], bool | Awaitable[bool]]


class Secret:
    """A value that never shows itself in a repr, str or format."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return "***"


@dataclass(frozen=True)
class Seek:
    """A public seek: minutes of main time, seconds of increment and byoyomi."""

    time: float = 10
    increment: int = 0
    byoyomi: int = 30
    periods: int = 1
    rated: bool = False
    color: str = "random"  # random, sente or gote
    variant: str = "standard"

    def form(self) -> dict[str, str]:
        return {
            "rated": "true" if self.rated else "false",
            "time": f"{self.time:g}",
            "increment": str(self.increment),
            "byoyomi": str(self.byoyomi),
            "periods": str(self.periods),
            "color": self.color,
            "variant": self.variant,
        }


def standard_challenges(challenge: dict[str, Any]) -> bool:
    """The default challenge filter: incoming, standard shogi, real-time or correspondence."""
    variant = str((challenge.get("variant") or {}).get("key", "standard"))
    return str(challenge.get("direction", "in")) != "out" and variant == "standard"


class LishogiClient(OnlineOpponent):
    """A Lishogi Board API client for the daemon.

    How a game is found: ``game_id`` resumes a known game; else incoming challenges that
    ``accept`` approves are accepted (default: standard ones) and, with ``seek``, a public
    seek is posted and held open until a game starts.
    """

    def __init__(
        self,
        token: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        seek: Seek | None = None,
        accept: ChallengeFilter | None = standard_challenges,
        game_id: str | None = None,
        reconnect_delays: Sequence[float] = (0.5, 1, 2, 5, 10, 20, 30),
        max_reconnects: int = 20,
        read_timeout: float = 30.0,
        request_timeout: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not token or any(c.isspace() for c in token):
            raise ValueError("a Lishogi token is needed (and has no spaces)")
        self._token = Secret(token)
        self.base_url = base_url.rstrip("/")
        self.seek = seek
        self.accept = accept
        self.resume_game_id = game_id
        self.reconnect_delays = tuple(reconnect_delays) or (1.0,)
        self.max_reconnects = max_reconnects
        self.read_timeout = read_timeout
        self.request_timeout = request_timeout
        self._now = clock
        self._session: aiohttp.ClientSession | None = None
        self.account: dict[str, Any] = {}
        self._events: asyncio.Queue[dict[str, Any] | BaseException] = asyncio.Queue()
        self._event_task: asyncio.Task[None] | None = None
        self._seek_task: asyncio.Task[None] | None = None
        self._game_items: asyncio.Queue[dict[str, Any] | OnlineEvent | BaseException] = (
            asyncio.Queue()
        )
        self._game_task: asyncio.Task[None] | None = None
        self._pending: list[OnlineEvent] = []
        self.game: GameInfo | None = None
        self.game_id: str | None = None
        self._board: Board | None = None
        self._moves: list[str] = []
        self.history: list[PlayedMove] = []
        self.outcome: Outcome | None = None
        self._clock = ClockSnapshot((None, None))
        self._control = SideTimeControl()
        self._stream_moves: list[str] = []  # the moves the game stream has shown
        self._state = "new"
        self._lost_reason = ""
        self.reconnects = 0

    def __repr__(self) -> str:
        return f"LishogiClient(base_url={self.base_url!r}, token=***, state={self._state!r})"

    # ------------------------------------------------------------------ HTTP
    def _url(self, path: str) -> str:
        return f"{self.base_url}{path}"

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._token.reveal()}", "Accept": "application/json"}

    async def _request(self, method: str, path: str, **kw: Any) -> Any:
        session = self._require_session()
        timeout = aiohttp.ClientTimeout(total=self.request_timeout)
        try:
            async with session.request(
                method, self._url(path), headers=self._headers(), timeout=timeout, **kw
            ) as resp:
                text = await resp.text()
                if resp.status in (401, 403):
                    raise LoginFailed(
                        f"{method} {path}: the server refused the token ({resp.status})"
                    )
                if resp.status >= 400:
                    raise OnlineError(f"{method} {path}: HTTP {resp.status}: {_error_text(text)}")
                LOGGER.debug("%s %s -> %s", method, path, resp.status)
                return json.loads(text) if text.strip() else {}
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise ConnectionLost(f"{method} {path} failed: {type(exc).__name__}") from exc

    def _require_session(self) -> aiohttp.ClientSession:
        if self._session is None or self._state == "closed":
            raise OnlineError("not connected")
        return self._session

    async def _stream(self, path: str) -> AsyncIterator[dict[str, Any]]:
        """The JSON objects of an NDJSON stream (blank keep-alive lines skipped). Raises
        ConnectionLost when it breaks or goes silent for ``read_timeout``; returns at EOF."""
        session = self._require_session()
        timeout = aiohttp.ClientTimeout(
            total=None, sock_connect=self.request_timeout, sock_read=self.read_timeout
        )
        try:
            async with session.get(
                self._url(path), headers=self._headers(), timeout=timeout
            ) as resp:
                if resp.status in (401, 403):
                    raise LoginFailed(f"GET {path}: the server refused the token ({resp.status})")
                if resp.status >= 400:
                    raise OnlineError(
                        f"GET {path}: HTTP {resp.status}: {_error_text(await resp.text())}"
                    )
                buffer = b""
                async for chunk in resp.content.iter_any():
                    buffer += chunk
                    while b"\n" in buffer:
                        raw, buffer = buffer.split(b"\n", 1)
                        line = raw.strip()
                        if not line:
                            continue  # keep-alive
                        try:
                            item = json.loads(line)
                        except ValueError:
                            LOGGER.warning("not JSON on %s: %r", path, line[:200])
                            continue
                        if isinstance(item, dict):
                            yield item
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise ConnectionLost(f"stream {path} broke: {type(exc).__name__}") from exc

    # ------------------------------------------------------------------ connect
    async def connect(self) -> None:
        if self._state != "new":
            raise OnlineError(f"connect() on a client that is {self._state}")
        self._session = aiohttp.ClientSession()
        self._state = "connected"
        try:
            self.account = await self._request("GET", "/api/account")
        except BaseException:
            await self.close()
            raise
        LOGGER.info("logged in to %s as %s", self.base_url, self.account.get("username", "?"))
        self._event_task = asyncio.create_task(self._event_loop())

    async def close(self) -> None:
        if self._state == "closed":
            return
        self._state = "closed"
        for task in (self._event_task, self._seek_task, self._game_task):
            if task is not None:
                task.cancel()
        for task in (self._event_task, self._seek_task, self._game_task):
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _event_loop(self) -> None:
        """Read /api/stream/event into a queue; re-open it with backoff when it breaks."""
        failures = 0
        while self._state != "closed":
            try:
                async for item in self._stream("/api/stream/event"):
                    failures = 0
                    await self._events.put(item)
                raise ConnectionLost("the event stream ended")
            except LoginFailed as exc:
                await self._events.put(exc)
                return
            except (ConnectionLost, OnlineError) as exc:
                failures += 1
                if failures > self.max_reconnects:
                    await self._events.put(ConnectionLost(f"gave up on the event stream: {exc}"))
                    return
                delay = self.reconnect_delays[min(failures - 1, len(self.reconnect_delays) - 1)]
                LOGGER.warning("event stream: %s; again in %.1f s", exc, delay)
                await asyncio.sleep(delay)

    # ------------------------------------------------------------------ finding a game
    async def wait_game(self, timeout: float | None = None) -> GameInfo:
        if self._state not in ("connected", "over"):
            raise OnlineError(f"wait_game() on a client that is {self._state}")
        async with asyncio.timeout(timeout):
            game_id = self.resume_game_id
            self.resume_game_id = None
            color: Color | None = None
            if game_id is None:
                if self.seek is not None:
                    self._seek_task = asyncio.create_task(self._hold_seek(self.seek))
                try:
                    game_id, color = await self._await_game_start()
                finally:
                    if self._seek_task is not None:
                        self._seek_task.cancel()
                        with contextlib.suppress(asyncio.CancelledError, Exception):
                            await self._seek_task
                        self._seek_task = None
            self.game_id = game_id
            self._game_items = asyncio.Queue()
            self._game_task = asyncio.create_task(self._game_loop(game_id))
            while True:
                item = await self._game_items.get()
                if isinstance(item, BaseException):
                    raise item
                if isinstance(item, dict) and item.get("type") == "gameFull":
                    return self._start_game(item, color)

    async def _hold_seek(self, seek: Seek) -> None:
        """POST the seek and keep its response open (the seek lives as long as it does)."""
        session = self._require_session()
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=self.request_timeout)
        try:
            async with session.post(
                self._url("/api/board/seek"),
                data=seek.form(),
                headers=self._headers(),
                timeout=timeout,
            ) as resp:
                if resp.status >= 400:
                    LOGGER.warning(
                        "seek refused: HTTP %s: %s", resp.status, _error_text(await resp.text())
                    )
                    return
                LOGGER.info("seek posted: %s", seek)
                async for _ in resp.content.iter_any():
                    pass
        except aiohttp.ClientError as exc:
            LOGGER.warning("seek connection failed: %s", type(exc).__name__)

    async def _await_game_start(self) -> tuple[str, Color | None]:
        while True:
            item = await self._events.get()
            if isinstance(item, BaseException):
                raise item
            kind = item.get("type")
            if kind == "challenge":
                await self._consider_challenge(item.get("challenge") or {})
            elif kind == "challengeDeclined":
                challenge = item.get("challenge") or {}
                raise GameRejected(str(challenge.get("id", "?")), "the challenged player")
            elif kind == "gameStart":
                game = item.get("game") or {}
                game_id = game.get("gameId") or game.get("id")
                if not game_id:
                    raise OnlineProtocolError(f"gameStart without a game id: {item!r}")
                color = COLOR_NAMES.get(str(game.get("color", "")))
                return str(game_id), color

    async def _consider_challenge(self, challenge: dict[str, Any]) -> None:
        cid = challenge.get("id")
        if not cid or challenge.get("direction") == "out" or self.accept is None:
            return
        verdict = self.accept(challenge)
        if not isinstance(verdict, bool):
            verdict = await verdict
        action = "accept" if verdict else "decline"
        LOGGER.info(
            "challenge %s from %s: %s",
            cid,
            (challenge.get("challenger") or {}).get("name", "?"),
            action,
        )
        with contextlib.suppress(OnlineError):
            await self._request("POST", f"/api/challenge/{cid}/{action}")

    # ------------------------------------------------------------------ the game stream
    async def _game_loop(self, game_id: str) -> None:
        failures = 0
        ended = False
        while self._state != "closed":
            try:
                async for item in self._stream(f"/api/board/game/stream/{game_id}"):
                    failures = 0
                    state = item.get("state") if item.get("type") == "gameFull" else item
                    if isinstance(state, dict):
                        if "moves" in state:
                            self._stream_moves = str(state["moves"]).split()
                        if state.get("status", "started") not in PLAYING:
                            ended = True
                    await self._game_items.put(item)
                if ended or self._state in ("over", "closed"):
                    return
                raise ConnectionLost("the game stream ended before the game")
            except LoginFailed as exc:
                await self._game_items.put(exc)
                return
            except (ConnectionLost, OnlineError) as exc:
                if ended or self.outcome is not None:
                    return
                failures += 1
                if failures > self.max_reconnects:
                    await self._game_items.put(Disconnected(f"gave up reconnecting: {exc}", False))
                    return
                delay = self.reconnect_delays[min(failures - 1, len(self.reconnect_delays) - 1)]
                await self._game_items.put(
                    Disconnected(f"{exc}; reconnecting in {delay:g} s", True)
                )
                self.reconnects += 1
                await asyncio.sleep(delay)

    def _start_game(self, full: dict[str, Any], color: Color | None) -> GameInfo:
        my_id = str(self.account.get("id", "")).lower()
        players = [
            full.get("sente") or full.get("white") or {},
            full.get("gote") or full.get("black") or {},
        ]
        if color is None:
            ids = [str(p.get("id", "")).lower() for p in players]
            if my_id in ids:
                color = ids.index(my_id)
            else:
                raise OnlineProtocolError("cannot tell which side we play in this game")
        sfen = full.get("initialSfen") or full.get("initialFen") or "startpos"
        start_sfen = STARTING_SFEN if sfen == "startpos" else sfen
        try:
            self._board = Board(start_sfen)
        except ValueError as exc:
            raise OnlineProtocolError(f"bad initialSfen {sfen!r}: {exc}") from exc
        self._moves = []
        self.history = []
        self.outcome = None
        self._pending = []
        state = full.get("state") or {}
        clock = full.get("clock") or {}
        control = _time_control(clock)
        self._control = control
        self._apply_moves(str(state.get("moves", "")).split(), state, emit=False)
        self._set_clock(state)
        names = tuple(str(p.get("name") or p.get("id") or "?") for p in players)
        self.game = GameInfo(
            game_id=str(full.get("id", self.game_id)),
            my_color=color,
            names=(names[0], names[1]),
            start_sfen=start_sfen,
            moves=tuple(self.history),
            time_controls=(control, control),
            clock=self._clock,
            source="lishogi",
            raw=full,
        )
        self._state = "game"
        status = str(state.get("status", "started"))
        if status not in PLAYING:
            self._finish(state)
        LOGGER.info("game %s started, we play %s", self.game.game_id, ("sente", "gote")[color])
        return self.game

    def _set_clock(self, state: dict[str, Any]) -> None:
        board = self._board
        control = self._control

        def seconds(key: str) -> float | None:
            value = state.get(key)
            if not isinstance(value, int | float) or value >= 2**31 - 1:
                return None
            return value / 1000.0

        byo = (state.get("byo") or 0) / 1000.0 or control.byoyomi
        self._clock = ClockSnapshot(
            remaining=(seconds("btime"), seconds("wtime")),
            byoyomi=(byo, byo),
            increment=((state.get("binc") or 0) / 1000.0, (state.get("winc") or 0) / 1000.0),
            running=board.turn if board is not None and self._state != "over" else None,
            at=self._now(),
        )

    def _apply_moves(self, usis: list[str], state: dict[str, Any], emit: bool) -> None:
        """Bring the board up to the server's move list (new moves only)."""
        board = self._board
        assert board is not None
        if usis[: len(self._moves)] != self._moves:
            raise OnlineProtocolError("the server's moves do not continue ours (a take-back?)")
        new = usis[len(self._moves) :]
        before = self._clock
        for usi in new:
            try:
                move = Move.from_usi(usi)
                board.check_legal(move)
            except (ValueError, IllegalMoveError) as exc:
                raise OnlineProtocolError(f"the server sent an illegal move {usi}: {exc}") from exc
            color = board.turn
            ply = board.ply
            spent = None
            if len(new) == 1:
                spent = _spent(before, state, color)
            board.push(move)
            self._moves.append(usi)
            self.history.append(PlayedMove(move, color, spent))
            if emit and self.game is not None:
                if color == self.game.my_color:
                    self._pending.append(MoveConfirmed(move, spent, ply))
                else:
                    self._pending.append(OpponentMove(move, spent, ply))

    def _finish(self, state: dict[str, Any]) -> None:
        assert self.game is not None
        status = str(state.get("status", "unknownFinish"))
        winner = COLOR_NAMES.get(str(state.get("winner", "")))
        termination = STATUS_TERMINATION.get(status, Termination.ABORT)
        detail = f"lishogi: {status}" + (f", {state['winner']} wins" if winner is not None else "")
        if status == "aborted":
            winner = None
        self.outcome = Outcome(termination, winner, detail)
        self._state = "over"
        self._pending.append(GameOver(self.outcome, status, self.game.my_color))

    # ------------------------------------------------------------------ events
    async def next_event(self, timeout: float | None = None) -> OnlineEvent:
        if self._pending:
            return self._pending.pop(0)
        if self._state == "lost":
            raise ConnectionLost(self._lost_reason)
        if self._state != "game":
            raise OnlineError(f"no game in progress (the client is {self._state})")
        async with asyncio.timeout(timeout):
            while not self._pending:
                item = await self._game_items.get()
                if isinstance(item, BaseException):
                    raise item
                if isinstance(item, Disconnected):
                    if not item.retrying:
                        self._state = "lost"
                        self._lost_reason = item.reason
                    return item
                if not isinstance(item, dict):
                    continue
                self._handle(item)
        return self._pending.pop(0)

    def _handle(self, item: dict[str, Any]) -> None:
        kind = item.get("type")
        if kind == "gameFull":
            state = item.get("state") or {}
            self._apply_moves(str(state.get("moves", "")).split(), state, emit=True)
            self._set_clock(state)
            self._pending.append(Reconnected(len(self._moves)))
            self._pending.append(ClockUpdate(self._clock))
        elif kind == "gameState":
            state = item
            self._apply_moves(str(state.get("moves", "")).split(), state, emit=True)
            self._set_clock(state)
            self._pending.append(ClockUpdate(self._clock))
        else:
            return  # chatLine and the like
        status = str(state.get("status", "started"))
        if status not in PLAYING and self.outcome is None:
            self._finish(state)

    # ------------------------------------------------------------------ actions
    def _game_path(self, action: str) -> str:
        if self.game_id is None or self._state != "game":
            raise OnlineError(f"no game in progress (the client is {self._state})")
        return f"/api/board/game/{self.game_id}/{action}"

    async def send_move(
        self, move: Move, time_used: float | None = None, *, check_legal: bool = True
    ) -> None:
        board = self._board
        path = self._game_path(f"move/{move.usi()}")
        assert board is not None and self.game is not None
        if board.turn != self.game.my_color:
            raise NotYourTurn("it is the opponent's turn")
        if check_legal:
            board.check_legal(move)
        expected = len(self._moves)
        delays = list(self.reconnect_delays)
        for attempt in range(len(delays) + 1):
            try:
                await self._request("POST", path)
                return
            except ConnectionLost:
                if attempt >= len(delays):
                    raise
                if await self._stream_shows(expected, 0.0):  # it went through after all
                    return
                LOGGER.warning(
                    "move %s not sent (network); again in %g s", move.usi(), delays[attempt]
                )
                await asyncio.sleep(delays[attempt])
            except OnlineError as exc:
                # after a lost answer the move may have been played: the stream will say
                if attempt and await self._stream_shows(expected, self.request_timeout):
                    return
                raise OnlineError(f"the server refused {move.usi()}: {exc}") from exc

    async def _stream_shows(self, expected: int, wait: float) -> bool:
        """Has the game stream shown more than ``expected`` moves (waiting up to ``wait``)?"""
        deadline = self._now() + wait
        while True:
            if len(self._stream_moves) > expected:
                return True
            if self._now() >= deadline:
                return False
            await asyncio.sleep(0.05)

    async def resign(self) -> None:
        await self._request("POST", self._game_path("resign"))

    async def abort(self) -> None:
        await self._request("POST", self._game_path("abort"))

    async def declare_win(self) -> None:
        # Lishogi judges impasse itself (status impasse27) when the declaring move is played;
        # the Board API has no separate declaration endpoint.
        raise OnlineError("Lishogi has no declaration call: play on, the server judges impasse")


def _time_control(clock: dict[str, Any]) -> SideTimeControl:
    if not clock:
        return SideTimeControl()
    if "initial" in clock:  # milliseconds (the game stream)
        return SideTimeControl(
            clock.get("initial", 0) / 1000.0,
            clock.get("byoyomi", 0) / 1000.0,
            clock.get("increment", 0) / 1000.0,
            int(clock.get("periods", 1) or 1),
        )
    return SideTimeControl(  # seconds (challenges)
        float(clock.get("limit", 0)),
        float(clock.get("byoyomi", 0)),
        float(clock.get("increment", 0)),
        int(clock.get("periods", 1) or 1),
    )


def _spent(before: ClockSnapshot, state: dict[str, Any], color: Color) -> float | None:
    """Seconds a move took, from the mover's clock before and after (increment added back)."""
    old = before.remaining[color]
    new = state.get("btime" if color == BLACK else "wtime")
    if old is None or not isinstance(new, int | float) or new >= 2**31 - 1:
        return None
    inc = (state.get("binc" if color == BLACK else "winc") or 0) / 1000.0
    return max(0.0, round(old - new / 1000.0 + inc, 3))


def _error_text(text: str) -> str:
    try:
        data = json.loads(text)
    except ValueError:
        return text[:200]
    if isinstance(data, dict) and "error" in data:
        return str(data["error"])[:200]
    return text[:200]
