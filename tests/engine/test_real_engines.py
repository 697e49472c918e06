"""The client against Debian's real engines: Fairy-Stockfish (USI, shogi) and GPSShogi."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from board_bridge.engine import (
    EngineConfig,
    Limit,
    ManagedEngine,
    RestartPolicy,
    UnsupportedError,
    UsiEngine,
)
from tests.conftest import corpus_games, require_engine
from tests.engine.support import (
    MATE_IN_ONE_SFEN,
    MATED_SFEN,
    MIDGAME_SFEN,
    is_legal,
    process_gone,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

ENGINES = ["fairy-stockfish", "gpsusi"]
BYOYOMI = Limit(btime=0, wtime=0, byoyomi=200)


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=ENGINES)
async def engine(request: pytest.FixtureRequest) -> AsyncIterator[UsiEngine]:
    """One running engine per program, shared by this module's tests (startup is slow)."""
    path = require_engine(request.param)
    usi = UsiEngine(path)
    await usi.start()
    await usi.new_game()
    yield usi
    await usi.quit()


def engine_game_positions() -> list[tuple[str, list[str]]]:
    """Middle-game positions from the shared corpus's engine games."""
    games = [game for game in corpus_games() if game["source"] == "engine"]
    assert games, "the shared corpus has no engine games"
    return [(games[0]["sfen"], games[0]["moves"][:30]), (games[1]["sfen"], games[1]["moves"][:45])]


async def test_start_identifies_the_engine_and_its_options(engine: UsiEngine) -> None:
    assert engine.alive
    if engine.profile.key == "fairy-stockfish":
        assert engine.name.startswith("Fairy-Stockfish")
        variant = engine.option("UCI_Variant")
        assert variant is not None and "shogi" in variant.var
        assert engine.options["Hash"].type == "spin" and engine.options["Hash"].min == 1
        assert engine.options["Clear Hash"].type == "button"
    else:
        assert engine.profile.key == "gpsshogi" and engine.name.startswith("gpsshogi")
        depth = engine.options["LimitDepth"]
        assert (depth.type, depth.min, depth.max) == ("spin", 4, 10)
        assert engine.options["CSAFile"].default == ""


async def test_self_play_from_the_start_gives_legal_moves(engine: UsiEngine) -> None:
    moves: list[str] = []
    for _ in range(4):
        result = await engine.play("startpos", moves, BYOYOMI)
        assert is_legal("startpos", moves, result.bestmove), (moves, result)
        moves.append(result.bestmove)


async def test_sfen_position_with_moves(engine: UsiEngine) -> None:
    moves = ["3i3h", "2b3c"]
    assert is_legal(MIDGAME_SFEN, [], moves[0]) and is_legal(MIDGAME_SFEN, moves[:1], moves[1])
    result = await engine.play(MIDGAME_SFEN, moves, BYOYOMI)
    assert is_legal(MIDGAME_SFEN, moves, result.bestmove)


@pytest.mark.parametrize("index", [0, 1])
async def test_positions_from_recorded_engine_games(engine: UsiEngine, index: int) -> None:
    sfen, moves = engine_game_positions()[index]
    result = await engine.play(sfen, moves, BYOYOMI)
    assert is_legal(sfen, moves, result.bestmove)


async def test_analysis_info_is_parsed(engine: UsiEngine) -> None:
    info = await engine.analyse(MIDGAME_SFEN, [], Limit(btime=0, wtime=0, byoyomi=400))
    assert info.depth is not None and info.depth >= 1
    assert info.score is not None and (info.score.cp is not None or info.score.is_mate)
    assert info.nodes is not None and info.nodes > 0
    assert info.pv and is_legal(MIDGAME_SFEN, [], info.pv[0])


async def test_byoyomi_is_honoured_roughly(engine: UsiEngine) -> None:
    started = time.monotonic()
    result = await engine.play(MIDGAME_SFEN, [], Limit(btime=0, wtime=0, byoyomi=300))
    elapsed = time.monotonic() - started
    assert is_legal(MIDGAME_SFEN, [], result.bestmove)
    assert elapsed < 0.3 + 2.5, elapsed  # GPSShogi takes about 1 s for short byoyomi


async def test_increment_is_honoured_roughly(engine: UsiEngine) -> None:
    # GPSShogi aborts on binc/winc: the profile sends the increment as byoyomi instead.
    limit = Limit(btime=1000, wtime=1000, binc=200, winc=200)
    started = time.monotonic()
    result = await engine.play(MIDGAME_SFEN, [], limit)
    elapsed = time.monotonic() - started
    assert engine.alive and is_legal(MIDGAME_SFEN, [], result.bestmove)
    assert elapsed < 1.2 + 2.5, elapsed


async def test_stop_during_infinite_analysis(engine: UsiEngine) -> None:
    search = await engine.analysis(MIDGAME_SFEN, [])
    await asyncio.sleep(0.6)
    started = time.monotonic()
    result = await search.stop()
    assert time.monotonic() - started < 2.0
    assert is_legal(MIDGAME_SFEN, [], result.bestmove)
    assert search.info.depth is not None and search.info.pv
    # The engine is ready for the next command at once.
    await engine.ping()


