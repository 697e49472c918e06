"""Push buttons on the Pi's GPIO pins (gpiozero), turned into timestamped player inputs.

A button wired between a GPIO pin and ground becomes an input value: ``promote``,
``nonpromote``, a piece letter for a drop (``R B G S N L P``), ``undo``,
``resign`` or ``clock``. :class:`ButtonInputs` owns the gpiozero buttons;
:class:`WithButtons` adds them to any sensor source's event stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from board_bridge.drivers.base import SensorSource
from board_bridge.drivers.gpio import resolve_pin_factory
from board_bridge.drivers.settings import DriverConfigError, Settings
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame

log = logging.getLogger(__name__)

#: The input values a button may send (see ARCHITECTURE.md, "Sensor log").
INPUT_VALUES: Final = (
    "promote",
    "nonpromote",
    "R",
    "B",
    "G",
    "S",
    "N",
    "L",
    "P",
    "undo",
    "resign",
    "clock",
)


def check_input_value(value: object) -> str:
    """``value`` if it is a known input, else a ValueError naming the choices."""
    if value not in INPUT_VALUES:
        raise ValueError(f"unknown input {value!r} (one of {', '.join(INPUT_VALUES)})")
    return str(value)


def parse_button(spec: object) -> tuple[str | None, float]:
    """A button of a button row or a chain's spare input, from config: an input name,
    ``""`` (no button there), or ``{input = "resign", hold = 2.0}``."""
    if spec == "" or spec is None:
        return None, 0.0
    if isinstance(spec, Mapping):
        unknown = set(spec) - {"input", "hold"}
        if unknown or "input" not in spec:
            raise ValueError(f"a button table has 'input' and optionally 'hold': {dict(spec)!r}")
        hold = spec.get("hold", 0.0)
        if not isinstance(hold, int | float) or isinstance(hold, bool) or not 0 <= hold <= 10:
            raise ValueError(f"hold must be 0 to 10 seconds: {hold!r}")
        return check_input_value(spec["input"]), float(hold)
    return check_input_value(spec), 0.0


@dataclass(frozen=True)
class ButtonSpec:
    """One button: its pin, and how long it must be held (0: on press).

    A hold time guards inputs that must not happen by accident (``resign``).
    """

    pin: int | str
    hold: float = 0.0


class ButtonInputs:
    """gpiozero :class:`~gpiozero.Button` s mapped to input values.

    ``buttons`` maps an input value to a :class:`ButtonSpec` (or a bare pin).
    A press is reported once; presses of the same button closer than
    ``bounce_time`` seconds are ignored (in software, so the mock backend behaves
    like the real ones; the backend's own debounce is set too). Callbacks arrive
    on gpiozero's thread and are handed to the event loop.
    """

    def __init__(
        self,
        buttons: Mapping[str, ButtonSpec | int | str],
        *,
        pin_factory: Any = None,
        bounce_time: float = 0.05,
        pull_up: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.buttons: dict[str, ButtonSpec] = {}
        for value, spec in buttons.items():
            check_input_value(value)
            self.buttons[value] = spec if isinstance(spec, ButtonSpec) else ButtonSpec(spec)
        pins = [b.pin for b in self.buttons.values()]
        if len(set(pins)) != len(pins):
            raise ValueError(f"a pin is used by two buttons: {pins}")
        self.bounce_time = bounce_time
        self.pull_up = pull_up
        self._factory_spec = pin_factory
        self._clock = clock
        self._devices: list[Any] = []
        self._last: dict[str, float] = {}
        self._lock = threading.Lock()
        self._deliver: Callable[[PlayerInput], None] | None = None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], where: str = "buttons") -> ButtonInputs:
        """From a config table: ``{"promote": 5, "resign": {"pin": 6, "hold": 2.0},
        "bounce_ms": 50, "pull_up": true, "pin_factory": "lgpio"}``."""
        s = Settings(where, settings)
        bounce = s.number("bounce_ms", 50.0, lo=0, hi=1000) / 1000.0
        pull_up = s.boolean("pull_up", True)
        factory = s.raw("pin_factory", None)
        specs: dict[str, ButtonSpec] = {}
        for key in list(s.values):
            if key in ("bounce_ms", "pull_up", "pin_factory"):
                continue
            try:
                check_input_value(key)
            except ValueError as exc:
                raise DriverConfigError(f"{where}: {exc}") from None
            value = s.raw(key)
            if isinstance(value, Mapping):
                sub = Settings(f"{where}.{key}", value)
                specs[key] = ButtonSpec(sub.pin("pin"), sub.number("hold", 0.0, lo=0, hi=10))
                sub.finish()
            else:
                specs[key] = ButtonSpec(s.pin(key))
        s.finish()
        try:
            return cls(specs, pin_factory=factory, bounce_time=bounce, pull_up=pull_up)
        except ValueError as exc:
            raise DriverConfigError(f"{where}: {exc}") from None

    def open(self, deliver: Callable[[PlayerInput], None]) -> None:
        """Create the buttons; ``deliver`` is called (on gpiozero's thread) for each input."""
        from gpiozero import Button

        if self._devices:
            return
        factory = resolve_pin_factory(self._factory_spec)
        self._deliver = deliver
        try:
            for value, spec in self.buttons.items():
                button = Button(
                    spec.pin,
                    pull_up=self.pull_up,
                    bounce_time=self.bounce_time or None,
                    hold_time=spec.hold or 0.1,  # (a short hold keeps close() quick)
                    pin_factory=factory,
                )
                if spec.hold > 0:
                    button.when_held = self._callback(value)
                else:
                    button.when_pressed = self._callback(value)
                self._devices.append(button)
        except Exception:
            self.close()
            raise

    def _callback(self, value: str) -> Callable[[], None]:
        def pressed() -> None:
            t = self._clock()
            with self._lock:
                last = self._last.get(value)
                if last is not None and t - last < self.bounce_time:
                    return
                self._last[value] = t
            deliver = self._deliver
            if deliver is not None:
                deliver(PlayerInput(t, value))

        return pressed

    def close(self) -> None:
        """Release the pins. Safe to call twice."""
        devices, self._devices = self._devices, []
        self._deliver = None
        for device in devices:
            with contextlib.suppress(Exception):
                device.close()


class WithButtons(SensorSource):
    """A sensor source with GPIO buttons added to its events.

    Inputs pressed before the source's first frame are dropped (the first event
    of a source is always a full frame).
    """

    def __init__(self, source: SensorSource, buttons: ButtonInputs) -> None:
        self.source = source
        self.buttons = buttons
        self._queue: asyncio.Queue[PlayerInput] | None = None
        self._framed = False

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[PlayerInput] = asyncio.Queue()
        self._queue = queue

        def deliver(event: PlayerInput) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(queue.put_nowait, event)

        await self.source.start()
        self.buttons.open(deliver)

    async def events(self) -> AsyncIterator[SensorEvent]:
        if self._queue is None:
            await self.start()
        queue = self._queue
        assert queue is not None
        self._framed = False  # (re)connecting: inputs count again after the first frame
        while not queue.empty():
            queue.get_nowait()  # presses made while nobody listened are stale
        inner = aiter(self.source.events())
        next_event: asyncio.Future[SensorEvent] = asyncio.ensure_future(anext(inner))
        next_input: asyncio.Future[PlayerInput] = asyncio.ensure_future(queue.get())
        try:
            while True:
                waiting: set[asyncio.Future[Any]] = {next_event, next_input}
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if next_event.done():
                    event = next_event.result()  # raises StopAsyncIteration or a disconnect
                    if isinstance(event, SensorFrame):
                        self._framed = True
                    yield event
                    next_event = asyncio.ensure_future(anext(inner))
                if next_input.done():
                    pressed = next_input.result()
                    if self._framed:
                        yield pressed
                    next_input = asyncio.ensure_future(queue.get())
        except StopAsyncIteration:
            return
        finally:
            for fut in (next_event, next_input):
                fut.cancel()
            await asyncio.gather(next_event, next_input, return_exceptions=True)
            with contextlib.suppress(Exception):
                await inner.aclose()  # type: ignore[attr-defined]

    async def request_frame(self) -> None:
        await self.source.request_frame()

    async def close(self) -> None:
        self.buttons.close()
        await self.source.close()
