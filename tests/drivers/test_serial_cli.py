"""The serial CLI tools: serial-log prints and records what the firmware sends;
firmware-sim runs the firmware as a process the host connects to."""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from board_bridge.drivers import cli_serial
from board_bridge.drivers.serial_link import SerialBoard
from board_bridge.tracker.events import SensorFrame, parse_event
from tests.drivers.test_serial_support import STARTING, fast_settings, next_event, start_sim

pytestmark = pytest.mark.timeout(60)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli_serial.register(parser.add_subparsers())
    return parser.parse_args(argv)


def test_serial_log_prints_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    link = tmp_path / "tty"
    sim = start_sim(link)
    try:
        threading.Timer(0.5, sim.set_cells, [STARTING[:60] + "." + STARTING[61:]]).start()
        record = tmp_path / "log.jsonl"
        args = parse(["serial-log", "--port", str(link), "--count", "2", "--timeout", "10",
                      "--record", str(record)])  # fmt: skip
        assert args.func(args) == 0
    finally:
        sim.stop()
    lines = capsys.readouterr().out.splitlines()
    events = [parse_event(line) for line in lines]
    assert [e.cells for e in events if isinstance(e, SensorFrame)] == [
        STARTING,
        STARTING[:60] + "." + STARTING[61:],
    ]
    assert record.read_text().splitlines() == lines


def test_serial_log_without_a_board_says_so(tmp_path: Path) -> None:
    from board_bridge.cli import CliError

    args = parse(["serial-log", "--port", str(tmp_path / "none"), "--timeout", "0.5"])
    with pytest.raises(CliError, match="no more events"):
        args.func(args)


async def test_firmware_main_runs_as_a_process(tmp_path: Path) -> None:
    link = tmp_path / "ttySIM"
    main = Path(cli_serial.__file__).resolve().parents[2] / "firmware" / "main.py"
    proc = subprocess.Popen(
        [sys.executable, str(main), "--pty", str(link), "--debounce-ms", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().startswith("ready ")
        board = SerialBoard(settings=fast_settings(link))
        async with board:
            events = board.events()
            assert (await next_event(events)).cells == STARTING  # type: ignore[union-attr]
            proc.stdin.write("board " + STARTING[:60] + "." + STARTING[61:] + "\n")
            proc.stdin.flush()
            ev = await next_event(events)
            assert isinstance(ev, SensorFrame) and ev.cells[60] == "."
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        t0 = time.monotonic()
        while proc.poll() is None and time.monotonic() - t0 < 5:
            await asyncio.sleep(0.05)
        assert proc.returncode == 0
        assert not link.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(5)
