"""Perft speed: this rules core against python-shogi, the established pure-Python library.

Both are counted the same way (push/pop down the tree, counting the legal moves at the
last ply), on the same positions, in the same run. Prints nodes per second and the ratio.
Usage: python bench/perft.py [--quick]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from board_bridge.shogi import STARTING_SFEN, Board

POSITIONS = [
    ("start", STARTING_SFEN, 3, 25470),
    (
        "207-move position",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        2,
        28684,
    ),
]


def timed(fn: Callable[[], int], repeat: int) -> tuple[int, float]:
    best = float("inf")
    nodes = 0
    for _ in range(repeat):
        start = time.perf_counter()
        nodes = fn()
        best = min(best, time.perf_counter() - start)
    return nodes, best


def python_shogi_perft(sfen: str, depth: int) -> int:
    import shogi  # python-shogi, a test-only dependency

    board = shogi.Board(sfen)

    def perft(d: int) -> int:
        if d == 1:
            return sum(1 for _ in board.legal_moves)
        n = 0
        for move in list(board.legal_moves):
            board.push(move)
            n += perft(d - 1)
            board.pop()
        return n

    return perft(depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the depth-5 run")
    args = parser.parse_args()
    for name, sfen, depth, expected in POSITIONS:
        ours_nodes, ours_s = timed(lambda s=sfen, d=depth: Board(s).perft(d), 3)
        theirs_nodes, theirs_s = timed(lambda s=sfen, d=depth: python_shogi_perft(s, d), 1)
        assert ours_nodes == expected, (name, ours_nodes)
        assert theirs_nodes == expected, (name, theirs_nodes)
        ours_nps, theirs_nps = ours_nodes / ours_s, theirs_nodes / theirs_s
        print(f"perft {name} depth {depth}: {expected} nodes")
        print(f"  board_bridge  {ours_s:8.3f} s  {ours_nps:12,.0f} nodes/s")
        print(f"  python-shogi  {theirs_s:8.3f} s  {theirs_nps:12,.0f} nodes/s")
        print(f"  ratio         {ours_nps / theirs_nps:8.1f}x")
    if not args.quick:
        nodes, seconds = timed(lambda: Board().perft(5), 1)
        assert nodes == 19861490, nodes
        print(
            f"perft start depth 5: {nodes} nodes, {seconds:.1f} s, {nodes / seconds:,.0f} nodes/s"
        )


if __name__ == "__main__":
    main()
