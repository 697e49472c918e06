"""LED sinks against fakes: a PixelStrip, an SPI bus decoded back into WS2812 bits, a 74HC595 chain."""

from __future__ import annotations

import asyncio
import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from board_bridge.drivers.led_sinks import (
    GpioLedSink,
    NullSink,
    SpiWs2812Sink,
    Ws281xSink,
    encode_ws2812,
)
from board_bridge.drivers.leds import DEFAULT_PALETTE, OFF, Layout, estimate_milliamps
from board_bridge.drivers.settings import DriverConfigError
from board_bridge.tracker.intents import LedIntents, Mark

GREEN = DEFAULT_PALETTE[Mark.TARGET].color
RED = DEFAULT_PALETTE[Mark.ERROR].color


class FakeStrip:
    """rpi_ws281x.PixelStrip's interface, remembering what was shown."""

    def __init__(self, n: int) -> None:
        self.pixels = [0] * n
        self.shown: list[list[int]] = []
        self.begun = False

    def begin(self) -> None:
        self.begun = True

    def setPixelColor(self, n: int, color: int) -> None:  # noqa: N802
        self.pixels[n] = color

    def show(self) -> None:
        self.shown.append(list(self.pixels))


class FakeSpi:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def writebytes2(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def decode_ws2812(data: bytes, bits_per_bit: int, speed_hz: int) -> list[tuple[int, int, int]]:
    """Read an SPI stream the way a WS2812 does: one bit per rising edge, 1 if the high time
    is over 600 ns; check every high pulse is within the datasheet's windows."""
    bits = "".join(f"{b:08b}" for b in data)
    ns = 1e9 / speed_hz
    values: list[int] = []
    i = 0
    while i < len(bits):
        if bits[i] == "1":
            j = i
            while j < len(bits) and bits[j] == "1":
                j += 1
            high = (j - i) * ns
            # WS2812B: T0H 220-380 (or 400 +-150) ns, T1H 580-1000 ns
            assert 250 <= high <= 1000, f"a {high:.0f} ns pulse"
            values.append(1 if high > 600 else 0)
            i = j
        else:
            i += 1
    assert len(values) % 24 == 0
    colors = []
    for k in range(0, len(values), 24):
        g, r, b = (int("".join(map(str, values[k + 8 * n : k + 8 * n + 8])), 2) for n in range(3))
        colors.append((r, g, b))
    # the stream ends low for at least the 280 us latch time
    tail = len(bits) - len(bits.rstrip("0"))
    assert tail * ns >= 280_000
    return colors


@pytest.mark.parametrize("bits_per_bit", [3, 8])
def test_ws2812_spi_encoding_decodes_back(bits_per_bit: int) -> None:
    colors = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (1, 128, 254), (0, 0, 0), (170, 85, 15)]
    data = encode_ws2812(colors, bits_per_bit=bits_per_bit)
    assert data[0] == 0  # MOSI low before the first bit
    assert decode_ws2812(data, bits_per_bit, 800_000 * bits_per_bit) == colors


def test_ws2812_spi_encoding_sizes_and_errors() -> None:
    data = encode_ws2812([(0, 0, 0)] * 100, bits_per_bit=3)
    assert len(data) == 1 + 100 * 9 + 90  # lead, 9 bytes per LED, 300 us at 2.4 MHz
    assert len(data) < 4096  # fits spidev's default buffer
    rgb = encode_ws2812([(1, 2, 3)], order="RGB")
    grb = encode_ws2812([(2, 1, 3)], order="GRB")
    assert rgb == grb
    with pytest.raises(ValueError):
        encode_ws2812([], bits_per_bit=5)
    with pytest.raises(ValueError):
        encode_ws2812([], order="RGX")


async def test_ws281x_sink_shows_intents_and_goes_dark_on_close() -> None:
    layout = Layout.per_square(serpentine=False)
    strip = FakeStrip(81)
    sink = Ws281xSink(layout, strip=strip, max_milliamps=None)
    async with sink:
        assert strip.begun
        await sink.show(LedIntents({4: Mark.TARGET}))
        r, g, b = GREEN
        assert strip.shown[-1][4] == (r << 16) | (g << 8) | b
        assert sum(1 for p in strip.shown[-1] if p) == 1
        writes = sink.writes
        await sink.show(LedIntents({4: Mark.TARGET}))  # unchanged: no rewrite
        assert sink.writes == writes
    assert strip.shown[-1] == [0] * 81
    await sink.close()  # twice is fine


async def test_blinking_marks_are_refreshed_steady_ones_are_not() -> None:
    layout = Layout.per_square()
    spi = FakeSpi()
    sink = SpiWs2812Sink(layout, spi=spi, refresh_hz=100)
    async with sink:
        await sink.show(LedIntents({10: Mark.TARGET}))
        n = len(spi.writes)
        await asyncio.sleep(0.3)
        assert len(spi.writes) == n  # steady: nothing to redo
        await sink.show(LedIntents({10: Mark.ERROR}))  # fast blink: 0.1 s on, 0.1 s off
        await asyncio.sleep(0.45)
        frames = [decode_ws2812(w, 3, 2_400_000) for w in spi.writes[n:]]
        i = layout.leds_of_square[10][0]
        states = [f[i] for f in frames]
        assert RED in states and OFF in states
        assert len(frames) <= 8  # written only when the blink changes (about 4 times)
    assert decode_ws2812(spi.writes[-1], 3, 2_400_000) == [OFF] * 81
    assert spi.closed is False  # the fake was passed in: the caller closes it


