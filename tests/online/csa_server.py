"""A CSA server protocol 1.2.1 server for tests: asyncio on 127.0.0.1, two players, one game.

It follows the protocol as documented by the CSA and as shogi-server behaves: LOGIN answers
(``LOGIN:<name> OK`` / ``LOGIN:incorrect``), the Game_Summary with Time (or Time+/Time-)
and Position blocks, AGREE/REJECT then ``START:<id>`` or ``REJECT:<id> by <name>``, move
echo with the time charged (``+7776FU,T3``), time accounting (Time_Unit, Total_Time,
Byoyomi, Increment, Least_Time_Per_Move, Time_Roundup, truncation), and the end messages:
``%TORYO,T1 #RESIGN``, ``#TIME_UP``, ``#ILLEGAL_MOVE``, ``#SENNICHITE #DRAW``,
``#OUTE_SENNICHITE``, ``%KACHI #JISHOGI`` (or ``#ILLEGAL_MOVE`` for a wrong declaration),
``#MAX_MOVES #CENSORED``, ``#CHUDAN``; a dropped player loses (``%TORYO #RESIGN``). Legality
and game end come from the project's rules core. It writes the game's CSA record.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from board_bridge.online.csa_protocol import (
    MOVE_RE,
    CsaParseError,
    CsaPosition,
    GameSummary,
    PositionMove,
    TimeRule,
    format_summary,
    initial_remaining,
    move_from_csa,
    parse_position,
    position_lines,
)
from board_bridge.shogi import BLACK, STARTING_SFEN, WHITE, Board, Ruleset, Termination

_READ_LIMIT = 1 << 16


@dataclass
class GameSetup:
    """What the server proposes: players, clocks, start position (with earlier moves)."""

    black: str = "player"
    white: str = "opponent"
    times: tuple[TimeRule, TimeRule] = (
        TimeRule(total_time=600, byoyomi=10),
        TimeRule(total_time=600, byoyomi=10),
    )
    start_sfen: str = STARTING_SFEN
    earlier: Sequence[tuple[str, int]] = ()  # CSA tokens and their T, for a resumed game
    max_moves: int | None = 256
    declaration: str = "Jishogi 1.1"
    game_id: str = "test-game-1"
    agree_timeout: float = 10.0
    special_times: bool = True  # "%TORYO,T3" (the CSA documents) or "%TORYO" (shogi-server)


@dataclass
class ServerRecord:
    """The result of one proposed game, as the server saw it."""

    game_id: str
    path: Path | None = None
    text: str = ""
    rejected_by: str | None = None
    summary: str = ""  # like shogi-server's 'summary: "toryo", "time up", ...
    winner: int | None = None
    end_lines: dict[str, list[str]] = field(default_factory=dict)


class _Player:
    def __init__(self, name: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.name = name
        self.reader = reader
        self.writer = writer
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.gone = asyncio.Event()
        self.in_game = False
        self.keepalives: list[float] = []
        self.received: list[str] = []

    def send(self, *lines: str) -> None:
        if self.writer.is_closing():
            return
        for line in lines:
            self.writer.write(line.encode("ascii") + b"\n")


class CsaTestServer:
    """Listens on 127.0.0.1 (ephemeral port); plays one game between ``setup.black`` and
    ``setup.white`` once both are logged in, then another if both stay and ``games_to_play``
    allows."""

    def __init__(
        self,
        users: dict[str, str],
        setup: GameSetup,
        record_dir: Path,
        games_to_play: int = 1,
    ) -> None:
        self.users = users
        self.setup = setup
        self.record_dir = record_dir
        self.games_to_play = games_to_play
        self.records: list[ServerRecord] = []
        self.players: dict[str, _Player] = {}
        self.game_done = asyncio.Event()
        self.game_started = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._game_task: asyncio.Task[None] | None = None
        self._chudan = asyncio.Event()
        self.port = 0

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0, limit=_READ_LIMIT)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for player in list(self.players.values()):
            player.writer.close()
        tasks = [*self._tasks, *([self._game_task] if self._game_task else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    async def __aenter__(self) -> CsaTestServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def chudan(self) -> None:
        """Interrupt the running game (#CHUDAN), as a server operator would."""
        self._chudan.set()

    def drop(self, name: str) -> None:
        """Cut a player's connection (a network failure)."""
        player = self.players.get(name)
        if player is not None:
            transport = player.writer.transport
            transport.abort()

    def keepalives(self, name: str) -> list[float]:
        return self.players[name].keepalives if name in self.players else []

    # ------------------------------------------------------------------ connections
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._session(reader, writer)
        except (ConnectionError, OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raw = await asyncio.wait_for(reader.readline(), 10)
        parts = raw.decode("ascii", errors="replace").rstrip("\r\n").split(" ")
        if len(parts) != 3 or parts[0] != "LOGIN" or self.users.get(parts[1]) != parts[2]:
            writer.write(b"LOGIN:incorrect\n")
            await writer.drain()
            return
        name = parts[1]
        if name in self.players and not self.players[name].gone.is_set():
            writer.write(b"LOGIN:incorrect\n")  # already logged in
            await writer.drain()
            return
        player = _Player(name, reader, writer)
        self.players[name] = player
        player.send(f"LOGIN:{name} OK")
        self._maybe_start()
        try:
            while True:
                raw = await reader.readline()
                if not raw.endswith(b"\n"):
                    break
                line = raw.decode("ascii", errors="replace").rstrip("\r\n")
                player.received.append(line)
                if line == "":
                    player.keepalives.append(time.monotonic())
                    continue
                if line == "LOGOUT":  # in a game too: the game is then lost (abnormal)
                    player.send("LOGOUT:completed")
                    await writer.drain()
                    break
                await player.lines.put(line)
        finally:
            player.gone.set()
            await player.lines.put(None)

    def _maybe_start(self) -> None:
        s = self.setup
        if self._game_task is not None and not self._game_task.done():
            return
        if len(self.records) >= self.games_to_play:
            return
        black, white = self.players.get(s.black), self.players.get(s.white)
        if black is None or white is None or black.gone.is_set() or white.gone.is_set():
            return
        self._game_task = asyncio.create_task(self._play(black, white))

    # ------------------------------------------------------------------ the game
    def _summary(self) -> GameSummary:
        s = self.setup
        board = Board(s.start_sfen)
        moves = []
        for token, t in s.earlier:
            move = move_from_csa(board, token)
            board.check_legal(move)
            moves.append(PositionMove(token, move, board.turn, t))
            board.push(move)
        return GameSummary(
            protocol_version="1.2",
            protocol_mode="Server",
            format="Shogi 1.0",
            declaration=s.declaration,
            game_id=s.game_id,
            name_black=s.black,
            name_white=s.white,
            to_move=board.turn,
            max_moves=s.max_moves,
            times=s.times,
            position=CsaPosition(Board(s.start_sfen).sfen(), tuple(moves)),
        )

    async def _play(self, black: _Player, white: _Player) -> None:
        s = self.setup
        summary = self._summary()
        record = ServerRecord(s.game_id)
        self.records.append(record)
        players = (black, white)
        for color, player in enumerate(players):
            player.in_game = True
            player.send(*format_summary(summary, color))
        try:
            answers = await asyncio.wait_for(
                asyncio.gather(*(self._answer(p, summary.game_id) for p in players)),
                s.agree_timeout,
            )
        except TimeoutError:
            answers = [None, None]
        if not all(a == "AGREE" for a in answers):
            by = next((p.name for p, a in zip(players, answers) if a != "AGREE"), "server")
            for player in players:
                player.send(f"REJECT:{summary.game_id} by {by}")
                player.in_game = False
            record.rejected_by = by
            self.game_done.set()
            return
        for player in players:
            player.send(f"START:{summary.game_id}")
        self.game_started.set()
        lines = [
            "V2.2",
            f"N+{s.black}",
            f"N-{s.white}",
            f"$EVENT:{summary.game_id}",
            f"$START_TIME:{datetime.datetime.now():%Y/%m/%d %H:%M:%S}",
            f"'Max_Moves:{s.max_moves}",
            *position_lines(summary.position.start_sfen),
        ]
        for pm in summary.position.moves:
            lines += [pm.token, f"T{pm.time}"]
        board = summary.position.board()
        rules = Ruleset(declaration="csa27", impasse_24=False, max_moves=s.max_moves)
        remaining = list(initial_remaining(summary))
        try:
            await self._game_loop(players, board, rules, remaining, lines, record)
        finally:
            for player in players:
                player.in_game = False
                with contextlib.suppress(Exception):
                    await player.writer.drain()
            lines.append(f"'$END_TIME:{datetime.datetime.now():%Y/%m/%d %H:%M:%S}")
            record.text = "\n".join(lines) + "\n"
            self.record_dir.mkdir(parents=True, exist_ok=True)
            record.path = self.record_dir / f"{summary.game_id}.csa"
            record.path.write_text(record.text, encoding="ascii")
            self.game_done.set()
            # players who stay may play again
            self._maybe_start()

    async def _answer(self, player: _Player, game_id: str) -> str | None:
        while True:
            line = await player.lines.get()
            if line is None:
                return None
            word, _, gid = line.partition(" ")
            if word in ("AGREE", "REJECT") and gid in ("", game_id):
                return word

    async def _game_loop(
        self,
        players: tuple[_Player, _Player],
        board: Board,
        rules: Ruleset,
        remaining: list[int | None],
        lines: list[str],
        record: ServerRecord,
    ) -> None:
        times = self.setup.times

        def finish(summary: str, winner: int | None, per_player: dict[int, list[str]]) -> None:
            record.summary = summary
            record.winner = winner
            for color, player in enumerate(players):
                sent = per_player[color]
                player.send(*sent)
                record.end_lines[player.name] = sent
            result = {None: "draw", BLACK: "black win", WHITE: "white win"}[winner]
            lines.append(f"'summary:{summary}:{result}")

        while True:
            color = board.turn
            mover, other = players[color], players[color ^ 1]
            rule = times[color]
            started = time.monotonic()
            available = rule.available(remaining[color])
            line = await self._next_line(mover, other, available)
            elapsed = time.monotonic() - started
            if line == "#CHUDAN":
                lines.append("%CHUDAN")
                finish("chudan", None, {BLACK: ["#CHUDAN"], WHITE: ["#CHUDAN"]})
                return
            if line is None or line == "#OTHER_GONE":
                gone = color if line is None else color ^ 1
                lines.append("%TORYO")
                lost = ["%TORYO", "#RESIGN", "#LOSE"]
                won = ["%TORYO", "#RESIGN", "#WIN"]
                finish("abnormal", gone ^ 1, {gone: lost, gone ^ 1: won})
                return
            t = rule.charge(elapsed)
            if line == "#TIMEOUT" or _timed_out(rule, remaining[color], t):
                lines.append("%TIME_UP")
                finish(
                    "time up",
                    color ^ 1,
                    {color: ["#TIME_UP", "#LOSE"], color ^ 1: ["#TIME_UP", "#WIN"]},
                )
                return
            if line == "%TORYO":
                echo = f"%TORYO,T{t}" if self.setup.special_times else "%TORYO"
                lines += ["%TORYO", f"T{t}"]
                finish(
                    "toryo",
                    color ^ 1,
                    {color: [echo, "#RESIGN", "#LOSE"], color ^ 1: [echo, "#RESIGN", "#WIN"]},
                )
                return
            if line == "%KACHI":
                echo = f"%KACHI,T{t}" if self.setup.special_times else "%KACHI"
                lines += ["%KACHI", f"T{t}"]
                verdict = board.declare(rules)
                if verdict.winner == color:
                    finish(
                        "kachi",
                        color,
                        {
                            color: [echo, "#JISHOGI", "#WIN"],
                            color ^ 1: [echo, "#JISHOGI", "#LOSE"],
                        },
                    )
                else:
                    finish(
                        "illegal kachi",
                        color ^ 1,
                        {
                            color: [echo, "#ILLEGAL_MOVE", "#LOSE"],
                            color ^ 1: [echo, "#ILLEGAL_MOVE", "#WIN"],
                        },
                    )
                return
            token = line.split(",")[0]  # a comment may follow the move
            move = None
            if MOVE_RE.fullmatch(token) and token[0] == "+-"[color]:
                try:
                    move = move_from_csa(board, token)
                except CsaParseError:
                    move = None
            if move is None or not board.is_legal(move):
                lines += [f"'ILLEGAL_MOVE({line})", "%ILLEGAL_MOVE"]
                finish(
                    "illegal move",
                    color ^ 1,
                    {color: ["#ILLEGAL_MOVE", "#LOSE"], color ^ 1: ["#ILLEGAL_MOVE", "#WIN"]},
                )
                return
            board.push(move)
            remaining[color] = rule.after_move(remaining[color], t)
            for player in players:
                player.send(f"{token},T{t}")
            lines += [token, f"T{t}"]
            end = board.outcome(rules)
            if end is None:
                continue
            if end.termination is Termination.SENNICHITE:
                lines.append("%SENNICHITE")
                both = ["#SENNICHITE", "#DRAW"]
                finish("sennichite", None, {BLACK: both, WHITE: both})
                return
            if end.termination is Termination.PERPETUAL_CHECK:
                assert end.winner is not None
                lines.append("%OUTE_SENNICHITE")
                finish(
                    "oute_sennichite",
                    end.winner,
                    {
                        end.winner: ["#OUTE_SENNICHITE", "#WIN"],
                        end.winner ^ 1: ["#OUTE_SENNICHITE", "#LOSE"],
                    },
                )
                return
            if end.termination is Termination.MAX_MOVES:
                lines.append("%MAX_MOVES")
                both = ["#MAX_MOVES", "#CENSORED"]
                finish("max_moves", None, {BLACK: both, WHITE: both})
                return
            # checkmate and the like: the CSA server waits for the mated side to resign

    async def _next_line(
        self, mover: _Player, other: _Player, available: float | None
    ) -> str | None:
        """The mover's next line; ``#TIMEOUT`` when its time runs out, ``#OTHER_GONE`` when
        the other player dropped, ``#CHUDAN`` when the operator interrupts, None when the
        mover dropped."""
        get = asyncio.ensure_future(mover.lines.get())
        gone = asyncio.ensure_future(other.gone.wait())
        chudan = asyncio.ensure_future(self._chudan.wait())
        try:
            # wake a little after the deadline so a move sent at the last instant still
            # arrives first and is judged by its charged time
            timeout = None if available is None else available + 0.05
            done, _ = await asyncio.wait(
                {get, gone, chudan}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if get in done:
                return get.result()
            if chudan in done:
                return "#CHUDAN"
            if gone in done:
                return "#OTHER_GONE"
            return "#TIMEOUT"
        finally:
            for fut in (get, gone, chudan):
                if not fut.done():
                    fut.cancel()


def _timed_out(rule: TimeRule, remaining: int | None, charged: int) -> bool:
    if rule.unlimited:
        return False
    left = (remaining or 0) + rule.byoyomi + rule.increment - charged
    return left < 0 if rule.time_roundup else left <= 0


def read_record(path: Path) -> CsaPosition:
    """Parse a record this server wrote (moves with their T, and the special line)."""
    return parse_position(path.read_text(encoding="ascii").splitlines())
