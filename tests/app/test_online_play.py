"""An online game through the daemon: the board's player against an opponent on a CSA server
(the project's protocol-following test server on 127.0.0.1, the opponent a scripted client).
The opponent's moves show as LED intents, the player's go to the server; the KIF and the
server's record hold the same game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from board_bridge.app.config import ConfigError, parse_config
from board_bridge.app.daemon import Daemon
from board_bridge.app.player import ScriptedPlayer
from board_bridge.app.simulated import SimulatedBoard
from board_bridge.app.sinks import RecordingSink
from board_bridge.online.base import GameOver, OpponentMove
from board_bridge.online.csa import CsaClient
from board_bridge.records import read_file
from board_bridge.shogi import BLACK, Move, Outcome, Termination
from tests.online.csa_server import CsaTestServer, GameSetup, read_record

USERS = {"player": "pw-player", "opponent": "pw-opponent"}
GAME = ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b"]


async def scripted_opponent(client: CsaClient, replies: list[str]) -> None:
    """Gote on the server: answers each of the board's moves, then resigns."""
    await client.wait_game(10)
    replies = list(replies)
    while True:
        event = await client.next_event(20)
        if isinstance(event, OpponentMove):
            if not replies:
                await client.resign()
                return
            await asyncio.sleep(0.05)
            await client.send_move(Move.from_usi(replies.pop(0)))
        elif isinstance(event, GameOver):
            return


@pytest.mark.timeout(90)
async def test_a_whole_game_against_an_opponent_on_a_csa_server(tmp_path: Path) -> None:
    server = CsaTestServer(USERS, GameSetup(black="player", white="opponent"), tmp_path)
    await server.start()
    opponent = CsaClient("127.0.0.1", server.port, "opponent", USERS["opponent"])
    config = parse_config(
        {
            "leds": {"sink": "record"},
            "game": {"max_games": 1},
            "online": {
                "kind": "csa",
                "host": "127.0.0.1",
                "port": server.port,
                "user": "player",
                "password": USERS["player"],
                "keepalive": 30,
            },
            "records": {"directory": str(tmp_path / "games")},
        }
    )
    board = SimulatedBoard(step_delay=0.02)
    sink = RecordingSink()
    daemon = Daemon(config, source=board, sink=sink)
    player = ScriptedPlayer(daemon, board, colors=(BLACK,), script=GAME)
    run = asyncio.create_task(daemon.run())
    try:
        await opponent.connect()
        other = asyncio.create_task(scripted_opponent(opponent, GAME[1::2]))
        await asyncio.wait_for(daemon.ready.wait(), 10)
        report = await asyncio.wait_for(player.run(), 60)
        await asyncio.wait_for(other, 10)
        await asyncio.wait_for(run, 10)
    finally:
        daemon.stop()
        if not run.done():
            await asyncio.wait_for(run, 10)
        await opponent.close()
        await server.close()

    assert report.engine_moves_made == GAME[1::2]  # the opponent's moves, made on the board
    outcome, paths = daemon.games_finished[0]
    assert outcome == Outcome(Termination.RESIGNATION, BLACK, outcome.detail)
    kif = next(p for p in paths if str(p).endswith(".kif"))
    record = read_file(kif)
    moves = [rm.move.usi() for rm in record.moves]
    # the game, then one more move of the board's player, which the opponent resigned to
    assert moves[:-1] == GAME and len(moves) == len(GAME) + 1
    assert (record.sente, record.gote) == ("player", "opponent")
    (server_record,) = server.records
    assert server_record.path is not None
    assert [m.move.usi() for m in read_record(server_record.path).moves] == moves
    assert any(f.intents.engine_move == GAME[1] for f in sink.frames)


def test_online_config_is_checked() -> None:
    with pytest.raises(ConfigError, match=r"\[online\]"):
        parse_config({"online": {"kind": "csa"}})
    with pytest.raises(ConfigError, match=r"game.engine: must be \"none\" with \[online\]"):
        parse_config(
            {
                "game": {"engine": "white"},
                "engine": {"path": "/bin/sh"},
                "online": {"kind": "csa", "host": "127.0.0.1", "user": "u", "password": "p"},
            }
        )
