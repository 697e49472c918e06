"""With the real tracker and journal: a move corrected, a move retracted, a take-back, and a
correction while the engine is thinking; the journal (and so the record) follows each."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from board_bridge.app.config import parse_config
from board_bridge.app.daemon import Daemon
from board_bridge.app.simulated import SimulatedBoard
from board_bridge.app.sinks import RecordingSink
from board_bridge.records.journal import load_journal
from board_bridge.shogi import Move
from board_bridge.tracker.outputs import MoveCorrected, MoveRetracted, TakeBack
from tests.app.fakes import FakeEngine


def sq(name: str) -> int:
    return Move.from_usi(name + name).to_square


async def wait_for(predicate: Any, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def start(
    tmp_path: Path, game: dict[str, Any], engine: Any = None
) -> tuple[Daemon, SimulatedBoard, list[Any], asyncio.Task[None]]:
    data: dict[str, Any] = {
        "leds": {"sink": "record"},
        "game": game,
        "records": {"directory": str(tmp_path)},
    }
    if engine is not None:  # the config wants a program that exists; the fake plays instead
        data["engine"] = {"path": "/bin/true"}
    config = parse_config(data)
    board = SimulatedBoard(config.game.start_sfen, step_delay=0.02)
    daemon = Daemon(config, source=board, sink=RecordingSink(), engine=engine)
    outputs: list[Any] = []
    daemon.on_output = outputs.append
    task = asyncio.create_task(daemon.run())
    await asyncio.wait_for(daemon.ready.wait(), 10)
    await wait_for(lambda: daemon.game is not None and daemon.game.started)
    return daemon, board, outputs, task


def journal_moves(daemon: Daemon) -> list[str]:
    assert daemon.game is not None and daemon.game.journal is not None
    return [rm.move.usi() for rm in load_journal(daemon.game.journal.path).moves]


def recorded(daemon: Daemon, want: list[str]) -> bool:
    """The journal holds ``want``, and so does the game in memory (the daemon writes the
    journal first, then takes the move in: a test polling the file can be between)."""
    assert daemon.game is not None
    return journal_moves(daemon) == want and [m.move.usi() for m in daemon.game.moves] == want


async def stop(daemon: Daemon, task: asyncio.Task[None]) -> None:
    daemon.stop()
    await asyncio.wait_for(task, 10)


async def test_correction_and_retraction_reach_the_journal(tmp_path: Path) -> None:
    daemon, board, outputs, task = await start(tmp_path, {})
    try:
        # 3i4h, then the same silver moved on to 3h before gote replies: a correction
        board.lift(sq("3i"))
        await asyncio.sleep(0.05)
        board.place(sq("4h"))
        await wait_for(lambda: journal_moves(daemon) == ["3i4h"])
        board.lift(sq("4h"))
        await asyncio.sleep(0.05)
        board.place(sq("3h"))
        await wait_for(lambda: any(isinstance(o, MoveCorrected) for o in outputs))
        await wait_for(lambda: journal_moves(daemon) == ["3i3h"])
        # ... then put back where it came from: a retraction
        board.lift(sq("3h"))
        await asyncio.sleep(0.05)
        board.place(sq("3i"))
        await wait_for(lambda: any(isinstance(o, MoveRetracted) for o in outputs))
        await wait_for(lambda: journal_moves(daemon) == [])
        assert daemon.game is not None and daemon.game.moves == []
        game = daemon.game
        await wait_for(lambda: game.clock.running == 0)  # still sente's turn, sente's clock
    finally:
        await stop(daemon, task)


async def test_take_back_of_the_last_two_moves(tmp_path: Path) -> None:
    daemon, board, outputs, task = await start(tmp_path, {})
    try:
        for usi in ("7g7f", "3c3d", "2g2f"):
            move = Move.from_usi(usi)
            assert daemon.game is not None
            await board.play_move(daemon.game.board, move)
            await wait_for(lambda u=usi: journal_moves(daemon)[-1:] == [u])
        # both players agree to go back to the position after 7g7f: 2g2f (still open) is
        # put back, and 3c3d (closed by sente's reply) is taken back
        board.lift(sq("2f"))
        await asyncio.sleep(0.05)
        board.place(sq("2g"))
        await asyncio.sleep(0.05)
        board.lift(sq("3d"))
        await asyncio.sleep(0.05)
        board.place(sq("3c"))
        await wait_for(lambda: recorded(daemon, ["7g7f"]), timeout=8)
        assert any(isinstance(o, TakeBack) for o in outputs)
        assert daemon.game is not None
        assert daemon.game.board.turn == 1
        game = daemon.game
        await wait_for(lambda: game.clock.running == 1)  # gote's turn again, gote's clock
    finally:
        await stop(daemon, task)


async def test_a_revised_capture_rewrites_the_journal(tmp_path: Path) -> None:
    # 5e takes 5d and gote drops a pawn on 5e at once: read as sente's pawn held after a
    # knock and put back. Both kings move; then sente moves the pawn on 5d, which only the
    # capture's story has: the tracker takes back its story and the journal follows.
    sfen = "4k4/9/9/4p4/4P4/9/9/9/4K4 b p 1"
    daemon, board, outputs, task = await start(tmp_path, {"start_sfen": sfen})
    try:
        for name, pause in (("5e", 0.3), ("5d", 0.3)):
            board.lift(sq(name))
            await asyncio.sleep(pause)
        board.place(sq("5d"))
        await asyncio.sleep(0.4)
        board.place(sq("5e"))
        await asyncio.sleep(1.2)
        assert journal_moves(daemon) == []
        for fr, to, moves in (("5i", "4h", ["5i4h"]), ("5a", "4b", ["5i4h", "5a4b"])):
            board.lift(sq(fr))
            await asyncio.sleep(0.1)
            board.place(sq(to))
            await wait_for(lambda m=moves: journal_moves(daemon) == m)
        board.lift(sq("5d"))
        await asyncio.sleep(0.1)
        board.place(sq("5c"))
        await wait_for(lambda: any(isinstance(o, TakeBack) for o in outputs))
        board.press("promote")
        want = ["5e5d", "P*5e", "5i4h", "5a4b", "5d5c+"]
        await wait_for(lambda: recorded(daemon, want))
    finally:
        await stop(daemon, task)


async def test_correction_while_the_engine_thinks_restarts_its_search(tmp_path: Path) -> None:
    engine = FakeEngine(["3c3d", "8c8d"], delay=0.6)
    daemon, board, outputs, task = await start(tmp_path, {"engine": "white"}, engine)
    try:
        board.lift(sq("3i"))
        await asyncio.sleep(0.05)
        board.place(sq("4h"))
        await wait_for(lambda: len(engine.asked) == 1)  # the engine thinks about 3i4h
        board.lift(sq("4h"))
        await asyncio.sleep(0.05)
        board.place(sq("3h"))  # corrected while it thinks
        await wait_for(lambda: len(engine.asked) == 2)
        assert engine.asked[1][1] == ("3i3h",)
        await wait_for(lambda: daemon.shown is not None and daemon.shown.engine_move is not None)
        # the first search was dropped; the answer shown is the new search's
        assert engine.cancelled == 1
        assert daemon.shown is not None and daemon.shown.engine_move == "3c3d"
        assert journal_moves(daemon) == ["3i3h"]
    finally:
        await stop(daemon, task)
