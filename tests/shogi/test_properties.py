"""Property tests: push/pop and the incremental position key stay consistent."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from board_bridge.shogi import STARTING_SFEN, Board


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 120))
def test_random_playout_round_trips(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = Board()
    sfens = []
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        sfens.append(board.sfen())
        move = rng.choice(moves)
        board.push(move)
        # the incremental key equals the key of the same position built from scratch
        assert board.position_key() == Board(board.sfen()).position_key()
        # the SFEN round-trips
        assert Board(board.sfen()).sfen() == board.sfen()
    while sfens:
        board.pop()
        assert board.sfen() == sfens.pop()
    assert board.sfen() == STARTING_SFEN
