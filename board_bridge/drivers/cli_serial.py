"""Command-line tools for the firmware link: watch what a board sends, run the firmware simulator."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from board_bridge.drivers.base import SensorSource, SourceDisconnected
from board_bridge.drivers.recording import RecordingSource
from board_bridge.drivers.serial_link import ProtocolVersionError, SerialBoard, SerialSettings
from board_bridge.tracker.events import format_event


def register(subparsers: Any) -> None:
    log = subparsers.add_parser(
        "serial-log",
        help="print what a board's firmware sends, as sensor-log lines",
        description="Connect to the board's firmware and print every event as a JSON line "
        "(the sensor-log format). Reconnects when the cable is pulled; Ctrl-C stops.",
    )
    log.add_argument("--port", default="/dev/ttyACM0", help="serial port or pyserial URL")
    log.add_argument("--baud", type=int, default=115200)
    log.add_argument("--record", metavar="FILE", help="also append the events to FILE")
    log.add_argument("--count", type=int, default=0, help="stop after this many events")
    log.add_argument("--timeout", type=float, default=0, help="give up after this many seconds")
    log.set_defaults(func=_serial_log)

    sim = subparsers.add_parser(
        "firmware-sim",
        help="run the board firmware on a simulated board behind a pty",
        description="Run firmware/ on a simulated board; the daemon connects to --pty. "
        "Commands on stdin: board CELLS, press VALUE, leds, pull, plug, reboot, quit.",
    )
    sim.add_argument("--pty", required=True, help="symlink to create for the host")
    sim.add_argument("--corrupt", type=float, default=0.0, help="share of bytes to damage")
    sim.add_argument("--seed", type=int)
    sim.add_argument("--debounce-ms", type=int)
    sim.add_argument("--buttons", action="store_true", help="promote/nonpromote buttons")
    sim.set_defaults(func=_firmware_sim)


def _serial_log(args: argparse.Namespace) -> int:
    from board_bridge.cli import CliError

    try:
        settings = SerialSettings(url=args.port, baudrate=args.baud)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        coro = _log_events(settings, args.record, args.count)
        if args.timeout > 0:
            return asyncio.run(asyncio.wait_for(coro, args.timeout))
        return asyncio.run(coro)
    except ProtocolVersionError as exc:
        raise CliError(str(exc)) from None
    except TimeoutError:
        raise CliError(f"no more events from {args.port} within {args.timeout:g} s") from None


async def _log_events(settings: SerialSettings, record: str | None, count: int) -> int:
    board = SerialBoard(settings=settings)
    source: SensorSource = RecordingSource(board, record) if record else board
    seen = 0
    async with source:
        while True:
            try:
                async for event in source.events():
                    print(format_event(event), flush=True)
                    seen += 1
                    if count and seen >= count:
                        return 0
                return 0
            except SourceDisconnected as exc:
                print(f"# {exc}; waiting for the board", file=sys.stderr, flush=True)


def _firmware_sim(args: argparse.Namespace) -> int:
    from board_bridge.cli import CliError
    from board_bridge.drivers import firmware_sim

    try:
        bbsim = firmware_sim.load()
    except FileNotFoundError as exc:
        raise CliError(str(exc)) from None
    argv = ["--pty", args.pty, "--corrupt", str(args.corrupt)]
    if args.seed is not None:
        argv += ["--seed", str(args.seed)]
    if args.debounce_ms is not None:
        argv += ["--debounce-ms", str(args.debounce_ms)]
    if args.buttons:
        argv.append("--buttons")
    return int(bbsim.main(argv))