async def test_mate_in_one_is_found(engine: UsiEngine) -> None:
    result = await engine.play(MATE_IN_ONE_SFEN, [], BYOYOMI)
    assert result.bestmove in ("G*2b", "G*1b")  # both mate
    if engine.profile.key == "fairy-stockfish":
        assert result.info.score is not None and result.info.score.mate == 1


async def test_fairy_stockfish_budgets_from_the_movers_own_clock() -> None:
    # Sente to move with no main time left (only a 300 ms byoyomi) while gote has a minute:
    # an engine reading the clocks the wrong way round thinks for seconds here.
    async with UsiEngine(require_engine("fairy-stockfish")) as usi:
        for position, moves, limit in [
            ("startpos", [], Limit(btime=0, wtime=60000, byoyomi=300)),
            ("startpos", ["7g7f"], Limit(btime=60000, wtime=0, byoyomi=300)),
        ]:
            started = time.monotonic()
            result = await usi.play(position, moves, limit)
            elapsed = time.monotonic() - started
            assert result.is_move
            assert elapsed < 1.5, (moves, elapsed)


async def test_fairy_stockfish_resigns_when_mated() -> None:
    # (GPSShogi resigns too, then wedges: see the ManagedEngine test at the end.)
    async with UsiEngine(require_engine("fairy-stockfish")) as usi:
        result = await usi.play(MATED_SFEN, [], BYOYOMI)
        assert result.resigned and result.info.score is not None
        assert result.info.score.mate == 0
        game = next(g for g in corpus_games() if g["source"] == "engine" and g["end"] == "mate")
        result = await usi.play(game["sfen"], game["moves"], BYOYOMI)
        assert result.resigned


async def test_unsupported_search_limits_are_refused_not_crashed(engine: UsiEngine) -> None:
    if engine.profile.key == "fairy-stockfish":
        info = await engine.analyse(MIDGAME_SFEN, [], Limit(depth=4))
        assert info.depth == 4
        info = await engine.analyse(MIDGAME_SFEN, [], Limit(nodes=2000))
        assert info.nodes is not None
        result = await engine.play(MIDGAME_SFEN, [], Limit(movetime=150))
        assert is_legal(MIDGAME_SFEN, [], result.bestmove)
        return
    with pytest.raises(UnsupportedError, match="no go depth"):
        await engine.analyse(MIDGAME_SFEN, [], Limit(depth=4))
    with pytest.raises(UnsupportedError, match="cannot ponder"):
        await engine.ponder(MIDGAME_SFEN, ["3i3h", "2b3c"], BYOYOMI)
    # movetime is translated to byoyomi
    result = await engine.play(MIDGAME_SFEN, [], Limit(movetime=150))
    assert engine.alive and is_legal(MIDGAME_SFEN, [], result.bestmove)


async def test_fairy_stockfish_ponder_and_ponderhit() -> None:
    path = require_engine("fairy-stockfish")
    async with UsiEngine(path, ponder=True) as usi:
        assert usi.profile.ponder_option == "Ponder"
        await usi.new_game()
        first = await usi.play("startpos", ["7g7f"], BYOYOMI)
        assert first.ponder is not None
        expected = ["7g7f", first.bestmove, first.ponder]
        assert is_legal("startpos", expected[:2], first.ponder)
        search = await usi.ponder("startpos", expected, Limit(btime=0, wtime=0, byoyomi=300))
        await asyncio.sleep(0.5)
        assert not search.done  # pondering does not end by itself
        await search.ponderhit()
        started = time.monotonic()
        result = await search.wait()
        assert time.monotonic() - started < 2.0
        assert is_legal("startpos", expected, result.bestmove)


@pytest.mark.parametrize("name", ENGINES)
async def test_gameover_and_quit_leave_no_process(name: str) -> None:
    path = require_engine(name)
    usi = UsiEngine(path)
    await usi.start()
    await usi.new_game()
    result = await usi.play("startpos", [], BYOYOMI)
    assert is_legal("startpos", [], result.bestmove)
    await usi.game_over("lose")
    pid = usi.pid
    await usi.quit()
    assert usi.returncode == 0  # it quit by itself, not killed
    assert pid is not None and process_gone(pid)
    await usi.quit()


async def test_gpsshogi_resigns_and_the_supervisor_restarts_it() -> None:
    path = require_engine("gpsusi")
    config = EngineConfig(path=path)
    async with ManagedEngine(config, policy=RestartPolicy(backoff=0.1)) as managed:
        await managed.new_game()
        result = await managed.play(MATED_SFEN, [], BYOYOMI)
        assert result.resigned
        assert managed.engine is not None and managed.engine.needs_restart
        await managed.game_over("lose")
        old_pid = managed.engine.pid
        await managed.new_game()  # GPSShogi would not search again: a fresh one is started
        result = await managed.play(MIDGAME_SFEN, [], BYOYOMI)
        assert is_legal(MIDGAME_SFEN, [], result.bestmove)
        assert managed.engine.pid != old_pid and managed.failures == 0
        assert old_pid is not None and process_gone(old_pid)
