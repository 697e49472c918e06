"""A fake 74HC165 chain behind a fake spidev device, latched by a gpiozero MockPin load line."""

from __future__ import annotations

import threading
from collections.abc import Iterable

from gpiozero.pins.mock import MockFactory, MockPin


class LoadPin(MockPin):
    """The SH/LD line: going low latches the chain's parallel inputs."""

    chain: Fake165Chain | None = None

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed and not value and self.chain is not None:
            self.chain.latch()
        return changed


class Fake165Chain:
    """``chips`` shift registers; ``active`` is the set of inputs reading 0 (switch closed).

    The last chip's SER is tied to ground, so bits shifted past the chain read 0.
    Without a latch since the last read, the registers hold what was shifted in:
    zeros (the test can see a missing load pulse). ``unplugged`` makes MISO read 1s.
    """

    def __init__(self, factory: MockFactory, load_pin: int, chips: int) -> None:
        pin = factory.pin(load_pin, pin_class=LoadPin)
        assert isinstance(pin, LoadPin)
        pin.chain = self
        self.chips = chips
        self.active: set[int] = set()
        self.unplugged = False
        self.reads = 0
        self.latches = 0
        self.closed = False
        self._register: list[int] = [0] * chips
        self._lock = threading.Lock()

    def set_active(self, inputs: Iterable[int]) -> None:
        with self._lock:
            self.active = set(inputs)

    def latch(self) -> None:
        with self._lock:
            self.latches += 1
            regs = [0xFF] * self.chips  # pull-ups: inputs read 1 when open
            for n in self.active:
                if n < 8 * self.chips:
                    regs[n >> 3] &= ~(1 << (n & 7))
            self._register = regs

    # spidev's interface
    def xfer2(self, data: list[int]) -> list[int]:
        with self._lock:
            self.reads += 1
            if self.unplugged:
                return [0xFF] * len(data)
            out = (self._register + [0] * len(data))[: len(data)]
            self._register = [0] * self.chips  # shifted out; zeros came in from SER
            return out

    def close(self) -> None:
        self.closed = True
