"""The other modes, with the real tracker: engine hints on a person's turn, the engine on
both sides (a demonstration), and an engine that resigns."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from board_bridge.app.config import parse_config
from board_bridge.app.daemon import Daemon
from board_bridge.app.player import ScriptedPlayer
from board_bridge.app.simulated import SimulatedBoard
from board_bridge.app.sinks import RecordingSink
from board_bridge.records.files import read_file
from board_bridge.shogi import BLACK, Board, Move, Outcome, Termination
from board_bridge.tracker.events import PlayerInput
from board_bridge.tracker.intents import Mark
from tests.app.fakes import FakeEngine
from tests.conftest import require_engine


def make_config(tmp_path: Path, game: dict[str, Any], engine: dict[str, Any] | None = None) -> Any:
    data: dict[str, Any] = {
        "leds": {"sink": "record"},
        "game": {"max_games": 1, **game},
        "records": {"directory": str(tmp_path / "games")},
    }
    if engine is not None:
        data["engine"] = engine
    return parse_config(data)


async def test_hint_lights_the_engines_suggestion(tmp_path: Path) -> None:
    engine = require_engine("fairy-stockfish")
    config = make_config(tmp_path, {"hints": True}, {"path": engine, "hint_time": 100})
    board = SimulatedBoard(step_delay=0.02)
    daemon = Daemon(config, source=board, sink=RecordingSink())
    run = asyncio.create_task(daemon.run())
    try:
        await asyncio.wait_for(daemon.ready.wait(), 30)
        hinted = None
        for _ in range(500):
            shown = daemon.shown
            if shown is not None and Mark.HINT in shown.marks.values():
                hinted = shown
                break
            await asyncio.sleep(0.01)
        assert hinted is not None, "no hint was shown"
        squares = [sq for sq, m in hinted.marks.items() if m is Mark.HINT]
        # the hint is a legal move of black's in the starting position
        assert any(m.to_square in squares for m in Board().legal_moves)
    finally:
        daemon.stop()
        await asyncio.wait_for(run, 15)


async def test_engine_on_both_sides_then_resigning(tmp_path: Path) -> None:
    replies = ["7g7f", "3c3d", "2g2f", "4c4d"]
    engine = FakeEngine(replies)
    # the config wants a program that exists; the fake engine plays in its place
    config = make_config(tmp_path, {"engine": "both"}, {"path": "/bin/true"})
    board = SimulatedBoard(step_delay=0.02)
    sink = RecordingSink()
    daemon = Daemon(config, source=board, sink=sink, engine=engine)  # type: ignore[arg-type]
    player = ScriptedPlayer(daemon, board, colors=())  # makes the engine's moves only
    run = asyncio.create_task(daemon.run())
    try:
        await asyncio.wait_for(daemon.ready.wait(), 10)
        report = await asyncio.wait_for(player.run(), 30)
        await asyncio.wait_for(run, 10)
    finally:
        daemon.stop()
        if not run.done():
            await run
    assert report.engine_moves_made == replies
    outcome, _paths = daemon.games_finished[0]
    assert outcome == Outcome(Termination.RESIGNATION, 1)  # black (the engine) resigned
    assert engine.results == []  # both sides were the engine: no win/lose to tell it
    for usi in replies:
        move = Move.from_usi(usi)
        assert any(f.intents.mark(move.from_square or 0) is Mark.ENGINE_FROM for f in sink.frames)
    assert daemon.game is not None and daemon.game.board.turn == BLACK


async def test_identity_board_two_people_nothing_asked(tmp_path: Path) -> None:
    # an RFID board sees the kind and the face of every piece: promotions and drops are
    # read, never asked, and the record is the game played
    config = parse_config(
        {
            "board": {"sensing": "identity"},
            "leds": {"sink": "record"},
            "game": {"max_games": 1},
            "records": {"directory": str(tmp_path / "games")},
        }
    )
    board = SimulatedBoard(step_delay=0.02, sensing="identity")
    daemon = Daemon(config, source=board, sink=RecordingSink())
    script = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e", "8c8d", "5e2b+"]
    player = ScriptedPlayer(daemon, board, colors=(0, 1), script=script, max_moves=40, seed=3)
    run = asyncio.create_task(daemon.run())
    try:
        await asyncio.wait_for(daemon.ready.wait(), 10)
        report = await asyncio.wait_for(player.run(), 60)
        await asyncio.wait_for(run, 10)  # one game, then the daemon stops
    finally:
        daemon.stop()
        if not run.done():
            await run
    assert report.questions == [] and report.resigned
    assert report.own_moves[: len(script)] == script and len(report.own_moves) == 40
    outcome, paths = daemon.games_finished[0]
    assert outcome.termination is Termination.RESIGNATION
    kif = next(Path(p) for p in paths if str(p).endswith(".kif"))
    assert [rm.move.usi() for rm in read_file(kif).moves] == report.own_moves
    drops = [m for m in report.own_moves if "*" in m]
    assert drops and [e.value for e in board.emitted if isinstance(e, PlayerInput)] == ["resign"]
