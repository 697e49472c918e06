"""LED sinks driven from the Pi: WS2812 through rpi_ws281x or SPI, single-colour LEDs on GPIO.

Every sink renders :class:`LedIntents` with the pure functions of
:mod:`board_bridge.drivers.leds` and writes the result to its hardware. Blinking
marks need the LEDs rewritten as time passes, so each sink runs a refresh task
(started by :meth:`start`, stopped by :meth:`close`) that re-renders a few dozen
times a second while anything blinks, and writes only when the LEDs change.
Hardware writes block for a few milliseconds, so they run in a worker thread.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

from board_bridge.drivers.base import LedSink
from board_bridge.drivers.gpio import resolve_pin_factory
from board_bridge.drivers.leds import (
    DEFAULT_MAX_MILLIAMPS,
    DEFAULT_PALETTE,
    LAYOUT_KEYS,
    PATTERNS,
    SINGLE_COLOUR_PATTERNS,
    Blink,
    Color,
    Layout,
    LayoutError,
    Style,
    is_animated,
    palette_from_settings,
    render_colors,
    render_single_colour,
)
from board_bridge.drivers.settings import DriverConfigError, Settings
from board_bridge.tracker.intents import LedIntents, Mark

log = logging.getLogger(__name__)


class LedHardwareError(OSError):
    """The LED hardware cannot be opened or written."""


class RefreshingSink(LedSink):
    """Base of the sinks here: keeps the intents, renders on :meth:`show` and while blinking.

    Must implement: :meth:`_open`, :meth:`_render`, :meth:`_write`, :meth:`_release`
    (the hardware ones run in a worker thread). May override :meth:`_animated`.
    """

    def __init__(self, *, refresh_hz: float = 25.0, clock: Callable[[], float] = time.monotonic):
        if not 1.0 <= refresh_hz <= 200.0:
            raise ValueError(f"refresh_hz must be between 1 and 200: {refresh_hz}")
        self.refresh_hz = refresh_hz
        self._clock = clock
        self._intents = LedIntents()
        self._shown: list[Any] | None = None
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._opened = False
        self._closed = False
        self.writes = 0  # how many times the hardware was written (diagnostics, tests)

    @abc.abstractmethod
    def _open(self) -> None: ...

    @abc.abstractmethod
    def _render(self, intents: LedIntents, t: float) -> list[Any]: ...

    @abc.abstractmethod
    def _write(self, values: list[Any]) -> None: ...

    @abc.abstractmethod
    def _release(self) -> None: ...

    def _animated(self, intents: LedIntents) -> bool:
        return is_animated(intents)

    @property
    def intents(self) -> LedIntents:
        return self._intents

    async def start(self) -> None:
        if self._closed:
            raise RuntimeError("this LED sink was closed")
        if not self._opened:
            await asyncio.to_thread(self._open)
            self._opened = True
            await self._refresh(force=True)
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"{type(self).__name__}-refresh")

    async def show(self, intents: LedIntents) -> None:
        if self._closed:
            return  # the LEDs are off for good
        if not self._opened:
            await self.start()
        self._intents = intents
        await self._refresh()
        self._wake.set()

    async def _refresh(self, force: bool = False) -> None:
        async with self._lock:
            if self._closed and not force:
                return
            values = self._render(self._intents, self._clock())
            if values != self._shown or force:
                await asyncio.to_thread(self._write, values)
                self._shown = values
                self.writes += 1

    async def _run(self) -> None:
        period = 1.0 / self.refresh_hz
        while not self._closed:
            try:
                if self._animated(self._intents):
                    await asyncio.sleep(period)
                else:
                    self._wake.clear()
                    await self._wake.wait()
                await self._refresh()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s: LED refresh failed", type(self).__name__)
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._opened:
            self._intents = LedIntents()
            with contextlib.suppress(Exception):
                await self._refresh(force=True)  # all dark
            await asyncio.to_thread(self._release)
            self._opened = False


class NullSink(LedSink):
    """No LEDs: intents are kept (for tests and the self-test's display) and dropped."""

    def __init__(self) -> None:
        self.intents = LedIntents()

    async def show(self, intents: LedIntents) -> None:
        self.intents = intents


# --------------------------------------------------------------------------- RGB sinks


class RgbSink(RefreshingSink):
    """A sink of WS2812-class RGB LEDs laid out by a :class:`Layout`."""

    def __init__(
        self,
        layout: Layout,
        *,
        palette: Mapping[Mark, Style] = DEFAULT_PALETTE,
        brightness: float = 1.0,
        max_milliamps: float | None = DEFAULT_MAX_MILLIAMPS,
        refresh_hz: float = 25.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness must be between 0 and 1: {brightness}")
        super().__init__(refresh_hz=refresh_hz, clock=clock)
        self.layout = layout
        self.palette = dict(palette)
        self.brightness = brightness
        self.max_milliamps = max_milliamps

    def _render(self, intents: LedIntents, t: float) -> list[Color]:
        return render_colors(
            intents,
            self.layout,
            t,
            palette=self.palette,
            brightness=self.brightness,
            max_milliamps=self.max_milliamps,
        )

    def _animated(self, intents: LedIntents) -> bool:
        return is_animated(intents, palette=self.palette)

    @staticmethod
    def _common(s: Settings) -> dict[str, Any]:
        """The keys every RGB sink understands (layout, brightness, power cap, palette).

        ``max_milliamps = 0`` turns the power cap off (only for a supply that can feed
        every LED at full white)."""
        layout_settings = {k: s.raw(k) for k in LAYOUT_KEYS if s.has(k)}
        try:
            layout = Layout.from_settings(layout_settings)
            palette = palette_from_settings(s.table("palette", {}))
        except LayoutError as exc:
            raise DriverConfigError(f"{s.where}: {exc}") from None
        return {
            "layout": layout,
            "palette": palette,
            "brightness": s.number("brightness", 1.0, lo=0.0, hi=1.0),
            "max_milliamps": (s.number("max_milliamps", DEFAULT_MAX_MILLIAMPS, lo=0.0) or None),
            "refresh_hz": s.number("refresh_hz", 25.0, lo=1.0, hi=200.0),
        }


class PixelStripLike(Protocol):
    """What this driver needs of ``rpi_ws281x.PixelStrip`` (and what a test fake provides)."""

    def begin(self) -> None: ...

    def setPixelColor(self, n: int, color: int) -> None: ...  # noqa: N802 - rpi_ws281x's name

    def show(self) -> None: ...


STRIP_TYPES: Final = ("GRB", "RGB", "BRG", "BGR", "RBG", "GBR")


class Ws281xSink(RgbSink):
    """WS2812 LEDs driven by the Pi itself through rpi_ws281x (PWM/PCM/SPI DMA).

    Works on the Pi 1-4 (not the Pi 5: use :class:`SpiWs2812Sink` there). Needs
    root or /dev/mem access for PWM; GPIO 18 (PWM0) is the usual data pin.
    ``strip`` replaces the hardware with a fake for tests.
    """

    def __init__(
        self,
        layout: Layout,
        *,
        pin: int = 18,
        freq_hz: int = 800_000,
        dma: int = 10,
        channel: int = 0,
        invert: bool = False,
        strip_type: str = "GRB",
        strip: PixelStripLike | None = None,
        **kw: Any,
    ) -> None:
        if strip_type not in STRIP_TYPES:
            raise ValueError(f"strip_type must be one of {', '.join(STRIP_TYPES)}: {strip_type!r}")
        super().__init__(layout, **kw)
        self.pin = pin
        self.freq_hz = freq_hz
        self.dma = dma
        self.channel = channel
        self.invert = invert
        self.strip_type = strip_type
        self._given = strip
        self._strip: PixelStripLike | None = None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> Ws281xSink:
        s = Settings('sink "ws281x"', settings)
        common = cls._common(s)
        try:
            sink = cls(
                pin=s.integer("pin", 18, lo=0, hi=53),
                freq_hz=s.integer("freq_hz", 800_000, lo=400_000, hi=800_000),
                dma=s.integer("dma", 10, lo=0, hi=14),
                channel=s.integer("channel", 0, lo=0, hi=1),
                invert=s.boolean("invert", False),
                strip_type=s.text("strip_type", "GRB", choices=STRIP_TYPES),
                **common,
            )
        except ValueError as exc:
            raise DriverConfigError(f"{s.where}: {exc}") from None
        s.finish()
        return sink

    def _open(self) -> None:
        if self._given is not None:
            strip = self._given
        else:
            try:
                import rpi_ws281x
            except ImportError as exc:
                raise LedHardwareError(
                    "rpi_ws281x is not installed (pip install rpi_ws281x; Pi 1-4 only,"
                    ' use the "spi-ws2812" sink on a Pi 5)'
                ) from exc
            strip_type = getattr(rpi_ws281x.ws, f"WS2811_STRIP_{self.strip_type}")
            strip = rpi_ws281x.PixelStrip(
                self.layout.num_leds,
                self.pin,
                self.freq_hz,
                self.dma,
                self.invert,
                255,
                self.channel,
                strip_type,
            )
        try:
            strip.begin()
        except RuntimeError as exc:
            raise LedHardwareError(
                f"rpi_ws281x could not start ({exc}); it needs root on a Pi 1-4,"
                ' and does not work on a Pi 5 (use the "spi-ws2812" sink)'
            ) from exc
        self._strip = strip

    def _write(self, values: list[Color]) -> None:
        strip = self._strip
        assert strip is not None
        for i, (r, g, b) in enumerate(values):
            strip.setPixelColor(i, (r << 16) | (g << 8) | b)
        strip.show()

    def _release(self) -> None:
        strip, self._strip = self._strip, None
        cleanup = getattr(strip, "_cleanup", None)
        if strip is not self._given and callable(cleanup):
            cleanup()


# -- WS2812 over SPI


#: SPI bits sent for one WS2812 bit, by bits per bit: (pattern for 0, pattern for 1).
#: 3 bits at 2.4 MHz: 417 ns / 833 ns high; 8 bits at 6.4 MHz: 313 ns / 781 ns high.
WS2812_SPI_PATTERNS: Final = {3: (0b100, 0b110), 8: (0b1100_0000, 0b1111_1000)}
WS2812_BIT_HZ: Final = 800_000
WS2812_RESET_US: Final = 300  # newer WS2812B latch after 280 us low


def _byte_table(bits_per_bit: int) -> list[bytes]:
    zero, one = WS2812_SPI_PATTERNS[bits_per_bit]
    table = []
    for value in range(256):
        acc = 0
        for bit in range(7, -1, -1):
            acc = (acc << bits_per_bit) | (one if value >> bit & 1 else zero)
        table.append(acc.to_bytes(bits_per_bit, "big"))
    return table


_TABLES: dict[int, list[bytes]] = {}


def encode_ws2812(
    colors: Sequence[Color],
    *,
    bits_per_bit: int = 3,
    order: str = "GRB",
    reset_us: int = WS2812_RESET_US,
) -> bytes:
    """The SPI bytes that clock ``colors`` out to WS2812 LEDs on MOSI.

    Each WS2812 bit becomes ``bits_per_bit`` SPI bits (3 at 2.4 MHz, 8 at 6.4 MHz);
    colours go in ``order`` (GRB for WS2812B), most significant bit first. One
    zero byte leads (MOSI low before the first bit) and zero bytes worth
    ``reset_us`` trail (the latch).
    """
    if bits_per_bit not in WS2812_SPI_PATTERNS:
        raise ValueError(f"bits_per_bit must be 3 or 8: {bits_per_bit}")
    if sorted(order) != ["B", "G", "R"]:
        raise ValueError(f"order must be a permutation of RGB: {order!r}")
    table = _TABLES.get(bits_per_bit)
    if table is None:
        table = _TABLES[bits_per_bit] = _byte_table(bits_per_bit)
    index = ["RGB".index(ch) for ch in order]
    speed = WS2812_BIT_HZ * bits_per_bit
    reset_bytes = -(-reset_us * speed // 8_000_000)
    out = bytearray(1)
    for color in colors:
        for i in index:
            out += table[color[i]]
    out += bytes(reset_bytes)
    return bytes(out)


class SpiWriter(Protocol):
    """What this driver needs of ``spidev.SpiDev`` to write (and what a fake provides)."""

    def writebytes2(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class SpiWs2812Sink(RgbSink):
    """WS2812 LEDs on the SPI MOSI pin (GPIO 10): works on every Pi, the Pi 5 included.

    Each WS2812 bit is sent as 3 SPI bits at 2.4 MHz (``bits_per_bit = 3``) or 8
    at 6.4 MHz. Only MOSI is wired (through a 74AHCT125 to 5 V). ``spi`` replaces
    spidev with a fake for tests.
    """

    def __init__(
        self,
        layout: Layout,
        *,
        bus: int = 0,
        device: int = 0,
        bits_per_bit: int = 3,
        order: str = "GRB",
        spi: SpiWriter | None = None,
        **kw: Any,
    ) -> None:
        encode_ws2812([], bits_per_bit=bits_per_bit, order=order)  # validates
        super().__init__(layout, **kw)
        self.bus = bus
        self.device = device
        self.bits_per_bit = bits_per_bit
        self.order = order
        self.speed_hz = WS2812_BIT_HZ * bits_per_bit
        self._given = spi
        self._spi: SpiWriter | None = None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> SpiWs2812Sink:
        s = Settings('sink "spi-ws2812"', settings)
        common = cls._common(s)
        bits = s.integer("bits_per_bit", 3)
        if bits not in WS2812_SPI_PATTERNS:
            raise s.error("bits_per_bit", f"must be 3 (2.4 MHz) or 8 (6.4 MHz), got {bits}")
        order = s.text("order", "GRB", choices=STRIP_TYPES)
        sink = cls(
            bus=s.integer("bus", 0, lo=0, hi=7),
            device=s.integer("device", 0, lo=0, hi=7),
            bits_per_bit=bits,
            order=order,
            **common,
        )
        s.finish()
        return sink

    def _open(self) -> None:
        if self._given is not None:
            self._spi = self._given
            return
        try:
            import spidev
        except ImportError as exc:
            raise LedHardwareError(
                "the spidev module is missing (pip install spidev, or apt install python3-spidev)"
            ) from exc
        spi = spidev.SpiDev()
        try:
            spi.open(self.bus, self.device)
        except OSError as exc:
            raise LedHardwareError(
                f"cannot open /dev/spidev{self.bus}.{self.device} ({exc}); enable SPI"
                " (dtparam=spi=on in config.txt)"
            ) from exc
        spi.max_speed_hz = self.speed_hz
        spi.mode = 0
        self._spi = spi

    def encode(self, values: Sequence[Color]) -> bytes:
        return encode_ws2812(values, bits_per_bit=self.bits_per_bit, order=self.order)

    def _write(self, values: list[Color]) -> None:
        assert self._spi is not None
        self._spi.writebytes2(self.encode(values))

    def _release(self) -> None:
        spi, self._spi = self._spi, None
        if spi is not None and spi is not self._given:
            spi.close()


# --------------------------------------------------------------------------- single colour


class GpioLedSink(RefreshingSink):
    """Single-colour LEDs: one GPIO per LED (``pins``), or a 74HC595 chain on three pins.

    With ``pins``, LED ``i`` of the layout is on ``pins[i]``. With a 595 chain
    (``data_pin``, ``clock_pin``, ``latch_pin``), LED ``i`` is on output ``i``:
    chip ``i // 8`` (chip 0 is the one whose SER the Pi drives), pin
    ``Q"ABCDEFGH"[i % 8]``. ``active_high``: an output high lights its LED. Marks are
    told apart by blink patterns (see docs/leds.md); ``patterns`` overrides them.
    """

    def __init__(
        self,
        layout: Layout,
        *,
        pins: Sequence[int | str] | None = None,
        data_pin: int | str | None = None,
        clock_pin: int | str | None = None,
        latch_pin: int | str | None = None,
        chips: int | None = None,
        active_high: bool = True,
        patterns: Mapping[Mark, Blink | None] = SINGLE_COLOUR_PATTERNS,
        pin_factory: Any = None,
        refresh_hz: float = 25.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(refresh_hz=refresh_hz, clock=clock)
        chain = (data_pin, clock_pin, latch_pin)
        if pins is not None:
            if any(p is not None for p in chain):
                raise ValueError("give either pins or a 74HC595 chain (data/clock/latch pins)")
            if len(pins) != layout.num_leds:
                raise ValueError(f"the layout has {layout.num_leds} LEDs but {len(pins)} pins")
        elif any(p is None for p in chain):
            raise ValueError("give pins, or data_pin, clock_pin and latch_pin of a 74HC595 chain")
        needed = -(-layout.num_leds // 8)
        if chips is None:
            chips = needed
        elif chips < needed:
            raise ValueError(f"{layout.num_leds} LEDs need {needed} 74HC595 chips, not {chips}")
        self.layout = layout
        self.pins = None if pins is None else tuple(pins)
        self.chain_pins = chain
        self.chips = chips
        self.active_high = active_high
        self.patterns = dict(patterns)
        self._factory_spec = pin_factory
        self._devices: list[Any] = []

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> GpioLedSink:
        s = Settings('sink "gpio-leds"', settings)
        layout_settings = {k: s.raw(k) for k in LAYOUT_KEYS if s.has(k)}
        patterns: dict[Mark, Blink | None] = dict(SINGLE_COLOUR_PATTERNS)
        for name, value in s.table("patterns", {}).items():
            try:
                mark = Mark[name.upper()]
            except KeyError:
                raise s.error("patterns", f"names an unknown mark {name!r}") from None
            if value not in (*PATTERNS, "off"):
                raise s.error(
                    "patterns", f"{name}: must be one of {', '.join(PATTERNS)}, off: {value!r}"
                )
            patterns[mark] = None if value == "off" else PATTERNS[value]
        try:
            layout = Layout.from_settings(layout_settings)
            sink = cls(
                layout,
                pins=s.pins("pins") if s.has("pins") else None,
                data_pin=s.pin("data_pin", None) if s.has("data_pin") else None,
                clock_pin=s.pin("clock_pin", None) if s.has("clock_pin") else None,
                latch_pin=s.pin("latch_pin", None) if s.has("latch_pin") else None,
                chips=s.integer("chips") if s.has("chips") else None,
                active_high=s.boolean("active_high", True),
                patterns=patterns,
                pin_factory=s.raw("pin_factory", None),
                refresh_hz=s.number("refresh_hz", 25.0, lo=1.0, hi=200.0),
            )
        except ValueError as exc:
            if isinstance(exc, DriverConfigError):
                raise
            raise DriverConfigError(f"{s.where}: {exc}") from None
        s.finish()
        return sink

    def _animated(self, intents: LedIntents) -> bool:
        return is_animated(intents, palette=None, patterns=self.patterns)

    def _render(self, intents: LedIntents, t: float) -> list[bool]:
        return render_single_colour(intents, self.layout, t, patterns=self.patterns)

    def _open(self) -> None:
        from gpiozero import DigitalOutputDevice

        factory = resolve_pin_factory(self._factory_spec)
        names = self.pins if self.pins is not None else self.chain_pins
        try:
            for name in names:
                self._devices.append(
                    DigitalOutputDevice(name, initial_value=False, pin_factory=factory)
                )
        except Exception:
            self._release()
            raise

    def _write(self, values: list[bool]) -> None:
        level = [bool(v) == self.active_high for v in values]
        if self.pins is not None:
            for device, on in zip(self._devices, level):
                device.pin.state = on
            return
        data, clk, latch = (d.pin for d in self._devices)
        outputs = level + [not self.active_high] * (8 * self.chips - len(level))
        for on in reversed(outputs):  # the farthest output first
            data.state = on
            clk.state = True
            clk.state = False
        latch.state = True
        latch.state = False

    def _release(self) -> None:
        devices, self._devices = self._devices, []
        for device in devices:
            with contextlib.suppress(Exception):
                device.close()
