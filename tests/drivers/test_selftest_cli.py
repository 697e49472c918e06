"""`board-bridge selftest` end to end on a MockFactory diode matrix, with a scripted player.

The player reads the prompts the command prints and places or lifts pieces on the
simulated board (closing and opening its reed switches) the way it is asked; the
board has a broken switch, a switch stuck closed and a missing diode, and its
single-colour LEDs sit on a simulated 74HC595 chain, so the LED walk is checked too.
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from board_bridge.cli import main
from board_bridge.drivers.gpio_matrix import DEFAULT_COLUMNS, DEFAULT_ROWS
from board_bridge.shogi import parse_square

from .mock_matrix import DiodeMatrix
from .test_led_sinks import Fake595

PROMPT = re.compile(
    r"^\[\d+/\d+\] (place a piece on|place pieces on|lift the pieces? from|clear)(.*)$"
)
FAST = [
    "--set",
    "source.scan_hz=1000",
    "--set",
    "source.debounce_scans=2",
    "--set",
    "source.debounce_ms=1",
]


class Player(io.StringIO):
    """stdout for the command: a person reading the prompts and moving pieces as asked."""

    def __init__(self, matrix: DiodeMatrix, broken: set[int], stuck: set[int]) -> None:
        super().__init__()
        self.matrix = matrix
        self.broken = broken  # switches that never close
        self.stuck = stuck  # switches that never open
        self.pieces: set[int] = set()
        self.lock = threading.Lock()
        self.buffer_line = ""
        matrix.set_closed(stuck)

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        n = super().write(text)
        self.buffer_line += text
        while "\n" in self.buffer_line:
            line, self.buffer_line = self.buffer_line.split("\n", 1)
            self.act(line)
        return n

    def act(self, line: str) -> None:
        m = PROMPT.match(line)
        if not m:
            return
        verb, rest = m.groups()
        squares = {parse_square(s.strip()) for s in re.findall(r"[1-9][a-i]", rest)}
        with self.lock:
            if verb.startswith("clear"):
                self.pieces.clear()
            elif verb.startswith("place"):
                self.pieces |= squares
            else:
                self.pieces -= squares
            closed = (self.pieces - self.broken) | self.stuck
        # a hand takes a moment
        threading.Timer(0.003, self.matrix.set_closed, args=(closed,)).start()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = previous


def sq(name: str) -> int:
    return parse_square(name)


def test_selftest_finds_a_dead_a_stuck_and_a_ghosting_square(
    factory: MockFactory, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 9a has no diode: with 9a, 8a and 9b occupied, 8b reads occupied too
    matrix = DiodeMatrix(
        factory, list(DEFAULT_ROWS), list(DEFAULT_COLUMNS), missing_diodes={sq("9a")}
    )
    chain = Fake595(factory, 9, 10, 11, chips=11)
    lit: list[list[int]] = []
    original = chain.edge

    def watch(role: str) -> None:
        original(role)
        if role == "latch":
            lit.append([i for i, on in enumerate(chain.outputs) if on])

    chain.edge = watch  # type: ignore[method-assign]
    player = Player(matrix, broken={sq("3c")}, stuck={sq("7g")})
    monkeypatch.setattr("sys.stdout", player)
    code = main(
        [
            "selftest",
            "--source",
            "gpio",
            "--sink",
            "gpio-leds",
            *FAST,
            "--set",
            "sink.data_pin=9",
            "--set",
            "sink.clock_pin=10",
            "--set",
            "sink.latch_pin=11",
            "--set",
            "sink.serpentine=false",
            "--settle",
            "0.01",
            "--timeout",
            "1.0",
            "--led-dwell",
            "0.001",
        ]
    )
    out = player.getvalue()
    assert code == 1, out
    # the LED walk lit each square alone, in order
    singles = [x[0] for x in lit if len(x) == 1]
    walk = [s for i, s in enumerate(singles) if i == 0 or singles[i - 1] != s]
    assert walk[:81] == list(range(81))
    report = out[out.index("81 squares tested") :]
    assert "81 squares tested: 78 ok" in report
    assert "1 dead (3c)" in report and "1 stuck (7g)" in report and "1 ghosting (8b)" in report
    assert "diode of 9a" in report
    assert "timed out: place a piece on 3c" in out
    assert capsys.readouterr().err == ""


def test_selftest_of_good_squares_passes_with_a_config_file(
    factory: MockFactory, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    matrix = DiodeMatrix(factory, list(DEFAULT_ROWS), list(DEFAULT_COLUMNS))
    player = Player(matrix, broken=set(), stuck=set())
    monkeypatch.setattr("sys.stdout", player)
    config = tmp_path / "board.toml"
    config.write_text(
        '[board]\nsource = "gpio"\n[board.settings]\nscan_hz = 1000\ndebounce_scans = 2\n'
        'debounce_ms = 1\n[leds]\nsink = "none"\n'
    )
    log = tmp_path / "sensor.jsonl"
    code = main(
        [
            "selftest",
            "--config",
            str(config),
            "--squares",
            "5e,1a,9i",
            "--diode-check",
            "none",
            "--settle",
            "0.01",
            "--timeout",
            "2",
            "--sensor-log",
            str(log),
        ]
    )
    out = player.getvalue()
    assert code == 0, out
    assert "3 squares tested: 3 ok" in out
    assert "[2/" in out and "place a piece on 5e" in out
    assert log.read_text().count('"board"') >= 7  # every change was recorded


def test_selftest_errors_are_one_line(
    factory: MockFactory, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["selftest", "--source", "gpoi"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("board-bridge: unknown source kind 'gpoi'") and err.count("\n") == 1
    assert main(["selftest"]) == 1
    assert "--source" in capsys.readouterr().err
    assert main(["selftest", "--source", "gpio", "--squares", "5z"]) == 1
    assert "not a square" in capsys.readouterr().err
    assert main(["selftest", "--source", "gpio", "--set", "source.scan_hz=10"]) == 1
    assert "'scan_hz'" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\n")
    assert main(["selftest", "--config", str(bad)]) == 1
    assert "not valid TOML" in capsys.readouterr().err
    assert main(["selftest", "--source", "gpio", "--set", "source.pin_factory=nosuch"]) == 1
    assert "cannot open the board" in capsys.readouterr().err
