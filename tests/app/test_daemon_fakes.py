"""The daemon's wiring with a fake tracker and store: journal before LEDs, clock, engine turns."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from board_bridge.app.config import parse_config
from board_bridge.app.daemon import Daemon
from board_bridge.app.player import ScriptedPlayer
from board_bridge.app.simulated import SimulatedBoard
from board_bridge.app.sinks import RecordingSink
from board_bridge.shogi import Move, Outcome, Termination
from board_bridge.tracker.intents import Mark
from board_bridge.tracker.outputs import MoveMade
from tests.app.fakes import FakeEngine, FakeStore, FakeTracker
from tests.conftest import corpus_games

OPENING = ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b"]


def make(
    tmp_path: Path, text: dict[str, Any], **kw: Any
) -> tuple[Daemon, SimulatedBoard, RecordingSink, FakeStore]:
    config = parse_config(text, base=tmp_path)
    board = SimulatedBoard(step_delay=0.005)
    sink = RecordingSink()
    store = FakeStore(tmp_path / "games")
    daemon = Daemon(config, source=board, sink=sink, store=store, tracker_factory=FakeTracker, **kw)
    return daemon, board, sink, store


async def run_with(daemon: Daemon, coro: Any, timeout: float = 20.0) -> Any:
    task = asyncio.create_task(daemon.run())
    try:
        await asyncio.wait_for(daemon.ready.wait(), 5)
        result = await asyncio.wait_for(coro, timeout)
        await asyncio.wait_for(task, 5)
        return result
    finally:
        daemon.stop("test over")
        if not task.done():
            await asyncio.wait_for(task, 5)


async def test_record_game_two_people_journal_before_leds(tmp_path: Path) -> None:
    daemon, board, sink, store = make(tmp_path, {"game": {"max_games": 1}})
    order: list[str] = []
    daemon.on_output = lambda out: (
        order.append(f"out:{out.move.usi()}") if isinstance(out, MoveMade) else None
    )
    sink.on_show = lambda frame: order.append("led")
    game = corpus_games()[-3]  # an engine game ending in mate
    player = ScriptedPlayer(daemon, board, colors=(0, 1), script=game["moves"])
    report = await run_with(daemon, player.run(), timeout=60)
    journal = store.journals[0]
    assert [m for m, _ in journal.moves] == game["moves"]
    assert report.own_moves == game["moves"]
    assert journal.finished is not None and journal.finished.termination is Termination.CHECKMATE
    assert store.library and store.library[0][1] == journal.finished
    # each move is journalled (the fake writes the file) before the next LED frame
    assert all(m in journal.path.read_text() for m in game["moves"])
    first = order.index(f"out:{game['moves'][0]}")
    assert "led" in order[first:]
    assert sink.closed


async def test_every_move_journalled_before_the_led_acknowledges(tmp_path: Path) -> None:
    daemon, board, sink, store = make(tmp_path, {"game": {"max_games": 1}})
    checks: list[bool] = []

    def on_show(frame: Any) -> None:
        game = daemon.game
        if game is None or game.journal is None or not game.moves:
            return
        last = game.moves[-1].move
        if frame.intents.mark(last.to_square) is Mark.LAST_MOVE:
            checks.append(last.usi() in game.journal.path.read_text())

    sink.on_show = on_show
    player = ScriptedPlayer(daemon, board, colors=(0, 1), script=OPENING, max_moves=len(OPENING))
    await run_with(daemon, player.run())
    assert len(checks) >= len(OPENING) and all(checks)


async def test_engine_moves_shown_made_and_wrong_move_refused(tmp_path: Path) -> None:
    replies = OPENING[1::2]
    engine = FakeEngine(replies)
    config = {
        "game": {"engine": "white", "max_games": 1},
        "engine": {"path": "/bin/true"},
        "clock": {"kind": "byoyomi", "main": 0, "byoyomi": 5},
    }
    daemon, board, sink, store = make(tmp_path, config, engine=engine)
    player = ScriptedPlayer(
        daemon, board, colors=(0,), script=OPENING, max_moves=len(OPENING), wrong_once=True
    )
    report = await run_with(daemon, player.run())
    journal = store.journals[0]
    assert [m for m, _ in journal.moves] == OPENING
    assert report.engine_moves_made == replies
    assert report.wrong_moves and report.errors_seen == ["unexpected"]
    assert all(w not in [m for m, _ in journal.moves] for _, w in report.wrong_moves)
    shown = {f.intents.engine_move for f in sink.frames if f.intents.engine_move}
    assert shown == set(replies)
    for reply in replies:
        move = Move.from_usi(reply)
        assert any(
            f.intents.mark(move.from_square or 0) is Mark.ENGINE_FROM
            and f.intents.mark(move.to_square) is Mark.ENGINE_TO
            for f in sink.frames
        )
    # the engine is asked with the byoyomi clock and the whole game so far
    assert engine.asked[0][1] == ("7g7f",)
    # ... less the time already gone and the 100 ms margin kept back
    assert 4850 <= engine.asked[0][2].byoyomi <= 4900
    assert report.resigned and journal.finished == Outcome(Termination.RESIGNATION, 1)
    assert engine.results == ["win"] and engine.quit_called


async def test_flag_fall_ends_the_game(tmp_path: Path) -> None:
    config = {"game": {"max_games": 1}, "clock": {"kind": "sudden-death", "main": 0.3}}
    daemon, board, sink, store = make(tmp_path, config)
    task = asyncio.create_task(daemon.run())
    await asyncio.wait_for(task, 5)
    journal = store.journals[0]
    assert journal.finished is not None
    assert journal.finished.termination is Termination.TIMEOUT
    assert journal.finished.winner == 1  # black did not move in time


async def test_unfinished_game_is_resumed(tmp_path: Path) -> None:
    daemon, board, sink, store = make(tmp_path, {})
    player = ScriptedPlayer(daemon, board, colors=(0, 1), script=OPENING[:4])
    task = asyncio.create_task(daemon.run())
    await daemon.ready.wait()

    async def four() -> None:
        while not daemon.game or len(daemon.game.moves) < 4:
            await player._make_own_move(daemon.game.board.copy(), len(daemon.game.moves))  # type: ignore[union-attr]

    await asyncio.wait_for(four(), 10)
    daemon.stop("power cut")
    await asyncio.wait_for(task, 5)
    assert store.journals[0].finished is None
    # the board still shows the position after four moves: a new daemon resumes the game
    config = parse_config({"game": {"max_games": 1}}, base=tmp_path)
    board2 = SimulatedBoard(step_delay=0.005)
    board2.cells = list(board.cells)
    daemon2 = Daemon(
        config, source=board2, sink=RecordingSink(), store=store, tracker_factory=FakeTracker
    )
    player2 = ScriptedPlayer(daemon2, board2, colors=(0, 1), script=OPENING, max_moves=6)
    await run_with(daemon2, player2.run())
    resumed = store.journals[1]
    assert resumed.path == store.journals[0].path
    assert [m for m, _ in resumed.moves] == OPENING[:6]


async def test_disconnect_and_reconnect(tmp_path: Path) -> None:
    daemon, board, sink, store = make(tmp_path, {"board": {"reconnect_delay": 0.05}})
    task = asyncio.create_task(daemon.run())
    await daemon.ready.wait()
    await asyncio.sleep(0.05)
    board.disconnect()
    await asyncio.sleep(0.1)
    board.reconnect()
    position = daemon.game.board.copy()  # type: ignore[union-attr]
    await board.play_move(position, Move.from_usi("7g7f"))
    for _ in range(100):
        if daemon.game and daemon.game.moves:
            break
        await asyncio.sleep(0.01)
    daemon.stop()
    await asyncio.wait_for(task, 5)
    assert [m.move.usi() for m in daemon.game.moves] == ["7g7f"]  # type: ignore[union-attr]


@pytest.mark.parametrize("button", [False, True])
async def test_time_used_is_recorded(tmp_path: Path, button: bool) -> None:
    config = {"clock": {"kind": "fischer", "main": 60, "increment": 1, "button": button}}
    daemon, board, sink, store = make(tmp_path, config)
    task = asyncio.create_task(daemon.run())
    await daemon.ready.wait()
    await asyncio.sleep(0.3)
    await board.play_move(daemon.game.board.copy(), Move.from_usi("7g7f"))  # type: ignore[union-attr]
    await asyncio.sleep(0.2)
    if button:
        board.press("clock")
        await asyncio.sleep(0.05)
    clock = daemon.game.clock  # type: ignore[union-attr]
    daemon.stop()
    await asyncio.wait_for(task, 5)
    ((move, used),) = store.journals[0].moves
    assert used >= 0.3
    assert clock.running == 1
    if button:
        assert clock.remaining(0) == pytest.approx(61 - 0.55, abs=0.1)
    else:
        assert clock.remaining(0) == pytest.approx(61 - used, abs=0.01)


async def test_a_failing_journal_stops_the_daemon_without_acknowledging(tmp_path: Path) -> None:
    from board_bridge.app.daemon import DaemonError

    daemon, board, sink, store = make(tmp_path, {})
    task = asyncio.create_task(daemon.run())
    await daemon.ready.wait()
    await asyncio.sleep(0.05)
    journal = store.journals[0]

    def full_disk(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    journal.append_move = full_disk  # type: ignore[method-assign]
    move = Move.from_usi("7g7f")
    await board.play_move(daemon.game.board.copy(), move)  # type: ignore[union-attr]
    with pytest.raises(DaemonError, match="cannot write the game journal: .*No space left"):
        await asyncio.wait_for(task, 5)
    assert not any(f.intents.mark(move.to_square) is Mark.LAST_MOVE for f in sink.frames)
    assert sink.closed
