"""`board-bridge engine check`: start an engine, show what it offers, and let it play one move."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from board_bridge.engine.client import UsiEngine
from board_bridge.engine.errors import EngineError
from board_bridge.engine.profiles import OptionValue
from board_bridge.engine.protocol import Limit, PlayResult


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("engine", help="USI engine tools")
    sub = parser.add_subparsers(dest="engine_command", metavar="ACTION", required=True)
    check = sub.add_parser(
        "check",
        help="start an engine, list its options and let it play one move",
        description=(
            "Start a USI engine the way the daemon does, print its id, profile and options, "
            "ask it for one move, and quit it. Exit code 0 when it all worked."
        ),
    )
    check.add_argument("path", help="the engine program, e.g. /usr/games/gpsusi")
    check.add_argument(
        "args", nargs="*", help="arguments for the engine program (after --, options first)"
    )
    check.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an engine option to set (repeatable)",
    )
    check.add_argument("--position", default="startpos", help="an SFEN (default: startpos)")
    check.add_argument("--moves", default="", help="USI moves played from the position")
    check.add_argument("--byoyomi", type=int, default=500, help="search time in ms (500)")
    check.add_argument("--profile", default=None, help="force an engine profile by key")
    check.set_defaults(func=_check)


def _parse_options(items: list[str]) -> dict[str, OptionValue]:
    options: dict[str, OptionValue] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--option needs NAME=VALUE, not {item!r}")
        options[name.strip()] = value
    return options


def _check(args: argparse.Namespace) -> int:
    from board_bridge.cli import CliError

    try:
        options = _parse_options(args.option)
        limit = Limit(btime=0, wtime=0, byoyomi=args.byoyomi)
        engine = UsiEngine([args.path, *args.args], options=options, profile=args.profile)
        result = asyncio.run(_run(engine, args.position, args.moves.split(), limit))
    except (EngineError, ValueError) as exc:
        raise CliError(str(exc)) from exc
    info = result.info
    print(f"bestmove {result.bestmove}" + (f" ponder {result.ponder}" if result.ponder else ""))
    if info.score is not None or info.pv:
        print(f"info depth {info.depth} score {info.score} pv {' '.join(info.pv)}")
    return 0


async def _run(engine: UsiEngine, position: str, moves: list[str], limit: Limit) -> PlayResult:
    async with engine:
        out = sys.stdout
        out.write(f"id name {engine.name}\n")
        out.write(f"id author {engine.id.get('author', '?')}\n")
        out.write(f"profile {engine.profile.key}: {engine.profile.notes}\n")
        for option in engine.options.values():
            extra = ""
            if option.min is not None or option.max is not None:
                extra += f" [{option.min}..{option.max}]"
            if option.var:
                extra += " {" + ", ".join(option.var) + "}"
            out.write(f"option {option.name} ({option.type}) = {option.default!r}{extra}\n")
        await engine.new_game()
        result = await engine.play(position, moves, limit)
        return result
