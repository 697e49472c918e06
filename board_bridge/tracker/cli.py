"""`board-bridge replay` and `board-bridge simulate`: sensor logs through the tracker, and back."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from board_bridge.shogi import STARTING_SFEN, Board, InvalidMoveError, InvalidSfenError, Move
from board_bridge.tracker.events import (
    IDENTITY_CELLS,
    PROMOTED,
    UNKNOWN_TAG,
    UNPROMOTED,
    SensorEvent,
    SensorFrame,
    SensorLogError,
)
from board_bridge.tracker.log import load_log, write_log
from board_bridge.tracker.outputs import TrackerOutput
from board_bridge.tracker.positions import SENSINGS
from board_bridge.tracker.tracker import MODES, Tracker


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="replay a sensor log through the tracker and print the game",
        description="Feed a sensor log (JSON lines) to the move tracker and print the game "
        "it reconstructs. Exits 1 with the reason on stderr if the log ends unresolved "
        "(a question unanswered, an illegal state, the board never set up).",
    )
    p.add_argument("log", metavar="LOG", help="sensor log file, or - for standard input")
    p.add_argument("--sfen", default=STARTING_SFEN, help="start position (default: the standard)")
    p.add_argument(
        "--format", choices=("usi", "kif", "csa"), default="usi", help="output (default: usi)"
    )
    p.add_argument("--mode", choices=MODES, default="casual", help="casual or tournament rules")
    p.add_argument(
        "--sensing",
        choices=("auto", *SENSINGS),
        default="auto",
        help="board sensors (default: identity if the log has kind cells, polarity if u/p, else occupancy)",
    )
    p.add_argument(
        "--no-setup",
        action="store_true",
        help="the log starts mid-game: do not require the set-up position first",
    )
    p.add_argument(
        "--trace", action="store_true", help="print every tracker output on stderr as it happens"
    )
    p.set_defaults(func=run_replay)

    p = sub.add_parser(
        "simulate",
        help="turn a game into a realistic noisy sensor log (a virtual hand)",
        description="Play GAME on a simulated sensor board: thinking pauses, switch bounce, "
        "sliding and hovering pieces, touched and knocked pieces, captures in both orders, "
        "fast captures, corrections, illegal moves taken back, take-backs, and answers to "
        "the board's questions. The same seed gives the same log.",
    )
    p.add_argument(
        "game",
        metavar="GAME",
        help="a .jsonl corpus file (line --index), a JSON game line, a file of USI moves, "
        "or the USI moves themselves",
    )
    p.add_argument("--seed", type=int, required=True, help="random seed")
    p.add_argument("--out", help="write the log here (default: standard output)")
    p.add_argument(
        "--noise",
        default="realistic",
        help="realistic (default), quiet, or name=rate,... (e.g. quiet,bounce=1,knock=0.5)",
    )
    p.add_argument("--index", type=int, default=0, help="line of a .jsonl corpus (default 0)")
    p.add_argument("--sensing", choices=SENSINGS, default="occupancy")
    p.add_argument(
        "--mode",
        choices=MODES,
        default="casual",
        help="tournament: no illegal moves or take-backs (they would lose)",
    )
    p.add_argument("--setup", action="store_true", help="start from an empty board")
    p.set_defaults(func=run_simulate)


def _cli_error(message: str) -> Exception:
    from board_bridge.cli import CliError

    return CliError(message)


_KINDS = frozenset((*IDENTITY_CELLS, UNKNOWN_TAG))


def detect_sensing(events: list[SensorEvent]) -> str:
    """``identity`` if any frame shows a piece kind (``K``, ``t``, ``?``, ...), else
    ``polarity`` if any shows a face (u/p), else ``occupancy``."""
    polarity = False
    for event in events:
        if isinstance(event, SensorFrame):
            if not _KINDS.isdisjoint(event.cells):
                return "identity"
            polarity = polarity or UNPROMOTED in event.cells or PROMOTED in event.cells
    return "polarity" if polarity else "occupancy"


def run_replay(args: argparse.Namespace) -> int:
    try:
        events = load_log(sys.stdin if args.log == "-" else args.log)
    except OSError as exc:
        raise _cli_error(f"cannot read {args.log}: {exc.strerror or exc}") from None
    except SensorLogError as exc:
        raise _cli_error(str(exc)) from None
    name = "<stdin>" if args.log == "-" else args.log
    if not events:
        raise _cli_error(f"{name}: the log has no events")
    sensing = detect_sensing(events) if args.sensing == "auto" else args.sensing
    try:
        tracker = Tracker(args.sfen, sensing=sensing, mode=args.mode, setup=not args.no_setup)
    except InvalidSfenError as exc:
        raise _cli_error(str(exc)) from None
    outputs: list[TrackerOutput] = []
    for event in events:
        out = tracker.feed(event)
        outputs += out
        if args.trace:
            for o in out:
                print(o, file=sys.stderr)
    out = tracker.finish(events[-1].t)
    if args.trace:
        for o in out:
            print(o, file=sys.stderr)
    print(format_game(tracker, args.sfen, args.format), end="")
    problem = tracker.unresolved()
    if problem is not None:
        raise _cli_error(f"{name}: the log ends unresolved: {problem}")
    return 0


def format_game(tracker: Tracker, sfen: str, fmt: str) -> str:
    """The reconstructed game as text: USI moves on one line, or a KIF/CSA record."""
    moves = tracker.moves
    if fmt == "usi":
        return " ".join(m.usi() for m in moves) + "\n"
    try:
        from board_bridge.records import GameRecord, RecordedMove, write_csa, write_kif
    except ImportError as exc:  # the records layer is missing
        raise _cli_error(f"--format {fmt} needs board_bridge.records ({exc})") from None
    record = GameRecord(
        start_sfen=Board(sfen).sfen(),
        moves=tuple(RecordedMove(m) for m in moves),
        outcome=tracker.outcome,
    )
    text = write_kif(record, "UTF-8") if fmt == "kif" else write_csa(record)
    return text if text.endswith("\n") else text + "\n"


def read_game(spec: str, index: int) -> tuple[str, list[str]]:
    """(start SFEN, USI moves) from a corpus file, a game line, a USI file or USI text."""
    from board_bridge.tracker.simulate import parse_game

    path = Path(spec)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise _cli_error(f"cannot read {spec}: {exc}") from None
        if path.suffix == ".jsonl":
            lines = [line for line in text.splitlines() if line.strip()]
            if not 0 <= index < len(lines):
                raise _cli_error(f"{spec} has {len(lines)} games: no --index {index}")
            text = lines[index]
    else:
        text = spec
    try:
        return parse_game(text)
    except ValueError as exc:
        raise _cli_error(f"not a game: {exc}") from None


def run_simulate(args: argparse.Namespace) -> int:
    from board_bridge.tracker.simulate import Noise, simulate

    sfen, moves = read_game(args.game, args.index)
    try:
        noise = Noise.parse(args.noise)
    except ValueError as exc:
        raise _cli_error(f"--noise: {exc}") from None
    try:
        parsed = [Move.from_usi(m) for m in moves]
        sim = simulate(
            parsed,
            sfen,
            seed=args.seed,
            noise=noise,
            sensing=args.sensing,
            mode=args.mode,
            setup=args.setup,
        )
    except (InvalidMoveError, InvalidSfenError, ValueError) as exc:
        raise _cli_error(str(exc)) from None
    if args.out:
        try:
            write_log(sim.events, args.out)
        except OSError as exc:
            raise _cli_error(f"cannot write {args.out}: {exc.strerror or exc}") from None
    else:
        write_log(sim.events, sys.stdout)
    return 0
