"""The board's microcontroller over USB serial: a SensorSource and an LedSink sharing one link.

Ports open through pyserial's ``serial_for_url`` (via pyserial-asyncio-fast), so the url
may be ``/dev/ttyACM0``, ``/dev/serial/by-id/...``, ``socket://host:port``, ``loop://``
or a pty. The protocol is docs/protocol.md: a version handshake, events numbered and
acknowledged (none is lost or repeated while the firmware holds them), heartbeats both
ways, LED frames resent until acknowledged, and reconnection with backoff.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Final

import serial
import serial_asyncio_fast

from board_bridge.drivers import protocol as p
from board_bridge.drivers.base import LedSink, SensorSource, SourceDisconnected
from board_bridge.drivers.leds import (
    DEFAULT_MAX_MILLIAMPS,
    DEFAULT_PALETTE,
    LAYOUT_KEYS,
    OFF,
    Layout,
    Style,
    limit_power,
)
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame
from board_bridge.tracker.intents import LedIntents, Mark

log = logging.getLogger(__name__)

TICK: Final = 0.05  # how often the link's timers are checked (seconds)
CLOCK_CREEP: Final = 0.0002  # how far one clock sample may raise the offset (seconds)


class ProtocolVersionError(RuntimeError):
    """The firmware speaks another protocol version: flash the firmware that matches."""


class _HandshakeFailed(ConnectionError):
    """No (usable) answer to HOST_HELLO."""


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class SerialSettings:
    """How to reach the board and the link's timings (seconds)."""

    url: str = "/dev/ttyACM0"
    baudrate: int = 115200  # ignored by USB CDC, used by a real UART
    heartbeat: float = 0.5  # our heartbeat
    link_timeout: float = 2.0  # nothing heard for this long: the link is dead
    handshake_timeout: float = 2.0  # no HELLO in answer for this long: try again later
    retry: float = 0.25  # resend HOST_HELLO / LED_FRAME unanswered for this long
    reconnect_min: float = 0.2  # first wait before reconnecting; doubles each failure
    reconnect_max: float = 5.0  # ... up to this
    firmware_timeout: float = 3.0  # the firmware deems us gone after this long unheard

    #: config keys (the daemon's [board] section) and the fields they set
    KEYS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("port", "url"),
        ("url", "url"),
        ("baud", "baudrate"),
        ("baudrate", "baudrate"),
        ("heartbeat", "heartbeat"),
        ("link_timeout", "link_timeout"),
        ("handshake_timeout", "handshake_timeout"),
        ("retry", "retry"),
        ("reconnect_min", "reconnect_min"),
        ("reconnect_max", "reconnect_max"),
        ("firmware_timeout", "firmware_timeout"),
    )

    def __post_init__(self) -> None:
        for name in (
            "heartbeat",
            "link_timeout",
            "handshake_timeout",
            "retry",
            "reconnect_min",
            "reconnect_max",
            "firmware_timeout",
        ):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"serial setting {name} must be a positive number: {value!r}")
        if self.link_timeout <= self.heartbeat:
            raise ValueError("serial link_timeout must be longer than the heartbeat")
        if not self.url:
            raise ValueError("serial port url is empty")

    @classmethod
    def from_settings(
        cls, settings: Mapping[str, Any], ignore: frozenset[str] = frozenset()
    ) -> SerialSettings:
        """Settings from config keys: ``port`` (or ``url``), ``baud``, ``heartbeat``,
        ``link_timeout``, ``handshake_timeout``, ``retry``, ``reconnect_min``,
        ``reconnect_max``, ``firmware_timeout``. LED layout keys, ``brightness`` and
        ``max_milliamps`` and the keys in ``ignore`` are left to others; any other key
        is an error."""
        known = dict(cls.KEYS)
        values: dict[str, Any] = {}
        allowed = known.keys() | LAYOUT_KEYS | {"brightness", "max_milliamps"} | ignore
        unknown = sorted(set(settings) - allowed)
        if unknown:
            raise ValueError(f"unknown serial setting(s): {', '.join(unknown)}")
        for key, value in settings.items():
            if key in known:
                values[known[key]] = value
        if "url" in values and not isinstance(values["url"], str):
            raise ValueError(f"serial port must be a string: {values['url']!r}")
        if "baudrate" in values and (
            not isinstance(values["baudrate"], int) or values["baudrate"] <= 0
        ):
            raise ValueError(f"serial baud must be a positive whole number: {values['baudrate']!r}")
        return cls(**values)


