"""The tracker against an independent virtual hand (not the tracker's own simulator).

Issue 3's acceptance: logs from a generator the tracker was not tuned on replay to exactly
the true moves. Every corpus game with both capture lift orders at the generator's default
noise; fresh random games; slow hands (every human time x1.5 and x2.5); and each noise kind
alone at a raised rate. (The one kind left out at a raised rate, an opponent's touch within
a second or two of a capture that could be a held attacker, is a real ambiguity of
occupancy boards: see docs/tracker.md, "Limits"; ``python -m
tests.acceptance.check_tracker --only touch`` measures it.)
"""

from __future__ import annotations

import pytest

from tests.acceptance.check_tracker import RAISED, check, noise_for
from tests.acceptance.handgen import Noise, random_game
from tests.conftest import corpus_games

GAMES = corpus_games()


def _replayed(sfen: str, moves: list[str], seed: int, noise: Noise, target_first: bool) -> None:
    problem = check(sfen, moves, seed, noise, target_first)
    assert problem is None, problem


def test_the_corpus_is_there() -> None:
    assert len(GAMES) == 26


@pytest.mark.parametrize("target_first", [False, True])
@pytest.mark.parametrize("index", range(len(GAMES)))
def test_corpus_game(index: int, target_first: bool) -> None:
    game = GAMES[index]
    _replayed(game["sfen"], game["moves"], index, Noise(), target_first)


@pytest.mark.parametrize("seed", range(8))
def test_fresh_random_game(seed: int) -> None:
    sfen, moves = random_game(1000 + seed)
    usis = [m.usi() for m in moves]
    assert len(usis) > 20
    _replayed(sfen, usis, seed, Noise(), False)


@pytest.mark.parametrize("pace", [1.5, 2.5])
@pytest.mark.parametrize("index", range(len(GAMES)))
def test_slow_hands(index: int, pace: float) -> None:
    game = GAMES[index]
    _replayed(game["sfen"], game["moves"], 100 + index, noise_for(None, pace), index % 2 == 1)


@pytest.mark.parametrize("kind", sorted(k for k in RAISED if k != "touch"))
@pytest.mark.parametrize("index", range(len(GAMES)))
def test_one_noise_kind_raised(index: int, kind: str) -> None:
    game = GAMES[index]
    _replayed(game["sfen"], game["moves"], index, noise_for(kind), False)
