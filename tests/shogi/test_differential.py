"""Differential test: the same legal moves as cshogi on thousands of positions."""

from __future__ import annotations

import random

import cshogi
import pytest

from board_bridge.shogi import Board
from tests.conftest import corpus_games


def _compare(ours: Board, theirs: cshogi.Board) -> int:
    mine = {m.usi() for m in ours.legal_moves}
    other = {cshogi.move_to_usi(m) for m in theirs.legal_moves}
    assert mine == other, (
        f"{ours.sfen()}: only ours {sorted(mine - other)}, only cshogi {sorted(other - mine)}"
    )
    assert ours.is_check() == theirs.is_check()
    return len(mine)


def test_corpus_is_there() -> None:
    assert len(corpus_games()) >= 20


@pytest.mark.parametrize("index", range(26))
def test_same_legal_moves_as_cshogi(index: int) -> None:
    games = corpus_games()
    if index >= len(games):
        pytest.skip("fewer corpus games")
    game = games[index]
    rng = random.Random(index)
    ours, theirs = Board(game["sfen"]), cshogi.Board(game["sfen"])
    positions = 0
    branch_points = []
    for usi in game["moves"]:
        _compare(ours, theirs)
        positions += 1
        branch_points.append(ours.copy())
        ours.push_usi(usi)
        theirs.push_usi(usi)
    # random playouts branching off the game, to reach odd positions (drops, non-promotions)
    for start in rng.sample(branch_points, min(6, len(branch_points))):
        board = start.copy(stack=False)
        other = cshogi.Board(board.sfen())
        for _ in range(60):
            if _compare(board, other) == 0:
                break
            positions += 1
            move = rng.choice(board.legal_moves)
            board.push(move)
            other.push_usi(move.usi())
    assert positions > 100


def test_non_promotions_and_drops_present() -> None:
    board = Board("4k4/9/9/9/9/9/4P4/1B7/4K4 b GSNLPrb 1")
    usis = {m.usi() for m in board.legal_moves}
    assert "8h3c" in usis and "8h3c+" in usis  # bishop may decline promotion
    assert "P*5c" not in usis  # nifu: a pawn already stands on file 5
    assert "L*2a" not in usis and "N*2b" not in usis  # dead pieces
    assert "N*2c" in usis and "G*1a" in usis
