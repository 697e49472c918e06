"""`board-bridge perft`: count the leaf positions of the move tree (a move-generator check)."""

from __future__ import annotations

import argparse
import time

from board_bridge.shogi.board import STARTING_SFEN, Board
from board_bridge.shogi.core import InvalidSfenError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("perft", help="count the positions DEPTH plies down (move-generator check)")
    p.add_argument("depth", type=int, help="plies to search")
    p.add_argument("--sfen", default=STARTING_SFEN, help="start position (default: the standard)")
    p.add_argument("--divide", action="store_true", help="print the count under each root move")
    p.add_argument("--time", action="store_true", help="also print the time and nodes per second")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from board_bridge.cli import CliError

    if args.depth < 0:
        raise CliError("DEPTH must be 0 or more")
    try:
        board = Board(args.sfen)
    except InvalidSfenError as exc:
        raise CliError(str(exc)) from None
    start = time.perf_counter()
    if args.divide and args.depth >= 1:
        total = 0
        for move in board.legal_moves:
            board.push(move)
            n = board.perft(args.depth - 1)
            board.pop()
            total += n
            print(f"{move.usi()}: {n}")
    else:
        total = board.perft(args.depth)
    elapsed = time.perf_counter() - start
    print(total)
    if args.time:
        nps = total / elapsed if elapsed > 0 else float("inf")
        print(f"{elapsed:.3f} s, {nps:,.0f} nodes/s")
    return 0
