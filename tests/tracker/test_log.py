"""The sensor-log format: read exactly, written exactly, bad lines named by number."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from board_bridge.tracker.events import PlayerInput, SensorFrame, SensorLogError
from board_bridge.tracker.log import SensorLogLineError, format_log, load_log, read_log, write_log
from tests.conftest import shared_path

START = "xxxxxxxxx/.x.....x./xxxxxxxxx/........./........./........./xxxxxxxxx/.x.....x./xxxxxxxxx"


@pytest.mark.parametrize("name", ["engine-game-quiet.jsonl", "engine-game-noisy.jsonl"])
def test_shared_logs_round_trip_byte_for_byte(name: str, tmp_path: Path) -> None:
    path = shared_path("sensor-logs", name)
    events = load_log(path)
    assert events and isinstance(events[0], SensorFrame)
    assert any(isinstance(e, PlayerInput) for e in events)
    out = tmp_path / name
    assert write_log(events, out) == len(events)
    assert out.read_bytes() == path.read_bytes()
    assert format_log(events) == path.read_text()


def test_read_from_a_stream_skips_blank_lines() -> None:
    text = f'{{"t": 0.0, "board": "{START}"}}\n\n{{"t": 1, "input": "promote"}}\n   \n'
    events = list(read_log(io.StringIO(text)))
    assert events == [SensorFrame.from_board_string(0.0, START), PlayerInput(1.0, "promote")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "not JSON"),
        ('{"board": "x"}', 'numeric "t"'),
        ('{"t": 1.0}', '"board" or "input"'),
        ('{"t": 1.0, "board": "x"}', "9 ranks"),
        ('{"t": 1.0, "board": "' + START.replace("x", "q", 1) + '"}', "81 cells"),
        ('{"t": 1.0, "input": 5}', "must be a string"),
        ('{"t": -5.0, "input": "P"}', "backwards"),
    ],
)
def test_bad_lines_are_named(line: str, message: str) -> None:
    text = f'{{"t": 0.0, "board": "{START}"}}\n\n{line}\n'
    with pytest.raises(SensorLogError) as err:
        load_log(io.StringIO(text))
    assert isinstance(err.value, SensorLogLineError) and err.value.line == 3
    assert message in str(err.value) and ":3:" in str(err.value)


def test_write_to_a_stream() -> None:
    buf = io.StringIO()
    write_log([SensorFrame.from_board_string(0.25, START), PlayerInput(1.5, "G")], buf)
    assert buf.getvalue() == f'{{"t": 0.25, "board": "{START}"}}\n{{"t": 1.5, "input": "G"}}\n'


def test_identity_cells_round_trip() -> None:
    # case is the face (a tokin on 5e), never the owner; "?" an unregistered tag
    back = "LNSGKGSNL"
    cells = f"{back}/.R.....B./{'P' * 9}/{'.' * 9}/....t..?./{'.' * 9}/{'P' * 9}/.B.....R./{back}"
    text = f'{{"t": 0.5, "board": "{cells}"}}\n'
    events = list(read_log(io.StringIO(text)))
    assert isinstance(events[0], SensorFrame) and events[0].board_string() == cells
    buf = io.StringIO()
    write_log(events, buf)
    assert buf.getvalue() == text
