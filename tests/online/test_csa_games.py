"""Whole CSA games on loopback: the player's client against the protocol-following test server,
with a second client as the scripted opponent, to every kind of end."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from board_bridge.online.base import (
    ClockUpdate,
    ConnectionLost,
    Disconnected,
    GameOver,
    GameRejected,
    LoginFailed,
    MoveConfirmed,
    NotYourTurn,
    OnlineEvent,
    OnlineUnsupported,
    OpponentMove,
)
from board_bridge.online.csa import CsaClient
from board_bridge.online.csa_protocol import TimeRule
from board_bridge.shogi import BLACK, WHITE, IllegalMoveError, Move, Termination
from tests.online.csa_server import CsaTestServer, GameSetup, read_record

pytestmark = pytest.mark.timeout(30)

USERS = {"player": "pw-player", "opponent": "pw-opponent"}
WAIT = 5.0


@contextlib.asynccontextmanager
async def session(
    tmp_path: Path, setup: GameSetup, **player_kw: Any
) -> AsyncIterator[tuple[CsaTestServer, CsaClient, CsaClient]]:
    server = CsaTestServer(USERS, setup, tmp_path)
    await server.start()
    player = CsaClient("127.0.0.1", server.port, "player", USERS["player"], **player_kw)
    opponent = CsaClient("127.0.0.1", server.port, "opponent", USERS["opponent"])
    try:
        await player.connect()
        await opponent.connect()
        yield server, player, opponent
    finally:
        await player.close()
        await opponent.close()
        await server.close()


async def start(player: CsaClient, opponent: CsaClient) -> None:
    await asyncio.gather(player.wait_game(WAIT), opponent.wait_game(WAIT))


async def events_until(
    client: CsaClient, kinds: tuple[type, ...], limit: int = 10
) -> list[OnlineEvent]:
    out: list[OnlineEvent] = []
    for _ in range(limit):
        event = await client.next_event(WAIT)
        out.append(event)
        if isinstance(event, kinds):
            return out
    raise AssertionError(f"no {kinds} within {limit} events: {out}")


async def play(player: CsaClient, opponent: CsaClient, usis: Sequence[str]) -> None:
    """Play the moves in order, whoever is to move, and check both sides see each one."""
    for usi in usis:
        move = Move.from_usi(usi)
        mover, other = (
            (player, opponent)
            if player.board.turn == player_color(player)
            else (
                opponent,
                player,
            )
        )
        await mover.send_move(move)
        mine = await events_until(mover, (MoveConfirmed,))
        theirs = await events_until(other, (OpponentMove,))
        assert mine[-1].move == move and theirs[-1].move == move  # type: ignore[union-attr]
        assert isinstance(await mover.next_event(WAIT), ClockUpdate)
        assert isinstance(await other.next_event(WAIT), ClockUpdate)


def player_color(client: CsaClient) -> int:
    assert client.game is not None
    return client.game.my_color


async def game_over(client: CsaClient) -> GameOver:
    event = (await events_until(client, (GameOver,)))[-1]
    assert isinstance(event, GameOver)
    return event


def assert_record_matches(client: CsaClient, server: CsaTestServer) -> None:
    """The client's moves, times and result are the server's record's."""
    record = server.records[-1]
    assert record.path is not None
    written = read_record(record.path)
    assert client.game is not None
    assert written.start_sfen.split()[:3] == client.game.start_sfen.split()[:3]
    # the record keeps the server's time units, the client seconds
    units = [rule.unit_seconds for rule in server.setup.times]
    server_moves = [
        (pm.move, pm.color, None if pm.time is None else pm.time * units[pm.color])
        for pm in written.moves
    ]
    client_moves = [(p.move, p.color, p.time) for p in client.history]
    assert client_moves == server_moves
    assert client.outcome is not None
    assert client.outcome.winner == record.winner
    if written.specials and client.special_time is not None:
        assert (
            written.specials[0]
            == f"{written.specials[0].split(',')[0]},T{int(client.special_time)}"
        )


OPENING = ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e"]


async def test_login_refused(tmp_path: Path) -> None:
    async with CsaTestServer(USERS, GameSetup(), tmp_path) as server:
        client = CsaClient("127.0.0.1", server.port, "player", "wrong")
        with pytest.raises(LoginFailed):
            await client.connect()
        await client.close()


async def test_unreachable_server_is_a_clear_connection_error(tmp_path: Path) -> None:
    async with CsaTestServer(USERS, GameSetup(), tmp_path) as server:
        port = server.port
    client = CsaClient("127.0.0.1", port, "player", "pw", connect_timeout=2)
    with pytest.raises(ConnectionLost, match="cannot connect"):
        await client.connect()


