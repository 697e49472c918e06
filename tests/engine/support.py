"""Helpers for the engine tests: the fake engine's command line, legality, zombie checks."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from board_bridge.engine import Timeouts

FAKE_ENGINE = Path(__file__).with_name("fake_engine.py")

#: Short but safe timeouts for the fake engine (it answers in milliseconds).
FAST = Timeouts(
    startup=5.0,
    ready=5.0,
    stop=2.0,
    search_margin=1.0,
    search_margin_ratio=0.0,
    unbounded_search=5.0,
    quit=1.0,
    terminate=0.5,
    write=2.0,
)

STARTING_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#: A middlegame position out of the engines' opening books (bishops exchanged).
MIDGAME_SFEN = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1"
#: Gote to move and checkmated (gold on 1b guarded by the pawn on 1c).
MATED_SFEN = "8k/8G/8P/9/9/9/9/9/K8 w - 1"
#: Sente to move mates in one with a gold drop.
MATE_IN_ONE_SFEN = "8k/9/7G1/9/9/9/9/9/K8 b G 1"


def fake_command(*flags: str) -> list[str]:
    return [sys.executable, str(FAKE_ENGINE), *flags]


def _sfen(position: str) -> str:
    return STARTING_SFEN if position == "startpos" else position.removeprefix("sfen ")


def is_legal(position: str, moves: Sequence[str], move: str) -> bool:
    """Whether ``move`` is legal after ``moves`` from ``position``, by the rules core
    (cshogi stands in while the rules core is absent)."""
    try:
        from board_bridge.shogi import Board, Move
    except ImportError:  # pragma: no cover - the rules core is part of the project
        import cshogi

        board = cshogi.Board(_sfen(position))
        for played in moves:
            board.push_usi(played)
        return bool(board.is_legal(board.move_from_usi(move)))
    board = Board(_sfen(position))
    for played in moves:
        board.push_usi(played)
    try:
        candidate = Move.from_usi(move)
    except ValueError:
        return False
    return bool(board.is_legal(candidate))


def process_gone(pid: int) -> bool:
    """True when ``pid`` has exited and been reaped (no zombie left behind)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    # Still listed: fine only if it is no longer our child (the pid was reused).
    ppid = next((line for line in status.splitlines() if line.startswith("PPid:")), "")
    return ppid.split()[-1:] != [str(os.getpid())]
