"""UsiEngine against the deliberately broken fake engine: every fault gets a clear error."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from board_bridge.engine import (
    EngineProtocolError,
    EngineTerminated,
    EngineTimeout,
    Limit,
    Score,
    UnsupportedError,
    UsiEngine,
)
from tests.engine.support import FAST, fake_command, process_gone

QUICK = Limit(btime=0, wtime=0, byoyomi=100)


def engine(*flags: str, **kwargs: object) -> UsiEngine:
    return UsiEngine(fake_command(*flags), timeouts=FAST, **kwargs)  # type: ignore[arg-type]


async def test_handshake_options_and_a_move(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    async with engine("--log", str(log)) as usi:
        assert usi.name == "FakeEngine 1.0" and usi.id["author"] == "the board-bridge tests"
        assert usi.profile.key == "generic"
        assert set(usi.options) == {
            "USI_Hash",
            "Style",
            "BookFile",
            "Clear Hash",
            "OwnBook",
            "Skill Level",
        }
        assert usi.options["Style"].var == ("Solid", "Normal", "Risky")
        await usi.configure(
            {"style": "risky", "Clear Hash": None, "BookFile": "", "USI_Ponder": True}
        )
        await usi.new_game()
        result = await usi.play("startpos", ["2g2f", "8c8d"], QUICK)
        assert result.bestmove == "7g7f" and result.ponder == "3c3d" and result.is_move
        assert result.info.depth == 3 and result.info.score == Score(cp=30)
        assert result.info.pv == ("7g7f", "3c3d")
        await usi.game_over("win")
        pid = usi.pid
    assert pid is not None and process_gone(pid)
    assert log.read_text().splitlines() == [
        "usi",
        "isready",
        "setoption name Style value Risky",
        "setoption name Clear Hash",
        "setoption name BookFile value <empty>",
        "setoption name USI_Ponder value true",
        "isready",
        "usinewgame",
        "position startpos moves 2g2f 8c8d",
        "go btime 0 wtime 0 byoyomi 100",
        "gameover win",
        "quit",
    ]


async def test_bad_options_are_refused_before_sending(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    async with engine("--log", str(log)) as usi:
        with pytest.raises(UnsupportedError, match="no option 'Colour'"):
            await usi.configure({"Colour": "red"})
        with pytest.raises(UnsupportedError, match="outside 0..20"):
            await usi.configure({"Skill Level": 99})
        with pytest.raises(UnsupportedError, match="one of Solid, Normal, Risky"):
            await usi.configure({"Style": "Wild"})
        with pytest.raises(UnsupportedError, match="line break"):
            await usi.configure({"BookFile": "a\nquit"})
        with pytest.raises(ValueError):
            await usi.play("startpos\nquit", [], QUICK)
        assert (await usi.play("startpos", [], QUICK)).bestmove == "7g7f"
    assert not any(line.startswith("setoption") for line in log.read_text().splitlines())


async def test_startup_options_from_the_constructor(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    async with engine("--log", str(log), options={"OwnBook": False, "USI_Hash": 64}):
        pass
    lines = log.read_text().splitlines()
    assert lines[:4] == [
        "usi",
        "setoption name OwnBook value false",
        "setoption name USI_Hash value 64",
        "isready",
    ]


async def test_exit_at_start_is_terminated_with_stderr() -> None:
    usi = engine("--exit-at-start")
    with pytest.raises(EngineTerminated, match="exit code 2.*cannot open the opening book"):
        await usi.start()
    assert usi.pid is not None and process_gone(usi.pid)
    await usi.quit()
    await usi.quit()


async def test_missing_program_is_terminated() -> None:
    usi = UsiEngine("/nonexistent/engine-binary", timeouts=FAST)
    with pytest.raises(EngineTerminated, match="cannot start engine"):
        await usi.start()
    await usi.quit()


async def test_no_usiok_times_out_and_is_killed() -> None:
    usi = UsiEngine(fake_command("--no-usiok"), timeouts={"startup": 0.5})
    started = time.monotonic()
    with pytest.raises(EngineTimeout, match="answer 'usi' with 'usiok'"):
        await usi.start()
    assert time.monotonic() - started < 5
    assert usi.pid is not None and process_gone(usi.pid)
    with pytest.raises(TimeoutError):  # EngineTimeout is a TimeoutError
        raise EngineTimeout("x")


async def test_slow_readyok_with_blank_lines_is_tolerated() -> None:
    async with engine("--ready-delay", "0.6") as usi:
        started = time.monotonic()
        await usi.ping()
        assert time.monotonic() - started >= 0.5


async def test_readyok_too_late_times_out() -> None:
    usi = UsiEngine(fake_command("--ready-delay", "5"), timeouts={"ready": 0.5})
    with pytest.raises(EngineTimeout, match="readyok"):
        await usi.start()
    assert usi.pid is not None and process_gone(usi.pid)


async def test_garbage_is_ignored_and_the_game_goes_on() -> None:
    async with engine("--garbage") as usi:
        assert "Style" in usi.options  # the over-long line and bad bytes did not stop parsing
        await usi.new_game()
        for moves in ([], ["7g7f"], ["7g7f", "3c3d"]):
            result = await usi.play("startpos", moves, QUICK)
            assert result.bestmove == "7g7f"
            assert result.info.depth == 3 and result.info.pv == ("7g7f", "3c3d")


async def test_stderr_flood_does_not_block_the_engine() -> None:
    async with engine("--stderr-flood", str(2_000_000)) as usi:
        assert (await usi.play("startpos", [], QUICK)).bestmove == "7g7f"
        assert usi.stderr_tail and "stderr noise" in usi.stderr_tail[-1]


async def test_crash_mid_search_is_terminated_with_a_clear_message() -> None:
    usi = engine("--crash-after", "1")
    await usi.start()
    assert (await usi.play("startpos", [], QUICK)).bestmove == "7g7f"
    with pytest.raises(EngineTerminated) as caught:
        await usi.play("startpos", ["7g7f", "3c3d"], QUICK)
    message = str(caught.value)
    assert "FakeEngine 1.0 exited (exit code 3)" in message
    assert "bestmove" in message and "segmentation fault (pretend)" in message
    assert not usi.alive and usi.pid is not None and process_gone(usi.pid)
    with pytest.raises(EngineTerminated, match="not running"):
        await usi.play("startpos", [], QUICK)
    await usi.quit()
    await usi.quit()


async def test_hang_is_detected_and_the_engine_killed() -> None:
    usi = engine("--hang-after", "0")  # ignores stop, quit and SIGTERM
    await usi.start()
    started = time.monotonic()
    with pytest.raises(EngineTimeout, match="did not answer 'go' with 'bestmove' in time"):
        await usi.play("startpos", [], Limit(btime=0, wtime=0, byoyomi=200))
    waited = time.monotonic() - started
    assert 1.0 <= waited < 4.0  # budget 0.2 s + margin 1 s, SIGTERM (ignored) 0.5 s, SIGKILL
    assert usi.returncode is not None and usi.returncode < 0
    assert usi.pid is not None and process_gone(usi.pid)


async def test_hang_during_stop_of_an_analysis() -> None:
    usi = engine("--hang-after", "0")
    await usi.start()
    search = await usi.analysis("startpos")
    await asyncio.sleep(0.1)
    with pytest.raises(EngineTimeout):
        await search.stop()
    assert usi.pid is not None and process_gone(usi.pid)


async def test_illegal_bestmove_string_is_a_protocol_error_and_engine_stays() -> None:
    async with engine("--bestmove", "zz99") as usi:
        with pytest.raises(EngineProtocolError, match="illegal bestmove string: 'bestmove zz99'"):
            await usi.play("startpos", [], QUICK)
        assert usi.alive
        await usi.ping()


async def test_illegal_move_caught_by_the_validator() -> None:
    async with engine("--bestmove", "5e5d") as usi:
        with pytest.raises(EngineProtocolError, match="played 5e5d, which is illegal"):
            await usi.play("startpos", [], QUICK, validate=lambda move: move == "7g7f")


@pytest.mark.parametrize(
    ("answer", "resigned", "win"), [("resign", True, False), ("win", False, True)]
)
async def test_resign_and_win(answer: str, resigned: bool, win: bool) -> None:
    async with engine("--bestmove", answer) as usi:
        result = await usi.play("startpos", [], QUICK, validate=lambda move: False)
        assert result.bestmove == answer and result.ponder is None
        assert (result.resigned, result.declared_win, result.is_move) == (resigned, win, False)


async def test_infinite_analysis_stream_and_stop(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    async with engine("--log", str(log)) as usi:
        search = await usi.analysis("startpos", ["7g7f"])
        seen = []
        async for info in search:
            seen.append(info)
            if len(seen) == 3:
                break
        assert [info.depth for info in seen] == [1, 2, 3]
        assert not search.done  # infinite: no bestmove before stop
        await asyncio.sleep(0.2)
        assert not search.done
        result = await search.stop()
        assert result.bestmove == "7g7f" and search.info.depth == 3
        assert await usi.stop() is None  # nothing running any more
    assert "go infinite" in log.read_text().splitlines()
    assert log.read_text().splitlines().count("stop") == 1


async def test_new_search_stops_a_running_analysis(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    async with engine("--log", str(log)) as usi:
        analysis = await usi.analysis("startpos")
        result = await usi.play("startpos", ["7g7f"], QUICK)
        assert analysis.done and result.bestmove == "7g7f"
        lines = log.read_text().splitlines()
        assert lines[lines.index("go infinite") + 1] == "stop"


async def test_analyse_returns_the_final_info() -> None:
    async with engine() as usi:
        info = await usi.analyse("startpos", [], Limit(depth=3))
        assert info.depth == 3 and info.score == Score(cp=30) and info.nodes == 300
        with pytest.raises(ValueError):
            await usi.analyse("startpos", [], Limit(infinite=True))


async def test_ponder_then_ponderhit_and_ponder_then_stop(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    async with engine("--log", str(log), "--think", "50") as usi:
        search = await usi.ponder(
            "startpos", ["7g7f", "3c3d"], Limit(btime=1000, wtime=1000, byoyomi=100)
        )
        await asyncio.sleep(0.2)
        assert not search.done  # pondering waits for the opponent
        await search.ponderhit()
        result = await search.wait()
        assert result.bestmove == "7g7f"

        missed = await usi.ponder("startpos", ["7g7f", "3c3d"], QUICK)
        await missed.stop()
        result = await usi.play("startpos", ["7g7f", "8c8d"], QUICK)
        assert result.bestmove == "7g7f"
    lines = log.read_text().splitlines()
    assert "go ponder btime 1000 wtime 1000 byoyomi 100" in lines and "ponderhit" in lines


async def test_cancelling_play_stops_the_search(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    async with engine("--log", str(log), "--think", "5000") as usi:
        task = asyncio.create_task(usi.play("startpos", [], Limit(btime=0, wtime=0, byoyomi=5000)))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        started = time.monotonic()
        assert (await usi.play("startpos", ["7g7f"], QUICK)).bestmove == "7g7f"
        assert time.monotonic() - started < 2.0
    assert "stop" in log.read_text().splitlines()


async def test_quit_is_safe_twice_and_reaps() -> None:
    usi = engine()
    await usi.start()
    pid = usi.pid
    await asyncio.gather(usi.quit(), usi.quit())
    await usi.close()
    assert pid is not None and process_gone(pid) and usi.returncode == 0
    with pytest.raises(EngineTerminated):
        await usi.play("startpos", [], QUICK)


async def test_quit_of_a_hung_engine_kills_it() -> None:
    usi = engine("--hang-after", "0")
    await usi.start()
    search = await usi.analysis("startpos")
    started = time.monotonic()
    await usi.quit()  # stop (2 s) times out, then SIGTERM (ignored) and SIGKILL
    assert time.monotonic() - started < 8
    assert search.done and usi.pid is not None and process_gone(usi.pid)


async def test_engine_killed_while_idle_is_reported_on_next_use() -> None:
    usi = engine()
    await usi.start()
    assert usi.pid is not None
    os.kill(usi.pid, signal.SIGKILL)
    for _ in range(100):  # the child watcher reaps it shortly
        if usi.returncode is not None:
            break
        await asyncio.sleep(0.02)
    assert not usi.alive
    with pytest.raises(EngineTerminated, match="killed by SIGKILL|not running"):
        await usi.play("startpos", [], QUICK)
    assert process_gone(usi.pid)
    await usi.quit()
