"""A local HTTP server (aiohttp, 127.0.0.1) speaking the Lishogi Board API's formats, for tests.

Endpoints: GET /api/account, GET /api/stream/event (NDJSON: challenge, gameStart,
gameFinish, blank keep-alive lines), POST /api/board/seek (held open), POST
/api/challenge/{id}/accept|decline, GET /api/board/game/stream/{id} (gameFull, then
gameState), POST /api/board/game/{id}/move/{usi}, /resign, /abort. The formats follow
Lishogi's BotJsonView (sente/gote, initialSfen, btime/wtime/binc/winc/byo in ms, status
names). The opponent is moved by the test; streams can be cut to test reconnection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from board_bridge.shogi import BLACK, STARTING_SFEN, Board, Move

KEEPALIVE = 0.2


@dataclass
class FakeGame:
    game_id: str
    player_color: int  # the side the token's user plays
    initial_sfen: str = "startpos"
    initial_ms: int = 600_000
    increment_ms: int = 0
    byoyomi_ms: int = 10_000
    board: Board = field(default_factory=Board)
    moves: list[str] = field(default_factory=list)
    times: list[int] = field(default_factory=lambda: [600_000, 600_000])
    status: str = "started"
    winner: str | None = None
    turn_started: float = field(default_factory=time.monotonic)
    listeners: list[asyncio.Queue[dict[str, Any] | None]] = field(default_factory=list)
    requests: list[web.Request] = field(default_factory=list)

    def state(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "gameState",
            "moves": " ".join(self.moves),
            "btime": self.times[0],
            "wtime": self.times[1],
            "binc": self.increment_ms,
            "winc": self.increment_ms,
            "byo": self.byoyomi_ms,
            "sdraw": False,
            "gdraw": False,
            "status": self.status,
        }
        if self.winner:
            out["winner"] = self.winner
        return out

    def full(self, names: tuple[str, str]) -> dict[str, Any]:
        return {
            "type": "gameFull",
            "id": self.game_id,
            "variant": {"key": "standard", "name": "Standard", "short": "Std"},
            "clock": {
                "initial": self.initial_ms,
                "increment": self.increment_ms,
                "byoyomi": self.byoyomi_ms,
                "periods": 1,
            },
            "speed": "rapid",
            "perf": {"name": "Rapid"},
            "rated": False,
            "createdAt": 1700000000000,
            "sente": {"id": names[0].lower(), "name": names[0], "rating": 1500},
            "gote": {"id": names[1].lower(), "name": names[1], "rating": 1500},
            "initialSfen": self.initial_sfen,
            "state": self.state(),
        }


class FakeLishogi:
    """The Board API of one user (``user``, authenticated by ``token``) on 127.0.0.1."""

    def __init__(self, token: str = "lip_TESTTOKEN123", user: str = "Player") -> None:
        self.token = token
        self.user = user
        self.opponent = "Opponent"
        self.games: dict[str, FakeGame] = {}
        self.challenges: dict[str, dict[str, Any]] = {}
        self.accepted: list[str] = []
        self.declined: list[str] = []
        self.seeks: list[dict[str, str]] = []
        self.seek_open = asyncio.Event()
        self.posted: list[str] = []
        self.auth_headers: list[str] = []
        self.drop_next_posts = 0
        self.apply_then_drop = False
        self._game_starts: dict[str, dict[str, Any]] = {}
        self._event_queues: list[asyncio.Queue[dict[str, Any]]] = []
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.game_streams_opened = 0
        self.event_streams_opened = 0
        self.event_requests: list[web.Request] = []

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/api/account", self._account)
        app.router.add_get("/api/stream/event", self._event_stream)
        app.router.add_post("/api/board/seek", self._seek)
        app.router.add_post("/api/challenge/{cid}/{action}", self._challenge_action)
        app.router.add_get("/api/board/game/stream/{gid}", self._game_stream)
        app.router.add_post("/api/board/game/{gid}/move/{move}", self._move)
        app.router.add_post("/api/board/game/{gid}/{action}", self._game_action)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        return self.base_url

    async def close(self) -> None:
        for game in self.games.values():
            for q in game.listeners:
                q.put_nowait(None)
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeLishogi:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ test controls
    def _push_event(self, event: dict[str, Any]) -> None:
        for q in self._event_queues:
            q.put_nowait(event)

    def challenge(self, cid: str, variant: str = "standard", color: str = "random") -> None:
        challenge = {
            "id": cid,
            "url": f"https://lishogi.org/{cid}",
            "status": "created",
            "compat": {"bot": False, "board": True},
            "challenger": {"id": self.opponent.lower(), "name": self.opponent, "rating": 1500},
            "destUser": {"id": self.user.lower(), "name": self.user, "rating": 1500},
            "variant": {"key": variant, "name": variant.title(), "short": "Std"},
            "rated": False,
            "timeControl": {
                "type": "clock",
                "limit": 600,
                "increment": 0,
                "byoyomi": 10,
                "periods": 1,
                "show": "10|10",
            },
            "color": color,
            "speed": "rapid",
            "perf": {"icon": "#", "name": "Rapid"},
            "direction": "in",
        }
        self.challenges[cid] = challenge
        self._push_event({"type": "challenge", "challenge": challenge})

    def create_game(self, game_id: str, player_color: int, **kw: Any) -> FakeGame:
        game = FakeGame(game_id, player_color, **kw)
        sfen = STARTING_SFEN if game.initial_sfen == "startpos" else game.initial_sfen
        game.board = Board(sfen)
        game.times = [game.initial_ms, game.initial_ms]
        self.games[game_id] = game
        self._game_starts[game_id] = {
            "type": "gameStart",
            "game": {
                "gameId": game_id,
                "fullId": game_id + "abcd",
                "color": "sente" if player_color == BLACK else "gote",
                "sfen": sfen,
                "isMyTurn": game.board.turn == player_color,
                "opponent": {"id": self.opponent.lower(), "username": self.opponent},
                "source": "friend",
                "speed": "rapid",
                "variant": {"key": "standard", "name": "Standard"},
                "compat": {"bot": False, "board": True},
            },
        }
        self._push_event(self._game_starts[game_id])
        return game

    def _names(self, game: FakeGame) -> tuple[str, str]:
        return (
            (self.user, self.opponent) if game.player_color == BLACK else (self.opponent, self.user)
        )

    def _play(self, game: FakeGame, usi: str) -> None:
        move = Move.from_usi(usi)
        game.board.check_legal(move)
        color = game.board.turn
        spent = int((time.monotonic() - game.turn_started) * 1000)
        game.times[color] = max(0, game.times[color] - spent) + game.increment_ms
        game.board.push(move)
        game.moves.append(usi)
        game.turn_started = time.monotonic()
        self._broadcast(game)

    def _broadcast(self, game: FakeGame) -> None:
        state = game.state()
        for q in game.listeners:
            q.put_nowait(state)
        if game.status not in ("created", "started"):
            self._push_event({"type": "gameFinish", "game": {"gameId": game.game_id}})

    def opponent_move(self, game_id: str, usi: str) -> None:
        game = self.games[game_id]
        assert game.board.turn != game.player_color, "not the opponent's turn"
        self._play(game, usi)

    def finish(self, game_id: str, status: str, winner: str | None) -> None:
        game = self.games[game_id]
        game.status, game.winner = status, winner
        self._broadcast(game)

    def drop_game_streams(self, game_id: str) -> None:
        """Cut every open stream of a game, as a network failure would."""
        game = self.games[game_id]
        for request in game.requests:
            if request.transport is not None:
                request.transport.abort()
        game.requests.clear()

    def drop_event_streams(self) -> None:
        for request in list(self.event_requests):
            if request.transport is not None:
                request.transport.abort()
        self.event_requests.clear()

    # ------------------------------------------------------------------ handlers
    def _authorized(self, request: web.Request) -> bool:
        header = request.headers.get("Authorization", "")
        self.auth_headers.append(header)
        return header == f"Bearer {self.token}"

    async def _account(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return web.json_response({"error": "No such token"}, status=401)
        return web.json_response({"id": self.user.lower(), "username": self.user})

    async def _ndjson(self, request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await resp.prepare(request)
        return resp

    async def _event_stream(self, request: web.Request) -> web.StreamResponse:
        if not self._authorized(request):
            return web.json_response({"error": "No such token"}, status=401)
        resp = await self._ndjson(request)
        self.event_streams_opened += 1
        self.event_requests.append(request)
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        for challenge in self.challenges.values():  # current challenges and games first
            if challenge["id"] not in self.accepted + self.declined:
                queue.put_nowait({"type": "challenge", "challenge": challenge})
        for gid, start in self._game_starts.items():
            if self.games[gid].status in ("created", "started"):
                queue.put_nowait(start)
        self._event_queues.append(queue)
        try:
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    await resp.write(b"\n")
                    continue
                await resp.write(json.dumps(event).encode() + b"\n")
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self._event_queues.remove(queue)
            with contextlib.suppress(ValueError):
                self.event_requests.remove(request)
        return resp

    async def _seek(self, request: web.Request) -> web.StreamResponse:
        if not self._authorized(request):
            return web.json_response({"error": "No such token"}, status=401)
        form = await request.post()
        self.seeks.append({k: str(v) for k, v in form.items()})
        resp = await self._ndjson(request)
        self.seek_open.set()
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            for _ in range(600):  # held open while the seek lives (bounded: 2 minutes)
                await asyncio.sleep(KEEPALIVE)
                await resp.write(b"\n")
        self.seek_open.clear()
        return resp

    async def _challenge_action(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return web.json_response({"error": "No such token"}, status=401)
        cid, action = request.match_info["cid"], request.match_info["action"]
        if cid not in self.challenges:
            return web.json_response({"error": "Not found"}, status=404)
        if action == "accept":
            self.accepted.append(cid)
            color = self.challenges[cid]["color"]
            player = 1 if color == "sente" else 0  # the challenger's colour is theirs
            self.create_game(f"g{cid}", player)
        elif action == "decline":
            self.declined.append(cid)
        else:
            return web.json_response({"error": "Not found"}, status=404)
        return web.json_response({"ok": True})

    async def _game_stream(self, request: web.Request) -> web.StreamResponse:
        if not self._authorized(request):
            return web.json_response({"error": "No such token"}, status=401)
        game = self.games.get(request.match_info["gid"])
        if game is None:
            return web.json_response({"error": "Not found"}, status=404)
        self.game_streams_opened += 1
        resp = await self._ndjson(request)
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        game.listeners.append(queue)
        game.requests.append(request)
        try:
            await resp.write(json.dumps(game.full(self._names(game))).encode() + b"\n")
            if game.status not in ("created", "started"):
                return resp
            while True:
                try:
                    item = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    await resp.write(b"\n")
                    continue
                if item is None:
                    break
                await resp.write(json.dumps(item).encode() + b"\n")
                if item.get("status") not in ("created", "started"):
                    break  # the server closes the stream when the game ends
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            game.listeners.remove(queue)
        return resp

    async def _move(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return web.json_response({"error": "No such token"}, status=401)
        game = self.games.get(request.match_info["gid"])
        usi = request.match_info["move"]
        self.posted.append(usi)
        if self.drop_next_posts > 0:
            self.drop_next_posts -= 1
            if self.apply_then_drop and game is not None:
                self._play(game, usi)
            assert request.transport is not None
            request.transport.abort()
            return web.json_response({"ok": False})
        if game is None:
            return web.json_response({"error": "Not found"}, status=404)
        if game.status != "started" or game.board.turn != game.player_color:
            return web.json_response({"error": "Not your turn, or game already over"}, status=400)
        try:
            self._play(game, usi)
        except ValueError as exc:
            return web.json_response({"error": f"Invalid move: {exc}"}, status=400)
        return web.json_response({"ok": True})

    async def _game_action(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return web.json_response({"error": "No such token"}, status=401)
        game = self.games.get(request.match_info["gid"])
        action = request.match_info["action"]
        if game is None or game.status != "started":
            return web.json_response({"error": "Not found"}, status=404)
        loser = game.player_color
        if action == "resign":
            game.status, game.winner = "resign", ("gote", "sente")[loser]
        elif action == "abort":
            if len(game.moves) >= 2:
                return web.json_response({"error": "The game can no longer be aborted"}, status=400)
            game.status, game.winner = "aborted", None
        else:
            return web.json_response({"error": "Not found"}, status=404)
        self._broadcast(game)
        return web.json_response({"ok": True})
