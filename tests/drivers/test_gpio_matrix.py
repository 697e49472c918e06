"""The GPIO matrix source against a diode matrix simulated on gpiozero's MockFactory."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable

import pytest
from gpiozero.pins.mock import MockFactory

from board_bridge.drivers.base import SourceDisconnected
from board_bridge.drivers.gpio_matrix import (
    DEFAULT_COLUMNS,
    DEFAULT_ROWS,
    ButtonRow,
    GpioMatrixSource,
)
from board_bridge.drivers.matrix import SquareMap
from board_bridge.drivers.settings import DriverConfigError
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame

from .mock_matrix import DiodeMatrix

ROWS = list(DEFAULT_ROWS)
COLS = list(DEFAULT_COLUMNS)


def pos(r: int, c: int) -> int:
    return r * 9 + c


def occupied(frame: SensorFrame) -> set[int]:
    return {i for i, ch in enumerate(frame.cells) if ch != "."}


async def next_frame(
    events: AsyncIterator[SensorEvent],
    want: Callable[[SensorFrame], bool] = lambda f: True,
    timeout: float = 3.0,
    seen: list[SensorEvent] | None = None,
) -> SensorFrame:
    async def find() -> SensorFrame:
        async for ev in events:
            if seen is not None:
                seen.append(ev)
            if isinstance(ev, SensorFrame) and want(ev):
                return ev
        raise AssertionError("the source ended")

    return await asyncio.wait_for(find(), timeout)


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def make(factory: MockFactory, **kw: object) -> tuple[DiodeMatrix, GpioMatrixSource]:
    missing = kw.pop("missing_diodes", ())
    button_pins = [br.pin for br in kw.get("button_rows", ())]  # type: ignore[attr-defined]
    matrix = DiodeMatrix(factory, ROWS + button_pins, COLS, missing_diodes=missing)  # type: ignore[arg-type]
    kw.setdefault("scan_hz", 500.0)
    kw.setdefault("debounce_scans", 2)
    kw.setdefault("debounce_ms", 2.0)
    source = GpioMatrixSource(ROWS, COLS, pin_factory=factory, **kw)  # type: ignore[arg-type]
    return matrix, source


async def test_reports_exactly_the_closed_switches(factory: MockFactory) -> None:
    matrix, source = make(factory)
    async with source:
        events = source.events()
        first = await next_frame(events)
        assert occupied(first) == set()
        closed = {pos(0, 0), pos(8, 8), pos(4, 4), pos(2, 7), pos(6, 1)}
        matrix.set_closed(closed)
        frame = await next_frame(events, lambda f: occupied(f) == closed)
        assert frame.t >= first.t
        matrix.open(pos(4, 4))
        await next_frame(events, lambda f: occupied(f) == closed - {pos(4, 4)})
        # a full board, every switch closed
        matrix.set_closed(range(81))
        await next_frame(events, lambda f: occupied(f) == set(range(81)))
        assert matrix.shorts == 0
    assert source.scan_count >= 8  # first frame + three changes, two scans each


async def test_every_square_maps_to_its_own_cell(factory: MockFactory) -> None:
    matrix, source = make(factory, square_map=SquareMap.from_settings(rotate=180))
    async with source:
        events = source.events()
        await next_frame(events)
        for p in (0, 10, 44, 80):
            matrix.set_closed({p})
            await next_frame(events, lambda f, p=p: occupied(f) == {80 - p})


async def test_a_bouncing_switch_changes_once(factory: MockFactory) -> None:
    matrix, source = make(factory, debounce_scans=3, debounce_ms=0.0)
    target = pos(3, 5)
    script: dict[int, bool] = {}

    def hook(n: int) -> None:  # runs at the start of each scan, on the scan thread
        if n in script:
            (matrix.close if script.pop(n) else matrix.open)(target)

    matrix.on_scan(hook)
    async with source:
        events = source.events()
        await next_frame(events)
        now = matrix.scans
        # closed, open, closed, closed, open, closed, open ... then closed for good
        pattern = [True, False, True, True, False, True, False, True]
        script.update({now + 2 + i: v for i, v in enumerate(pattern)})
        seen: list[SensorEvent] = []
        await next_frame(events, lambda f: occupied(f) == {target}, seen=seen)
        assert [occupied(f) for f in seen if isinstance(f, SensorFrame)] == [{target}]
        # and a release that bounces
        now = matrix.scans
        script.update({now + 2 + i: v for i, v in enumerate([False, True, False, True, False])})
        seen.clear()
        await next_frame(events, lambda f: occupied(f) == set(), seen=seen)
        assert [occupied(f) for f in seen if isinstance(f, SensorFrame)] == [set()]


async def test_missing_diodes_make_rectangle_ghosts(factory: MockFactory) -> None:
    three = {pos(1, 1), pos(1, 5), pos(4, 1)}
    matrix, source = make(factory, missing_diodes=range(81))
    async with source:
        events = source.events()
        await next_frame(events)
        matrix.set_closed(three)
        frame = await next_frame(events, lambda f: three <= occupied(f))
        await asyncio.sleep(0.05)  # let any late change through
        await source.request_frame()
        frame = await next_frame(events)
        assert occupied(frame) == three | {pos(4, 5)}


async def test_with_diodes_the_same_three_switches_read_true(factory: MockFactory) -> None:
    three = {pos(1, 1), pos(1, 5), pos(4, 1)}
    matrix, source = make(factory)
    async with source:
        events = source.events()
        await next_frame(events)
        matrix.set_closed(three)
        await next_frame(events, lambda f: three <= occupied(f))
        await asyncio.sleep(0.05)
        await source.request_frame()
        assert occupied(await next_frame(events)) == three


async def test_push_pull_rows_with_diodes(factory: MockFactory) -> None:
    matrix, source = make(factory, row_drive="push-pull")
    closed = {pos(1, 1), pos(1, 5), pos(4, 1), pos(8, 0)}
    async with source:
        events = source.events()
        await next_frame(events)
        matrix.set_closed(closed)
        await next_frame(events, lambda f: occupied(f) == closed)
    assert matrix.shorts == 0


async def test_button_rows_send_inputs(factory: MockFactory) -> None:
    rows = [
        ButtonRow(7, ("promote", "nonpromote", "R", "B", "G", "S", "N", "L", "P")),
        ButtonRow(8, ("undo", None, "clock")),
    ]
    matrix, source = make(factory, button_rows=rows)
    async with source:
        events = source.events()
        await next_frame(events)
        matrix.close(81 + 0)  # promote
        matrix.close(pos(2, 2))  # a square at the same time
        got: list[SensorEvent] = []

        async def until_input() -> None:
            async for ev in events:
                got.append(ev)
                if isinstance(ev, PlayerInput):
                    return

        await asyncio.wait_for(until_input(), 3)
        assert got[-1].value == "promote"  # type: ignore[union-attr]
        matrix.open(81)
        matrix.close(90 + 2)  # clock, on the second button row
        matrix.close(90 + 1)  # no button there: ignored
        got.clear()
        await asyncio.wait_for(until_input(), 3)
        assert got[-1].value == "clock"  # type: ignore[union-attr]
        frames = [e for e in got if isinstance(e, SensorFrame)]
        assert all(occupied(f) <= {pos(2, 2)} for f in frames)


async def test_request_frame_and_reconnect_start_with_a_full_frame(factory: MockFactory) -> None:
    matrix, source = make(factory)
    matrix.set_closed({pos(5, 5)})
    async with source:
        events = source.events()
        assert occupied(await next_frame(events)) == {pos(5, 5)}
        await events.aclose()  # type: ignore[attr-defined]
        again = source.events()
        assert occupied(await next_frame(again)) == {pos(5, 5)}


async def test_close_releases_the_pins_and_is_idempotent(factory: MockFactory) -> None:
    matrix, source = make(factory)
    async with source:
        await next_frame(source.events())
    await source.close()
    assert all(p.function == "input" for p in matrix.rows)
    # the pins can be claimed again by a new source
    source2 = GpioMatrixSource(ROWS, COLS, pin_factory=factory, scan_hz=500)
    async with source2:
        await next_frame(source2.events())


async def test_a_failing_scan_disconnects_and_the_next_events_call_recovers(
    factory: MockFactory,
) -> None:
    matrix, source = make(factory)
    fail = {"on": False}
    real_scan = source._scan

    def flaky() -> tuple[str, str]:
        if fail["on"]:
            fail["on"] = False
            raise OSError("GPIO went away")
        return real_scan()

    source._scan = flaky  # type: ignore[method-assign]
    async with source:
        events = source.events()
        await next_frame(events)
        fail["on"] = True
        with pytest.raises(SourceDisconnected, match="GPIO went away"):
            await next_frame(events)
        matrix.set_closed({pos(0, 3)})
        again = source.events()
        await next_frame(again, lambda f: occupied(f) == {pos(0, 3)})


def test_from_settings_defaults_and_errors() -> None:
    src = GpioMatrixSource.from_settings({"scan_hz": 250, "rotate": 180})
    assert src.scan_hz == 250 and src.square_map.squares[0] == 80
    assert list(src.row_names) == ROWS
    src = GpioMatrixSource.from_settings(
        {"button_rows": [{"pin": 7, "buttons": ["promote", "", "R"]}]}
    )
    assert src.button_values[:3] == ("promote", None, "R")
    with pytest.raises(DriverConfigError, match="'rows'"):
        GpioMatrixSource.from_settings({"rows": [1, 2, 3]})
    with pytest.raises(DriverConfigError, match="'scan_hz'"):
        GpioMatrixSource.from_settings({"scan_hz": 50})
    with pytest.raises(DriverConfigError, match="'scna_hz'"):
        GpioMatrixSource.from_settings({"scna_hz": 500})
    with pytest.raises(DriverConfigError, match="row_drive"):
        GpioMatrixSource.from_settings({"row_drive": "tri-state"})
    with pytest.raises(DriverConfigError, match="used twice"):
        GpioMatrixSource.from_settings({"rows": COLS[:1] + ROWS[1:]})
    with pytest.raises(DriverConfigError, match="unknown input 'promot'"):
        GpioMatrixSource.from_settings({"button_rows": [{"pin": 7, "buttons": ["promot"]}]})
    with pytest.raises(DriverConfigError, match="rotate"):
        GpioMatrixSource.from_settings({"rotate": 45})


async def test_a_held_button_row_button_counts_only_after_its_hold_time(
    factory: MockFactory,
) -> None:
    rows = [ButtonRow(7, ("undo", "resign"), (0.0, 0.3))]
    matrix, source = make(factory, button_rows=rows)
    async with source:
        events = source.events()
        await next_frame(events)
        got: list[PlayerInput] = []

        async def consume() -> None:
            async for ev in events:
                if isinstance(ev, PlayerInput):
                    got.append(ev)

        reader = asyncio.create_task(consume())
        collect = asyncio.sleep
        matrix.close(82)  # resign, tapped
        await asyncio.sleep(0.05)
        matrix.open(82)
        await collect(0.45)  # longer than the hold: a tap never fires late
        assert got == []
        pressed_at = time.monotonic()
        matrix.close(82)  # resign, held
        await collect(0.8)
        assert [g.value for g in got] == ["resign"]
        assert got[0].t - pressed_at >= 0.29
        matrix.open(82)
        matrix.close(81)  # undo: on press
        await collect(0.2)
        assert [g.value for g in got] == ["resign", "undo"]
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)


def test_button_row_settings_with_holds() -> None:
    src = GpioMatrixSource.from_settings(
        {"button_rows": [{"pin": 8, "buttons": ["undo", {"input": "resign", "hold": 2.0}]}]}
    )
    assert src.button_values[:2] == ("undo", "resign")
    assert src.button_holds[:2] == (0.0, 2.0)
    with pytest.raises(DriverConfigError, match="hold"):
        GpioMatrixSource.from_settings(
            {"button_rows": [{"pin": 8, "buttons": [{"input": "resign", "hold": "long"}]}]}
        )
