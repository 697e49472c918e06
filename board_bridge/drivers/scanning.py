"""A sensor source that polls blocking hardware in a thread and feeds debounced frames to asyncio.

gpiozero, spidev and friends block, so the scan runs in its own thread at a fixed
rate; each raw scan goes through a :class:`~board_bridge.drivers.matrix.Debouncer`
and completed frames are handed to the event loop with ``call_soon_threadsafe``.
Subclasses only open the hardware, read one raw scan and release the hardware.
A scan may also read buttons (a row of the matrix wired to buttons): a press is
debounced the same way and becomes a :class:`PlayerInput`.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from board_bridge.drivers.base import SensorSource, SourceDisconnected
from board_bridge.drivers.matrix import Debouncer
from board_bridge.drivers.settings import Settings
from board_bridge.tracker.events import PlayerInput, SensorEvent

log = logging.getLogger(__name__)

MIN_SCAN_HZ = 100.0
MAX_SCAN_HZ = 5000.0
#: the defaults of the polled sources: scans a second, and the squares' debouncing (a
#: square changes after reading the same in this many scans in a row, spanning at least
#: this many ms). One scan: a fast capture empties its target for as little as 8 ms at
#: quick hands, and the tracker reads a landing's contact bounce itself. With 3 scans and
#: 5 ms at 200 Hz, 18 of 52 logs of the independent hand at x0.5 lost their game (a
#: capture never seen); with 2 scans, 6 (docs/hardware.md, "Debouncing").
SCAN_HZ = 200.0
DEBOUNCE_SCANS = 1
DEBOUNCE_MS = 0.0
#: the buttons' debouncing (scans, ms): a press is held far longer than its bounce
BUTTON_SCANS = 3
BUTTON_MS = 5.0


def scan_settings(s: Settings) -> dict[str, Any]:
    """The polled sources' own keys of a driver's settings (``scan_hz``,
    ``debounce_scans``, ``debounce_ms``), as keyword arguments of its constructor."""
    return {
        "scan_hz": s.number("scan_hz", SCAN_HZ, lo=MIN_SCAN_HZ, hi=MAX_SCAN_HZ),
        "debounce_scans": s.integer("debounce_scans", DEBOUNCE_SCANS, lo=1, hi=100),
        "debounce_ms": s.number("debounce_ms", DEBOUNCE_MS, lo=0, hi=1000),
    }


class ScannedSource(SensorSource):
    """Base of the polled sources (GPIO matrix, shift-register chain).

    Must implement: :meth:`_open`, :meth:`_scan`, :meth:`_release` (all called on
    the scan thread except :meth:`_release` after the thread stopped). A scan that
    raises stops the thread; :meth:`events` then raises :class:`SourceDisconnected`
    and the next call to :meth:`events` reopens the hardware.
    """

    def __init__(
        self,
        *,
        scan_hz: float = SCAN_HZ,
        debounce_scans: int = DEBOUNCE_SCANS,
        debounce_ms: float = DEBOUNCE_MS,
        button_values: Sequence[str | None] = (),
        button_holds: Sequence[float] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not MIN_SCAN_HZ <= scan_hz <= MAX_SCAN_HZ:
            raise ValueError(
                f"scan_hz must be between {MIN_SCAN_HZ:g} and {MAX_SCAN_HZ:g}: {scan_hz}"
            )
        self.scan_hz = scan_hz
        self.debounce_scans = debounce_scans
        self.debounce_ms = debounce_ms
        self._clock = clock
        self._debouncer = Debouncer(debounce_scans, debounce_ms / 1000.0)
        #: the input value of each button bit :meth:`_scan` returns (None: unused)
        self.button_values = tuple(button_values)
        #: seconds each button must be held before it counts (0: on press)
        self.button_holds = tuple(button_holds) or (0.0,) * len(self.button_values)
        if len(self.button_holds) != len(self.button_values):
            raise ValueError("one hold time per button")
        self._held_since: dict[int, float] = {}
        # (the buttons' first state comes with the squares' first frame: a press after it
        # is an edge)
        self._buttons = Debouncer(
            BUTTON_SCANS,
            BUTTON_MS / 1000.0,
            size=len(button_values),
            boot=(debounce_scans, debounce_ms / 1000.0),
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[SensorEvent | BaseException] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._want_frame = threading.Event()
        self._opened = False
        self._failed = False
        self._closed = False
        self._served = False
        #: scans done and the longest scan in seconds (for diagnostics and bench figures)
        self.scan_count = 0
        self.max_scan_seconds = 0.0

    # -- what a subclass provides

    @abc.abstractmethod
    def _open(self) -> None:
        """Claim and configure the hardware."""

    @abc.abstractmethod
    def _scan(self) -> tuple[str, str]:
        """Read the board once: 81 cells in square order (not debounced), and one
        character per entry of :attr:`button_values`, ``"1"`` for pressed."""

    @abc.abstractmethod
    def _release(self) -> None:
        """Release the hardware (safe to call when it was never opened)."""

    # -- SensorSource

    async def start(self) -> None:
        if self._closed:
            raise RuntimeError("this source was closed")
        if self._thread is not None and self._thread.is_alive():
            return
        self._loop = asyncio.get_running_loop()
        if self._queue is None:
            self._queue = asyncio.Queue()
        if not self._opened:
            await asyncio.to_thread(self._open)
            self._opened = True
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, name=f"{type(self).__name__}-scan", daemon=True
        )
        self._thread.start()

    async def events(self) -> AsyncIterator[SensorEvent]:
        thread = self._thread
        if thread is not None and (self._failed or not thread.is_alive()):
            # the scan failed: wait for its thread to end, then reopen the hardware
            await asyncio.to_thread(thread.join, 2.0)
            self._failed = False
            if self._opened:
                await asyncio.to_thread(self._release)
                self._opened = False
        if self._thread is None or not self._thread.is_alive():
            await self.start()
        assert self._queue is not None
        if self._served:  # a reader coming back starts with a fresh full frame
            while not self._queue.empty():
                self._queue.get_nowait()
            self._want_frame.set()
        self._served = True
        while True:
            item = await self._queue.get()
            if isinstance(item, BaseException):
                raise SourceDisconnected(f"{type(self).__name__}: scan failed: {item}") from item
            yield item

    async def request_frame(self) -> None:
        self._want_frame.set()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        thread = self._thread
        if thread is not None:
            await asyncio.to_thread(thread.join, 2.0)
        if self._opened:
            await asyncio.to_thread(self._release)
            self._opened = False

    # -- the scan thread

    @property
    def state(self) -> str | None:
        """The debounced cells, or None before the first frame."""
        return self._debouncer.state

    def _post(self, item: SensorEvent | BaseException) -> None:
        loop, queue = self._loop, self._queue
        if loop is None or queue is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed under us
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def _button_edges(self, buttons: str, t: float) -> None:
        before = self._buttons.state
        for when, state in self._buttons.update_raw(buttons, t):
            if before is not None and self._debouncer.state is not None:
                for i, value in enumerate(self.button_values):
                    if value is None:
                        continue
                    if state[i] == "1" and before[i] != "1":
                        if self.button_holds[i] > 0:
                            self._held_since[i] = when
                        else:
                            self._post(PlayerInput(when, value))
                    elif state[i] != "1" and before[i] == "1":
                        self._held_since.pop(i, None)  # let go too soon
            before = state
        for i, since in list(self._held_since.items()):
            if t - since >= self.button_holds[i]:
                del self._held_since[i]  # once per press
                value = self.button_values[i]
                assert value is not None
                self._post(PlayerInput(t, value))

    def _run(self) -> None:
        period = 1.0 / self.scan_hz
        clock = self._clock
        next_t = time.monotonic()
        try:
            while not self._stop.is_set():
                start = time.perf_counter()
                raw, buttons = self._scan()
                elapsed = time.perf_counter() - start
                self.scan_count += 1
                if elapsed > self.max_scan_seconds:
                    self.max_scan_seconds = elapsed
                t = clock()
                for frame in self._debouncer.update(raw, t):
                    self._post(frame)
                if buttons:
                    self._button_edges(buttons, t)
                if self._want_frame.is_set():
                    self._want_frame.clear()
                    current = self._debouncer.frame(t)
                    if current is not None:
                        self._post(current)
                next_t += period
                delay = next_t - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)
                elif delay < -period:  # fell behind (a slow scan): do not try to catch up
                    next_t = time.monotonic()
        except Exception as exc:
            log.exception("%s: scan failed", type(self).__name__)
            self._failed = True
            self._post(exc)
