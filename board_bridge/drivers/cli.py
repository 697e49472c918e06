"""`board-bridge selftest`: lights each LED, shows the live matrix, tests every sensor, reports."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import sys
import threading
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from board_bridge.drivers.base import LedSink, SensorSource, SourceDisconnected
from board_bridge.drivers.gpio import PinFactoryError
from board_bridge.drivers.gpio_matrix import GpioMatrixSource
from board_bridge.drivers.led_sinks import LedHardwareError, NullSink
from board_bridge.drivers.registry import make_sink, make_source, sink_kinds, source_kinds, unwrap
from board_bridge.drivers.selftest import (
    DIODE_CHECKS,
    SelfTest,
    SelfTestReport,
    Step,
    StepOutcome,
    diode_rectangles,
    led_walk,
    names,
    plan_steps,
    run_selftest,
)
from board_bridge.drivers.settings import DriverConfigError
from board_bridge.shogi import parse_square, square_name
from board_bridge.tracker.events import EMPTY


def _cli_error(message: str) -> Exception:
    from board_bridge.cli import CliError

    return CliError(message)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "selftest",
        help="test the board: every LED, then every sensor, with a report",
        description=(
            "Lights each square's LED in turn, then asks you to place and lift a piece on each "
            "square while it shows what the sensors read, and reports dead, stuck and "
            "ghosting sensors. Press Enter to give up on a square that does not respond. "
            "Exit status: 0 when every tested square is fine, 1 otherwise."
        ),
    )
    p.add_argument("--config", type=Path, help="the daemon's config file ([board] and [leds])")
    p.add_argument("--source", help=f"sensor source kind ({', '.join(source_kinds())})")
    p.add_argument("--sink", help=f"LED sink kind ({', '.join(sink_kinds())}); default none")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="source.KEY=VALUE",
        help="override a source or sink setting (VALUE in TOML syntax), e.g. source.scan_hz=400",
    )
    p.add_argument(
        "--squares", default="all", help="the squares to test, e.g. 5e,4e (default: all)"
    )
    p.add_argument(
        "--diode-check",
        choices=DIODE_CHECKS,
        default="corners",
        help="three-piece patterns that reveal missing diodes (default: corners)",
    )
    p.add_argument(
        "--timeout", type=float, default=20.0, help="seconds to wait on each step (default 20)"
    )
    p.add_argument(
        "--settle",
        type=float,
        default=0.3,
        help="seconds the board must read as asked before a step counts (default 0.3)",
    )
    p.add_argument(
        "--led-dwell",
        type=float,
        default=0.15,
        help="seconds each LED stays lit in the LED walk; 0 skips it (default 0.15)",
    )
    p.add_argument("--sensor-log", type=Path, help="also record the sensor log to this file")
    p.set_defaults(func=selftest_command)
    # the serial link's commands live beside this module (another author's file)
    try:
        cli_serial = importlib.import_module("board_bridge.drivers.cli_serial")
    except ModuleNotFoundError as exc:
        if exc.name != "board_bridge.drivers.cli_serial":
            raise
    else:
        cli_serial.register(subparsers)


# --------------------------------------------------------------------------- settings


def _load_config(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise _cli_error(f"cannot read {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise _cli_error(f"{path}: not valid TOML: {exc}") from None


def _table(config: Mapping[str, Any], *keys: str) -> Any:
    value: Any = config
    for key in keys:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def _parse_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text  # a bare word: a string


def driver_choice(
    args: argparse.Namespace,
) -> tuple[str, dict[str, Any], str, dict[str, Any]]:
    """The source and sink kinds and settings from --config, --source/--sink and --set."""
    config = _load_config(args.config) if args.config else {}
    cfg_source = _table(config, "board", "source")
    cfg_sink = _table(config, "leds", "sink")
    source_kind = args.source or cfg_source
    if not source_kind:
        raise _cli_error("no sensor source: give --source KIND or --config FILE")
    sink_kind = args.sink or cfg_sink or "none"
    source_settings: dict[str, Any] = {}
    sink_settings: dict[str, Any] = {}
    if source_kind == cfg_source:
        source_settings = dict(_table(config, "board", "settings") or {})
    if sink_kind == cfg_sink:
        sink_settings = dict(_table(config, "leds", "settings") or {})
    for item in args.set:
        target, dot, rest = item.partition(".")
        key, eq, value = rest.partition("=")
        if not dot or not eq or not key or target not in ("source", "sink"):
            raise _cli_error(f"--set wants source.KEY=VALUE or sink.KEY=VALUE, got {item!r}")
        (source_settings if target == "source" else sink_settings)[key] = _parse_value(value)
    return str(source_kind), source_settings, str(sink_kind), sink_settings


def parse_squares(text: str) -> list[int]:
    if text.strip().lower() == "all":
        return list(range(81))
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            sq = parse_square(part)
        except ValueError:
            raise _cli_error(f"--squares: not a square: {part!r} (squares look like 5e)") from None
        if sq not in out:
            out.append(sq)
    if not out:
        raise _cli_error("--squares: no squares given")
    return out


# --------------------------------------------------------------------------- the terminal


class TextUI:
    """Prompts and the live matrix on a terminal (redrawn in place) or a pipe (one line each)."""

    LEGEND = "x occupied  . empty  + put a piece here  - lift this piece  ! should be empty"

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.tty = bool(getattr(out, "isatty", lambda: False)())
        self.prompt = ""
        self.note = ""
        self.cells: str | None = None
        self.step_now: Step | None = None
        self._drawn = 0
        self._led_started = False

    def write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def led(self, square: int) -> None:
        if not self._led_started:
            self._led_started = True
            self.write("LED test: each square's LED lights in turn, 9a to 1i.\n")
        if self.tty:
            self.write(f"\r  LED on {square_name(square)} ")
            if square == 80:
                self.write("\n")

    def step(self, index: int, total: int, step: Step) -> None:
        self.prompt = f"[{index + 1}/{total}] {step.prompt()}"
        self.step_now = step
        if self.tty:
            self._redraw()
        else:
            self.write(self.prompt + "\n")

    def board(self, cells: str, step: Step | None) -> None:
        self.cells = cells
        if self.tty:
            self._redraw()
        else:
            occupied = [s for s, ch in enumerate(cells) if ch != EMPTY]
            self.write(f"    reads: {names(occupied) if occupied else 'nothing'}\n")

    def outcome(self, outcome: StepOutcome) -> None:
        if outcome.ok:
            self.note = ""
            return
        why = "skipped" if outcome.skipped else "timed out"
        self.note = f"{why}: {outcome.step.prompt()}"
        if self.tty:
            self._redraw()
        else:
            self.write(f"    {self.note}\n")

    def grid(self) -> list[str]:
        cells = self.cells or EMPTY * 81
        step = self.step_now
        lines = ["   9 8 7 6 5 4 3 2 1"]
        for rank in range(9):
            row = []
            for c in range(9):
                s = rank * 9 + c
                on = cells[s] != EMPTY
                if step is not None and s in step.occupied:
                    row.append("x" if on else "+")
                elif step is not None and s in step.lift and on:
                    row.append("-")
                elif on:
                    row.append("!" if step is not None else "x")
                else:
                    row.append(".")
            lines.append(f"{'abcdefghi'[rank]}  {' '.join(row)}")
        return lines

    def _redraw(self) -> None:
        block = [self.prompt, "", *self.grid(), self.LEGEND, self.note]
        up = f"\x1b[{self._drawn}F\x1b[J" if self._drawn else ""
        self.write(up + "\n".join(block) + "\n")
        self._drawn = len(block)

    def finish(self) -> None:
        self._drawn = 0


def _watch_enter(loop: asyncio.AbstractEventLoop, skip: asyncio.Event, stream: TextIO) -> None:
    """Each line typed (Enter) gives up on the current step."""

    def read() -> None:
        for _ in stream:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(skip.set)

    threading.Thread(target=read, name="selftest-enter", daemon=True).start()


# --------------------------------------------------------------------------- the command


async def _selftest(
    source: SensorSource,
    sink: LedSink,
    test: SelfTest,
    ui: TextUI,
    led_dwell: float,
) -> SelfTestReport:
    skip = asyncio.Event()
    if sys.stdin is not None and sys.stdin.isatty():
        _watch_enter(asyncio.get_running_loop(), skip, sys.stdin)
    try:
        await source.start()
        await sink.start()
    except (DriverConfigError, PinFactoryError, LedHardwareError, OSError, RuntimeError) as exc:
        await _close(source, sink)
        raise _cli_error(f"cannot open the board: {exc}") from None
    try:
        if led_dwell > 0 and not isinstance(sink, NullSink):
            await led_walk(sink, ui, range(81), led_dwell)
        return await run_selftest(
            source, sink, test, ui, skip=skip, poll=min(0.02, max(test.settle / 2, 0.002))
        )
    finally:
        await _close(source, sink)


async def _close(source: SensorSource, sink: LedSink) -> None:
    with contextlib.suppress(Exception):
        await sink.close()
    with contextlib.suppress(Exception):
        await source.close()


def selftest_command(args: argparse.Namespace) -> int:
    source_kind, source_settings, sink_kind, sink_settings = driver_choice(args)
    squares = parse_squares(args.squares)
    if args.timeout <= 0 or args.settle < 0 or args.led_dwell < 0:
        raise _cli_error("--timeout must be positive, --settle and --led-dwell not negative")
    try:
        source = make_source(source_kind, source_settings, sensor_log=args.sensor_log)
        sink = make_sink(sink_kind, sink_settings, source=source)
    except DriverConfigError as exc:
        raise _cli_error(str(exc)) from None
    matrix = unwrap(source, GpioMatrixSource)
    square_map = matrix.square_map if matrix is not None else None
    steps = plan_steps(squares, diode_rectangles(args.diode_check, square_map))
    test = SelfTest(steps, settle=args.settle, timeout=args.timeout, square_map=square_map)
    ui = TextUI(sys.stdout)
    ui.write(
        f"Self-test of the {source_kind} board ({len(squares)} squares, {len(steps)} steps)."
        " Press Enter to give up on a step.\n"
    )
    try:
        report = asyncio.run(_selftest(source, sink, test, ui, args.led_dwell))
    except KeyboardInterrupt:
        ui.finish()
        ui.write("\nStopped.\n" + test.report().text() + "\n")
        return 130
    except SourceDisconnected as exc:
        ui.finish()
        ui.write("\n" + test.report().text() + "\n")
        raise _cli_error(f"the board went away during the test: {exc}") from None
    ui.finish()
    ui.write("\n" + report.text() + "\n")
    return 0 if report.ok else 1