async def test_whole_game_opponent_resigns_and_record_matches(tmp_path: Path) -> None:
    async with session(tmp_path, GameSetup()) as (server, player, opponent):
        await start(player, opponent)
        game = player.game
        assert game is not None
        assert game.my_color == BLACK and game.names == ("player", "opponent")
        assert game.time_controls[0].main == 600 and game.time_controls[0].byoyomi == 10
        assert game.clock.running == BLACK and game.clock.remaining == (600.0, 600.0)
        assert game.max_moves == 256 and game.declaration == "Jishogi 1.1"
        await play(player, opponent, OPENING)
        with pytest.raises(NotYourTurn):
            await opponent.send_move(Move.from_usi("7a6b"))
        await player.send_move(Move.from_usi("6i7h"))
        await events_until(player, (ClockUpdate,))
        await events_until(opponent, (ClockUpdate,))
        await opponent.resign()
        over = await game_over(player)
        assert over.outcome.termination is Termination.RESIGNATION
        assert over.outcome.winner == BLACK and over.result_for_me == "win"
        assert player.end_lines[0].startswith("%TORYO,T") and player.end_lines[1:] == [
            "#RESIGN",
            "#WIN",
        ]
        lost = await game_over(opponent)
        assert lost.result_for_me == "lose"
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert len(player.history) == 7
        assert_record_matches(player, server)
        assert_record_matches(opponent, server)
        assert server.records[-1].summary == "toryo"
        # what went over the wire from each client, as the server read it
        sent = [line for line in server.players["player"].received if line]
        assert sent[:2] == ["AGREE test-game-1", "+7776FU"]
        assert sent[2:5] == ["+2726FU", "+2625FU", "+6978KI"]
        assert [line for line in server.players["opponent"].received if line][-1] == "%TORYO"


async def test_player_resigns(tmp_path: Path) -> None:
    async with session(tmp_path, GameSetup(special_times=False)) as (server, player, opp):
        await start(player, opp)
        await play(player, opp, OPENING[:2])
        await player.resign()
        over = await game_over(player)
        assert over.outcome.termination is Termination.RESIGNATION
        assert over.result_for_me == "lose"
        assert player.end_lines == ["%TORYO", "#RESIGN", "#LOSE"]  # shogi-server's form
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)


async def test_player_as_white(tmp_path: Path) -> None:
    setup = GameSetup(black="opponent", white="player")
    async with session(tmp_path, setup) as (server, player, opponent):
        await start(player, opponent)
        assert player.game is not None and player.game.my_color == WHITE
        await play(player, opponent, OPENING[:3])
        await player.resign()
        assert (await game_over(player)).outcome.winner == BLACK
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)


async def test_time_up_with_millisecond_units(tmp_path: Path) -> None:
    rule = TimeRule(time_unit="1msec", unit_seconds=0.001, total_time=1500, byoyomi=0)
    setup = GameSetup(times=(rule, rule))
    async with session(tmp_path, setup) as (server, player, opponent):
        await start(player, opponent)
        await asyncio.sleep(0.02)  # some milliseconds charged: the record writes T0.02 or so
        await player.send_move(Move.from_usi("7g7f"))
        confirmed = (await events_until(player, (MoveConfirmed,)))[-1]
        assert isinstance(confirmed, MoveConfirmed) and confirmed.time is not None
        assert 0.02 <= confirmed.time < 1.5  # milliseconds charged, in seconds
        clock = (await events_until(player, (ClockUpdate,)))[-1]
        assert isinstance(clock, ClockUpdate)
        assert clock.clock.remaining[BLACK] == pytest.approx(1.5 - confirmed.time)
        assert clock.clock.running == WHITE
        # the opponent does not move: its 1.5 s run out
        over = await game_over(player)
        assert over.outcome.termination is Termination.TIMEOUT
        assert over.outcome.winner == BLACK
        assert player.end_lines == ["#TIME_UP", "#WIN"]
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)
        assert "%TIME_UP" in server.records[-1].text


async def test_byoyomi_and_time_roundup_charges(tmp_path: Path) -> None:
    black = TimeRule(total_time=0, byoyomi=2, time_roundup=True)
    white = TimeRule(total_time=100, byoyomi=0, increment=3, least_time_per_move=1)
    async with session(tmp_path, GameSetup(times=(black, white))) as (server, player, opp):
        await start(player, opp)
        assert player.game is not None
        assert player.game.time_controls[0].kind == "byoyomi"
        assert player.game.time_controls[1].kind == "fischer"
        await play(player, opp, ["7g7f", "3c3d"])
        times = [p.time for p in player.history]
        assert times[0] == 1  # a quick move, rounded up
        assert times[1] == 1  # truncated to 0, but Least_Time_Per_Move is 1
        assert player.clock.remaining[WHITE] == 100 + 3 - 1
        assert player.clock.remaining[BLACK] == 0
        # black's byoyomi of 2 s runs out
        over = await game_over(player)
        assert over.outcome.termination is Termination.TIMEOUT and over.result_for_me == "lose"
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)


