"""Tracker speed on a board left in a state nothing explains: prints the time per event.

A player knocks pieces off the board in the middle of a game, and the board stays wrong
while hands touch, lift and put back the pieces around them; then the knocked pieces are
put back and the game goes on. The tracker cannot read a move from such a board: it
looks, at every event, for the moves the board's states since the last move could show,
and the longer the board stays wrong the more states there are. The LEDs must still react
at once (a Raspberry Pi Zero 2 W is about ten times slower than a desktop).

For each corpus game, the simulator's noisy log (board_bridge.tracker.simulate) is cut at
the first pause after ``--after`` moves; there ``--knocked`` pieces are knocked off, and
``--touches`` touches follow (half put back where they were, with ``--wander`` also
half set down elsewhere and put back later), about 0.5 s apart; then the board is put
right and the rest of the log is fed. Prints the time per event while the board was
wrong (mean, p99, the worst) and whether every game was still read right.
Usage: python bench/stuck.py [--games K] [--seeds N] [--touches M] [--knocked P] [--wander]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time

from replay import load_games  # bench/replay.py, beside this script: the corpus, found alike

from board_bridge.tracker import Tracker
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame
from board_bridge.tracker.simulate import Noise, simulate

EMPTY = "."


def disturbed(
    events: list[SensorEvent],
    sfen: str,
    after: int,
    knocked: int,
    touches: int,
    wander: bool,
    seed: int,
) -> tuple[list[SensorEvent], int, int] | None:
    """The log with the disturbance put in, and where it begins and ends (event indices);
    None if the game has no pause after ``after`` moves."""
    tracker = Tracker(sfen)
    cells = ""
    cut = None
    for k, event in enumerate(events[:-1]):
        tracker.feed(event)
        if isinstance(event, SensorFrame):
            cells = event.cells
        if len(tracker.moves) >= after and events[k + 1].t - event.t >= 1.0:
            cut = k
            break
    if cut is None or not cells:
        return None
    rng = random.Random(seed)
    t = events[cut].t + 0.5
    board = list(cells)
    out: list[SensorEvent] = list(events[: cut + 1])

    def show() -> None:
        out.append(SensorFrame(round(t, 3), "".join(board)))

    occupied = [i for i, c in enumerate(board) if c != EMPTY]
    off = rng.sample(occupied, knocked)
    kept = {i: board[i] for i in off}
    for i in off:
        board[i] = EMPTY
        t += rng.uniform(0.02, 0.3)
        show()
    begin = len(out) - knocked
    away: dict[int, tuple[int, str]] = {}  # square set down on -> (its own square, cell)
    for _ in range(touches):
        if away and rng.random() < 0.3:
            at, (home, cell) = away.popitem()
            t += rng.uniform(0.2, 0.6)
            board[at] = EMPTY
            show()
            t += rng.uniform(0.1, 0.5)
            board[home] = cell
            show()
            continue
        here = [i for i, c in enumerate(board) if c != EMPTY and i not in away]
        i = rng.choice(here)
        cell = board[i]
        t += rng.uniform(0.1, 0.6)
        board[i] = EMPTY
        show()
        t += rng.uniform(0.05, 0.4)
        homes = {home for home, _ in away.values()}
        empties = [
            j for j, c in enumerate(board) if c == EMPTY and j not in kept and j not in homes
        ]
        empties = [j for j in empties if j != i]
        if wander and rng.random() < 0.5 and empties:
            j = rng.choice(empties)
            away[j] = (i, cell)
            board[j] = cell
        else:
            board[i] = cell
        show()
    for at, (home, cell) in away.items():
        t += rng.uniform(0.2, 0.6)
        board[at] = EMPTY
        board[home] = cell
        show()
    for i, cell in kept.items():
        t += rng.uniform(0.3, 1.0)
        board[i] = cell
        show()
    end = len(out)
    assert "".join(board) == cells
    shift = t + 2.0 - events[cut + 1].t
    for event in events[cut + 1 :]:
        if isinstance(event, SensorFrame):
            out.append(SensorFrame(round(event.t + shift, 3), event.cells))
        else:
            out.append(PlayerInput(round(event.t + shift, 3), event.value))
    return out, begin, end


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="the first K games (0: all)")
    parser.add_argument("--seeds", type=int, default=1, help="noisy logs per game")
    parser.add_argument("--after", type=int, default=20, help="moves before the knock")
    parser.add_argument("--knocked", type=int, default=3, help="pieces knocked off")
    parser.add_argument("--touches", type=int, default=120, help="touches while wrong")
    parser.add_argument("--wander", action="store_true", help="touched pieces also moved")
    args = parser.parse_args()
    games = load_games()
    if args.games:
        games = games[: args.games]
    logs = []
    for game in games:
        sfen = str(game["sfen"])
        moves = [str(m) for m in game["moves"]]  # type: ignore[attr-defined]
        if len(moves) <= args.after + 1:
            continue
        for seed in range(args.seeds):
            events = simulate(moves, sfen, seed=seed, noise=Noise()).events
            made = disturbed(
                events, sfen, args.after, args.knocked, args.touches, args.wander, seed
            )
            if made is not None:
                logs.append((sfen, moves, *made))
    gc.collect()
    gc.freeze()
    wrong_times: list[float] = []
    spans: list[float] = []
    wrong = 0
    clock = time.perf_counter
    for sfen, moves, events, begin, end in logs:
        tracker = Tracker(sfen)
        for k, event in enumerate(events):
            t0 = clock()
            tracker.feed(event)
            if begin <= k < end:
                wrong_times.append(clock() - t0)
        tracker.finish(events[-1].t)
        spans.append(events[end - 1].t - events[begin].t)
        wrong += [m.usi() for m in tracker.moves] != moves
    if not logs:
        sys.exit("no game long enough")
    wrong_times.sort()
    p99 = wrong_times[int(len(wrong_times) * 0.99)]
    print(
        f"{len(logs)} logs, the board wrong for {statistics.mean(spans):.0f} s each "
        f"({args.knocked} pieces off, {args.touches} touches"
        f"{', some moved' if args.wander else ''})"
    )
    print(f"per event while wrong: mean {statistics.mean(wrong_times) * 1e3:.2f} ms")
    print(f"p99 per event while wrong: {p99 * 1e3:.2f} ms")
    print(f"worst event: {wrong_times[-1] * 1e3:.2f} ms")
    print(f"games read right after the board was put right: {len(logs) - wrong}/{len(logs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
