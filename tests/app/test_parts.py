"""The daemon's small parts: simulated board, log replay, terminal sink, sd_notify, config."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from board_bridge.app.config import ConfigError, load_config, parse_config
from board_bridge.app.notify import Notifier
from board_bridge.app.simulated import LogReplaySource, SimulatedBoard
from board_bridge.app.sinks import TerminalLedSink, render_board
from board_bridge.drivers.base import SourceDisconnected
from board_bridge.shogi import Board, Move
from board_bridge.tracker.events import PlayerInput, SensorFrame, SensorLogError
from board_bridge.tracker.intents import LedIntents, Mark
from tests.conftest import ROOT, shared_path

# --------------------------------------------------------------------------- simulated board


async def test_simulated_board_frames_of_a_capture_and_a_drop() -> None:
    board = SimulatedBoard(step_delay=0.0)
    events = board.events()
    first = await anext(events)
    assert isinstance(first, SensorFrame) and first.cells == "".join(
        "x" if o else "." for o in Board().occupied()
    )
    position = Board()
    for usi in ["7g7f", "3c3d", "8h2b+"]:
        move = Move.from_usi(usi)
        await board.play_move(position, move)
        position.push(move)
    frames = [e for e in board.emitted if isinstance(e, SensorFrame)]
    # 7g7f: lift, place; 3c3d: lift, place; 8h2b+ captures: lift 8h, lift 2b, place 2b
    assert len(frames) == 7
    assert frames[5].cells[Move.from_usi("8h2b").to_square] == "."
    assert frames[6].cells == "".join("x" if o else "." for o in position.occupied())
    drop = Move.from_usi("B*5e")
    position.push(Move.from_usi("3a2b"))
    await board.play_move(position, drop)
    assert board.emitted[-1].cells[drop.to_square] == "x"  # type: ignore[union-attr]
    board.press("promote")
    got = [await anext(events) for _ in range(len(board.emitted))]
    assert got[-1] == PlayerInput(got[-1].t, "promote")
    await board.close()


async def test_simulated_board_polarity_and_disconnect() -> None:
    sfen = "4k4/9/8P/9/9/9/9/9/4K4 b - 1"
    board = SimulatedBoard(sfen, sensing="polarity", step_delay=0.0)
    position = Board(sfen)
    events = board.events()
    assert (await anext(events)).cells.count("u") == 3  # type: ignore[union-attr]
    await board.play_move(position, Move.from_usi("1c1b+"))
    last = board.emitted[-1]
    assert isinstance(last, SensorFrame)
    assert last.cells[Move.from_usi("1c1b").to_square] == "p"
    board.set_position(position)
    board.disconnect()
    seen = []
    with pytest.raises(SourceDisconnected):
        async for event in events:
            seen.append(event)
    assert len(seen) == 3
    board.lift(4)  # while unplugged: not queued
    board.reconnect()
    again = board.events()
    frame = await anext(again)
    assert isinstance(frame, SensorFrame) and frame.cells[4] == "."


async def test_simulated_identity_board_shows_kinds_and_sets_down_the_attacker() -> None:
    board = SimulatedBoard(step_delay=0.0, sensing="identity")
    position = Board()
    assert board.frame().cells[72:81] == "LNSGKGSNL"
    for usi in ("7g7f", "3c3d", "8h2b+"):
        await board.play_move(position, Move.from_usi(usi))
        position.push(Move.from_usi(usi))
    assert board.frame().cells[Move.from_usi("2b2b").to_square] == "b"  # a horse
    # a hand: the attacker lifted first, then the target: the attacker is set down
    board.lift(Move.from_usi("3a3a").to_square)
    board.lift(Move.from_usi("2b2b").to_square)
    board.place(Move.from_usi("2b2b").to_square)
    assert board.frame().cells[Move.from_usi("2b2b").to_square] == "S"
    board.flip(Move.from_usi("2b2b").to_square, True)
    assert board.frame().cells[Move.from_usi("2b2b").to_square] == "s"
    board.place(40, kind=7)  # a gold from the stand on 5e
    assert board.frame().cells[40] == "G"


# --------------------------------------------------------------------------- replay


async def test_log_replay_rescales_time(tmp_path: Path) -> None:
    log = shared_path("sensor-logs", "engine-game-quiet.jsonl")
    lines = log.read_text().splitlines()[:6]
    path = tmp_path / "short.jsonl"
    path.write_text("\n".join(lines) + "\n")
    source = LogReplaySource(path, speed=1000.0, stop_at_end=True)
    await source.start()
    got = [e async for e in source.events()]
    assert len(got) == 6
    assert source.finished.is_set()
    original = [source.load()[i].t for i in range(6)]
    for a, b, oa, ob in zip(got, got[1:], original, original[1:]):
        assert b.t - a.t == pytest.approx((ob - oa) / 1000.0, abs=1e-9)


def test_log_replay_bad_line_names_it(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"t": 0, "board": "' + "/".join(["x" * 9] * 9) + '"}\n{"t": 1}\n')
    with pytest.raises(SensorLogError, match=r"bad.jsonl:2"):
        LogReplaySource(path).load()


# --------------------------------------------------------------------------- terminal sink


async def test_terminal_sink_plain_text_marks() -> None:
    out = io.StringIO()
    sink = TerminalLedSink(out)
    assert not sink.colour and not sink.redraw
    board = Board()
    sink.set_context(board, "move 1, black to move")
    intents = LedIntents(
        {
            Move.from_usi("7g7f").from_square or 0: Mark.ENGINE_FROM,
            Move.from_usi("7g7f").to_square: Mark.ENGINE_TO,
        },
        engine_move="7g7f",
    )
    await sink.show(intents)
    await sink.show(intents)  # the same picture is not printed twice
    text = out.getvalue()
    assert text.count("move 1, black to move") == 1
    assert "engine move to make: 7g7f" in text
    row_g = next(line for line in text.splitlines() if line.endswith("| g"))
    assert "< P" in row_g
    row_f = next(line for line in text.splitlines() if line.endswith("| f"))
    assert ">" in row_f and "\x1b[" not in text


def test_terminal_render_colour() -> None:
    text = render_board(LedIntents({0: Mark.ERROR}, reason="nifu"), Board(), colour=True)
    assert "\x1b[101m" in text and "error: nifu" in text


# --------------------------------------------------------------------------- sd_notify


def test_notifier_sends_datagrams(tmp_path: Path) -> None:
    path = str(tmp_path / "notify.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.settimeout(2)
    try:
        notifier = Notifier(
            environ={
                "NOTIFY_SOCKET": path,
                "WATCHDOG_USEC": "4000000",
                "WATCHDOG_PID": str(os.getpid()),
            }
        )
        assert notifier.enabled and notifier.watchdog_interval == 2.0
        assert notifier.ready("waiting for the board")
        assert server.recv(100) == b"READY=1\nSTATUS=waiting for the board"
        notifier.watchdog()
        assert server.recv(100) == b"WATCHDOG=1"
        notifier.close()
    finally:
        server.close()
    assert not Notifier(environ={}).ready()


# --------------------------------------------------------------------------- config


def test_empty_config_is_valid_and_defaults() -> None:
    config = parse_config({})
    assert config.board.source == "simulated"
    assert config.leds.sink == "terminal"
    assert config.engine is None and not config.needs_engine
    assert config.records.formats[0] == "kif"


def test_config_errors_name_their_keys(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(
            {
                "board": {"source": "gpoi", "sensng": "x"},
                "game": {"mode": "blitz", "start_sfen": "nonsense"},
                "clock": {"kind": "byoyomi", "main": -1},
                "records": {"formats": ["kif", "pgn"]},
                "extra": 1,
            }
        )
    problems = info.value.problems
    assert any(p.startswith("board.source: unknown kind 'gpoi' (expected one of") for p in problems)
    assert any(p.startswith("board.sensng: unknown key") for p in problems)
    assert any(p.startswith("game.mode: unknown value 'blitz'") for p in problems)
    assert any(p.startswith("game.start_sfen:") for p in problems)
    assert any(p.startswith("clock.main: must be at least 0") for p in problems)
    assert any("records.formats: unknown format 'pgn'" in p for p in problems)
    assert any(p.startswith("extra: unknown key") for p in problems)


def test_time_odds_in_the_config() -> None:
    config = parse_config(
        {
            "clock": {
                "kind": "byoyomi",
                "main": 600,
                "byoyomi": 30,
                "white": {"main": 0, "byoyomi": 1},
            }
        }
    )
    black, white = config.clock.controls
    assert (black.main, black.byoyomi) == (600, 30)
    assert (white.kind, white.main, white.byoyomi) == ("byoyomi", 0, 1)
    assert config.clock.describe() == "sente 10m + 30s byoyomi, gote 1s byoyomi"
    same = parse_config({"clock": {"kind": "fischer", "main": 60, "white": {}}})
    assert same.clock.white is None
    with pytest.raises(ConfigError, match=r"clock.white: a byoyomi time control needs byoyomi > 0"):
        parse_config({"clock": {"white": {"kind": "byoyomi"}}})
    with pytest.raises(ConfigError, match=r"clock.black.mian: unknown key"):
        parse_config({"clock": {"black": {"mian": 1}}})


def test_engine_is_found_and_checked(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"engine.path: engine 'no-such-engine' not found"):
        parse_config({"game": {"engine": "white"}, "engine": {"path": "no-such-engine"}})
    with pytest.raises(ConfigError, match=r"engine: unknown engine settings: bogus"):
        parse_config({"engine": {"path": "/bin/sh", "bogus": 1}})


def test_driver_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match=r"rows"):
        parse_config({"board": {"source": "gpio", "settings": {"rows": [1, 2]}}})
    with pytest.raises(ConfigError, match=r"step_dela"):
        parse_config({"board": {"settings": {"step_dela": 1}}})
    with pytest.raises(ConfigError, match=r"board.settings.path"):
        parse_config({"board": {"source": "replay"}})
    with pytest.raises(ConfigError, match=r"board.sensing: the gpio source cannot read identity"):
        parse_config({"board": {"source": "gpio", "sensing": "identity"}})
    assert parse_config({"board": {"sensing": "identity"}}).board.sensing == "identity"


def test_load_config_relative_paths_and_bad_toml(tmp_path: Path) -> None:
    good = tmp_path / "c.toml"
    good.write_text('[records]\ndirectory = "games"\n[board]\nsensor_log = "s.jsonl"\n')
    config = load_config(good)
    assert config.records.directory == tmp_path / "games"
    assert config.board.sensor_log == tmp_path / "s.jsonl"
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


@pytest.mark.parametrize("name", ["simulated-demo.toml", "record-gpio.toml", "engine-serial.toml"])
def test_examples_check_ok(name: str) -> None:
    if name != "record-gpio.toml":
        from tests.conftest import require_engine

        require_engine("fairy-stockfish")
    proc = subprocess.run(
        [sys.executable, "-m", "board_bridge", "config", "check", str(ROOT / "examples" / name)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PATH": os.environ.get("PATH", "") + ":/usr/games"},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{ROOT / 'examples' / name}: OK")


def test_config_check_reports_errors_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[board]\nsource = "gpoi"\n[clock]\nkind = "byoyomi"\n')
    proc = subprocess.run(
        [sys.executable, "-m", "board_bridge", "config", "check", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "board.source: unknown kind 'gpoi'" in proc.stderr
    assert "clock: a byoyomi time control needs byoyomi > 0" in proc.stderr
    assert "Traceback" not in proc.stderr
    run = subprocess.run(
        [sys.executable, "-m", "board_bridge", "run", "--config", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("board-bridge: ")