async def test_illegal_move_by_the_opponent(tmp_path: Path) -> None:
    async with session(tmp_path, GameSetup()) as (server, player, opponent):
        await start(player, opponent)
        await play(player, opponent, ["7g7f"])
        await opponent.send_raw("-3335FU")  # a pawn cannot move two squares
        over = await game_over(player)
        assert over.outcome.termination is Termination.ILLEGAL_MOVE
        assert over.outcome.winner == BLACK
        assert player.end_lines == ["#ILLEGAL_MOVE", "#WIN"]
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)


async def test_illegal_move_by_the_player_is_refused_locally_or_loses(tmp_path: Path) -> None:
    async with session(tmp_path, GameSetup()) as (server, player, opponent):
        await start(player, opponent)
        await play(player, opponent, ["7g7f", "3c3d", "8h2b+", "3a2b"])
        with pytest.raises(IllegalMoveError):
            await player.send_move(Move.from_usi("5g5e"))  # a pawn moving two squares
        assert player.state == "game" and player.board.turn == BLACK
        # past the local check: a pawn drop without a pawn in hand
        await player.send_move(Move.from_usi("P*5c"), check_legal=False)
        over = await game_over(player)
        assert over.outcome.termination is Termination.ILLEGAL_MOVE
        assert over.result_for_me == "lose"
        assert player.end_lines == ["#ILLEGAL_MOVE", "#LOSE"]
        assert len(player.history) == 4  # the illegal move is not in the record
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)
        assert "ILLEGAL_MOVE(+0053FU)" in server.records[-1].text


async def test_sennichite_is_a_draw(tmp_path: Path) -> None:
    cycle = ["7i6h", "3a4b", "6h7i", "4b3a"]
    async with session(tmp_path, GameSetup()) as (server, player, opponent):
        await start(player, opponent)
        await play(player, opponent, cycle * 2 + cycle[:3])
        await opponent.send_move(Move.from_usi(cycle[3]))
        over = await game_over(player)
        assert over.outcome.termination is Termination.SENNICHITE
        assert over.outcome.winner is None and over.result_for_me == "draw"
        assert player.end_lines == ["#SENNICHITE", "#DRAW"]
        assert len(player.history) == 12  # the last move was echoed before the end
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)


async def test_oute_sennichite_from_a_position_block(tmp_path: Path) -> None:
    # black rook checks the white king on every move: black loses the fourfold repetition
    setup = GameSetup(start_sfen="8k/9/9/9/9/9/9/9/K6R1 b - 1")
    cycle = ["2i1i", "1a2a", "1i2i", "2a1a"]
    async with session(tmp_path, setup) as (server, player, opponent):
        await start(player, opponent)
        assert player.game is not None
        assert player.game.start_sfen.startswith("8k/9/9/9/9/9/9/9/K6R1 b")
        await play(player, opponent, cycle * 2 + cycle[:3])
        await opponent.send_move(Move.from_usi(cycle[3]))
        over = await game_over(player)
        assert over.outcome.termination is Termination.PERPETUAL_CHECK
        assert over.outcome.winner == WHITE
        assert player.end_lines == ["#OUTE_SENNICHITE", "#LOSE"]
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)


KACHI_SFEN = "RRBB1GGGG/SSSSK4/9/9/9/9/9/9/4k4 b 4l4n18p 1"


async def test_jishogi_declaration_wins(tmp_path: Path) -> None:
    async with session(tmp_path, GameSetup(start_sfen=KACHI_SFEN)) as (server, player, opp):
        await start(player, opp)
        await player.declare_win()
        over = await game_over(player)
        assert over.outcome.termination is Termination.DECLARATION
        assert over.outcome.winner == BLACK
        assert player.end_lines[0].startswith("%KACHI") and player.end_lines[1:] == [
            "#JISHOGI",
            "#WIN",
        ]
        assert (await game_over(opp)).result_for_me == "lose"
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)


async def test_wrong_declaration_loses(tmp_path: Path) -> None:
    async with session(tmp_path, GameSetup()) as (server, player, opponent):
        await start(player, opponent)
        await player.declare_win()
        over = await game_over(player)
        assert over.outcome.termination is Termination.DECLARATION
        assert over.result_for_me == "lose"
        assert player.end_lines[1:] == ["#ILLEGAL_MOVE", "#LOSE"]
        await asyncio.wait_for(server.game_done.wait(), WAIT)


