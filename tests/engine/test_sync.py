"""SimpleEngine: the blocking wrapper, for scripts without an event loop."""

from __future__ import annotations

import threading

import pytest

from board_bridge.engine import EngineTerminated, EngineTimeout, Limit, SimpleEngine
from tests.conftest import require_engine
from tests.engine.support import FAST, MIDGAME_SFEN, fake_command, is_legal, process_gone

QUICK = Limit(btime=0, wtime=0, byoyomi=100)


def loop_threads() -> int:
    return sum(1 for thread in threading.enumerate() if thread.name == "usi-simple-engine")


def test_simple_engine_with_fairy_stockfish() -> None:
    before = loop_threads()
    with SimpleEngine.popen(require_engine("fairy-stockfish")) as engine:
        assert engine.name.startswith("Fairy-Stockfish") and "UCI_Variant" in engine.options
        engine.configure({"Skill Level": 3})
        engine.new_game()
        result = engine.play(MIDGAME_SFEN, [], QUICK)
        assert is_legal(MIDGAME_SFEN, [], result.bestmove)
        info = engine.analyse(MIDGAME_SFEN, [], Limit(depth=3))
        assert info.depth == 3 and info.pv
        engine.game_over("draw")
        pid = engine.engine.pid
    assert pid is not None and process_gone(pid)
    assert loop_threads() == before
    engine.quit()  # safe twice


def test_simple_engine_reports_faults() -> None:
    with SimpleEngine.popen(fake_command("--hang-after", "0"), timeouts=FAST) as engine:
        with pytest.raises(EngineTimeout, match="bestmove"):
            engine.play("startpos", [], QUICK)
        with pytest.raises(EngineTerminated):
            engine.ping()


def test_simple_engine_start_failure_leaves_no_thread() -> None:
    before = loop_threads()
    with pytest.raises(EngineTerminated, match="opening book"):
        SimpleEngine.popen(fake_command("--exit-at-start"), timeouts=FAST)
    assert loop_threads() == before
