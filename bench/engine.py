"""Engine client figures: info parsing speed, start-up, isready round trip, byoyomi overshoot.

Runs against the real engines when installed (Fairy-Stockfish, GPSShogi; skipped with a
note otherwise) and times the supervisor's restart on a crashing fake engine.
Usage: python bench/engine.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from board_bridge.engine import EngineConfig, Limit, ManagedEngine, RestartPolicy, UsiEngine
from board_bridge.engine.protocol import parse_info

MIDGAME = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1"
INFO_LINE = (
    "info depth 11 seldepth 16 multipv 1 score cp -110 nodes 30330 nps 244596 tbhits 0 "
    "time 124 pv 5a4b 4g4f 3c3d 8h2b 3a2b 7i7h 4a5b B*7g B*3c 7g3c 2b3c B*6f"
)
FAKE = Path(__file__).resolve().parent.parent / "tests" / "engine" / "fake_engine.py"


def bench_parse(count: int) -> None:
    started = time.perf_counter()
    for _ in range(count):
        parse_info(INFO_LINE)
    elapsed = time.perf_counter() - started
    print(f"parse_info: {count / elapsed:,.0f} lines/s ({elapsed / count * 1e6:.1f} us/line)")


async def bench_engine(name: str, pings: int, searches: int) -> None:
    path = shutil.which(name) or shutil.which(name, path="/usr/games")
    if path is None:
        print(f"{name}: not installed, skipped")
        return
    started = time.perf_counter()
    async with UsiEngine(path) as engine:
        startup = time.perf_counter() - started
        rtts = []
        for _ in range(pings):
            t = time.perf_counter()
            await engine.ping()
            rtts.append(time.perf_counter() - t)
        print(
            f"{name}: start to readyok {startup:.2f} s; isready round trip median "
            f"{statistics.median(rtts) * 1000:.2f} ms (n={pings})"
        )
        for byoyomi in (200, 500):
            taken = []
            for _ in range(searches):
                t = time.perf_counter()
                await engine.play(MIDGAME, [], Limit(btime=0, wtime=0, byoyomi=byoyomi))
                taken.append(time.perf_counter() - t)
            print(
                f"{name}: byoyomi {byoyomi} ms -> bestmove after median "
                f"{statistics.median(taken) * 1000:.0f} ms, max {max(taken) * 1000:.0f} ms "
                f"(n={searches})"
            )


async def bench_restart() -> None:
    marker = Path(tempfile.mkdtemp(prefix="board-bridge-bench-")) / "crashed"
    config = EngineConfig(
        path=sys.executable, args=(str(FAKE), "--crash-after", "0", "--once-file", str(marker))
    )
    try:
        async with ManagedEngine(config, policy=RestartPolicy(backoff=0.0)) as managed:
            t = time.perf_counter()
            await managed.play("startpos", [], Limit(btime=0, wtime=0, byoyomi=10))
            elapsed = time.perf_counter() - t
        print(f"supervisor: crash, restart, retry and bestmove in {elapsed * 1000:.0f} ms")
    finally:
        marker.unlink(missing_ok=True)
        marker.parent.rmdir()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    logging.getLogger("board_bridge.engine").setLevel(logging.CRITICAL)  # the crash is on purpose
    bench_parse(20_000 if args.quick else 200_000)
    pings, searches = (10, 2) if args.quick else (50, 5)
    for name in ("fairy-stockfish", "gpsusi"):
        asyncio.run(bench_engine(name, pings, searches))
    asyncio.run(bench_restart())


if __name__ == "__main__":
    main()
