"""The 74HC165 chain source against a fake chain on a fake SPI device and a MockFactory load pin."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
from gpiozero.pins.mock import MockFactory

from board_bridge.drivers.base import SourceDisconnected
from board_bridge.drivers.settings import DriverConfigError
from board_bridge.drivers.shift_register import ShiftRegisterSource
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame

from .fake_165 import Fake165Chain

LOAD = 25


async def next_event(
    events: AsyncIterator[SensorEvent],
    want: Callable[[SensorEvent], bool] = lambda e: True,
    timeout: float = 3.0,
) -> SensorEvent:
    async def find() -> SensorEvent:
        async for ev in events:
            if want(ev):
                return ev
        raise AssertionError("the source ended")

    return await asyncio.wait_for(find(), timeout)


def cells_are(cells: str) -> Callable[[SensorEvent], bool]:
    return lambda e: isinstance(e, SensorFrame) and e.cells == cells


def board(**squares: str) -> str:
    out = ["."] * 81
    for key, cell in squares.items():
        out[int(key[1:])] = cell
    return "".join(out)


def make(chips: int, **kw: object) -> tuple[Fake165Chain, ShiftRegisterSource]:
    factory = MockFactory()
    chain = Fake165Chain(factory, LOAD, chips)
    kw.setdefault("scan_hz", 500.0)
    kw.setdefault("debounce_scans", 2)
    kw.setdefault("debounce_ms", 0.0)
    source = ShiftRegisterSource(load_pin=LOAD, pin_factory=factory, spi=chain, **kw)  # type: ignore[arg-type]
    return chain, source


async def test_each_input_is_its_square() -> None:
    chain, source = make(11)
    assert source.chips == 11
    async with source:
        events = source.events()
        await next_event(events, cells_are(board()))
        for n in (0, 7, 8, 40, 80):
            chain.set_active({n})
            await next_event(events, cells_are(board(**{f"s{n}": "x"})))
        chain.set_active(range(88))  # inputs 81-87 are not squares
        await next_event(events, cells_are("x" * 81))
    assert chain.latches >= chain.reads - 1 > 0  # a load pulse before every read
    assert chain.reads > 0


async def test_spare_inputs_are_buttons() -> None:
    chain, source = make(11, buttons={81: "promote", 87: "P"})
    async with source:
        events = source.events()
        await next_event(events, cells_are(board()))
        chain.set_active({87, 3})
        ev = await next_event(events, lambda e: isinstance(e, PlayerInput))
        assert isinstance(ev, PlayerInput) and ev.value == "P"
        chain.set_active({3})
        chain.set_active({3, 81})
        ev = await next_event(events, lambda e: isinstance(e, PlayerInput))
        assert isinstance(ev, PlayerInput) and ev.value == "promote"


async def test_polarity_board_with_two_sensors_per_square() -> None:
    chain, source = make(21, polarity="two-unipolar")
    assert source.chips == 21
    async with source:
        events = source.events()
        await next_event(events, cells_are(board()))
        # square 0: south sensor (input 0); square 40: north sensor (input 81); square 80: both
        chain.set_active({0, 81, 160, 161})
        await next_event(events, cells_are(board(s0="u", s40="p", s80="x")))
        # flipping the piece on 40 (promoting it) swaps which sensor sees it
        chain.set_active({0, 80, 160, 161})
        await next_event(events, cells_are(board(s0="u", s40="u", s80="x")))


async def test_presence_and_latch_polarity() -> None:
    chain, source = make(21, polarity="presence-latch")
    async with source:
        events = source.events()
        await next_event(events, cells_are(board()))
        # square 0: latch only (a magnet left earlier): still empty; square 1: present and
        # the latch saw a south pole (unpromoted); square 2: present, latch released (north)
        chain.set_active({1, 2, 3, 4})
        await next_event(events, cells_are(board(s1="u", s2="p")))


async def test_an_unplugged_chain_disconnects_and_comes_back() -> None:
    chain, source = make(11)
    async with source:
        events = source.events()
        await next_event(events, cells_are(board()))
        chain.unplugged = True
        with pytest.raises(SourceDisconnected, match="does not answer"):
            await next_event(events)
        chain.unplugged = False
        chain.set_active({5})
        await next_event(source.events(), cells_are(board(s5="x")))
    assert chain.closed is False  # an SPI device passed in is the caller's to close


def test_decode_bit_order() -> None:
    _, source = make(11, active_low=False, check_byte=None)
    data = [0] * 11
    data[0] = 0b0000_0001  # input 0 = chip 0 pin A
    data[1] = 0b1000_0000  # input 15 = chip 1 pin H
    data[10] = 0b0000_0001  # input 80
    cells, buttons = source.decode(data)
    assert cells == board(s0="x", s15="x", s80="x") and buttons == ""


def test_settings() -> None:
    s = ShiftRegisterSource.from_settings(
        {
            "load_pin": 24,
            "polarity": "two-unipolar",
            "buttons": {"162": "promote", "163": {"input": "resign", "hold": 2}, "164": ""},
        }
    )
    assert s.chips == 21 and s.button_values == ("promote", "resign")
    assert s.button_holds == (0.0, 2.0)
    with pytest.raises(DriverConfigError, match="polarity"):
        ShiftRegisterSource.from_settings({"polarity": "north"})
    with pytest.raises(DriverConfigError, match="used twice"):
        ShiftRegisterSource.from_settings({"buttons": {"3": "undo"}})
    with pytest.raises(DriverConfigError, match="unknown input"):
        ShiftRegisterSource.from_settings({"buttons": {"81": "undone"}})
    with pytest.raises(DriverConfigError, match="need 11 chips"):
        ShiftRegisterSource.from_settings({"chips": 10})
    with pytest.raises(DriverConfigError, match="'speed'"):
        ShiftRegisterSource.from_settings({"speed": 10})
    with pytest.raises(DriverConfigError, match="check_byte"):
        ShiftRegisterSource.from_settings({"check_byte": 300})
    assert ShiftRegisterSource.from_settings({"check_byte": False}).check_byte is None
    assert ShiftRegisterSource.from_settings({"check_byte": 255}).check_byte == 255
