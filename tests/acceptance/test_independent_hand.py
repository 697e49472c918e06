"""The tracker against an independent virtual hand (not the tracker's own simulator).

A regression guard for issue 3's acceptance: every corpus game, with both capture lift
orders, and fresh random games, through ``handgen`` at its default noise rates, replays
to exactly the true moves. (Raised noise rates still find rare failures: see
``python -m tests.acceptance.check_tracker --only KIND``.)
"""

from __future__ import annotations

import pytest

from board_bridge.shogi import Move
from board_bridge.tracker import replay
from tests.acceptance.handgen import Noise, make_log, random_game
from tests.conftest import corpus_games


def _replayed(sfen: str, moves: list[str], seed: int, target_first: bool) -> list[str]:
    log = make_log(sfen, [Move.from_usi(u) for u in moves], seed, Noise(), target_first)
    tracker, _outs = replay(log, sfen)
    assert tracker.unresolved() is None
    return [m.usi() for m in tracker.board.move_stack]


@pytest.mark.parametrize("target_first", [False, True])
@pytest.mark.parametrize("index", range(26))
def test_corpus_game(index: int, target_first: bool) -> None:
    games = corpus_games()
    assert len(games) == 26
    game = games[index]
    assert _replayed(game["sfen"], game["moves"], index, target_first) == game["moves"]


@pytest.mark.parametrize("seed", range(8))
def test_fresh_random_game(seed: int) -> None:
    sfen, moves = random_game(1000 + seed)
    usis = [m.usi() for m in moves]
    assert len(usis) > 20
    assert _replayed(sfen, usis, seed, False) == usis
