"""`board-bridge sim` / `view` options and the [ui] table: overrides, defaults, errors."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from board_bridge.cli import CliError, build_parser
from board_bridge.ui.cli import UiConfigError, UiSettings, build_config, parse_ui_settings


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_commands_registered() -> None:
    args = parse("sim", "--fullscreen", "--size", "800x480", "--save-log", "x.jsonl")
    assert args.fullscreen and args.size == (800, 480) and args.save_log == "x.jsonl"
    assert parse("view").func.__name__ == "cmd_view"
    with pytest.raises(SystemExit):
        parse("sim", "--size", "big")


def test_simulator_replaces_board_and_leds(tmp_path: Path) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text(
        '[board]\nsource = "replay"\nsettings = { path = "x.jsonl" }\n'
        '[leds]\nsink = "terminal"\n'
        '[clock]\nkind = "byoyomi"\nmain = 600\nbyoyomi = 30\n'
        "[ui]\nfullscreen = true\nfps = 20\n"
    )
    config, ui = build_config(parse("sim", "--config", str(cfg), "--records", str(tmp_path)), True)
    assert config.board.source == "simulated" and config.leds.sink == "none"
    assert config.clock.control.kind == "byoyomi"
    assert config.records.directory == tmp_path
    assert ui.fullscreen and ui.fps == 20.0 and not ui.enabled
    assert config.game.engine_side == "none"


def test_engine_option_plays_gote(tmp_path: Path) -> None:
    engine = tmp_path / "engine"
    engine.write_text("#!/bin/sh\n")
    engine.chmod(0o755)
    config, _ = build_config(parse("sim", "--engine", str(engine)), True)
    assert config.game.engine_side == "white"
    assert config.engine is not None and config.engine.resolved == str(engine)
    config, _ = build_config(parse("sim", "--engine", str(engine), "--engine-side", "black"), True)
    assert config.game.engine_side == "black"


def test_bad_config_is_one_clear_error(tmp_path: Path) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[ui]\nfps = -3\nsize = 4\n")
    with pytest.raises(CliError, match=r"ui.fps: must be a positive number.*ui.size: unknown key"):
        build_config(parse("sim", "--config", str(cfg)), True)
    cfg.write_text("[game]\nmode = 'blitz'\n")
    with pytest.raises(CliError, match="game.mode"):
        build_config(parse("sim", "--config", str(cfg)), True)
    with pytest.raises(CliError, match="cannot read"):
        build_config(parse("sim", "--config", str(tmp_path / "missing.toml")), True)
    cfg.write_text("[ui\n")
    with pytest.raises(CliError, match="TOML"):
        build_config(parse("sim", "--config", str(cfg)), True)


def test_ui_settings() -> None:
    assert parse_ui_settings(None) == UiSettings()
    ui = parse_ui_settings({"enabled": True, "width": 800, "height": 480, "hide_cursor": True})
    assert ui.enabled and (ui.width, ui.height) == (800, 480) and ui.hide_cursor
    for bad in ({"width": 800.5}, {"enabled": "yes"}, {"fps": True}, []):
        with pytest.raises(UiConfigError):
            parse_ui_settings(bad)


def test_sim_command_runs_and_quits(tmp_path: Path) -> None:
    """The whole command in its own process: the display opens (SDL's dummy driver), the
    daemon starts, frames are drawn, and closing the window stops everything cleanly."""
    log = tmp_path / "log" / "sensor.jsonl"
    # the window is closed (a QUIT event, as from the window manager) once the first frame
    # of the board has reached the sensor log, i.e. the whole pipeline is running
    script = (
        "import sys, threading, time, pathlib, pygame\n"
        "log = pathlib.Path(sys.argv[-1])\n"
        "def closer():\n"
        "    end = time.monotonic() + 30\n"
        "    while time.monotonic() < end and not (log.exists() and log.read_text()):\n"
        "        time.sleep(0.05)\n"
        "    time.sleep(0.3)\n"
        "    pygame.event.post(pygame.event.Event(pygame.QUIT))\n"
        "threading.Thread(target=closer, daemon=True).start()\n"
        "from board_bridge.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    argv = ["sim", "--records", str(tmp_path / "games"), "--save-log", str(log)]
    proc = subprocess.run(
        [sys.executable, "-c", script, *argv], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    lines = log.read_text().splitlines()
    assert lines and '"board"' in lines[0]  # the first frame: the pieces set up


def test_view_without_a_screen_is_one_clear_error(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "nosuchdriver", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.run(
        [sys.executable, "-m", "board_bridge", "view", "--records", str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "cannot open a screen" in proc.stderr and "Traceback" not in proc.stderr
