"""Perft against published node counts."""

from __future__ import annotations

import pytest

from board_bridge.cli import main
from board_bridge.shogi import STARTING_SFEN, Board

CASES = [
    (STARTING_SFEN, [30, 900, 25470, 719731]),
    ("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", [593, 105677]),
    (
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        [207, 28684],
    ),
    ("9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1", [524, 248257]),
]


@pytest.mark.parametrize(("sfen", "counts"), CASES)
def test_perft(sfen: str, counts: list[int]) -> None:
    board = Board(sfen)
    for depth, expected in enumerate(counts, start=1):
        assert board.perft(depth) == expected, f"depth {depth}"
    assert board == Board(sfen)  # perft leaves the position as it found it


def test_perft_divide_sums_to_total() -> None:
    board = Board()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += board.perft(2)
        board.pop()
    assert total == 25470


def test_perft_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "3"]) == 0
    assert capsys.readouterr().out.strip() == "25470"
    assert main(["perft", "2", "--sfen", CASES[3][0]]) == 0
    assert capsys.readouterr().out.strip() == "248257"


def test_perft_command_bad_sfen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "1", "--sfen", "not an sfen"]) == 1
    err = capsys.readouterr().err
    assert "SFEN" in err and "Traceback" not in err
