"""With the real tracker and journal: a power cut mid-game, the restart resumes it; a board
knocked over by the cut is guided back first; the clock button closes turns."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from board_bridge.app.config import parse_config
from board_bridge.app.daemon import Daemon
from board_bridge.app.player import ScriptedPlayer
from board_bridge.app.simulated import SimulatedBoard
from board_bridge.app.sinks import RecordingSink
from board_bridge.records import read_file
from board_bridge.records.journal import find_unfinished, load_journal
from board_bridge.shogi import Board, Move, Termination
from board_bridge.tracker.intents import Mark

OPENING = ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d"]


def config(tmp_path: Path, **clock: Any) -> Any:
    return parse_config(
        {
            "leds": {"sink": "record"},
            "game": {"max_games": 1},
            "clock": clock or {"kind": "none"},
            "records": {"directory": str(tmp_path / "games")},
        }
    )


async def play_until(daemon: Daemon, player: ScriptedPlayer, plies: int) -> None:
    async def go() -> None:
        while daemon.game is None or not daemon.game.started:
            await asyncio.sleep(0.01)
        while len(daemon.game.moves) < plies:
            game = daemon.game
            await player._make_own_move(game.board.copy(), len(game.moves))

    await asyncio.wait_for(go(), 30)


async def test_power_cut_then_resume_with_the_board_put_back(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    board = SimulatedBoard(step_delay=0.02)
    daemon = Daemon(cfg, source=board, sink=RecordingSink())
    player = ScriptedPlayer(daemon, board, colors=(0, 1), script=OPENING)
    run = asyncio.create_task(daemon.run())
    await daemon.ready.wait()
    await play_until(daemon, player, 6)
    run.cancel()  # the power goes: no orderly stop at all
    with contextlib.suppress(asyncio.CancelledError):
        await run
    (info,) = find_unfinished(tmp_path / "games")
    assert [m.move.usi() for m in load_journal(info.path).moves] == OPENING[:6]

    # the cut knocked two pieces over: the restarted daemon shows where they belong
    board2 = SimulatedBoard(step_delay=0.02)
    position = Board()
    for usi in OPENING[:6]:
        position.push_usi(usi)
    board2.set_position(position)
    knocked = [Move.from_usi("2e2d").from_square, Move.from_usi("8e8f").from_square]
    for sq in knocked:
        assert sq is not None
        board2.cells[sq] = "."
    sink = RecordingSink()
    daemon2 = Daemon(cfg, source=board2, sink=sink)
    player2 = ScriptedPlayer(daemon2, board2, colors=(0, 1), script=OPENING, max_moves=len(OPENING))
    run2 = asyncio.create_task(daemon2.run())
    try:
        await asyncio.wait_for(daemon2.ready.wait(), 10)
        for _ in range(200):
            shown = daemon2.shown
            if shown is not None and all(shown.mark(sq) is Mark.FILL for sq in knocked):  # type: ignore[arg-type]
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(f"no set-up guidance: {daemon2.shown}")
        assert daemon2.game is not None and not daemon2.game.started
        for sq in knocked:
            board2.place(sq)  # type: ignore[arg-type]
        report = await asyncio.wait_for(player2.run(), 30)
        await asyncio.wait_for(run2, 10)
    finally:
        daemon2.stop()
        if not run2.done():
            await run2
    assert report.resigned
    outcome, paths = daemon2.games_finished[0]
    assert outcome.termination is Termination.RESIGNATION
    kif = next(p for p in paths if str(p).endswith(".kif"))
    assert Path(kif).parent == info.path.parent and Path(kif).stem == info.path.stem
    assert [rm.move.usi() for rm in read_file(kif).moves] == OPENING
    assert find_unfinished(tmp_path / "games") == []


async def test_clock_button_closes_the_turn_and_times_are_recorded(tmp_path: Path) -> None:
    cfg = config(tmp_path, kind="fischer", main=60, increment=2, button=True)
    board = SimulatedBoard(step_delay=0.02)
    daemon = Daemon(cfg, source=board, sink=RecordingSink())
    run = asyncio.create_task(daemon.run())
    try:
        await daemon.ready.wait()
        while daemon.game is None or not daemon.game.started:
            await asyncio.sleep(0.01)
        game = daemon.game
        await asyncio.sleep(0.2)
        await board.play_move(game.board.copy(), Move.from_usi("7g7f"))
        for _ in range(100):
            if game.moves:
                break
            await asyncio.sleep(0.01)
        assert game.clock.running == 0  # the mover's clock runs until the press
        await asyncio.sleep(0.3)
        board.press("clock")
        for _ in range(100):
            if game.clock.running == 1:
                break
            await asyncio.sleep(0.01)
        assert game.clock.running == 1
        assert 60 + 2 - 1.5 < game.clock.remaining(0) < 60 + 2 - 0.5
    finally:
        daemon.stop()
        await asyncio.wait_for(run, 10)
    (info,) = find_unfinished(tmp_path / "games")
    (recorded,) = load_journal(info.path).moves
    assert recorded.move.usi() == "7g7f" and recorded.time_used is not None
    assert 0.2 <= recorded.time_used < 1.0


async def test_a_move_made_while_the_cable_was_out_is_recovered(tmp_path: Path) -> None:
    cfg = parse_config(
        {
            "board": {"reconnect_delay": 0.05},
            "leds": {"sink": "record"},
            "records": {"directory": str(tmp_path / "games")},
        }
    )
    board = SimulatedBoard(step_delay=0.02)
    daemon = Daemon(cfg, source=board, sink=RecordingSink())
    outputs: list[Any] = []
    daemon.on_output = outputs.append
    run = asyncio.create_task(daemon.run())
    try:
        await daemon.ready.wait()
        while daemon.game is None or not daemon.game.started:
            await asyncio.sleep(0.01)
        game = daemon.game
        board.disconnect()
        await asyncio.sleep(0.1)
        await board.play_move(game.board, Move.from_usi("7g7f"))  # nobody sees it
        assert game.moves == []
        board.reconnect()
        for _ in range(300):
            if game.moves:
                break
            await asyncio.sleep(0.01)
        assert [m.move.usi() for m in game.moves] == ["7g7f"]
        assert any(type(o).__name__ == "Resynced" for o in outputs)
    finally:
        daemon.stop()
        await asyncio.wait_for(run, 10)
    (info,) = find_unfinished(tmp_path / "games")
    assert [m.move.usi() for m in load_journal(info.path).moves] == ["7g7f"]
