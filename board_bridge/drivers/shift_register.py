"""A chain of 74HC165 shift registers read over SPI: one input per sensor, no matrix.

For boards that wire each switch (or each hall sensor of a polarity board) to its
own input. The load pin (SH/LD, a GPIO through gpiozero) is pulsed low to latch
all inputs, then an SPI read (spidev ``xfer2``) clocks them out: chip 0 is the
chip whose QH drives the Pi's MISO, and *input n* is chip ``n // 8``, pin
``"ABCDEFGH"[n % 8]``. The serial input (SER) of the last chip is tied to ground,
and one more byte than the chain holds is read: it must come back 0x00, which
tells a working chain from an unplugged one (MISO pulled high reads 0xFF).

Defaults: square ``s`` on input ``s`` (11 chips, inputs 81-87 free for buttons).
A polarity board (two hall sensors per square) puts square ``s`` on inputs
``2s`` and ``2s + 1`` (21 chips).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from board_bridge.drivers.buttons import check_input_value, parse_button
from board_bridge.drivers.gpio import resolve_pin_factory
from board_bridge.drivers.matrix import POLARITY_MODES, MatrixConfigError, polarity_cell
from board_bridge.drivers.scanning import (
    DEBOUNCE_MS,
    DEBOUNCE_SCANS,
    SCAN_HZ,
    ScannedSource,
    scan_settings,
)
from board_bridge.drivers.settings import DriverConfigError, Settings
from board_bridge.tracker.events import EMPTY, OCCUPIED

#: Bad check bytes in a row before the chain counts as gone (about 0.25 s at 200 Hz).
MAX_BAD_READS = 50


class SpiDevice(Protocol):
    """What this driver needs of ``spidev.SpiDev`` (and what a test fake provides)."""

    def xfer2(self, data: list[int]) -> list[int]: ...

    def close(self) -> None: ...


class ChainError(OSError):
    """The shift-register chain does not answer (its check byte is wrong)."""


def open_spidev(bus: int, device: int, speed_hz: int) -> SpiDevice:
    """Open /dev/spidev<bus>.<device> in SPI mode 0."""
    try:
        import spidev
    except ImportError as exc:
        raise ChainError(
            "the spidev module is missing (pip install spidev, or apt install python3-spidev)"
        ) from exc
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except OSError as exc:
        raise ChainError(
            f"cannot open /dev/spidev{bus}.{device} ({exc}); enable SPI (dtparam=spi=on)"
        ) from exc
    spi.max_speed_hz = speed_hz
    spi.mode = 0
    return spi  # type: ignore[no-any-return]


class ShiftRegisterSource(ScannedSource):
    """74HC165 chain over SPI; see the module docstring for the wiring.

    ``inputs[s]``: the input of square ``s`` (default ``s``, or ``2s`` for
    polarity); ``second_inputs[s]``: its second sensor on a polarity board
    (default ``2s + 1``). ``polarity``: None for occupancy, or one of
    ``"two-unipolar"``, ``"presence-latch"``. ``buttons`` maps an input number to
    an input value (``button_holds``: seconds it must be held, e.g. for resign).
    ``active_low``: a closed switch reads 0 (switch to ground, pull-up resistor). ``spi``: an already open SPI device (tests), else spidev opens
    ``/dev/spidev<bus>.<device>``; the default 0.1 leaves 0.0 to WS2812 LEDs on MOSI
    (the chain needs only SCLK, MISO and the load pin; CE1 stays unconnected).
    """

    def __init__(
        self,
        *,
        load_pin: int | str = 25,
        bus: int = 0,
        device: int = 1,
        speed_hz: int = 1_000_000,
        inputs: Sequence[int] | None = None,
        second_inputs: Sequence[int] | None = None,
        polarity: str | None = None,
        buttons: Mapping[int, str] | None = None,
        button_holds: Mapping[int, float] | None = None,
        chips: int | None = None,
        active_low: bool = True,
        check_byte: int | None = 0x00,
        pin_factory: Any = None,
        spi: SpiDevice | None = None,
        scan_hz: float = SCAN_HZ,
        debounce_scans: int = DEBOUNCE_SCANS,
        debounce_ms: float = DEBOUNCE_MS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if polarity is not None and polarity not in POLARITY_MODES:
            raise MatrixConfigError(
                f"polarity must be one of {', '.join(POLARITY_MODES)}: {polarity!r}"
            )
        if inputs is None:
            inputs = [2 * s for s in range(81)] if polarity else list(range(81))
        if polarity and second_inputs is None:
            second_inputs = [2 * s + 1 for s in range(81)]
        if not polarity:
            second_inputs = None
        if len(inputs) != 81 or (second_inputs is not None and len(second_inputs) != 81):
            raise MatrixConfigError(
                "inputs (and second_inputs) must list one input per square (81)"
            )
        buttons = dict(buttons or {})
        used = [*inputs, *(second_inputs or ()), *buttons]
        if any(not isinstance(n, int) or n < 0 for n in used):
            raise MatrixConfigError("input numbers must be whole numbers from 0")
        if len(set(used)) != len(used):
            raise MatrixConfigError("an input is used twice (squares, second sensors, buttons)")
        needed = max(used) // 8 + 1
        if chips is None:
            chips = needed
        elif chips < needed:
            raise MatrixConfigError(f"inputs up to {max(used)} need {needed} chips, not {chips}")
        for value in buttons.values():
            check_input_value(value)
        button_inputs = sorted(buttons)
        super().__init__(
            scan_hz=scan_hz,
            debounce_scans=debounce_scans,
            debounce_ms=debounce_ms,
            button_values=[buttons[n] for n in button_inputs],
            button_holds=[(button_holds or {}).get(n, 0.0) for n in button_inputs],
            clock=clock,
        )
        self.load_pin = load_pin
        self.bus = bus
        self.device = device
        self.speed_hz = speed_hz
        self.inputs = tuple(inputs)
        self.second_inputs = None if second_inputs is None else tuple(second_inputs)
        self.polarity = polarity
        self.button_inputs = tuple(button_inputs)
        self.chips = chips
        self.active_low = active_low
        self.check_byte = check_byte
        self._factory_spec = pin_factory
        self._given_spi = spi
        self._spi: SpiDevice | None = None
        self._load: Any = None
        self._bad_reads = 0

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> ShiftRegisterSource:
        """Build from a config table; see docs/hardware.md for the keys."""
        s = Settings('source "shift-register"', settings)
        polarity = s.raw("polarity", None)
        if polarity is not None:
            polarity = s.text("polarity", choices=POLARITY_MODES)
        buttons: dict[int, str] = {}
        holds: dict[int, float] = {}
        for key, value in s.table("buttons", {}).items():
            try:
                name, hold = parse_button(value)
                if name is None:
                    continue
                buttons[int(key)] = name
                holds[int(key)] = hold
            except ValueError as exc:
                raise s.error("buttons", f"{exc} (keys are input numbers)") from None
        check = s.raw("check_byte", 0)
        if check is False:
            check = None  # no check byte: the chain's last SER is not tied to a level
        elif isinstance(check, bool) or not isinstance(check, int) or not 0 <= check <= 255:
            raise s.error("check_byte", f"must be 0-255 or false, got {check!r}")

        def int_list(key: str) -> list[int] | None:
            value = s.raw(key, None)
            if value is None:
                return None
            if isinstance(value, str) or not isinstance(value, Sequence):
                raise s.error(key, "must be a list of 81 input numbers")
            return list(value)

        try:
            source = cls(
                load_pin=s.pin("load_pin", 25),
                bus=s.integer("bus", 0, lo=0, hi=7),
                device=s.integer("device", 1, lo=0, hi=7),
                speed_hz=s.integer("speed_hz", 1_000_000, lo=10_000, hi=50_000_000),
                inputs=int_list("inputs"),
                second_inputs=int_list("second_inputs"),
                polarity=polarity,
                buttons=buttons,
                button_holds=holds,
                chips=s.raw("chips", None),
                active_low=s.boolean("active_low", True),
                check_byte=check,
                pin_factory=s.raw("pin_factory", None),
                **scan_settings(s),
            )
        except (MatrixConfigError, TypeError, ValueError) as exc:
            raise DriverConfigError(f'source "shift-register": {exc}') from None
        s.finish()
        return source

    # -- hardware

    def _open(self) -> None:
        from gpiozero import DigitalOutputDevice

        factory = resolve_pin_factory(self._factory_spec)
        self._load = DigitalOutputDevice(self.load_pin, initial_value=True, pin_factory=factory)
        try:
            if self._given_spi is not None:
                self._spi = self._given_spi
            else:
                self._spi = open_spidev(self.bus, self.device, self.speed_hz)
        except Exception:
            self._load.close()
            self._load = None
            raise
        self._bad_reads = 0

    def _release(self) -> None:
        if self._spi is not None and self._spi is not self._given_spi:
            self._spi.close()
        self._spi = None
        if self._load is not None:
            self._load.close()
            self._load = None

    def read_bytes(self) -> list[int]:
        """Latch the inputs and clock out the chain (plus the check byte, if used)."""
        assert self._spi is not None and self._load is not None
        self._load.off()  # SH/LD low: load the parallel inputs
        self._load.on()  # high again: shift
        extra = 0 if self.check_byte is None else 1
        return list(self._spi.xfer2([0] * (self.chips + extra)))

    def _scan(self) -> tuple[str, str]:
        while True:
            data = self.read_bytes()
            if self.check_byte is None or data[self.chips] == self.check_byte:
                self._bad_reads = 0
                break
            self._bad_reads += 1
            if self._bad_reads >= MAX_BAD_READS or self._stop.is_set():
                raise ChainError(
                    f"the 74HC165 chain does not answer: check byte {data[self.chips]:#04x},"
                    f" expected {self.check_byte:#04x} (cable, power, chip count?)"
                )
            time.sleep(1.0 / self.scan_hz)
        return self.decode(data)

    def decode(self, data: Sequence[int]) -> tuple[str, str]:
        """Cells and button bits from the bytes of one read."""
        flip = 1 if self.active_low else 0

        def active(n: int) -> bool:
            return bool(((data[n >> 3] >> (n & 7)) & 1) ^ flip)

        if self.second_inputs is None:
            cells = "".join(OCCUPIED if active(n) else EMPTY for n in self.inputs)
        else:
            mode = self.polarity or POLARITY_MODES[0]
            cells = "".join(
                polarity_cell(active(a), active(b), mode)
                for a, b in zip(self.inputs, self.second_inputs)
            )
        buttons = "".join("1" if active(n) else "0" for n in self.button_inputs)
        return cells, buttons
