"""The `board-bridge` command line: each layer registers its own subcommands."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from board_bridge import __version__

# Each module listed here defines `register(subparsers)`, adding its subcommands.
# A subcommand's handler is stored as `func` and returns the process exit code.
COMMAND_MODULES = (
    "board_bridge.shogi.cli",
    "board_bridge.tracker.cli",
    "board_bridge.records.cli",
    "board_bridge.engine.cli",
    "board_bridge.app.cli",
    "board_bridge.drivers.cli",
    "board_bridge.ui.cli",
    "board_bridge.online.cli",
)


class CliError(Exception):
    """An expected failure: printed as one line on stderr, no traceback."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="board-bridge",
        description="Play, record and relay shogi games on a sensor board.",
    )
    parser.add_argument("--version", action="version", version=f"board-bridge {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # that layer has no commands yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.WARNING - 10 * min(args.verbose, 2),
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except CliError as exc:
        print(f"board-bridge: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
