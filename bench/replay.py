"""Tracker speed: replays simulated noisy corpus games and prints events/s, p99 per event, and a 100-move game.

The corpus (../shared/games/corpus.jsonl) is turned into noisy sensor logs by the
simulator (board_bridge.tracker.simulate, realistic noise), then each log is fed to a new
Tracker, timing every call. A Raspberry Pi Zero 2 W is about ten times slower than a
desktop: the goal is a p99 under 2 ms per event here and a 100-move game under 1 s.
Usage: python bench/replay.py [--seeds N] [--games K] [--sensing occupancy|polarity|identity]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

from board_bridge.tracker import Tracker
from board_bridge.tracker.positions import SENSINGS
from board_bridge.tracker.simulate import Noise, simulate

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BOARD_BRIDGE_SHARED", ROOT.parent / "shared"))


def load_games() -> list[dict[str, object]]:
    path = SHARED / "games" / "corpus.jsonl"
    if not path.exists():
        sys.exit(f"corpus not found: {path} (set BOARD_BRIDGE_SHARED)")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def time_replay(events: list, sfen: str, sensing: str) -> tuple[list[float], float, list[str]]:
    """Per-call times (s), the total, and the moves found."""
    tracker = Tracker(sfen, sensing=sensing)
    times = []
    clock = time.perf_counter
    start = clock()
    for event in events:
        t0 = clock()
        tracker.feed(event)
        times.append(clock() - t0)
    t0 = clock()
    tracker.finish(events[-1].t)
    times.append(clock() - t0)
    total = clock() - start
    return times, total, [m.usi() for m in tracker.moves]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2, help="noisy logs per game")
    parser.add_argument("--games", type=int, default=0, help="only the first K games (0: all)")
    parser.add_argument("--sensing", default="occupancy", choices=SENSINGS)
    args = parser.parse_args()
    corpus = load_games()
    games = corpus[: args.games] if args.games else corpus
    noise = Noise()
    logs = []
    for game in games:
        sfen = str(game["sfen"])
        moves = [str(m) for m in game["moves"]]  # type: ignore[attr-defined]
        for seed in range(args.seeds):
            events = simulate(moves, sfen, seed=seed, noise=noise, sensing=args.sensing).events
            logs.append((sfen, moves, events))
    # the logs are kept apart from the collector's work: a daemon holds one game, not
    # hundreds of logs, and its collections are correspondingly short
    gc.collect()
    gc.freeze()
    all_times: list[float] = []
    wrong = 0
    total = 0.0
    for sfen, moves, events in logs:
        times, elapsed, found = time_replay(events, sfen, args.sensing)
        all_times += times
        total += elapsed
        wrong += found != moves
    all_times.sort()
    n = len(all_times)
    p99 = all_times[min(n - 1, int(n * 0.99))]
    p999 = all_times[min(n - 1, int(n * 0.999))]
    print(f"corpus under noise: {len(games)} games x {args.seeds} seeds ({args.sensing})")
    print(f"events: {n}, {n / total:,.0f} events/s")
    print(
        f"per event: median {statistics.median(all_times) * 1e6:.0f} us, "
        f"p99 {p99 * 1e3:.3f} ms, p99.9 {p999 * 1e3:.3f} ms, max {all_times[-1] * 1e3:.2f} ms"
    )
    # a 100-move game: the first 100 moves of the corpus's longest engine game (whatever
    # --games took), realistic noise
    engine = max((g for g in corpus if g.get("source") == "engine"), key=lambda g: len(g["moves"]))  # type: ignore[arg-type]
    moves = [str(m) for m in engine["moves"]][:100]  # type: ignore[index]
    runs = []
    for seed in range(5):
        events = simulate(moves, str(engine["sfen"]), seed=seed, sensing=args.sensing).events
        _times, elapsed, found = time_replay(events, str(engine["sfen"]), args.sensing)
        runs.append(elapsed)
        wrong += found != moves
    print(
        f"100-move noisy game: {statistics.median(runs) * 1e3:.0f} ms median of 5 "
        f"({len(events)} events), max {max(runs) * 1e3:.0f} ms"
    )
    if wrong:
        print(f"WARNING: {wrong} replay(s) did not give the true moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