@dataclass(frozen=True)
class BoardInfo:
    """What the firmware said about itself in its HELLO."""

    firmware_version: tuple[int, int, int]
    kind: int
    led_layout: int
    led_count: int
    boot_id: int
    name: str
    buttons: bool
    watchdog_reset: bool

    @classmethod
    def from_hello(cls, hello: p.Hello) -> BoardInfo:
        return cls(
            hello.firmware_version,
            hello.kind,
            hello.led_layout,
            hello.led_count,
            hello.boot_id,
            hello.name,
            bool(hello.flags & p.HELLO_BUTTONS),
            bool(hello.flags & p.HELLO_WDT_RESET),
        )


@dataclass
class LinkStats:
    """Counters for the log and the status page."""

    connects: int = 0
    reboots: int = 0  # the firmware restarted while we knew it
    bad_frames: int = 0  # frames we dropped (CRC, framing)
    firmware_bad_frames: int = 0  # frames the firmware dropped (from its heartbeat)
    duplicates: int = 0  # events received twice (already had them)
    lost_events: int = 0  # events the firmware had to drop (its queue overflowed)
    led_frames: int = 0  # LED frames sent, resends included
    errors: deque[p.ErrorReport] = field(default_factory=lambda: deque(maxlen=50))


# --------------------------------------------------------------------------- clock


