"""`board-bridge sim` (play on the screen, no hardware) and `board-bridge view` (the screen beside a board)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from board_bridge.cli import CliError

LOGGER = logging.getLogger(__name__)

ENGINE_SIDES: Final = ("none", "black", "white", "both")


@dataclass(frozen=True)
class UiSettings:
    """The ``[ui]`` table of the daemon's config (see docs/ui.md)."""

    enabled: bool = False  # board-bridge run shows the board view too
    fullscreen: bool = False
    width: int = 1024
    height: int = 600
    fps: float = 30.0
    auto_engine: bool = True  # simulator: the engine's moves make themselves
    hide_cursor: bool = False  # a touch screen: no mouse pointer


class UiConfigError(ValueError):
    """A ``[ui]`` table that cannot be used."""


def parse_ui_settings(table: Any) -> UiSettings:
    """Read a ``[ui]`` table; every problem is named by its key."""
    if table is None:
        return UiSettings()
    if not isinstance(table, dict):
        raise UiConfigError(f"ui: must be a table, got {table!r}")
    defaults = UiSettings()
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in table.items():
        if key not in UiSettings.__dataclass_fields__:
            known = ", ".join(sorted(UiSettings.__dataclass_fields__))
            problems.append(f"ui.{key}: unknown key (expected one of {known})")
            continue
        want = type(getattr(defaults, key))
        ok = (
            isinstance(value, bool)
            if want is bool
            else isinstance(value, int | float) and not isinstance(value, bool) and value > 0
        )
        if want is int and ok and not isinstance(value, int):
            ok = False
        if not ok:
            kind = "true or false" if want is bool else "a positive number"
            problems.append(f"ui.{key}: must be {kind}, got {value!r}")
            continue
        values[key] = float(value) if want is float else value
    if problems:
        raise UiConfigError("; ".join(problems))
    return replace(defaults, **values)


def _read_toml(path: str | None) -> tuple[dict[str, Any], Path | None]:
    if path is None:
        return {}, None
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CliError(f"{p}: cannot read the file: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CliError(f"{p}: not a valid TOML file: {exc}") from None
    return data, p


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, e.g. 800x480: {text!r}") from None
    if w < 160 or h < 160:
        raise argparse.ArgumentTypeError(f"at least 160x160: {text!r}")
    return (w, h)


def build_config(args: argparse.Namespace, simulator: bool) -> tuple[Any, UiSettings]:
    """The daemon's config from ``--config`` with the command line's overrides, and [ui]."""
    from board_bridge.app.config import ConfigError, parse_config

    config_path = args.config
    if config_path is None and not simulator:  # the view uses the daemon's config
        from board_bridge.app.cli import DEFAULT_CONFIGS

        config_path = next((c for c in DEFAULT_CONFIGS if Path(c).exists()), None)
    data, path = _read_toml(config_path)
    try:
        ui = parse_ui_settings(data.pop("ui", None))
    except UiConfigError as exc:
        raise CliError(f"{path}: {exc}") from None
    if simulator:
        board = dict(data.get("board") or {})
        board["source"] = "simulated"
        board.pop("settings", None)
        board.pop("sensor_log", None)  # --save-log says where
        data["board"] = board
        data["leds"] = {"sink": "none"}
    game = dict(data.get("game") or {})
    engine_path = getattr(args, "engine", None)
    if engine_path:
        data["engine"] = {**dict(data.get("engine") or {}), "path": engine_path}
        if game.get("engine", "none") == "none" and getattr(args, "engine_side", None) is None:
            game["engine"] = "white"  # play the engine: it takes gote
    if getattr(args, "engine_side", None) is not None:
        game["engine"] = args.engine_side
    if getattr(args, "records", None):
        data["records"] = {**dict(data.get("records") or {}), "directory": str(args.records)}
    data["game"] = game
    try:
        config = parse_config(
            data,
            base=path.resolve().parent if path else Path.cwd(),
            source=str(path) if path else "command line",
        )
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    if args.fullscreen:
        ui = replace(ui, fullscreen=True)
    if getattr(args, "size", None):
        ui = replace(ui, width=args.size[0], height=args.size[1])
    if getattr(args, "manual_engine", False):
        ui = replace(ui, auto_engine=False)
    return config, ui


async def run_screen(
    config: Any, ui: UiSettings, simulator: bool = False, save_log: str | None = None
) -> int:
    """Run the daemon with the screen: the simulator (``simulator``) or the board view beside
    the configured board. ``board-bridge run`` calls this when ``[ui] enabled = true``."""
    import pygame

    from board_bridge.app import adapters
    from board_bridge.app.daemon import Daemon, DaemonError
    from board_bridge.app.simulated import SimulatedBoard
    from board_bridge.drivers.base import SensorSource
    from board_bridge.drivers.buttons import WithButtons
    from board_bridge.drivers.recording import RecordingSource
    from board_bridge.drivers.settings import DriverConfigError
    from board_bridge.engine import EngineError
    from board_bridge.ui.app import (
        BesideSink,
        DisplayError,
        ObservedEngine,
        Screen,
        ScreenButtons,
        ScreenSink,
        open_display,
        run_with_screen,
    )

    expected = (DisplayError, DaemonError, DriverConfigError, EngineError, OSError)
    try:
        surface = open_display((ui.width, ui.height), ui.fullscreen)
        if ui.hide_cursor:
            pygame.mouse.set_visible(False)
        screen_sink = ScreenSink()
        engine = None
        if config.needs_engine:
            assert config.engine is not None
            engine = ObservedEngine(adapters.make_engine(config.engine))
        board: SimulatedBoard | None = None
        buttons: ScreenButtons | None = None
        source: SensorSource
        sink: Any
        if simulator:
            board = SimulatedBoard(config.game.start_sfen, sensing=config.board.sensing)
            source = board
            if save_log:
                source = RecordingSource(board, save_log)
            sink = screen_sink
        else:
            buttons = ScreenButtons()
            source = WithButtons(adapters.make_source(config), buttons)  # type: ignore[arg-type]
            sink = BesideSink(adapters.make_sink(config, source), screen_sink)
        logging.getLogger().setLevel(
            min(logging.getLogger().level, getattr(logging, config.daemon.log_level.upper()))
        )
        daemon = Daemon(config, source=source, sink=sink, engine=engine)
        screen = Screen(
            daemon,
            screen_sink,
            board=board,
            buttons=buttons,
            engine=engine,
            surface=surface,
            fps=ui.fps,
            auto_engine=ui.auto_engine,
        )
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):  # a service stop ends the game cleanly
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, daemon.stop, f"signal {sig.name}")
        try:
            await run_with_screen(daemon, screen)
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.remove_signal_handler(sig)
    except expected as exc:
        raise CliError(str(exc)) from None
    finally:
        pygame.quit()
    for outcome, paths in daemon.games_finished:
        print(f"game over: {outcome}")
        for p in paths:
            print(f"  record: {p}")
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    config, ui = build_config(args, simulator=True)
    if args.save_log:
        Path(args.save_log).parent.mkdir(parents=True, exist_ok=True)
    return asyncio.run(run_screen(config, ui, True, args.save_log))


