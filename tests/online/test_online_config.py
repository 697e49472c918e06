"""The [online] config table, the factory, the engine-seat adapter and the CLI check."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from board_bridge.cli import main
from board_bridge.online.adapter import OnlineEnginePlayer, OnlineGameOver
from board_bridge.online.config import OnlineConfigError, OnlineSettings, make_opponent
from board_bridge.online.csa import CsaClient
from board_bridge.online.lishogi import LishogiClient
from board_bridge.shogi import Move
from tests.online.csa_server import CsaTestServer, GameSetup
from tests.online.lishogi_server import FakeLishogi

pytestmark = pytest.mark.timeout(30)


def test_csa_settings_and_secret_sources(tmp_path: Path) -> None:
    secret_file = tmp_path / "pw"
    secret_file.write_text("s3cret\n")
    table = {
        "kind": "csa",
        "host": "127.0.0.1",
        "port": 4081,
        "user": "me",
        "password_file": str(secret_file),
    }
    settings = OnlineSettings.from_table(table)
    assert settings.secret.reveal() == "s3cret"
    assert "s3cret" not in repr(settings)
    client = make_opponent(settings)
    assert isinstance(client, CsaClient) and "s3cret" not in repr(client)
    env = OnlineSettings.from_table(
        {**table, "password_file": None, "password_env": "PW"}, {"PW": "x"}
    )
    assert env.secret.reveal() == "x"


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ({"kind": "ftp"}, "kind"),
        ({"kind": "csa", "host": "h", "user": "u"}, "exactly one"),
        (
            {"kind": "csa", "host": "h", "user": "u", "password": "p", "password_env": "X"},
            "exactly one",
        ),
        ({"kind": "csa", "host": "h", "user": "u", "password_env": "NOPE"}, "not set"),
        ({"kind": "csa", "host": "h", "user": "u", "password": "p", "keepalive": 5}, "keepalive"),
        ({"kind": "csa", "user": "u", "password": "p"}, "host"),
        ({"kind": "lishogi", "token": "t", "seek": "yes"}, "seek"),
        ({"kind": "lishogi", "token": "t", "seek": True, "seek_color": "blue"}, "seek_color"),
        ({"kind": "lishogi", "token": "t", "colour": "x"}, "unknown"),
    ],
)
def test_bad_tables_name_the_key(table: dict[str, object], words: str) -> None:
    with pytest.raises(OnlineConfigError, match=words):
        OnlineSettings.from_table(table, {})


def test_lishogi_settings() -> None:
    table = {
        "kind": "lishogi",
        "token_env": "TOK",
        "seek": True,
        "seek_minutes": 15,
        "seek_byoyomi": 30,
    }
    settings = OnlineSettings.from_table(table, {"TOK": "lip_abc"})
    assert settings.seek is not None and settings.seek.time == 15 and settings.seek.byoyomi == 30
    client = make_opponent(settings)
    assert isinstance(client, LishogiClient) and "lip_abc" not in repr(client)


async def test_engine_seat_adapter_plays_a_csa_game(tmp_path: Path) -> None:
    users = {"player": "a", "opponent": "b"}
    async with CsaTestServer(users, GameSetup(), tmp_path) as server:
        seat = OnlineEnginePlayer(CsaClient("127.0.0.1", server.port, "player", "a"), 5)
        opponent = CsaClient("127.0.0.1", server.port, "opponent", "b")
        await seat.start()
        await opponent.connect()
        try:
            await asyncio.gather(seat.new_game(), opponent.wait_game(5))

            async def reply(usi: str | None) -> None:
                for _ in range(6):
                    event = await opponent.next_event(5)
                    if type(event).__name__ == "OpponentMove":
                        break
                if usi is None:
                    await opponent.resign()
                else:
                    await opponent.send_move(Move.from_usi(usi))

            task = asyncio.create_task(reply("3c3d"))
            result = await asyncio.wait_for(seat.play("startpos", ["7g7f"]), 5)
            await task
            assert result.bestmove == "3c3d"
            assert len(seat.times) == 2 and seat.clock is not None
            task = asyncio.create_task(reply(None))
            result = await asyncio.wait_for(seat.play("startpos", ["7g7f", "3c3d", "2g2f"]), 5)
            await task
            assert result.resigned
        finally:
            await seat.quit()
            await opponent.close()
        assert server.records[-1].summary == "toryo"


async def test_engine_seat_adapter_raises_on_other_ends(tmp_path: Path) -> None:
    async with FakeLishogi("tok") as server:
        seat = OnlineEnginePlayer(LishogiClient("tok", server.base_url, read_timeout=2), 5)
        await seat.start()
        try:
            server.create_game("x", 0)
            await seat.new_game()
            server.finish("x", "outoftime", "gote")
            with pytest.raises(OnlineGameOver, match="outoftime"):
                await seat.play("startpos", [])
        finally:
            await seat.quit()


def test_cli_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def serve_and_check() -> None:
        async with CsaTestServer({"me": "pw"}, GameSetup(), tmp_path) as server:
            argv = [
                "online",
                "check",
                "csa",
                "--host",
                "127.0.0.1",
                "--port",
                str(server.port),
                "--user",
                "me",
            ]
            monkeypatch.setenv("CSA_PASSWORD", "pw")
            assert await asyncio.to_thread(main, argv) == 0
            monkeypatch.setenv("CSA_PASSWORD", "wrong")
            assert await asyncio.to_thread(main, argv) == 1

    asyncio.run(serve_and_check())
    out, err = capsys.readouterr()
    assert "logged in to 127.0.0.1" in out
    assert "refused the login" in err and "wrong" not in err
