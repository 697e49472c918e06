"""The daemon's commands: ``board-bridge run``, ``board-bridge config check`` and ``board-bridge demo``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from board_bridge.app.config import Config, ConfigError, find_program, load_config, parse_config

LOGGER = logging.getLogger("board_bridge.app")

#: Where ``run`` looks for a config when none is given (the first that exists).
DEFAULT_CONFIGS = ("board-bridge.toml", "/etc/board-bridge/config.toml")


def register(subparsers: Any) -> None:
    run = subparsers.add_parser(
        "run",
        help="run the daemon: the board, the tracker, the records, the LEDs, the engine",
        description="Run the daemon until stopped (SIGTERM/SIGINT). Without --config it reads "
        f"the first of {', '.join(DEFAULT_CONFIGS)} that exists, else uses the defaults "
        "(the simulated board).",
    )
    run.add_argument("--config", "-c", metavar="FILE", help="the TOML configuration")
    run.add_argument(
        "--games", type=int, metavar="N", help="stop after N games (overrides game.max_games)"
    )
    run.set_defaults(func=cmd_run)

    config = subparsers.add_parser("config", help="check a configuration file")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION")
    check = config_sub.add_parser(
        "check", help="check a config file: OK, or every problem with its key"
    )
    check.add_argument("file", metavar="FILE")
    check.set_defaults(func=cmd_config_check)
    config.set_defaults(func=lambda args: (config.print_help(), 2)[1])

    demo = subparsers.add_parser(
        "demo",
        help="a game on the simulated board: a virtual hand against Fairy-Stockfish (if installed)",
        description="Runs the daemon on the simulated board, no hardware needed: a virtual hand "
        "plays black from a built-in game, Fairy-Stockfish plays white when installed (otherwise "
        "both sides come from the game), the terminal shows the board and the LED intents, and a "
        "KIF file is written.",
    )
    demo.add_argument(
        "--moves",
        type=int,
        default=40,
        metavar="N",
        help="plies to play before the hand resigns (default 40)",
    )
    demo.add_argument(
        "--speed",
        type=float,
        default=1.0,
        metavar="X",
        help="hand speed factor (default 1; 10 is ten times faster)",
    )
    demo.add_argument(
        "--engine", metavar="PATH", help="the USI engine (default: fairy-stockfish if found)"
    )
    demo.add_argument("--no-engine", action="store_true", help="both sides from the built-in game")
    demo.add_argument(
        "--movetime",
        type=int,
        default=300,
        metavar="MS",
        help="engine time per move (default 300 ms)",
    )
    demo.add_argument(
        "--out",
        metavar="DIR",
        default="demo-games",
        help="where the records go (default ./demo-games)",
    )
    demo.add_argument("--plain", action="store_true", help="plain text, no colours or redrawing")
    demo.set_defaults(func=cmd_demo)


# --------------------------------------------------------------------------- helpers


def _cli_error(message: str) -> Exception:
    from board_bridge.cli import CliError

    return CliError(message)


def _configure_logging(config: Config, args: argparse.Namespace) -> None:
    if getattr(args, "verbose", 0):
        return  # -v on the command line wins
    level = getattr(logging, config.daemon.log_level.upper())
    logging.getLogger().setLevel(level)


def _load(path: str | None) -> Config:
    if path is None:
        for candidate in DEFAULT_CONFIGS:
            if os.path.exists(candidate):
                path = candidate
                break
    try:
        if path is None:
            LOGGER.info("no config file: using the defaults (the simulated board)")
            return parse_config({})
        return load_config(path)
    except ConfigError as exc:
        raise _cli_error(str(exc)) from None


async def _run_daemon(daemon: Any) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, daemon.stop, f"signal {sig.name}")
    try:
        await daemon.run()
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)


def _expected_errors() -> tuple[type[BaseException], ...]:
    from board_bridge.app.daemon import DaemonError
    from board_bridge.drivers.settings import DriverConfigError
    from board_bridge.engine import EngineError

    return (DaemonError, DriverConfigError, EngineError, ConfigError, OSError)


# --------------------------------------------------------------------------- commands


def cmd_run(args: argparse.Namespace) -> int:
    config = _load(args.config)
    if args.games is not None:
        if args.games < 0:
            raise _cli_error("--games must be 0 (no limit) or more")
        from dataclasses import replace

        config = replace(config, game=replace(config.game, max_games=args.games))
    _configure_logging(config, args)
    if config.ui is not None and config.ui.enabled:  # the board view on a screen too
        from board_bridge.ui.cli import run_screen

        return asyncio.run(run_screen(config, config.ui))
    from board_bridge.app.daemon import Daemon

    try:
        daemon = Daemon(config)
        asyncio.run(_run_daemon(daemon))
    except _expected_errors() as exc:
        raise _cli_error(str(exc)) from None
    for outcome, paths in daemon.games_finished:
        print(f"game over: {outcome}; " + ", ".join(str(p) for p in paths))
    return 0


def cmd_config_check(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.file)
    except ConfigError as exc:
        print(f"board-bridge: {exc}", file=sys.stderr)
        return 1
    print(f"{args.file}: OK")
    print(f"  board: {config.board.source} ({config.board.sensing}), LEDs: {config.leds.sink}")
    side = config.game.engine_side
    engine = ""
    if config.engine is not None and config.needs_engine:
        engine = f", engine {config.engine.resolved}"
    print(
        f"  game: {config.game.mode}, engine plays {side}{engine}; hints {'on' if config.game.hints else 'off'}"
    )
    print(f"  clock: {config.clock.describe()}{' (clock button)' if config.clock.button else ''}")
    print(f"  records: {config.records.directory} ({', '.join(config.records.formats)})")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from board_bridge.app.demo import DEMO_GAME, run_demo

    if args.moves < 1:
        raise _cli_error("--moves must be at least 1")
    if args.speed <= 0:
        raise _cli_error("--speed must be positive")
    engine: str | None = None
    if not args.no_engine:
        engine = find_program(args.engine or "fairy-stockfish")
        if engine is None and args.engine:
            raise _cli_error(f"engine {args.engine!r} not found")
        if engine is None:
            print("Fairy-Stockfish is not installed: both sides come from the built-in game.")
    out = Path(args.out)
    try:
        result = asyncio.run(
            run_demo(
                out,
                engine=engine,
                moves=args.moves,
                speed=args.speed,
                movetime=args.movetime,
                plain=args.plain,
                script=DEMO_GAME,
            )
        )
    except _expected_errors() as exc:
        raise _cli_error(str(exc)) from None
    print(result.summary())
    return 0 if result.kif is not None else 1


__all__ = ["register", "cmd_run", "cmd_config_check", "cmd_demo", "parse_config"]
