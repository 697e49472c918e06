"""Acceptance: a scripted player on the simulated board plays a whole game against
Fairy-Stockfish through the daemon; every engine move appears as LED intents, is made by the
player and verified; a wrong move is shown as an error and not recorded; the KIF parses
(with board_bridge.records and with cshogi) to the same moves."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from board_bridge.app.config import parse_config
from board_bridge.app.daemon import Daemon
from board_bridge.app.player import ScriptedPlayer
from board_bridge.app.simulated import SimulatedBoard
from board_bridge.app.sinks import RecordingSink
from board_bridge.records import read_file
from board_bridge.shogi import WHITE, Board, Move, Termination, piece_type_symbol
from board_bridge.tracker.intents import Mark
from tests.conftest import ROOT, corpus_games, require_engine

#: plies before the scripted player resigns, so the test stays well under a minute
MAX_PLIES = 60


def engine_config(tmp_path: Path, engine: str, **game: Any) -> dict[str, Any]:
    return {
        "board": {"source": "simulated"},
        "leds": {"sink": "record"},
        "game": {"engine": "white", "max_games": 1, "black": "scripted player", **game},
        "engine": {"path": engine, "options": {"Threads": 1, "USI_Hash": 16}},
        # time odds: the player no limit, the engine a short byoyomi (0.2 s a move)
        "clock": {"kind": "none", "white": {"kind": "byoyomi", "byoyomi": 0.2}},
        "records": {"directory": str(tmp_path / "games"), "formats": ["kif", "csa"]},
        "daemon": {"log_level": "warning"},
    }


def cshogi_moves(path: Path) -> list[str]:
    import cshogi
    import cshogi.KIF

    parsed = cshogi.KIF.Parser.parse_file(str(path))
    return [cshogi.move_to_usi(m) for m in parsed.moves]


def shown_as_engine_move(frames: list[Any], move: Move) -> bool:
    """Some LED frame showed ``move`` as the engine's move to make."""
    for frame in frames:
        intents = frame.intents
        if intents.engine_move != move.usi() or intents.mark(move.to_square) is not Mark.ENGINE_TO:
            continue
        if move.from_square is not None and intents.mark(move.from_square) is Mark.ENGINE_FROM:
            return True
        if move.drop_piece_type is not None and intents.engine_drop == piece_type_symbol(
            move.drop_piece_type
        ):
            return True
    return False


@pytest.mark.timeout(120)
async def test_scripted_player_against_fairy_stockfish(tmp_path: Path) -> None:
    engine = require_engine("fairy-stockfish")
    config = parse_config(engine_config(tmp_path, engine))
    board = SimulatedBoard(step_delay=0.03)
    sink = RecordingSink()
    daemon = Daemon(config, source=board, sink=sink)
    game = next(g for g in corpus_games() if g["source"] == "engine")
    player = ScriptedPlayer(
        daemon,
        board,
        colors=(0,),
        script=game["moves"],
        seed=7,
        max_moves=MAX_PLIES,
        wrong_once=True,
    )
    run = asyncio.create_task(daemon.run())
    try:
        await asyncio.wait_for(daemon.ready.wait(), 30)
        report = await asyncio.wait_for(player.run(), 100)
        await asyncio.wait_for(run, 15)
    finally:
        daemon.stop("test over")
        if not run.done():
            await asyncio.wait_for(run, 15)

    assert daemon.games_finished, "the game did not end"
    outcome, paths = daemon.games_finished[0]
    kif = next(Path(p) for p in paths if str(p).endswith(".kif"))
    record = read_file(kif)
    moves = [rm.move.usi() for rm in record.moves]
    assert len(moves) >= 10

    # the record is the game the daemon played, and cshogi reads the same moves
    assert moves == daemon.game.usi_moves()  # type: ignore[union-attr]
    assert cshogi_moves(kif) == moves
    assert record.outcome is not None and record.outcome.termination == outcome.termination
    if report.resigned:
        assert outcome.termination is Termination.RESIGNATION and outcome.winner == WHITE
    else:
        assert outcome.termination in (Termination.CHECKMATE, Termination.RESIGNATION)

    # every engine move was shown as LED intents, made by the player, and verified
    engine_moves = moves[1::2]
    assert report.engine_moves_made == engine_moves
    for usi in engine_moves:
        assert shown_as_engine_move(sink.frames, Move.from_usi(usi)), usi
    position = Board()
    for usi in moves:  # the rules core accepts the whole record
        position.push_usi(usi)

    # the wrong move was shown as an error (red squares) and never recorded
    assert len(report.wrong_moves) == 1
    shown, wrong = report.wrong_moves[0]
    assert report.errors_seen and report.errors_seen[0].startswith("unexpected")
    assert "no red square" not in report.errors_seen[0]
    assert any(f.intents.reason == "unexpected" for f in sink.frames)
    assert wrong not in moves[moves.index(shown) : moves.index(shown) + 1]
    assert moves[moves.index(shown)] == shown

    # time used per move is in the record; the engine kept within its 0.2 s byoyomi
    assert all(rm.time_used is not None for rm in record.moves)
    assert all(rm.time_used is not None and rm.time_used < 0.3 for rm in record.moves[1::2])
    assert "gote 0.2s byoyomi" in (record.extra_value("time_control") or "")


@pytest.mark.timeout(120)
def test_demo_command_writes_a_kif(tmp_path: Path) -> None:
    """`board-bridge demo` (what `make demo` runs), in a subprocess, bounded."""
    require_engine("fairy-stockfish")
    out = tmp_path / "demo"
    env = {**os.environ, "PATH": os.environ.get("PATH", "") + ":/usr/games"}
    proc = subprocess.run(
        [
            sys.executable, "-m", "board_bridge", "demo",
            "--moves", "12", "--speed", "10", "--movetime", "100", "--plain", "--out", str(out),
        ],
        capture_output=True, text=True, timeout=100, cwd=ROOT, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    last = proc.stdout.strip().splitlines()
    kif_line = next(line for line in last if line.startswith("KIF written to "))
    kif = Path(kif_line.removeprefix("KIF written to "))
    assert kif.exists() and kif.parent == out
    assert "engine move to make:" in proc.stdout  # the terminal showed the LED intents
    record = read_file(kif)
    assert len(record.moves) == 12
    assert cshogi_moves(kif) == [rm.move.usi() for rm in record.moves]
