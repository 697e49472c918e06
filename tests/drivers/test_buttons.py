"""GPIO buttons on gpiozero's MockFactory: inputs, debouncing, holds, merging with a source."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from gpiozero.pins.mock import MockFactory

from board_bridge.drivers.base import SensorSource, SourceDisconnected
from board_bridge.drivers.buttons import ButtonInputs, ButtonSpec, WithButtons
from board_bridge.drivers.settings import DriverConfigError
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame


async def drain(queue: asyncio.Queue[PlayerInput], wait: float = 0.05) -> list[str]:
    await asyncio.sleep(wait)
    out = []
    while not queue.empty():
        out.append(queue.get_nowait().value)
    return out


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()


def release(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_high()


async def test_presses_become_inputs_with_monotonic_times() -> None:
    factory = MockFactory()
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[PlayerInput] = asyncio.Queue()
    buttons = ButtonInputs(
        {"promote": 5, "nonpromote": 6, "P": 12}, pin_factory=factory, bounce_time=0.0
    )
    buttons.open(lambda ev: loop.call_soon_threadsafe(queue.put_nowait, ev))
    try:
        before = time.monotonic()
        press(factory, 5)
        release(factory, 5)
        press(factory, 12)
        release(factory, 12)
        got = [await asyncio.wait_for(queue.get(), 1) for _ in range(2)]
        assert [g.value for g in got] == ["promote", "P"]
        assert before <= got[0].t <= got[1].t <= time.monotonic()
        release(factory, 6)  # a release alone is not a press
        assert await drain(queue) == []
    finally:
        buttons.close()
        buttons.close()  # twice is fine


async def test_bounces_within_bounce_time_count_once() -> None:
    factory = MockFactory()
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[PlayerInput] = asyncio.Queue()
    buttons = ButtonInputs({"undo": 16}, pin_factory=factory, bounce_time=0.2)
    buttons.open(lambda ev: loop.call_soon_threadsafe(queue.put_nowait, ev))
    try:
        for _ in range(4):  # contact bounce: four closures within a few milliseconds
            press(factory, 16)
            release(factory, 16)
        assert await drain(queue) == ["undo"]
        await asyncio.sleep(0.25)
        press(factory, 16)
        release(factory, 16)
        assert await drain(queue) == ["undo"]
    finally:
        buttons.close()


async def test_a_held_button_fires_only_after_its_hold_time() -> None:
    factory = MockFactory()
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[PlayerInput] = asyncio.Queue()
    buttons = ButtonInputs(
        {"resign": ButtonSpec(20, hold=0.15), "clock": 21}, pin_factory=factory, bounce_time=0.0
    )
    buttons.open(lambda ev: loop.call_soon_threadsafe(queue.put_nowait, ev))
    try:
        press(factory, 20)
        release(factory, 20)  # a tap does not resign
        assert await drain(queue, 0.3) == []
        press(factory, 20)
        got = await asyncio.wait_for(queue.get(), 2)
        assert got.value == "resign"
        release(factory, 20)
    finally:
        buttons.close()


class FakeSource(SensorSource):
    """Frames pushed by the test."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[SensorEvent] = asyncio.Queue()
        self.closed = 0

    async def events(self) -> AsyncIterator[SensorEvent]:
        while True:
            event = await self.queue.get()
            if isinstance(event, PlayerInput) and event.value == "unplug":
                raise SourceDisconnected("cable pulled")
            yield event

    async def close(self) -> None:
        self.closed += 1


async def test_with_buttons_merges_inputs_after_the_first_frame() -> None:
    factory = MockFactory()
    inner = FakeSource()
    source = WithButtons(inner, ButtonInputs({"promote": 5}, pin_factory=factory, bounce_time=0.0))
    async with source:
        events = source.events()
        got: list[SensorEvent] = []

        async def take(n: int) -> None:
            async for ev in events:
                got.append(ev)
                if len(got) >= n:
                    return

        press(factory, 5)  # before any frame: dropped
        release(factory, 5)
        await asyncio.sleep(0.02)
        inner.queue.put_nowait(SensorFrame(1.0, "." * 81))
        await asyncio.wait_for(take(1), 1)
        press(factory, 5)
        release(factory, 5)
        await asyncio.wait_for(take(2), 1)
        inner.queue.put_nowait(SensorFrame(2.0, "x" + "." * 80))
        await asyncio.wait_for(take(3), 1)
        assert [type(e).__name__ for e in got] == ["SensorFrame", "PlayerInput", "SensorFrame"]
        assert got[1].value == "promote"  # type: ignore[union-attr]
        await events.aclose()  # type: ignore[attr-defined]
    assert inner.closed == 1
    # the pins were released: a new button can take pin 5
    again = ButtonInputs({"clock": 5}, pin_factory=factory)
    again.open(lambda ev: None)
    again.close()


def test_from_settings() -> None:
    b = ButtonInputs.from_settings(
        {"promote": 5, "resign": {"pin": 6, "hold": 2.0}, "bounce_ms": 20, "pull_up": True}
    )
    assert b.buttons["resign"] == ButtonSpec(6, 2.0)
    assert b.bounce_time == pytest.approx(0.02)
    with pytest.raises(DriverConfigError, match="unknown input 'promot'"):
        ButtonInputs.from_settings({"promot": 5})
    with pytest.raises(DriverConfigError, match="two buttons"):
        ButtonInputs.from_settings({"promote": 5, "undo": 5})
    with pytest.raises(DriverConfigError, match="'hold'"):
        ButtonInputs.from_settings({"resign": {"pin": 6, "hold": "long"}})
    with pytest.raises(DriverConfigError, match="bad GPIO pin"):
        ButtonInputs.from_settings({"undo": -3})


async def test_with_buttons_passes_a_disconnect_on_and_drops_stale_presses() -> None:
    factory = MockFactory()
    inner = FakeSource()
    source = WithButtons(inner, ButtonInputs({"undo": 5}, pin_factory=factory, bounce_time=0.0))
    async with source:
        events = source.events()
        inner.queue.put_nowait(SensorFrame(1.0, "." * 81))
        assert isinstance(await asyncio.wait_for(anext(events), 1), SensorFrame)
        inner.queue.put_nowait(PlayerInput(0, "unplug"))
        with pytest.raises(SourceDisconnected):
            await asyncio.wait_for(anext(events), 1)
        press(factory, 5)  # while the board is away
        release(factory, 5)
        await asyncio.sleep(0.02)
        again = source.events()
        inner.queue.put_nowait(SensorFrame(2.0, "x" + "." * 80))
        first = await asyncio.wait_for(anext(again), 1)
        assert isinstance(first, SensorFrame) and first.t == 2.0
        press(factory, 5)
        pressed = await asyncio.wait_for(anext(again), 1)
        assert isinstance(pressed, PlayerInput) and pressed.value == "undo"
