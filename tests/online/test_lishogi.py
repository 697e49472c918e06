"""The Lishogi Board API client against a local server speaking its formats (127.0.0.1)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from board_bridge.online.base import (
    ClockUpdate,
    Disconnected,
    GameOver,
    LoginFailed,
    MoveConfirmed,
    NotYourTurn,
    OnlineError,
    OnlineEvent,
    OpponentMove,
    Reconnected,
)
from board_bridge.online.lishogi import LishogiClient, Secret, Seek
from board_bridge.shogi import BLACK, WHITE, IllegalMoveError, Move, Termination
from tests.online.lishogi_server import FakeLishogi

pytestmark = pytest.mark.timeout(30)

TOKEN = "lip_TESTTOKEN123"
WAIT = 5.0
FAST = {"reconnect_delays": (0.05, 0.1), "read_timeout": 2.0, "request_timeout": 3.0}


@contextlib.asynccontextmanager
async def lishogi(**kw: Any) -> AsyncIterator[tuple[FakeLishogi, LishogiClient]]:
    server = FakeLishogi(TOKEN)
    await server.start()
    client = LishogiClient(TOKEN, server.base_url, **{**FAST, **kw})
    try:
        await client.connect()
        yield server, client
    finally:
        await client.close()
        await server.close()


async def next_of(client: LishogiClient, kind: type, limit: int = 10) -> Any:
    seen: list[OnlineEvent] = []
    for _ in range(limit):
        event = await client.next_event(WAIT)
        seen.append(event)
        if isinstance(event, kind):
            return event
    raise AssertionError(f"no {kind.__name__} in {seen}")


async def test_bad_token_is_refused() -> None:
    async with FakeLishogi(TOKEN) as server:
        client = LishogiClient("lip_wrong", server.base_url)
        with pytest.raises(LoginFailed):
            await client.connect()
        assert client.state == "closed"


async def test_token_is_never_logged_or_shown(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with lishogi() as (server, client):
        assert TOKEN not in repr(client)
        assert TOKEN not in str(client.__dict__)
        assert TOKEN not in repr(Secret(TOKEN)) and TOKEN not in f"{Secret(TOKEN)}"
        server.create_game("g1", BLACK)
        await client.wait_game(WAIT)
        await client.send_move(Move.from_usi("7g7f"))
        await next_of(client, MoveConfirmed)
        server.opponent_move("g1", "3c3d")
        await next_of(client, OpponentMove)
        await client.resign()
        await next_of(client, GameOver)
    assert server.auth_headers and all(h == f"Bearer {TOKEN}" for h in server.auth_headers)
    assert caplog.records, "the client logs nothing at DEBUG: the check below would be empty"
    assert TOKEN not in caplog.text


async def test_challenge_accepted_and_a_whole_game() -> None:
    async with lishogi() as (server, client):
        waiting = asyncio.create_task(client.wait_game(WAIT))
        await asyncio.sleep(0.1)
        server.challenge("c-variant", variant="minishogi")  # declined by the default filter
        server.challenge("c1", color="gote")  # the challenger plays gote: we play sente
        game = await waiting
        assert server.accepted == ["c1"] and server.declined == ["c-variant"]
        assert game.game_id == "gc1" and game.my_color == BLACK
        assert game.names == ("Player", "Opponent")
        assert game.time_controls[0].main == 600 and game.time_controls[0].byoyomi == 10
        assert game.clock.remaining == (600.0, 600.0) and game.clock.running == BLACK
        moves = ["7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c"]
        for i, usi in enumerate(moves):
            if i % 2 == 0:
                await client.send_move(Move.from_usi(usi))
                confirmed = await next_of(client, MoveConfirmed)
                assert confirmed.move.usi() == usi and confirmed.ply == i + 1
                assert confirmed.time is not None and confirmed.time >= 0
            else:
                with pytest.raises(NotYourTurn):
                    await client.send_move(Move.from_usi("9g9f"))
                server.opponent_move("gc1", usi)
                theirs = await next_of(client, OpponentMove)
                assert theirs.move.usi() == usi
            clock = await next_of(client, ClockUpdate)
            assert clock.clock.running == (WHITE if i % 2 == 0 else BLACK)
        server.finish("gc1", "mate", "sente")
        over = await next_of(client, GameOver)
        assert over.outcome.termination is Termination.CHECKMATE
        assert over.outcome.winner == BLACK and over.result_for_me == "win"
        assert [p.move.usi() for p in client.history] == moves
        assert server.games["gc1"].moves == moves


async def test_seek_is_posted_and_held_until_the_game_starts() -> None:
    seek = Seek(time=10, byoyomi=30, color="gote")
    async with lishogi(seek=seek, accept=None) as (server, client):
        waiting = asyncio.create_task(client.wait_game(WAIT))
        await asyncio.wait_for(server.seek_open.wait(), WAIT)
        assert server.seeks[0]["time"] == "10" and server.seeks[0]["byoyomi"] == "30"
        assert server.seeks[0]["color"] == "gote"
        server.create_game("s1", WHITE)
        game = await waiting
        assert game.my_color == WHITE
        for _ in range(40):  # the seek connection is closed once the game starts
            if not server.seek_open.is_set():
                break
            await asyncio.sleep(0.05)
        assert not server.seek_open.is_set()
        server.opponent_move("s1", "7g7f")
        assert (await next_of(client, OpponentMove)).move.usi() == "7g7f"


async def test_resign_and_abort() -> None:
    async with lishogi() as (server, client):
        server.create_game("a1", BLACK)
        await client.wait_game(WAIT)
        await client.abort()
        over = await next_of(client, GameOver)
        assert over.outcome.termination is Termination.ABORT and over.result_for_me == "aborted"
    async with lishogi() as (server, client):
        server.create_game("r1", WHITE)
        await client.wait_game(WAIT)
        server.opponent_move("r1", "7g7f")
        await next_of(client, OpponentMove)
        await client.resign()
        over = await next_of(client, GameOver)
        assert over.outcome.termination is Termination.RESIGNATION
        assert over.outcome.winner == BLACK and over.result_for_me == "lose"
        with pytest.raises(OnlineError):
            await client.resign()  # no game any more


async def test_illegal_moves_are_refused() -> None:
    async with lishogi() as (server, client):
        server.create_game("i1", BLACK)
        await client.wait_game(WAIT)
        with pytest.raises(IllegalMoveError):
            await client.send_move(Move.from_usi("7g7e"))
        assert server.posted == []
        with pytest.raises(OnlineError, match="refused"):
            await client.send_move(Move.from_usi("7g7e"), check_legal=False)


async def test_dropped_game_stream_reconnects_and_carries_on() -> None:
    async with lishogi() as (server, client):
        server.create_game("d1", BLACK)
        await client.wait_game(WAIT)
        await client.send_move(Move.from_usi("7g7f"))
        await next_of(client, ClockUpdate)
        server.drop_game_streams("d1")
        dropped = await next_of(client, Disconnected)
        assert dropped.retrying
        server.opponent_move("d1", "3c3d")  # played while we were away
        back = await next_of(client, Reconnected)
        # the opponent's move comes in gameFull's moves (played while away) or, if the
        # stream was back first, as the next gameState: either way exactly once
        assert back.moves_played in (1, 2)
        if back.moves_played == 1:
            assert (await next_of(client, OpponentMove)).move.usi() == "3c3d"
        assert [p.move.usi() for p in client.history] == ["7g7f", "3c3d"]
        assert server.game_streams_opened >= 2 and client.reconnects >= 1
        await client.send_move(Move.from_usi("2g2f"))
        assert (await next_of(client, MoveConfirmed)).move.usi() == "2g2f"
        server.finish("d1", "resign", "sente")
        assert (await next_of(client, GameOver)).result_for_me == "win"


async def test_move_post_retried_after_a_network_drop() -> None:
    async with lishogi() as (server, client):
        server.create_game("p1", BLACK)
        await client.wait_game(WAIT)
        server.drop_next_posts = 1  # the first POST's connection is cut
        await client.send_move(Move.from_usi("7g7f"))
        assert server.posted == ["7g7f", "7g7f"]
        assert server.games["p1"].moves == ["7g7f"]
        assert (await next_of(client, MoveConfirmed)).move.usi() == "7g7f"


async def test_move_applied_but_answer_lost_is_not_an_error() -> None:
    async with lishogi() as (server, client):
        server.create_game("p2", BLACK)
        await client.wait_game(WAIT)
        server.drop_next_posts = 1
        server.apply_then_drop = True  # the server played it, the answer was lost
        await client.send_move(Move.from_usi("7g7f"))
        assert server.games["p2"].moves == ["7g7f"]
        assert (await next_of(client, MoveConfirmed)).move.usi() == "7g7f"


async def test_resume_a_game_in_progress_from_game_full() -> None:
    async with FakeLishogi(TOKEN) as server:
        game = server.create_game(
            "z1",
            WHITE,
            initial_sfen="lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        )
        game.board.push_usi("3c3d")
        game.moves.append("3c3d")
        game.board.push_usi("2g2f")
        game.moves.append("2g2f")
        client = LishogiClient(TOKEN, server.base_url, game_id="z1", **FAST)
        await client.connect()
        try:
            info = await client.wait_game(WAIT)
            assert info.my_color == WHITE
            assert info.start_sfen.startswith("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6")
            assert [p.move.usi() for p in info.moves] == ["3c3d", "2g2f"]
            assert info.board().turn == WHITE
            await client.send_move(Move.from_usi("8c8d"))
            assert (await next_of(client, MoveConfirmed)).ply == 4
        finally:
            await client.close()


async def test_dropped_event_stream_reconnects_before_the_game() -> None:
    async with lishogi() as (server, client):
        waiting = asyncio.create_task(client.wait_game(WAIT))
        for _ in range(100):
            if server.event_requests:
                break
            await asyncio.sleep(0.02)
        server.drop_event_streams()
        server.create_game("e1", BLACK)  # sent again when the stream is re-opened
        game = await waiting
        assert game.game_id == "e1"
        assert server.event_streams_opened >= 2


async def test_status_names_map_to_outcomes() -> None:
    cases = [
        ("outoftime", "gote", Termination.TIMEOUT, WHITE),
        ("perpetualCheck", "sente", Termination.PERPETUAL_CHECK, BLACK),
        ("impasse27", "sente", Termination.DECLARATION, BLACK),
        ("repetition", None, Termination.SENNICHITE, None),
        ("tryRule", "gote", Termination.TRY, WHITE),
    ]
    for status, winner, termination, color in cases:
        async with lishogi() as (server, client):
            server.create_game("s", BLACK)
            await client.wait_game(WAIT)
            server.finish("s", status, winner)
            over = await next_of(client, GameOver)
            assert over.outcome.termination is termination, status
            assert over.outcome.winner == color, status
            assert over.reason == status
