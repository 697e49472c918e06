"""Replay the fourth generator's logs (pawgen), the fifth's (clubgen, ``--gen club``), the
sixth's (dojogen, ``--gen dojo``) or the seventh's (physgen, ``--gen phys``), of every corpus
game and report each miss.

Usage: python -m tests.tracker.check_pawgen FIRST N [--gen paw|club|dojo|phys] [--pace P]
[--noise X] [--sensing S] [--scan HZ] [--regret R] [--rates knock=0,...] [--games 0,3,5]
[--notes] [--dump GI SEED FILE]. Seeds FIRST..FIRST+N-1; game GI of seed S is generated with seed
S*100+GI. ``--notes`` prints what the hands did around a miss; ``--dump`` writes one log
(and its notes) to replay or inspect. ``--regret`` is the fourth generator's only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from board_bridge.tracker import replay
from board_bridge.tracker.log import write_log
from tests.conftest import shared_path
from tests.tracker import clubgen, dojogen, pawgen, physgen


def load_games() -> list[dict]:
    with shared_path("games", "corpus.jsonl").open() as f:
        return [json.loads(line) for line in f if line.strip()]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("first", type=int, nargs="?", default=1)
    ap.add_argument("n", type=int, nargs="?", default=1)
    ap.add_argument("--gen", choices=("paw", "club", "dojo", "phys"), default="paw")
    ap.add_argument("--pace", type=float, default=1.0)
    ap.add_argument("--noise", type=float, default=1.0)
    ap.add_argument("--sensing", default="occupancy")
    ap.add_argument("--scan", type=float, default=None)
    ap.add_argument("--regret", type=float, default=0.0)
    ap.add_argument("--rates", default=None, help='noise rate overrides, e.g. "knock=0,nudge=0"')
    ap.add_argument("--games", default=None, help="comma-separated game indices")
    ap.add_argument("--dump", nargs=3, metavar=("GI", "SEED", "FILE"))
    ap.add_argument("--notes", action="store_true", help="print hand notes around mismatches")
    a = ap.parse_args()
    games = load_games()
    rates = (
        {k: float(v) for k, v in (kv.split("=") for kv in a.rates.split(","))} if a.rates else None
    )

    def gen(
        gi: int, seed: int
    ) -> pawgen.Generated | clubgen.Generated | dojogen.Generated | physgen.Generated:
        g = games[gi]
        if a.gen == "phys":
            return physgen.generate_annotated(
                g["moves"], g["sfen"], seed * 100 + gi, a.sensing, a.pace, a.noise, a.scan, rates
            )
        if a.gen == "dojo":
            return dojogen.generate_annotated(
                g["moves"], g["sfen"], seed * 100 + gi, a.sensing, a.pace, a.noise, a.scan, rates
            )
        if a.gen == "club":
            return clubgen.generate_annotated(
                g["moves"], g["sfen"], seed * 100 + gi, a.sensing, a.pace, a.noise, a.scan, rates
            )
        return pawgen.generate_annotated(
            g["moves"],
            g["sfen"],
            seed * 100 + gi,
            a.sensing,
            a.pace,
            a.noise,
            a.scan,
            a.regret,
            rates,
        )

    if a.dump:
        gi, seed, path = int(a.dump[0]), int(a.dump[1]), a.dump[2]
        res = gen(gi, seed)
        n = write_log(res.events, path)
        with open(path + ".notes", "w") as f:
            for k, (usi, note, mark) in enumerate(
                zip(games[gi]["moves"], res.notes, res.marks, strict=True)
            ):
                f.write(f"ply {k + 1} {usi} done@{mark:.3f}: {'; '.join(note)}\n")
        print(f"wrote {n} events to {path} (notes in {path}.notes)")
        return 0

    idx = [int(x) for x in a.games.split(",")] if a.games else range(len(games))
    exact = total = 0
    t0 = time.time()
    for seed in range(a.first, a.first + a.n):
        for gi in idx:
            g = games[gi]
            res = gen(gi, seed)
            tr, _outs = replay(res.events, g["sfen"], sensing=a.sensing)
            got = [m.usi() for m in tr.board.move_stack]
            want = g["moves"]
            unres = tr.unresolved()
            total += 1
            if got == want and unres is None:
                exact += 1
                continue
            k = next(
                (i for i, (x, y) in enumerate(zip(got, want)) if x != y), min(len(got), len(want))
            )
            lo = max(0, k - 2)
            print(
                f"MISMATCH game {gi} seed {seed} (log seed {seed * 100 + gi}) ply {k + 1}: "
                f"got {got[lo : k + 3]} want {want[lo : k + 3]} (len {len(got)}/{len(want)}) "
                f"unresolved={unres!r}"
            )
            if a.notes:
                for j in range(max(0, k - 1), min(len(want), k + 2)):
                    print(
                        f"    ply {j + 1} {want[j]} done@{res.marks[j]:.3f}: {'; '.join(res.notes[j])}"
                    )
            sys.stdout.flush()
    print(f"{exact}/{total} exact ({time.time() - t0:.0f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