class _ClockMap:
    """Maps firmware milliseconds to the host's monotonic clock.

    The offset is the smallest (host receive time - firmware time) seen: transmission
    only ever delays, so the minimum is the best estimate. It may creep up slowly so a
    firmware clock running slow is followed too."""

    def __init__(self) -> None:
        self.offset: float | None = None
        self._last_raw: int | None = None
        self._last_full = 0

    def unwrap(self, raw: int) -> int:
        if self._last_raw is None:
            self._last_raw = raw
            self._last_full = raw
            return raw
        d = ((raw - self._last_raw + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
        full = self._last_full + d
        if d > 0:
            self._last_raw = raw
            self._last_full = full
        return full

    def sample(self, raw: int, host_t: float) -> None:
        s = host_t - self.unwrap(raw) / 1000
        if self.offset is None or s < self.offset:
            self.offset = s
        else:
            self.offset += min(s - self.offset, CLOCK_CREEP)

    def to_host(self, raw: int, fallback: float) -> float:
        if self.offset is None:
            return fallback
        return self.unwrap(raw) / 1000 + self.offset


# --------------------------------------------------------------------------- the link


class _LinkProtocol(asyncio.Protocol):
    def __init__(self, board: SerialBoard, gen: int) -> None:
        self.board = board
        self.gen = gen

    def data_received(self, data: bytes) -> None:
        self.board._on_data(self.gen, data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.board._on_lost(self.gen, exc)


@dataclass(frozen=True)
class _Dead:
    reason: str


@dataclass(frozen=True)
class _Fatal:
    error: BaseException


_CLOSED: Final = object()


class SerialBoard(SensorSource):
    """The board's microcontroller on a serial port (see docs/protocol.md).

    ``events()`` connects (waiting, with backoff, for the board to appear), says hello,
    and yields :class:`SensorFrame` and :class:`PlayerInput` events; the first one after
    each (re)connection is a full frame. When the link dies (cable pulled, no data for
    ``link_timeout``) it raises :class:`SourceDisconnected`; call ``events()`` again to
    wait for the board to return. A firmware restart is handled inside (a fresh full
    frame follows). A firmware of another protocol version raises
    :class:`ProtocolVersionError`. ``leds`` is the board's :class:`SerialLedSink`.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        settings: SerialSettings | None = None,
        layout: Layout | None = None,
        palette: Mapping[Mark, Style] = DEFAULT_PALETTE,
        brightness: float = 1.0,
        max_milliamps: float | None = DEFAULT_MAX_MILLIAMPS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        base = settings if settings is not None else SerialSettings()
        if url is not None:
            base = replace(base, url=url)
        self.settings = base
        self.clock = clock
        self.info: BoardInfo | None = None
        self.stats = LinkStats()
        self.leds = SerialLedSink(
            self, layout=layout, palette=palette, brightness=brightness, max_milliamps=max_milliamps
        )
        self._decoder = p.Decoder()
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._transport: asyncio.Transport | None = None
        self._gen = 0
        self._seq = 0
        self._connected = False
        self._handshaking = False
        self._closed = False
        self._closed_event = asyncio.Event()
        self._session = 0
        self._hello_waiter: asyncio.Future[p.Hello] | None = None
        self._boot_id: int | None = None
        self._next_expected = 0
        self._clock_map = _ClockMap()
        self._last_rx = 0.0
        self._last_hb = 0.0
        self._ticker: asyncio.Task[None] | None = None
        self._rehandshake_task: asyncio.Task[None] | None = None
        self._need_frame = True
        self._held: list[PlayerInput] = []
        self._last_cells: str | None = None
        self._cells_valid = False
        self._last_t = float("-inf")
        self._consumer_requested = False
        self._awaiting_frame = False
        self._frame_requested_at = 0.0
        self._led_id = 0
        self._led_frame: p.LedFrame | None = None
        self._led_seq: int | None = None
        self._led_acked = False
        self._led_refused = False
        self._led_sent_at = 0.0
        self._lost_waiter: asyncio.Future[None] | None = None
        #: the current connection resumed the last one's event stream: every event made
        #: while the link was down follows (with its own time), none was lost
        self.resumed = False
        self._watermark = float("-inf")

    # ------------------------------------------------------------------ public

    @property
    def url(self) -> str:
        return self.settings.url

    @property
    def connected(self) -> bool:
        return self._connected and not self._handshaking

    @property
    def watermark(self) -> float:
        """The host time up to which every event the board made has been yielded. An event
        can be late (resent after a damaged frame, or made while the cable was out), so a
        consumer whose timers run on event time (the tracker's settling) must not let them
        run past this: the late event would find its moment already gone. It moves on with
        each event yielded and with each heartbeat proving nothing is outstanding."""
        return self._watermark

    async def events(self) -> AsyncIterator[SensorEvent]:
        if self._closed:
            return
        if not self._connected:
            await self._connect_with_backoff()
        while True:
            item = await self._queue.get()
            if item is _CLOSED:
                return
            if isinstance(item, _Dead):
                raise SourceDisconnected(f"board at {self.url}: {item.reason}")
            if isinstance(item, _Fatal):
                raise item.error
            assert isinstance(item, SensorFrame | PlayerInput)
            self._watermark = max(self._watermark, item.t)
            yield item

    async def request_frame(self) -> None:
        self._consumer_requested = True
        if self.connected:
            self._request()

    async def reset_board(self) -> None:
        """Ask the firmware to restart (it acknowledges, then reboots)."""
        if self.connected:
            self._send(p.Reset())

    async def close(self) -> None:
        if self._closed:
            return
        await self.leds.close()
        self._closed = True
        self._closed_event.set()
        await self._drop_link(flush=True)
        self._queue.put_nowait(_CLOSED)

    # ------------------------------------------------------------------ connecting

    async def _connect_with_backoff(self) -> None:
        delay = self.settings.reconnect_min
        last = ""
        while not self._closed:
            try:
                await self._open()
                return
            except ProtocolVersionError:
                raise
            except (OSError, serial.SerialException, _HandshakeFailed, TimeoutError) as exc:
                msg = str(exc) or type(exc).__name__
                if msg != last:
                    log.warning("board at %s not ready (%s); retrying", self.url, msg)
                    last = msg
                await self._drop_link()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closed_event.wait(), delay)
            delay = min(delay * 2, self.settings.reconnect_max)
        self._queue.put_nowait(_CLOSED)

    async def _open(self) -> None:
        loop = asyncio.get_running_loop()
        self._gen += 1
        gen = self._gen
        self._decoder.reset()
        transport, _ = await serial_asyncio_fast.create_serial_connection(
            loop,
            lambda: _LinkProtocol(self, gen),
            self.url,
            baudrate=self.settings.baudrate,
        )
        if gen != self._gen or self._closed:
            transport.close()
            raise _HandshakeFailed("closed while opening")
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self._lost_waiter = loop.create_future()
        self._last_rx = self.clock()
        try:
            hello = await self._handshake()
            self._check_version(hello)
            if not self._connected:
                raise _HandshakeFailed("the link dropped during the handshake")
        except BaseException:
            await self._drop_link()
            raise
        self.stats.connects += 1
        log.info(
            "board at %s: firmware %s (%s), protocol %d, boot %08x",
            self.url,
            hello.version_string,
            hello.name,
            hello.protocol,
            hello.boot_id,
        )
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.create_task(self._tick_loop(gen), name="serial-board-ticker")

    async def _handshake(self) -> p.Hello:
        loop = asyncio.get_running_loop()
        self._session = random.getrandbits(32) or 1
        waiter: asyncio.Future[p.Hello] = loop.create_future()
        self._hello_waiter = waiter
        self._handshaking = True
        deadline = self.clock() + self.settings.handshake_timeout
        try:
            while True:
                resume = self._next_expected if self._boot_id is not None else 0
                self._send(
                    p.HostHello(
                        self._session,
                        self._boot_id or 0,
                        resume,
                        round(self.settings.heartbeat * 1000),
                        round(self.settings.firmware_timeout * 1000),
                    )
                )
                remaining = deadline - self.clock()
                if remaining <= 0:
                    raise _HandshakeFailed(
                        f"no answer to HELLO within {self.settings.handshake_timeout:g} s"
                    )
                with contextlib.suppress(TimeoutError):
                    return await asyncio.wait_for(
                        asyncio.shield(waiter), min(self.settings.retry, remaining)
                    )
        finally:
            self._hello_waiter = None
            if not waiter.done():
                waiter.cancel()

    def _check_version(self, hello: p.Hello) -> None:
        if hello.protocol != p.PROTOCOL_VERSION:
            raise ProtocolVersionError(
                f"the firmware on {self.url} speaks protocol {hello.protocol}, this board-bridge "
                f"speaks protocol {p.PROTOCOL_VERSION}: flash the firmware from this "
                "board-bridge's firmware/ folder (see docs/firmware.md)"
            )

    def _start_session(self, hello: p.Hello) -> None:
        """Apply a HELLO answering our HOST_HELLO (called as it arrives)."""
        self.resumed = (
            self._boot_id is not None
            and hello.boot_id == self._boot_id
            and not hello.flags & p.HELLO_GAP
            and hello.next_counter == self._next_expected
        )
        if self._boot_id is not None and hello.boot_id != self._boot_id:
            self.stats.reboots += 1
            log.warning("board at %s restarted (boot %08x)", self.url, hello.boot_id)
        if hello.boot_id != self._boot_id:
            self._clock_map = _ClockMap()
            self._cells_valid = False
        self._boot_id = hello.boot_id
        self._next_expected = hello.next_counter
        if hello.flags & p.HELLO_GAP:
            log.warning("board at %s dropped events while the host was away", self.url)
            self.stats.lost_events += 1
            self._cells_valid = False
        self.info = BoardInfo.from_hello(hello)
        self._connected = True
        self._handshaking = False
        self._need_frame = True
        self._held.clear()
        self._last_rx = self.clock()
        self._request()
        if self._led_frame is not None:
            self._led_acked = False
            self._led_refused = False
            self._send_led()

    def _request(self) -> None:
        self._awaiting_frame = True
        self._frame_requested_at = self.clock()
        self._send(p.RequestFrame())

    # ------------------------------------------------------------------ teardown

    def _mark_dead(self, reason: str) -> None:
        if not self._connected:
            return
        log.warning("board at %s: link lost (%s)", self.url, reason)
        self._connected = False
        self._handshaking = False
        self._queue.put_nowait(_Dead(reason))
        asyncio.get_running_loop().create_task(self._drop_link())

    async def _drop_link(self, flush: bool = False) -> None:
        self._connected = False
        self._handshaking = False
        self._gen += 1
        transport, self._transport = self._transport, None
        lost = self._lost_waiter
        current = asyncio.current_task()
        for task in (self._ticker, self._rehandshake_task):
            if task is not None and task is not current and not task.done():
                task.cancel()
        self._ticker = None
        self._rehandshake_task = None
        if transport is not None:
            if transport.is_closing():
                pass  # closing already (the port failed): it reports connection_lost itself
            elif flush:
                transport.close()
            else:
                transport.abort()
            if lost is not None:
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(lost), 1.0)

    # ------------------------------------------------------------------ callbacks

    def _on_lost(self, gen: int, exc: Exception | None) -> None:
        if self._lost_waiter is not None and not self._lost_waiter.done():
            self._lost_waiter.set_result(None)
        if gen != self._gen:
            return
        reason = f"port closed ({exc})" if exc else "port closed"
        if self._hello_waiter is not None and not self._hello_waiter.done():
            self._hello_waiter.set_exception(_HandshakeFailed(reason))
        self._mark_dead(reason)

    def _on_data(self, gen: int, data: bytes) -> None:
        if gen != self._gen:
            return
        rx = self.clock()
        bad = self._decoder.bad
        frames = self._decoder.feed(data)
        self.stats.bad_frames += self._decoder.bad - bad
        for frame in frames:
            self._last_rx = rx
            try:
                msg = p.decode(frame)
            except p.ProtocolError as exc:
                log.debug("board at %s: dropped a frame: %s", self.url, exc)
                continue
            self._on_message(msg, rx)
            if gen != self._gen:
                return

    def _on_message(self, msg: p.AnyMessage, rx: float) -> None:
        if isinstance(msg, p.SensorReport | p.InputReport):
            self._on_event(msg, rx)
        elif isinstance(msg, p.Heartbeat):
            self._on_heartbeat(msg, rx)
        elif isinstance(msg, p.Hello):
            self._on_hello(msg)
        elif isinstance(msg, p.Ack):
            if msg.frame_type == p.FrameType.LED_FRAME and msg.seq == self._led_seq:
                self._led_acked = True
        elif isinstance(msg, p.Nak):
            self._on_nak(msg)
        elif isinstance(msg, p.ErrorReport):
            self.stats.errors.append(msg)
            log.warning("board at %s reports %s: %s", self.url, msg.code_name, msg.text)
        # frames meant for the firmware (an echo on a loopback) are ignored

    def _on_hello(self, hello: p.Hello) -> None:
        waiter = self._hello_waiter
        if waiter is not None and not waiter.done():
            if hello.protocol != p.PROTOCOL_VERSION:
                waiter.set_result(hello)
                return
            if hello.session == self._session:
                self._start_session(hello)
                waiter.set_result(hello)
                return
        if hello.session == 0 and self.connected:
            # the firmware restarted, or lost track of us: say hello again
            self._rehandshake()

    def _on_heartbeat(self, hb: p.Heartbeat, rx: float) -> None:
        self.stats.firmware_bad_frames = hb.rx_bad
        if not self.connected:
            return
        if hb.boot_id != self._boot_id:
            self._rehandshake()
            return
        self._clock_map.sample(hb.time_ms, rx)
        if (
            hb.next_counter == self._next_expected
            and not self._need_frame
            and not self._held
            and self._queue.empty()
        ):
            # every event the board made before this heartbeat has been yielded
            self._watermark = max(self._watermark, self._clock_map.to_host(hb.time_ms, rx))
        frame = self._led_frame
        if (
            frame is not None
            and hb.led_id != frame.led_id
            and not self._led_refused
            and self.clock() - self._led_sent_at >= self.settings.retry
        ):
            self._send_led()

    def _on_nak(self, nak: p.Nak) -> None:
        log.warning(
            "board at %s refused a %s frame: %s (%s)",
            self.url,
            _type_name(nak.frame_type),
            nak.text,
            p.ErrorReport(nak.code).code_name,
        )
        self.stats.errors.append(p.ErrorReport(nak.code, nak.text))
        if nak.frame_type == p.FrameType.LED_FRAME and nak.seq == self._led_seq:
            self._led_refused = True

    def _on_event(self, msg: p.SensorReport | p.InputReport, rx: float) -> None:
        if not self.connected:
            return
        if not msg.flags & p.EV_RETRANSMIT:
            self._clock_map.sample(msg.time_ms, rx)
        expected = self._next_expected
        if msg.counter == expected or (msg.counter > expected and msg.flags & p.EV_GAP):
            if msg.counter != expected:
                lost = msg.counter - expected
                self.stats.lost_events += lost
                self._cells_valid = False
                log.warning("board at %s: %d event(s) lost (firmware queue full)", self.url, lost)
            self._next_expected = msg.counter + 1
            self._send(p.EventAck(self._next_expected))
            self._deliver(msg, rx)
        else:
            if msg.counter < expected:
                self.stats.duplicates += 1
            self._send(p.EventAck(expected))  # says what we still need

    def _deliver(self, msg: p.SensorReport | p.InputReport, rx: float) -> None:
        t = min(self._clock_map.to_host(msg.time_ms, rx), rx)
        t = max(t, self._last_t)
        self._last_t = t
        if isinstance(msg, p.SensorReport):
            self._awaiting_frame = False
            requested = (msg.flags & p.EV_REASON_MASK) == p.EV_REQUESTED
            wanted = requested and self._consumer_requested
            if self._need_frame or wanted or msg.cells != self._last_cells:
                if wanted:
                    self._consumer_requested = False
                self._queue.put_nowait(SensorFrame(t, msg.cells))
                self._last_cells = msg.cells
                self._cells_valid = True
                self._need_frame = False
                for held in self._held:
                    self._queue.put_nowait(PlayerInput(t, held.value))
                self._held.clear()
            return
        event = PlayerInput(t, msg.value)
        if self._need_frame:
            if self._last_cells is not None and self._cells_valid:
                # nothing changed since the last frame we gave (the stream is complete)
                self._queue.put_nowait(SensorFrame(t, self._last_cells))
                self._need_frame = False
            else:
                self._held.append(event)
                return
        self._queue.put_nowait(event)

    # ------------------------------------------------------------------ timers

    def _rehandshake(self) -> None:
        if self._rehandshake_task is not None and not self._rehandshake_task.done():
            return
        self._rehandshake_task = asyncio.get_running_loop().create_task(
            self._do_rehandshake(self._gen), name="serial-board-rehello"
        )

    async def _do_rehandshake(self, gen: int) -> None:
        try:
            hello = await self._handshake()
            self._check_version(hello)
        except ProtocolVersionError as exc:
            if gen == self._gen:
                self._queue.put_nowait(_Fatal(exc))
                await self._drop_link()
        except (_HandshakeFailed, TimeoutError):
            if gen == self._gen:
                self._handshaking = False
                self._mark_dead("no answer to HELLO after the board restarted")

    async def _tick_loop(self, gen: int) -> None:
        s = self.settings
        while gen == self._gen and self._connected:
            now = self.clock()
            if now - self._last_rx > s.link_timeout:
                self._mark_dead(f"nothing heard for {s.link_timeout:g} s")
                return
            if not self._handshaking:
                if now - self._last_hb >= s.heartbeat:
                    self._last_hb = now
                    self._send(
                        p.HostHeartbeat(
                            self._next_expected,
                            self._led_frame.led_id if self._led_frame else 0,
                            self._decoder.bad,
                        )
                    )
                if self._awaiting_frame and now - self._frame_requested_at >= 2 * s.retry:
                    self._request()
                frame = self._led_frame
                if (
                    frame is not None
                    and not self._led_acked
                    and not self._led_refused
                    and now - self._led_sent_at >= s.retry
                ):
                    self._send_led()
            await asyncio.sleep(TICK)

    # ------------------------------------------------------------------ sending

    def _send(self, msg: p.AnyMessage) -> int:
        seq = self._seq
        self._seq = (self._seq + 1) & 0xFF
        transport = self._transport
        if transport is not None and not transport.is_closing():
            transport.write(p.encode(msg, seq))
        return seq

    def _send_led(self) -> None:
        if self._led_frame is None or not self.connected:
            return
        self._led_seq = self._send(self._led_frame)
        self._led_sent_at = self.clock()
        self.stats.led_frames += 1

    def show_styles(self, styles: Sequence[p.LedStyle]) -> None:
        """Show one :class:`LedStyle` per LED (strip order); sent now, or on connection."""
        frame = p.LedFrame.from_styles(self._led_id % 0xFFFF + 1, styles)
        old = self._led_frame
        if old is not None and old.palette == frame.palette and old.indices == frame.indices:
            return
        self._led_id = frame.led_id
        self._led_frame = frame
        self._led_acked = False
        self._led_refused = False
        self._send_led()

    @property
    def led_frame(self) -> p.LedFrame | None:
        """The LED frame the board should be showing."""
        return self._led_frame

    @property
    def led_acknowledged(self) -> bool:
        return self._led_acked


def _type_name(t: int) -> str:
    try:
        return p.FrameType(t).name
    except ValueError:
        return f"0x{t:02x}"


class SerialLedSink(LedSink):
    """The LEDs behind the board's firmware: renders intents into a palette LED frame.

    Blinking is done by the firmware from the pattern in each palette entry, so a busy
    or briefly broken link never stalls a blink. The layout is the one given, else the
    one the firmware reports (81 LEDs under the squares, or the 10 x 10 corner grid).
    """

    def __init__(
        self,
        board: SerialBoard,
        *,
        layout: Layout | None = None,
        palette: Mapping[Mark, Style] = DEFAULT_PALETTE,
        brightness: float = 1.0,
        max_milliamps: float | None = DEFAULT_MAX_MILLIAMPS,
    ) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness must be between 0 and 1: {brightness}")
        self.board = board
        self._layout = layout
        self.palette = dict(palette)
        self.brightness = brightness
        self.max_milliamps = max_milliamps
        self._closed = False

    @property
    def layout(self) -> Layout:
        if self._layout is not None:
            return self._layout
        info = self.board.info
        if info is not None and info.led_layout == p.LedLayoutCode.CORNERS:
            return Layout.corner_grid()
        return Layout.per_square()

    def styles_for(self, intents: LedIntents) -> list[p.LedStyle]:
        """One palette entry per LED for ``intents``."""
        layout = self.layout
        marks = []
        for owners in layout.squares_of_led:
            best = Mark.NONE
            for sq in owners:
                m = intents.marks.get(sq, Mark.NONE)
                if m > best:
                    best = m
            marks.append(best)
        styles = [self.palette.get(m, DEFAULT_PALETTE[m]) for m in marks]
        colors = []
        for mark, style in zip(marks, styles):
            if mark == Mark.NONE:
                colors.append(OFF)
            else:
                r, g, b = style.color
                b_ = self.brightness
                colors.append((round(r * b_), round(g * b_), round(b * b_)))
        if self.max_milliamps is not None:
            colors = limit_power(colors, self.max_milliamps)  # as if every blink were lit
        out = []
        for color, style in zip(colors, styles):
            segs = tuple((min(round(d * 1000), 0x7FFF), on) for d, on in style.blink.segments)
            out.append(p.LedStyle(color, segs if color != OFF else ()))
        return out

    async def show(self, intents: LedIntents) -> None:
        if self._closed:
            return
        self.board.show_styles(self.styles_for(intents))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.board.show_styles([p.LedStyle(OFF)] * self.layout.num_leds)


__all__ = [
    "BoardInfo",
    "LinkStats",
    "ProtocolVersionError",
    "SerialBoard",
    "SerialLedSink",
    "SerialSettings",
]
