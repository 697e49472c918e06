"""Daemon latency and idle CPU: event completing a move -> acknowledging LED frame; idle load.

Latency runs the real daemon wiring in this process (simulated board -> tracker -> journal
with fsync -> recording LED sink) while a virtual hand plays a game from the corpus, and
measures, for every move, the time from the sensor frame that completes it (the piece set
down, or the answer to a question) to the first LED frame showing the move acknowledged
(its LAST_MOVE marks). The tracker's own settle time, if it has one, is part of that time
and printed beside it.

Idle CPU starts `board-bridge run` as a subprocess on the simulated board with nothing
happening, and reads its CPU time from /proc over a few seconds.

    python bench/latency.py [--moves N] [--idle-seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from board_bridge.app.config import parse_config  # noqa: E402
from board_bridge.app.daemon import Daemon  # noqa: E402
from board_bridge.app.demo import DEMO_GAME  # noqa: E402
from board_bridge.app.player import ScriptedPlayer  # noqa: E402
from board_bridge.app.simulated import SimulatedBoard  # noqa: E402
from board_bridge.app.sinks import RecordingSink, ShownFrame  # noqa: E402
from board_bridge.tracker import TrackerParams  # noqa: E402
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame  # noqa: E402
from board_bridge.tracker.intents import Mark  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


async def measure_latency(
    moves: int, directory: Path
) -> tuple[list[tuple[float, float]], list[float]]:
    config = parse_config(
        {
            "board": {"source": "simulated"},
            "leds": {"sink": "record"},
            "game": {"max_games": 1},
            "records": {"directory": str(directory)},
            "daemon": {"log_level": "warning"},
        }
    )
    board = SimulatedBoard(step_delay=0.06)
    sink = RecordingSink()
    daemon = Daemon(config, source=board, sink=sink)
    last_event: list[SensorEvent] = []
    latencies: list[tuple[float, float]] = []  # (from the event, from the settle deadline)
    params = TrackerParams()
    journal_times: list[float] = []
    acked: set[int] = set()

    def on_emit(event: SensorEvent) -> None:
        if isinstance(event, SensorFrame | PlayerInput):
            last_event[:] = [event]

    def on_show(frame: ShownFrame) -> None:
        game = daemon.game
        if game is None or not game.moves or not last_event:
            return
        n = len(game.moves)
        move = game.moves[-1].move
        if n in acked or frame.intents.mark(move.to_square) is not Mark.LAST_MOVE:
            return
        acked.add(n)
        event = last_event[0]
        total = (frame.t - event.t) * 1000
        # the tracker decides once the board has been still for its settle time (longer
        # for a capture); an answer to a question decides at once
        before = game.board  # a copy: the position before the move
        before.pop()
        if isinstance(event, PlayerInput):
            wait = 0.0
        elif before.piece_at(move.to_square) is not None:
            wait = params.capture_settle
        else:
            wait = params.settle
        latencies.append((total, total - wait * 1000))

    board.on_emit = on_emit
    sink.on_show = on_show
    player = ScriptedPlayer(daemon, board, colors=(0, 1), script=DEMO_GAME, max_moves=moves)
    run = asyncio.create_task(daemon.run())
    await asyncio.wait_for(daemon.ready.wait(), 30)
    await asyncio.wait_for(player.run(), 300)
    await asyncio.wait_for(run, 30)
    journal = daemon.game.journal if daemon.game else None
    if journal is not None:  # how long one journalled move (with fsync) takes here
        path = directory / "fsync-probe"
        for _ in range(20):
            t0 = time.perf_counter()
            with path.open("a") as f:
                f.write("x" * 40 + "\n")
                f.flush()
                os.fsync(f.fileno())
            journal_times.append((time.perf_counter() - t0) * 1000)
    return latencies, journal_times


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def measure_idle_cpu(seconds: float, directory: Path) -> tuple[float, float]:
    config = directory / "idle.toml"
    config.write_text(
        f'[board]\nsource = "simulated"\n[leds]\nsink = "none"\n'
        f'[records]\ndirectory = "{directory / "games"}"\n[daemon]\nlog_level = "warning"\n'
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "board_bridge", "run", "--config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        time.sleep(3.0)  # start-up (imports) and the board's active window
        if proc.poll() is not None:
            raise RuntimeError(
                f"the daemon exited: {proc.stderr.read().decode() if proc.stderr else ''}"
            )
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = cpu_seconds(proc.pid), time.monotonic()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return (c1 - c0) / (t1 - t0) * 100, c1 - c0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        latencies, fsyncs = asyncio.run(measure_latency(args.moves, Path(tmp) / "games"))
        if not latencies:
            print("no move was acknowledged: the bench is broken", file=sys.stderr)
            return 1
        total = [a for a, _ in latencies]
        own = [b for _, b in latencies]
        print(
            f"move -> LED acknowledgement over {len(latencies)} moves (simulated board, real tracker, fsync'd journal):"
        )
        print(f"  tracker: {TrackerParams()}")
        print(
            f"  from the completing event:      p50 {statistics.median(total):7.2f} ms   "
            f"p99 {percentile(total, 99):7.2f} ms   max {max(total):7.2f} ms"
            "   (includes the tracker's settle time)"
        )
        print(
            f"  from the tracker's settle time: p50 {statistics.median(own):7.2f} ms   "
            f"p99 {percentile(own, 99):7.2f} ms   max {max(own):7.2f} ms"
            "   (the daemon's part; goal: p99 < 20 ms)"
        )
        if fsyncs:
            print(
                f"  one fsync'd append here: p50 {statistics.median(fsyncs):.2f} ms, max {max(fsyncs):.2f} ms"
            )
        idle, cpu = measure_idle_cpu(args.idle_seconds, Path(tmp))
        resolution = 100 / os.sysconf("SC_CLK_TCK") / args.idle_seconds
        print(
            f"idle daemon CPU over {args.idle_seconds:g} s: {idle:.2f}% of one core "
            f"({cpu * 1000:.0f} ms of CPU; resolution {resolution:.2f}%)   (goal: < 1%)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
