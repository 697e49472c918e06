"""A game writer for the journal crash test: run as a script, it records a game move by
move as fast as it can and prints ``ack N`` after operation N returned (is on disk)."""

from __future__ import annotations

import json
import random
import sys
from typing import Any


def operations(moves: list[str], seed: int) -> list[tuple[Any, ...]]:
    """The operations the writer performs: moves, and now and then a retraction or a
    correction of the last move (always leaving a legal game)."""
    rng = random.Random(seed)
    ops: list[tuple[Any, ...]] = []
    for i, usi in enumerate(moves):
        t = round(rng.uniform(0, 30), 3)
        ops.append(("move", usi, t))
        r = rng.random()
        if r < 0.08:
            ops.append(("retract",))
            ops.append(("move", usi, t + 1))
        elif r < 0.16:
            ops.append(("correct", usi, t + 2))
        elif r < 0.2:
            ops.append(("comment", f"move {i + 1}"))
    return ops


def states(moves: list[str], seed: int) -> list[list[tuple[str, float]]]:
    """The game (usi, time) after each operation; states[0] is the empty game."""
    out: list[list[tuple[str, float]]] = [[]]
    cur: list[tuple[str, float]] = []
    for op in operations(moves, seed):
        if op[0] == "move":
            cur = [*cur, (op[1], op[2])]
        elif op[0] == "retract":
            cur = cur[:-1]
        elif op[0] == "correct":
            cur = [*cur[:-1], (op[1], op[2])]
        out.append(cur)
    return out


def main() -> int:
    from board_bridge.records.journal import GameJournal
    from board_bridge.shogi import Move, Outcome, Termination

    directory, seed, moves_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(moves_file, encoding="utf-8") as f:
        moves = json.load(f)
    journal = GameJournal.create(directory, {"sente": "writer", "gote": f"seed {seed}"})
    print(f"ready {journal.path}", flush=True)
    for n, op in enumerate(operations(moves, seed)):
        if op[0] == "move":
            journal.append_move(Move.from_usi(op[1]), op[2], float(n))
        elif op[0] == "retract":
            journal.retract_last(float(n))
        elif op[0] == "correct":
            journal.correct_last(Move.from_usi(op[1]), op[2], float(n))
        else:
            journal.comment(op[1])
        print(f"ack {n}", flush=True)
    paths = journal.finish(Outcome(Termination.ABORT, None), 0.0)
    print("finished " + " ".join(str(p) for p in paths), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