async def test_power_cap_reaches_the_wire() -> None:
    layout = Layout.corner_grid()
    spi = FakeSpi()
    sink = SpiWs2812Sink(layout, spi=spi, max_milliamps=800)
    async with sink:
        await sink.show(LedIntents(dict.fromkeys(range(81), Mark.CLEAR)))
        colors = decode_ws2812(spi.writes[-1], 3, 2_400_000)
        assert len(colors) == 100 and estimate_milliamps(colors) <= 800
        assert all(c != OFF for c in colors)


class ChainPin(MockPin):
    """Clock and latch lines of a fake 74HC595 chain (act on rising edges)."""

    chain: Fake595 | None = None
    role = ""

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed and value and self.chain is not None:
            self.chain.edge(self.role)
        return changed


class Fake595:
    def __init__(self, factory: MockFactory, data: int, clock: int, latch: int, chips: int) -> None:
        self.data = factory.pin(data)
        for n, role in ((clock, "clock"), (latch, "latch")):
            pin = factory.pin(n, pin_class=ChainPin)
            assert isinstance(pin, ChainPin)
            pin.chain, pin.role = self, role
        self.shift = [False] * (8 * chips)
        self.outputs = [False] * (8 * chips)
        self.latches = 0
        self.lock = threading.Lock()

    def edge(self, role: str) -> None:
        with self.lock:
            if role == "clock":  # SER into output 0 (chip 0 QA), everything moves up one
                self.shift = [bool(self.data.state)] + self.shift[:-1]
            else:
                self.outputs = list(self.shift)
                self.latches += 1


async def test_single_colour_leds_on_a_595_chain() -> None:
    factory = MockFactory()
    chain = Fake595(factory, 17, 27, 22, chips=11)
    layout = Layout.per_square(serpentine=False)
    sink = GpioLedSink(layout, data_pin=17, clock_pin=27, latch_pin=22, pin_factory=factory)
    async with sink:
        await sink.show(LedIntents({0: Mark.TARGET, 80: Mark.TARGET, 40: Mark.LIFTED}))
        assert [i for i, on in enumerate(chain.outputs) if on] == [0, 40, 80]
        await sink.show(LedIntents({7: Mark.ERROR}))  # fast blink
        seen = set()
        for _ in range(30):
            await asyncio.sleep(0.02)
            seen.add(chain.outputs[7])
        assert seen == {True, False}
        assert not any(chain.outputs[:7]) and not any(chain.outputs[8:])
    assert not any(chain.outputs)


async def test_single_colour_leds_on_their_own_pins_active_low() -> None:
    factory = MockFactory()
    pins = [5, 6, 13, 19]
    layout = Layout.per_square(offset=0)  # 81 LEDs: too many for four pins
    with pytest.raises(ValueError, match="81 LEDs but 4 pins"):
        GpioLedSink(layout, pins=pins, pin_factory=factory)
    # a layout whose first LEDs are before the board... use a fake 4-LED layout instead
    small = Layout("square", 4, tuple(((sq % 4),) for sq in range(81)), ((0,), (1,), (2,), (3,)))
    sink = GpioLedSink(small, pins=pins, active_high=False, pin_factory=factory)
    async with sink:
        await sink.show(LedIntents({2: Mark.TARGET}))
        assert [factory.pin(p).state for p in pins] == [True, True, False, True]
    assert [factory.pin(p).state for p in pins] == [True] * 4


async def test_null_sink_keeps_intents() -> None:
    sink = NullSink()
    async with sink:
        await sink.show(LedIntents({1: Mark.CHECK}))
        assert sink.intents.mark(1) == Mark.CHECK


def test_sink_settings() -> None:
    sink = SpiWs2812Sink.from_settings(
        {
            "layout": "corners",
            "brightness": 0.3,
            "bits_per_bit": 8,
            "palette": {"target": {"color": "#00ff00"}},
        }
    )
    assert sink.layout.num_leds == 100 and sink.speed_hz == 6_400_000
    assert sink.palette[Mark.TARGET].color == (0, 255, 0)
    assert SpiWs2812Sink.from_settings({"max_milliamps": 0}).max_milliamps is None
    ws = Ws281xSink.from_settings({"pin": 12, "channel": 0, "strip_type": "RGB"})
    assert ws.pin == 12 and ws.max_milliamps == 1500
    with pytest.raises(DriverConfigError, match="bits_per_bit"):
        SpiWs2812Sink.from_settings({"bits_per_bit": 4})
    with pytest.raises(DriverConfigError, match="brightness"):
        SpiWs2812Sink.from_settings({"brightness": 2})
    with pytest.raises(DriverConfigError, match="start"):
        SpiWs2812Sink.from_settings({"start": "centre"})
    with pytest.raises(DriverConfigError, match="'brigthness'"):
        Ws281xSink.from_settings({"brigthness": 0.5})
    g = GpioLedSink.from_settings(
        {"data_pin": 17, "clock_pin": 27, "latch_pin": 22, "patterns": {"last_move": "off"}}
    )
    assert g.chips == 11 and g.patterns[Mark.LAST_MOVE] is None
    with pytest.raises(DriverConfigError, match="data_pin, clock_pin and latch_pin"):
        GpioLedSink.from_settings({"data_pin": 17})
    with pytest.raises(DriverConfigError, match="patterns"):
        GpioLedSink.from_settings(
            {"data_pin": 1, "clock_pin": 2, "latch_pin": 3, "patterns": {"error": "wobble"}}
        )


async def test_show_after_close_is_ignored() -> None:
    spi = FakeSpi()
    sink = SpiWs2812Sink(Layout.per_square(), spi=spi)
    async with sink:
        await sink.show(LedIntents({3: Mark.TARGET}))
    n = len(spi.writes)
    await sink.show(LedIntents({3: Mark.TARGET}))
    assert len(spi.writes) == n
    assert decode_ws2812(spi.writes[-1], 3, 2_400_000) == [OFF] * 81