async def test_max_moves_is_censored(tmp_path: Path) -> None:
    async with session(tmp_path, GameSetup(max_moves=4)) as (server, player, opponent):
        await start(player, opponent)
        await play(player, opponent, OPENING[:3])
        await opponent.send_move(Move.from_usi(OPENING[3]))
        over = await game_over(player)
        assert over.outcome.termination is Termination.MAX_MOVES
        assert over.outcome.winner is None
        assert player.end_lines == ["#MAX_MOVES", "#CENSORED"]
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)


async def test_chudan(tmp_path: Path) -> None:
    async with session(tmp_path, GameSetup()) as (server, player, opponent):
        await start(player, opponent)
        await play(player, opponent, OPENING[:2])
        server.chudan()
        over = await game_over(player)
        assert over.outcome.termination is Termination.ABORT
        assert over.result_for_me == "aborted"
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)
        with pytest.raises(OnlineUnsupported):
            await player.abort()


async def test_player_rejects_the_game(tmp_path: Path) -> None:
    seen = []

    def agree(summary: Any) -> bool:
        seen.append(summary.game_id)
        return False

    async with session(tmp_path, GameSetup(), agree=agree) as (server, player, opponent):
        results = await asyncio.gather(
            player.wait_game(WAIT), opponent.wait_game(WAIT), return_exceptions=True
        )
        assert seen == ["test-game-1"]
        assert all(isinstance(r, GameRejected) for r in results)
        assert all(r.by == "player" for r in results)  # type: ignore[union-attr]
        assert server.records[-1].rejected_by == "player"
        assert player.state == "waiting"


async def test_async_agree_callback(tmp_path: Path) -> None:
    async def agree(summary: Any) -> bool:
        await asyncio.sleep(0)
        return summary.max_moves == 256

    async with session(tmp_path, GameSetup(), agree=agree) as (server, player, opponent):
        await start(player, opponent)
        assert player.state == "game"


async def test_resume_from_a_position_with_earlier_moves(tmp_path: Path) -> None:
    setup = GameSetup(earlier=[("+7776FU", 12), ("-3334FU", 5), ("+2726FU", 30)])
    async with session(tmp_path, setup) as (server, player, opponent):
        await start(player, opponent)
        game = player.game
        assert game is not None
        assert [p.move.usi() for p in game.moves] == ["7g7f", "3c3d", "2g2f"]
        assert [p.time for p in game.moves] == [12, 5, 30]
        assert game.side_to_move == WHITE
        assert game.board().sfen() == player.board.sfen()
        assert game.clock.remaining == (600 - 42, 600 - 5)
        assert game.clock.running == WHITE
        await play(player, opponent, ["8c8d", "2f2e"])
        await opponent.resign()
        assert (await game_over(player)).result_for_me == "win"
        await asyncio.wait_for(server.game_done.wait(), WAIT)
        assert_record_matches(player, server)


async def test_keepalive_lines_are_spaced(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="30"):
        CsaClient("127.0.0.1", 4081, "player", "pw", keepalive=5)
    async with session(tmp_path, GameSetup(), keepalive=0.3, allow_short_keepalive=True) as (
        server,
        player,
        opponent,
    ):
        await start(player, opponent)
        await play(player, opponent, ["7g7f"])
        await asyncio.sleep(1.3)  # the opponent thinks; the player is idle
        sent = player.keepalives_sent
        received = server.keepalives("player")
        assert len(received) >= 3
        assert len(sent) == len(received) or len(sent) == len(received) + 1
        gaps = [b - a for a, b in zip(sent, sent[1:])]
        assert all(gap >= 0.3 - 0.01 for gap in gaps), gaps
        await opponent.send_move(Move.from_usi("3c3d"))  # the game goes on
        assert isinstance((await events_until(player, (OpponentMove,)))[-1], OpponentMove)


async def test_dropped_connection_is_reported(tmp_path: Path) -> None:
    async with session(tmp_path, GameSetup()) as (server, player, opponent):
        await start(player, opponent)
        await play(player, opponent, ["7g7f"])
        server.drop("player")
        event = await player.next_event(WAIT)
        assert isinstance(event, Disconnected) and not event.retrying
        assert "lost" in event.reason
        with pytest.raises(ConnectionLost):
            await player.next_event(WAIT)
        with pytest.raises(ConnectionLost):
            await player.send_raw("+2726FU")
        # the server gives the game to the opponent, as shogi-server does
        over = await game_over(opponent)
        assert over.result_for_me == "win"
        assert opponent.end_lines == ["%TORYO", "#RESIGN", "#WIN"]


async def test_logout_and_repr_hide_the_password(tmp_path: Path) -> None:
    async with CsaTestServer(USERS, GameSetup(), tmp_path) as server:
        client = CsaClient("127.0.0.1", server.port, "player", USERS["player"])
        await client.connect()
        assert "pw-player" not in repr(client)
        await client.close()
        assert client.state == "closed"
        await client.close()  # twice is fine
        assert "LOGOUT" in server.players["player"].received