def cmd_view(args: argparse.Namespace) -> int:
    config, ui = build_config(args, simulator=False)
    return asyncio.run(run_screen(config, ui, False, None))


def register(subparsers: Any) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", metavar="FILE", help="the daemon's TOML config")
    common.add_argument(
        "--fullscreen", action="store_true", help="use the whole screen (always on a console)"
    )
    common.add_argument(
        "--size", type=_parse_size, metavar="WxH", help="window size (default 1024x600)"
    )
    common.add_argument("--engine", metavar="PATH", help="a USI engine to play (gote by default)")
    common.add_argument(
        "--engine-side",
        choices=ENGINE_SIDES,
        help="which side the engine plays (default: gote when --engine is given)",
    )
    common.add_argument("--records", metavar="DIR", help="where game records are written")

    sim = subparsers.add_parser(
        "sim",
        parents=[common],
        help="play on an on-screen board with the mouse (no hardware)",
        description=(
            "The board view with a virtual board: the mouse lifts and places pieces (and takes "
            "them from and to the komadai), producing the sensor events a real board sends, "
            "through the same tracker, engine, clock and records. Keys: Esc puts a held piece "
            "back, F (or the middle button) turns a piece over, N sets up the next game, Ctrl+R "
            "resigns, F11 toggles fullscreen, Q quits."
        ),
    )
    sim.add_argument("--save-log", metavar="FILE", help="append the sensor events to this log")
    sim.add_argument(
        "--manual-engine",
        action="store_true",
        help="make the engine's moves yourself, following the lights",
    )
    sim.set_defaults(func=cmd_sim)

    view = subparsers.add_parser(
        "view",
        parents=[common],
        help="run the daemon with the board view on a screen beside the board",
        description=(
            "Runs the daemon on the configured board and LEDs and shows the board view: the "
            "position, the LEDs' marks, clocks, the engine's evaluation, and buttons for the "
            "board's questions. On a Raspberry Pi without a desktop it takes the whole screen "
            "(SDL kmsdrm). Same as `board-bridge run` with ui.enabled = true."
        ),
    )
    view.set_defaults(func=cmd_view)
