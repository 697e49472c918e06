"""A deliberately broken USI engine for the client's fault tests (run with sys.executable).

It knows no shogi: it answers every search with ``--bestmove`` (7g7f by default) after
``--think`` milliseconds, printing a few info lines. Flags make it misbehave:

  --exit-at-start         print an error on stderr and exit 2 before saying anything
  --no-usiok              announce its id and options, then never send usiok
  --startup-delay S       sleep S seconds before answering usi
  --ready-delay S         answer isready after S seconds, sending blank lines meanwhile
  --garbage               sprinkle garbage (invalid UTF-8, a 2 MB line, broken info,
                          chatter) everywhere, yet answer correctly
  --stderr-flood BYTES    write BYTES to stderr before usiok (a pipe nobody drains fills)
  --crash-after N         exit 3 in the middle of search number N+1 (0 = the first)
  --hang-after N          search number N+1 never ends: ignores stop, quit and SIGTERM
  --think MS              think MS per search (default 20; less if byoyomi/movetime say so)
  --bestmove MOVE         answer MOVE (resign, win, zz99, an illegal move, ...)
  --once-file PATH        the fault flags above apply only if PATH does not exist yet
                          (it is created when a fault fires): a restarted engine is healthy
  --log PATH              append every command received to PATH
"""

from __future__ import annotations

import argparse
import os
import queue
import signal
import sys
import threading
import time
from pathlib import Path

OPTIONS = (
    "option name USI_Hash type spin default 256 min 1 max 1024",
    "option name Style type combo default Normal var Solid var Normal var Risky",
    "option name BookFile type string default <empty>",
    "option name Clear Hash type button",
    "option name OwnBook type check default true",
    "option name Skill Level type spin default 20 min 0 max 20",
)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--exit-at-start", action="store_true")
    parser.add_argument("--no-usiok", action="store_true")
    parser.add_argument("--startup-delay", type=float, default=0.0)
    parser.add_argument("--ready-delay", type=float, default=0.0)
    parser.add_argument("--garbage", action="store_true")
    parser.add_argument("--stderr-flood", type=int, default=0)
    parser.add_argument("--crash-after", type=int, default=None)
    parser.add_argument("--hang-after", type=int, default=None)
    parser.add_argument("--bestmove", default="7g7f")
    parser.add_argument("--ponder-move", default="3c3d")
    parser.add_argument("--think", type=int, default=20)
    parser.add_argument("--once-file", default=None)
    parser.add_argument("--log", default=None)
    args = parser.parse_args()

    faulty = True
    if args.once_file is not None:
        faulty = not os.path.exists(args.once_file)

    def fault_fires() -> None:
        if args.once_file is not None:
            Path(args.once_file).touch()

    out = sys.stdout.buffer

    def say(line: str | bytes) -> None:
        out.write(line if isinstance(line, bytes) else line.encode() + b"\n")
        out.flush()

    long_line_sent = False

    def garbage() -> None:
        nonlocal long_line_sent
        if args.garbage:
            if not long_line_sent:
                long_line_sent = True
                say(b"x" * 2_000_000 + b"\n")
            say(b"\xff\xfe\x80 not utf-8 \xe3\x81\n")
            say("info depth x score cp abc nodes -- pv zz99 7g7f 3c3d")
            say("info score mate")
            say("bestmovement is not a word")
            say("   ")
            say("warning: the engine feels odd today")

    if args.exit_at_start:
        sys.stderr.write("fatal: cannot open the opening book\n")
        sys.stderr.flush()
        return 2

    commands: queue.Queue[str | None] = queue.Queue()

    def read_stdin() -> None:
        for raw in sys.stdin:
            line = raw.strip()
            if args.log:
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(line + "\n")
            commands.put(line)
        commands.put(None)

    threading.Thread(target=read_stdin, daemon=True).start()

    searches = 0
    bestmove = args.bestmove if faulty else "7g7f"

    def search(command: str) -> bool:
        """Run one go; False when the engine should end (quit or stdin closed)."""
        nonlocal searches
        number = searches
        searches += 1
        pondering = " ponder" in command
        infinite = " infinite" in command
        if faulty and args.crash_after is not None and number >= args.crash_after:
            fault_fires()
            say("info depth 1 score cp 10 pv 7g7f")
            sys.stderr.write("segmentation fault (pretend)\n")
            sys.stderr.flush()
            os._exit(3)
        if faulty and args.hang_after is not None and number >= args.hang_after:
            fault_fires()
            say("info depth 1 score cp 10 pv 7g7f")
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:  # deaf to everything but SIGKILL
                time.sleep(0.05)
        for depth in range(1, 4):
            say(
                f"info depth {depth} seldepth {depth + 1} score cp {depth * 10} nodes "
                f"{depth * 100} nps 1000 time {depth} pv 7g7f 3c3d"
            )
            garbage()
        think = args.think
        words = command.split()
        for key in ("byoyomi", "movetime"):
            if key in words[:-1]:
                think = min(think, int(words[words.index(key) + 1]))
        deadline = None if (pondering or infinite) else time.monotonic() + think / 1000
        while True:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                item = commands.get(timeout=timeout)
            except queue.Empty:
                break
            if item is None or item == "quit":
                return False
            if item == "stop":
                break
            if item == "ponderhit":
                deadline = time.monotonic() + think / 1000
        if bestmove != "7g7f":
            fault_fires()
        say(f"bestmove {bestmove}" + (f" ponder {args.ponder_move}" if bestmove == "7g7f" else ""))
        return True

    while True:
        command = commands.get()
        if command is None or command == "quit":
            return 0
        if command == "usi":
            time.sleep(args.startup_delay)
            garbage()
            say("id name FakeEngine 1.0")
            say("id author the board-bridge tests")
            for option in OPTIONS:
                say(option)
            garbage()
            if args.stderr_flood:
                chunk = ("stderr noise " * 8 + "\n").encode()
                written = 0
                while written < args.stderr_flood:
                    sys.stderr.buffer.write(chunk)
                    written += len(chunk)
                sys.stderr.flush()
            if args.no_usiok and faulty:
                fault_fires()
                continue
            say("usiok")
        elif command == "isready":
            end = time.monotonic() + args.ready_delay
            while time.monotonic() < end:
                say("")
                time.sleep(0.1)
            garbage()
            say("readyok")
        elif command.startswith("go"):
            if not search(command):
                return 0
        elif command.startswith(("setoption", "position", "usinewgame", "gameover")):
            garbage()
        elif command == "stop":
            pass  # nothing running: ignored, as the protocol says
        elif command:
            say(f"info string unknown command {command}")


if __name__ == "__main__":
    sys.exit(main())
