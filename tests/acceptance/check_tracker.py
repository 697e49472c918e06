"""Replay games through the independent virtual hand and report every mismatch.

Usage: python -m tests.acceptance.check_tracker [--seeds N] [--first-seed S] [--only KIND]
[--random N] [--first-random R] [--pace F] [--extra] [--polarity|--identity] [--rich] [--overlap]
[--scan HZ] (KIND: one noise kind at a raised rate, the others off; F: every human time
multiplied by F, 0.5 a fast player, 2 a slow one; see handgen.Noise; HZ: each log as the
Pi's own matrix scan at that rate reports it, see scanned.through_gpio).
"""

from __future__ import annotations

import argparse
import json
import time
import traceback
from dataclasses import fields

from board_bridge.shogi import Move
from board_bridge.tracker import replay
from board_bridge.tracker.events import SensorEvent
from tests.acceptance.handgen import Noise, make_log, random_game
from tests.acceptance.scanned import through_gpio
from tests.conftest import SHARED

RAISED = {
    "correction": 0.3,
    "illegal": 0.2,
    "retract": 0.2,
    "knock": 0.4,
    "hover": 0.4,
    "touch": 0.3,
    "hold": 0.5,
    "fast_capture": 0.6,
    "adjust": 0.3,
    "drop_correction": 0.5,
    "illegal_drop": 0.15,
    "takeback": 0.1,
    "overlap": 0.5,
}


# the kinds the default noise leaves off, at everyday rates (--extra)
EXTRA = {"adjust": 0.05, "drop_correction": 0.1, "illegal_drop": 0.03, "takeback": 0.02}
OVERLAP = 0.3  # --overlap: the share of moves to a neighbouring square pushed, not lifted


def noise_for(
    only: str | None,
    pace: float = 1.0,
    extra: bool = False,
    rich: bool = False,
    overlap: bool = False,
) -> Noise:
    more = {"rich": float(rich)}
    if overlap:
        more["overlap"] = OVERLAP
    if only is None:
        return Noise(pace=pace, **more, **(EXTRA if extra else {}))
    off = {f.name: 0.0 for f in fields(Noise) if f.name in RAISED}
    off[only] = RAISED[only]
    return Noise(**{**off, **more}, pace=pace)


def check(
    sfen: str,
    want: list[str],
    seed: int,
    noise: Noise,
    target_first: bool,
    sensing: str = "occupancy",
    scan_hz: float | None = None,
) -> str | None:
    """None if the game's log replays to exactly ``want`` and ends resolved, else why not.
    ``scan_hz``: the log as the Pi's own matrix scan at that rate reports it."""
    log = make_log(sfen, [Move.from_usi(u) for u in want], seed, noise, target_first, sensing)
    if scan_hz is not None:
        log = through_gpio(log, scan_hz)
    return verdict(log, sfen, want, sensing)


def verdict(
    log: list[SensorEvent], sfen: str, want: list[str], sensing: str = "occupancy"
) -> str | None:
    """None if ``log`` replays to exactly ``want`` and ends resolved, else why not."""
    tracker, _outs = replay(log, sfen, sensing=sensing)
    got = [m.usi() for m in tracker.board.move_stack]
    if got == want and tracker.unresolved() is None:
        return None
    k = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return (
        f"ply {k}: got {got[k : k + 3]} want {want[k : k + 3]} ({len(got)}/{len(want)}); "
        f"{tracker.unresolved()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--first-seed", type=int, default=0, help="fresh seeds start here")
    parser.add_argument("--only", choices=sorted(RAISED))
    parser.add_argument("--random", type=int, default=10, help="fresh random games too")
    parser.add_argument("--first-random", type=int, default=0, help="first random game's number")
    parser.add_argument("--pace", type=float, default=1.0, help="human times multiplied by")
    parser.add_argument("--extra", action="store_true", help="the default noise and " + str(EXTRA))
    parser.add_argument("--polarity", action="store_true", help="a board that reads faces (u/p)")
    parser.add_argument("--identity", action="store_true", help="a board that reads kinds (K, t)")
    parser.add_argument("--rich", action="store_true", help="noise inside every capture too")
    parser.add_argument("--overlap", action="store_true", help="pieces pushed to the next square")
    parser.add_argument("--scan", type=float, metavar="HZ", help="through the Pi's scan at HZ")
    args = parser.parse_args()
    if args.scan is not None and (args.polarity or args.identity):
        parser.error("--scan reads occupancy boards only")
    noise = noise_for(args.only, args.pace, args.extra, args.rich, args.overlap)
    games = [json.loads(line) for line in (SHARED / "games" / "corpus.jsonl").open()]
    cases = []
    for gi, game in enumerate(games):
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            for target_first in (False, True):
                cases.append(
                    (
                        f"corpus {gi} seed {seed} tf {target_first}",
                        game["sfen"],
                        game["moves"],
                        seed * 100 + gi,
                        target_first,
                    )
                )
    for i in range(args.first_random, args.first_random + args.random):
        sfen, moves = random_game(1000 + i)
        cases.append((f"random {i}", sfen, [m.usi() for m in moves], i, False))
    sensing = "identity" if args.identity else "polarity" if args.polarity else "occupancy"
    start = time.perf_counter()
    bad = 0
    for name, sfen, want, seed, target_first in cases:
        try:
            problem = check(sfen, want, seed, noise, target_first, sensing, args.scan)
        except Exception as exc:  # (a crash is a miss too, and names its log)
            traceback.print_exc()
            problem = f"the tracker crashed: {exc!r}"
        if problem:
            bad += 1
            print(f"{name}: {problem}")
    print(f"{len(cases) - bad}/{len(cases)} exact in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
