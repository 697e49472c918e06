"""ManagedEngine: a crashed, hung or confused engine is restarted and the game goes on."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import sys
from pathlib import Path

import pytest

from board_bridge.engine import (
    EngineConfig,
    EngineEvent,
    EngineGaveUp,
    Limit,
    ManagedEngine,
    RestartPolicy,
    UnsupportedError,
)
from tests.engine.support import FAKE_ENGINE, FAST, process_gone

QUICK = Limit(btime=0, wtime=0, byoyomi=100)
POLICY = RestartPolicy(max_failures=3, backoff=0.05, backoff_max=0.2)
FAST_TIMEOUTS = dataclasses.asdict(FAST)


def config(*flags: str, ponder: bool = False) -> EngineConfig:
    return EngineConfig(
        path=sys.executable,
        args=(str(FAKE_ENGINE), *flags),
        options={"Style": "Solid"},
        timeouts=FAST_TIMEOUTS,
        ponder=ponder,
        name="fake",
    )


def sessions(log: Path) -> list[list[str]]:
    """The commands each engine process received, one list per process (split at 'usi')."""
    runs: list[list[str]] = []
    for line in log.read_text().splitlines():
        if line == "usi":
            runs.append([])
        runs[-1].append(line)
    return runs


@pytest.mark.parametrize(
    "fault",
    [
        ("--crash-after", "1"),
        ("--hang-after", "1"),
        ("--bestmove", "zz99"),
    ],
    ids=["crash", "hang", "garbage-bestmove"],
)
async def test_a_fault_mid_game_restarts_and_keeps_the_game(
    tmp_path: Path, fault: tuple[str, str]
) -> None:
    log = tmp_path / "commands.log"
    events: list[EngineEvent] = []
    flags = (*fault, "--once-file", str(tmp_path / "once"), "--log", str(log))
    async with ManagedEngine(config(*flags), policy=POLICY, on_event=events.append) as managed:
        await managed.configure({"Skill Level": 5})
        await managed.new_game()
        first_pid = managed.engine.pid if managed.engine else None
        moves: list[str] = []
        if fault[0] != "--bestmove":
            moves = ["2g2f", (await managed.play("startpos", ["2g2f"], QUICK)).bestmove]
        result = await managed.play("startpos", [*moves, "2f2e"], QUICK)
        assert result.bestmove == "7g7f"
        assert managed.restarts == 1 and managed.failures == 0
        assert managed.engine is not None and managed.engine.pid != first_pid
        assert first_pid is not None and process_gone(first_pid)
    kinds = [event.kind for event in events]
    assert kinds.count("fault") == 1 and "restarting" in kinds and kinds[-1] == "closed"
    fault_event = next(event for event in events if event.kind == "fault")
    assert "engine FakeEngine 1.0 failed to search (1/3)" in fault_event.message
    assert fault_event.error is not None and str(fault_event.error) in fault_event.message
    first, second = sessions(log)
    # The new engine got the options (startup ones and configured ones), a new game, and
    # the very same position again.
    assert second[:6] == [
        "usi",
        "setoption name Style value Solid",
        "isready",
        "setoption name Skill Level value 5",
        "isready",
        "usinewgame",
    ]
    position = f"position startpos moves {' '.join([*moves, '2f2e'])}"
    assert position in first and position in second


async def test_retry_gets_the_time_that_is_left(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    flags = ("--crash-after", "0", "--once-file", str(tmp_path / "once"), "--log", str(log))
    policy = RestartPolicy(max_failures=3, backoff=0.3)
    async with ManagedEngine(config(*flags), policy=policy) as managed:
        await managed.new_game()
        result = await managed.play(
            "startpos", ["7g7f"], Limit(btime=5000, wtime=3000, byoyomi=500)
        )
        assert result.bestmove == "7g7f"
    first, second = sessions(log)
    assert "go btime 5000 wtime 3000 byoyomi 500" in first
    go = next(line for line in second if line.startswith("go "))
    wtime = int(go.split()[4])
    # Gote's clock lost the crash, the 0.3 s backoff and the restart; sente's is untouched.
    assert 1000 < wtime <= 2700 and go.startswith("go btime 5000 wtime ")
    assert go.endswith(" byoyomi 500")


async def test_an_engine_that_always_crashes_is_given_up(tmp_path: Path) -> None:
    events: list[EngineEvent] = []
    managed = ManagedEngine(config("--crash-after", "0"), policy=POLICY, on_event=events.append)
    await managed.start()
    with pytest.raises(EngineGaveUp, match="failed 3 times in a row.*exit code 3"):
        await managed.play("startpos", [], QUICK)
    assert [e.kind for e in events].count("fault") == 3 and events[-1].kind == "gave-up"
    assert managed.engine is None and managed.restarts == 2
    # After giving up, the next call tries again from scratch (the user may have fixed it).
    with pytest.raises(EngineGaveUp):
        await managed.play("startpos", [], QUICK)
    await managed.quit()
    await managed.quit()


async def test_an_engine_that_cannot_start_is_given_up() -> None:
    managed = ManagedEngine(config("--exit-at-start"), policy=POLICY)
    with pytest.raises(EngineGaveUp, match="cannot open the opening book"):
        await managed.start()
    await managed.quit()


async def test_an_illegal_move_restarts_when_a_validator_says_so(tmp_path: Path) -> None:
    flags = ("--bestmove", "5e5d", "--once-file", str(tmp_path / "once"))
    async with ManagedEngine(config(*flags), policy=POLICY) as managed:
        result = await managed.play("startpos", [], QUICK, validate=lambda move: move == "7g7f")
        assert result.bestmove == "7g7f" and managed.restarts == 1


async def test_caller_mistakes_are_not_engine_faults() -> None:
    async with ManagedEngine(config(), policy=POLICY) as managed:
        with pytest.raises(UnsupportedError):
            await managed.configure({"Colour": "red"})
        assert managed.failures == 0 and managed.restarts == 0
        with pytest.raises(ValueError):
            await managed.play("not a position", [], QUICK)


async def test_ponder_hit_and_miss(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    async with ManagedEngine(config("--log", str(log), ponder=True), policy=POLICY) as managed:
        await managed.new_game()
        first = await managed.play("startpos", ["2g2f"], QUICK)
        assert (first.bestmove, first.ponder) == ("7g7f", "3c3d")
        # The opponent plays the expected move: ponderhit.
        second = await managed.play("startpos", ["2g2f", "7g7f", "3c3d"], QUICK)
        assert second.bestmove == "7g7f"
        # It expected 3c3d again but the opponent plays 8c8d: stop, then a normal search.
        third = await managed.play("startpos", ["2g2f", "7g7f", "3c3d", "7g7f", "8c8d"], QUICK)
        assert third.bestmove == "7g7f"
        await managed.game_over("draw")
    lines = log.read_text().splitlines()
    assert "setoption name USI_Ponder value true" in lines
    assert "position startpos moves 2g2f 7g7f 3c3d" in lines and "ponderhit" in lines
    ponder_twice = "position startpos moves 2g2f 7g7f 3c3d 7g7f 3c3d"
    assert lines[lines.index(ponder_twice) + 2] == "stop"
    assert lines.count("gameover draw") == 1


async def test_analysis_for_hints_and_analyse(tmp_path: Path) -> None:
    async with ManagedEngine(config(), policy=POLICY) as managed:
        search = await managed.analysis("startpos", ["7g7f"])
        depths = []
        async for info in search:
            depths.append(info.depth)
            if len(depths) == 2:
                break
        await managed.stop()
        assert depths == [1, 2] and search.done
        info = await managed.analyse("startpos", [], Limit(depth=3))
        assert info.depth == 3 and info.pv == ("7g7f", "3c3d")


async def test_analyse_survives_a_crash(tmp_path: Path) -> None:
    flags = ("--crash-after", "0", "--once-file", str(tmp_path / "once"))
    async with ManagedEngine(config(*flags), policy=POLICY) as managed:
        info = await managed.analyse("startpos", [], Limit(movetime=50))
        assert info.depth == 3 and managed.restarts == 1


async def test_engine_killed_between_moves_is_replaced_quietly() -> None:
    events: list[EngineEvent] = []
    async with ManagedEngine(config(), policy=POLICY, on_event=events.append) as managed:
        await managed.new_game()
        assert managed.engine is not None and managed.engine.pid is not None
        old_pid = managed.engine.pid
        os.kill(old_pid, signal.SIGKILL)
        for _ in range(100):
            if managed.engine.returncode is not None:
                break
            await asyncio.sleep(0.02)
        result = await managed.play("startpos", [], QUICK)
        assert result.bestmove == "7g7f" and managed.engine.pid != old_pid
    assert process_gone(old_pid)
    assert [e.kind for e in events].count("started") == 2
