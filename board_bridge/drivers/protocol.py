"""The firmware link's wire protocol (docs/protocol.md): typed frames and a resynchronising decoder.

A frame on the wire is ``FLAG body FLAG``; ``body`` is ``type u8 | seq u8 | payload |
crc16 u16le`` (CRC-16/CCITT-FALSE over type, seq and payload), byte-stuffed HDLC-style
so that FLAG (0x7E), ESC (0x7D) and Ctrl-C (0x03) never appear inside a frame. Each
message is a frozen dataclass with ``serialize()`` (its payload) and ``deserialize()``.
The firmware has its own copy of this protocol in the MicroPython subset
(firmware/bbfw/proto.py); the tests check that both agree byte for byte.
"""

from __future__ import annotations

import binascii
import enum
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Protocol, Self

PROTOCOL_VERSION: Final = 1

FLAG: Final = 0x7E
ESC: Final = 0x7D
ESC_XOR: Final = 0x20
CTRL_C: Final = 0x03
MAX_PAYLOAD: Final = 1024
MAX_BODY: Final = MAX_PAYLOAD + 4

CELL_CHARS: Final = ".xup"
CELL_BYTES: Final = 21
SEG_ON: Final = 0x8000
MAX_SEGMENTS: Final = 8


class FrameType(enum.IntEnum):
    HELLO = 0x01
    HOST_HELLO = 0x02
    HEARTBEAT = 0x03
    HOST_HEARTBEAT = 0x04
    SENSOR_FRAME = 0x10
    INPUT = 0x11
    EVENT_ACK = 0x12
    REQUEST_FRAME = 0x13
    LED_FRAME = 0x20
    ACK = 0x30
    NAK = 0x31
    RESET = 0x32
    ERROR = 0x3E


class ErrorCode(enum.IntEnum):
    BAD_PAYLOAD = 1
    UNKNOWN_TYPE = 2
    VERSION = 3
    LED_COUNT = 4
    QUEUE_OVERFLOW = 5
    HARDWARE = 6
    WATCHDOG = 7
    INTERNAL = 8
    INTERRUPTED = 9


class BoardKind(enum.IntEnum):
    OCCUPANCY = 0
    POLARITY = 1


class LedLayoutCode(enum.IntEnum):
    NONE = 0
    SQUARES = 1
    CORNERS = 2


# HELLO flags
HELLO_BUTTONS: Final = 0x01
HELLO_GAP: Final = 0x02
HELLO_WDT_RESET: Final = 0x04

# event flags (SENSOR_FRAME, INPUT)
EV_RETRANSMIT: Final = 0x01
EV_GAP: Final = 0x02
EV_REASON_MASK: Final = 0x0C
EV_CHANGE: Final = 0x00
EV_REQUESTED: Final = 0x04
EV_BOOT: Final = 0x08


class ProtocolError(ValueError):
    """A frame that arrived intact (good CRC) but whose payload cannot be read."""


# --------------------------------------------------------------------------- framing

_STUFF = ((bytes([ESC]), bytes([ESC, ESC ^ ESC_XOR])),
          (bytes([FLAG]), bytes([ESC, FLAG ^ ESC_XOR])),
          (bytes([CTRL_C]), bytes([ESC, CTRL_C ^ ESC_XOR])))  # fmt: skip


def crc16(data: bytes | bytearray | memoryview) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    return binascii.crc_hqx(data, 0xFFFF)


def encode_frame(ftype: int, seq: int, payload: bytes = b"") -> bytes:
    """One frame on the wire: FLAG, the stuffed body with its CRC, FLAG."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes is over {MAX_PAYLOAD}")
    body = bytes((ftype & 0xFF, seq & 0xFF)) + payload
    body += struct.pack("<H", crc16(body))
    for raw, stuffed in _STUFF:
        body = body.replace(raw, stuffed)
    return bytes([FLAG]) + body + bytes([FLAG])


@dataclass(frozen=True, slots=True)
class Frame:
    """A frame that arrived intact: its type (an int: unknown types are kept), seq, payload."""

    type: int
    seq: int
    payload: bytes

    def encode(self) -> bytes:
        return encode_frame(self.type, self.seq, self.payload)


def _unstuff(chunk: bytes) -> bytes | None:
    if ESC not in chunk:
        return chunk
    parts = chunk.split(bytes([ESC]))
    out = bytearray(parts[0])
    for part in parts[1:]:
        if not part:
            return None  # ESC ESC, or ESC at the end
        out.append(part[0] ^ ESC_XOR)
        out += part[1:]
    return bytes(out)


class Decoder:
    """Streaming decoder: ``feed(bytes)`` returns the intact frames and never raises.

    Bytes before the first FLAG are skipped (``skipped``); a chunk between two FLAGs that
    is too short, too long, badly escaped or fails its CRC is dropped and counted in
    ``bad``. Every FLAG starts afresh, so one damaged byte costs one frame.
    """

    def __init__(self, max_body: int = MAX_BODY) -> None:
        self.max_body = max_body
        self._buf = bytearray()
        self._synced = False
        self._overlong = False
        self.bad = 0
        self.skipped = 0
        self.good = 0

    def reset(self) -> None:
        """Forget a partial frame (a new connection starts unsynchronised)."""
        self._buf.clear()
        self._synced = False
        self._overlong = False

    def feed(self, data: bytes | bytearray) -> list[Frame]:
        frames: list[Frame] = []
        start = 0
        n = len(data)
        while start < n:
            pos = data.find(FLAG, start)
            if pos < 0:
                self._take(data[start:])
                break
            self._take(data[start:pos])
            if self._synced and (self._buf or self._overlong):
                frame = self._finish()
                if frame is None:
                    self.bad += 1
                else:
                    self.good += 1
                    frames.append(frame)
            self._buf.clear()
            self._overlong = False
            self._synced = True
            start = pos + 1
        return frames

    def _take(self, chunk: bytes | bytearray) -> None:
        if not chunk:
            return
        if not self._synced:
            self.skipped += len(chunk)
            return
        if self._overlong:
            return
        self._buf += chunk
        if len(self._buf) > 2 * self.max_body:
            self._buf.clear()
            self._overlong = True

    def _finish(self) -> Frame | None:
        if self._overlong:
            return None
        body = _unstuff(bytes(self._buf))
        if body is None or len(body) < 4 or len(body) > self.max_body:
            return None
        if crc16(body[:-2]) != body[-2] | (body[-1] << 8):
            return None
        return Frame(body[0], body[1], body[2:-2])


# --------------------------------------------------------------------------- helpers


def pack_cells(cells: str) -> bytes:
    """81 cell characters ('.', 'x', 'u', 'p') as 21 bytes, 2 bits each, low bits first."""
    if len(cells) != 81:
        raise ValueError(f"a frame has 81 cells, not {len(cells)}")
    out = bytearray(CELL_BYTES)
    for i, ch in enumerate(cells):
        code = CELL_CHARS.find(ch)
        if code < 0:
            raise ValueError(f"bad cell {ch!r}")
        out[i >> 2] |= code << ((i & 3) * 2)
    return bytes(out)


def unpack_cells(data: bytes) -> str:
    if len(data) != CELL_BYTES:
        raise ProtocolError(f"cells take {CELL_BYTES} bytes, not {len(data)}")
    return "".join(CELL_CHARS[(data[i >> 2] >> ((i & 3) * 2)) & 3] for i in range(81))


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"text is not UTF-8: {exc}") from None


class _NoPayload:
    """A message that is its type alone (an empty payload)."""

    __slots__ = ()
    TYPE: ClassVar[FrameType]

    def serialize(self) -> bytes:
        return b""

    @classmethod
    def deserialize(cls, payload: bytes) -> Self:
        if payload:
            raise ProtocolError(f"{cls.TYPE.name} has no payload")
        return cls()


def _unpack(fmt: str, payload: bytes, what: str) -> tuple[int, ...]:
    if len(payload) != struct.calcsize(fmt):
        raise ProtocolError(
            f"{what} payload has {len(payload)} bytes, expected {struct.calcsize(fmt)}"
        )
    return struct.unpack(fmt, payload)


# --------------------------------------------------------------------------- messages


class Message(Protocol):
    TYPE: ClassVar[FrameType]

    def serialize(self) -> bytes: ...


@dataclass(frozen=True, slots=True)
class Hello:
    """Firmware -> host: who the board is. Sent at boot (session 0), in answer to
    HOST_HELLO (its session), and to nudge a host that talks without a handshake."""

    TYPE: ClassVar[FrameType] = FrameType.HELLO
    _FMT: ClassVar[str] = "<BBBBBBHIIIB"

    protocol: int = PROTOCOL_VERSION
    firmware_version: tuple[int, int, int] = (0, 0, 0)
    kind: int = BoardKind.OCCUPANCY
    led_layout: int = LedLayoutCode.NONE
    led_count: int = 0
    boot_id: int = 0
    session: int = 0
    next_counter: int = 0
    flags: int = 0
    name: str = ""

    def serialize(self) -> bytes:
        if self.protocol != PROTOCOL_VERSION:
            return bytes([self.protocol & 0xFF])
        major, minor, patch = self.firmware_version
        return (
            struct.pack(
                self._FMT,
                self.protocol,
                major,
                minor,
                patch,
                self.kind,
                self.led_layout,
                self.led_count,
                self.boot_id,
                self.session,
                self.next_counter,
                self.flags,
            )
            + self.name.encode("utf-8")[:32]
        )

    @classmethod
    def deserialize(cls, payload: bytes) -> Hello:
        if not payload:
            raise ProtocolError("empty HELLO")
        if payload[0] != PROTOCOL_VERSION:
            return cls(protocol=payload[0])  # another protocol: only its number is known
        n = struct.calcsize(cls._FMT)
        if len(payload) < n:
            raise ProtocolError(f"HELLO payload has {len(payload)} bytes, at least {n} needed")
        f = struct.unpack(cls._FMT, payload[:n])
        return cls(f[0], (f[1], f[2], f[3]), f[4], f[5], f[6], f[7], f[8], f[9], f[10],
                   _text(payload[n:]))  # fmt: skip

    @property
    def version_string(self) -> str:
        return ".".join(str(v) for v in self.firmware_version)


@dataclass(frozen=True, slots=True)
class HostHello:
    """Host -> firmware: start (or resume) a session."""

    TYPE: ClassVar[FrameType] = FrameType.HOST_HELLO
    _FMT: ClassVar[str] = "<BIIIHH"

    session: int
    boot_id: int = 0  # the boot the host last talked to (0: none)
    resume: int = 0  # the counter the host expects next from that boot (0: start afresh)
    heartbeat_ms: int = 500
    timeout_ms: int = 3000
    protocol: int = PROTOCOL_VERSION

    def serialize(self) -> bytes:
        return struct.pack(self._FMT, self.protocol, self.session, self.boot_id, self.resume,
                           self.heartbeat_ms, self.timeout_ms)  # fmt: skip

    @classmethod
    def deserialize(cls, payload: bytes) -> HostHello:
        if payload and payload[0] != PROTOCOL_VERSION:
            return cls(session=0, protocol=payload[0])
        p, session, boot, resume, hb, timeout = _unpack(cls._FMT, payload, "HOST_HELLO")
        return cls(session, boot, resume, hb, timeout, p)


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Firmware -> host, every 500 ms: its clock, boot, event counter and LED frame."""

    TYPE: ClassVar[FrameType] = FrameType.HEARTBEAT
    _FMT: ClassVar[str] = "<IIIHHB"

    time_ms: int
    boot_id: int
    next_counter: int
    led_id: int = 0
    rx_bad: int = 0
    queued: int = 0

    def serialize(self) -> bytes:
        return struct.pack(self._FMT, self.time_ms, self.boot_id, self.next_counter,
                           self.led_id, self.rx_bad, self.queued)  # fmt: skip

    @classmethod
    def deserialize(cls, payload: bytes) -> Heartbeat:
        return cls(*_unpack(cls._FMT, payload, "HEARTBEAT"))


@dataclass(frozen=True, slots=True)
class HostHeartbeat:
    """Host -> firmware, every 500 ms: what it has received (a cumulative ack) and shows."""

    TYPE: ClassVar[FrameType] = FrameType.HOST_HEARTBEAT
    _FMT: ClassVar[str] = "<IHH"

    next_expected: int
    led_id: int = 0
    rx_bad: int = 0

    def serialize(self) -> bytes:
        return struct.pack(self._FMT, self.next_expected, self.led_id, min(self.rx_bad, 0xFFFF))

    @classmethod
    def deserialize(cls, payload: bytes) -> HostHeartbeat:
        return cls(*_unpack(cls._FMT, payload, "HOST_HEARTBEAT"))


@dataclass(frozen=True, slots=True)
class SensorReport:
    """Firmware -> host: the whole board (81 cells) at firmware time ``time_ms``."""

    TYPE: ClassVar[FrameType] = FrameType.SENSOR_FRAME

    counter: int
    time_ms: int
    flags: int
    cells: str

    def serialize(self) -> bytes:
        return struct.pack("<IIB", self.counter, self.time_ms, self.flags) + pack_cells(self.cells)

    @classmethod
    def deserialize(cls, payload: bytes) -> SensorReport:
        if len(payload) != 9 + CELL_BYTES:
            raise ProtocolError(f"SENSOR_FRAME payload has {len(payload)} bytes, expected 30")
        counter, time_ms, flags = struct.unpack("<IIB", payload[:9])
        return cls(counter, time_ms, flags, unpack_cells(payload[9:]))


@dataclass(frozen=True, slots=True)
class InputReport:
    """Firmware -> host: a button pressed (``promote``, ``nonpromote``, a piece letter ...)."""

    TYPE: ClassVar[FrameType] = FrameType.INPUT

    counter: int
    time_ms: int
    flags: int
    value: str

    def serialize(self) -> bytes:
        return struct.pack("<IIB", self.counter, self.time_ms, self.flags) + self.value.encode()

    @classmethod
    def deserialize(cls, payload: bytes) -> InputReport:
        if not 10 <= len(payload) <= 25:
            raise ProtocolError(f"INPUT payload has {len(payload)} bytes, expected 10-25")
        counter, time_ms, flags = struct.unpack("<IIB", payload[:9])
        return cls(counter, time_ms, flags, _text(payload[9:]))


@dataclass(frozen=True, slots=True)
class EventAck:
    """Host -> firmware: every event before ``next_expected`` arrived."""

    TYPE: ClassVar[FrameType] = FrameType.EVENT_ACK

    next_expected: int

    def serialize(self) -> bytes:
        return struct.pack("<I", self.next_expected)

    @classmethod
    def deserialize(cls, payload: bytes) -> EventAck:
        return cls(*_unpack("<I", payload, "EVENT_ACK"))


@dataclass(frozen=True, slots=True)
class RequestFrame(_NoPayload):
    """Host -> firmware: send the whole board now (as a new event)."""

    TYPE: ClassVar[FrameType] = FrameType.REQUEST_FRAME


@dataclass(frozen=True, slots=True)
class LedStyle:
    """One palette entry: a colour and a blink pattern of (milliseconds, lit) segments
    (empty: steady)."""

    color: tuple[int, int, int]
    blink: tuple[tuple[int, bool], ...] = ()

    def lit(self, t_ms: int) -> bool:
        if not self.blink:
            return True
        period = sum(ms for ms, _ in self.blink)
        if period <= 0:
            return True
        phase = t_ms % period
        for ms, on in self.blink:
            if phase < ms:
                return on
            phase -= ms
        return self.blink[-1][1]


@dataclass(frozen=True, slots=True)
class LedFrame:
    """Host -> firmware: the whole LED strip as a palette and one palette index per LED."""

    TYPE: ClassVar[FrameType] = FrameType.LED_FRAME

    led_id: int
    palette: tuple[LedStyle, ...]
    indices: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.palette) <= 255:
            raise ValueError(f"an LED palette has 1-255 entries, not {len(self.palette)}")
        if any(not 0 <= i < len(self.palette) for i in self.indices):
            raise ValueError("an LED index is outside the palette")
        for style in self.palette:
            if len(style.blink) > MAX_SEGMENTS:
                raise ValueError(f"a blink pattern has at most {MAX_SEGMENTS} segments")
            if any(not 0 <= c <= 255 for c in style.color):
                raise ValueError(f"bad colour {style.color}")
            if any(not 0 <= ms <= 0x7FFF for ms, _ in style.blink):
                raise ValueError("a blink segment lasts 0-32767 ms")

    @classmethod
    def from_styles(cls, led_id: int, styles: Sequence[LedStyle]) -> LedFrame:
        """The frame showing ``styles`` (one per LED, strip order)."""
        index: dict[LedStyle, int] = {}
        indices = []
        for style in styles:
            if style not in index:
                index[style] = len(index)
            indices.append(index[style])
        if not index:
            index[LedStyle((0, 0, 0))] = 0
        return cls(led_id, tuple(index), tuple(indices))

    def colors(self, t_ms: int = 0) -> list[tuple[int, int, int]]:
        """What the strip shows at firmware time ``t_ms``."""
        lit = [s.lit(t_ms) for s in self.palette]
        return [self.palette[i].color if lit[i] else (0, 0, 0) for i in self.indices]

    def serialize(self) -> bytes:
        bits = 4 if len(self.palette) <= 16 else 8
        out = bytearray(struct.pack("<HHBB", self.led_id, len(self.indices), bits,
                                    len(self.palette)))  # fmt: skip
        for style in self.palette:
            out += bytes((*style.color, len(style.blink)))
            for ms, on in style.blink:
                out += struct.pack("<H", ms | (SEG_ON if on else 0))
        if bits == 4:
            packed = bytearray((len(self.indices) + 1) // 2)
            for i, idx in enumerate(self.indices):
                packed[i >> 1] |= idx << ((i & 1) * 4)
            out += packed
        else:
            out += bytes(self.indices)
        return bytes(out)

    @classmethod
    def deserialize(cls, payload: bytes) -> LedFrame:
        if len(payload) < 6:
            raise ProtocolError("short LED_FRAME")
        led_id, count, bits, npal = struct.unpack("<HHBB", payload[:6])
        if bits not in (4, 8) or npal == 0:
            raise ProtocolError(f"bad LED_FRAME header: {bits} bits, {npal} colours")
        pos = 6
        palette = []
        for _ in range(npal):
            if pos + 4 > len(payload):
                raise ProtocolError("short LED palette")
            r, g, b, nseg = payload[pos : pos + 4]
            pos += 4
            if nseg > MAX_SEGMENTS or pos + 2 * nseg > len(payload):
                raise ProtocolError("bad LED blink segments")
            segs = []
            for _ in range(nseg):
                (s,) = struct.unpack("<H", payload[pos : pos + 2])
                segs.append((s & 0x7FFF, bool(s & SEG_ON)))
                pos += 2
            palette.append(LedStyle((r, g, b), tuple(segs)))
        need = (count + 1) // 2 if bits == 4 else count
        if len(payload) - pos != need:
            raise ProtocolError(f"LED_FRAME has {len(payload) - pos} index bytes, expected {need}")
        data = payload[pos:]
        if bits == 4:
            indices = tuple((data[i >> 1] >> ((i & 1) * 4)) & 0x0F for i in range(count))
        else:
            indices = tuple(data)
        if any(i >= npal for i in indices):
            raise ProtocolError("an LED index is outside the palette")
        return cls(led_id, tuple(palette), indices)


@dataclass(frozen=True, slots=True)
class Ack:
    """Firmware -> host: the frame (type, seq) was done (LED_FRAME, REQUEST_FRAME, RESET)."""

    TYPE: ClassVar[FrameType] = FrameType.ACK

    frame_type: int
    seq: int

    def serialize(self) -> bytes:
        return bytes((self.frame_type, self.seq))

    @classmethod
    def deserialize(cls, payload: bytes) -> Ack:
        return cls(*_unpack("<BB", payload, "ACK"))


@dataclass(frozen=True, slots=True)
class Nak:
    """Firmware -> host: the frame (type, seq) arrived intact but was refused."""

    TYPE: ClassVar[FrameType] = FrameType.NAK

    frame_type: int
    seq: int
    code: int
    text: str = ""

    def serialize(self) -> bytes:
        return bytes((self.frame_type, self.seq, self.code)) + self.text.encode()[:64]

    @classmethod
    def deserialize(cls, payload: bytes) -> Nak:
        if len(payload) < 3:
            raise ProtocolError("short NAK")
        return cls(payload[0], payload[1], payload[2], _text(payload[3:]))


@dataclass(frozen=True, slots=True)
class Reset(_NoPayload):
    """Host -> firmware: restart the microcontroller (after an ACK)."""

    TYPE: ClassVar[FrameType] = FrameType.RESET


@dataclass(frozen=True, slots=True)
class ErrorReport:
    """Either way: something went wrong (an :class:`ErrorCode` and a text)."""

    TYPE: ClassVar[FrameType] = FrameType.ERROR

    code: int
    text: str = ""

    def serialize(self) -> bytes:
        return bytes((self.code,)) + self.text.encode()[:120]

    @classmethod
    def deserialize(cls, payload: bytes) -> ErrorReport:
        if not payload:
            raise ProtocolError("empty ERROR")
        return cls(payload[0], _text(payload[1:]))

    @property
    def code_name(self) -> str:
        try:
            return ErrorCode(self.code).name
        except ValueError:
            return f"code {self.code}"


AnyMessage = (
    Hello | HostHello | Heartbeat | HostHeartbeat | SensorReport | InputReport | EventAck
    | RequestFrame | LedFrame | Ack | Nak | Reset | ErrorReport
)  # fmt: skip

MESSAGE_TYPES: Final[dict[int, type[AnyMessage]]] = {
    cls.TYPE: cls
    for cls in (Hello, HostHello, Heartbeat, HostHeartbeat, SensorReport, InputReport,
                EventAck, RequestFrame, LedFrame, Ack, Nak, Reset, ErrorReport)
}  # fmt: skip


class UnknownFrameType(ProtocolError):
    """An intact frame of a type this side does not know."""


def encode(message: AnyMessage, seq: int = 0) -> bytes:
    """A message as a frame on the wire."""
    return encode_frame(message.TYPE, seq, message.serialize())


def decode(frame: Frame) -> AnyMessage:
    """The message in an intact frame (:class:`ProtocolError` if its payload is wrong)."""
    cls = MESSAGE_TYPES.get(frame.type)
    if cls is None:
        raise UnknownFrameType(f"unknown frame type 0x{frame.type:02x}")
    try:
        return cls.deserialize(frame.payload)
    except (struct.error, IndexError, ValueError) as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError(f"bad {cls.TYPE.name} payload: {exc}") from exc


__all__ = [
    "PROTOCOL_VERSION", "Ack", "AnyMessage", "BoardKind", "Decoder", "ErrorCode",
    "ErrorReport", "EventAck", "Frame", "FrameType", "Heartbeat", "Hello", "HostHeartbeat",
    "HostHello", "InputReport", "LedFrame", "LedLayoutCode", "LedStyle", "Nak",
    "ProtocolError", "RequestFrame", "Reset", "SensorReport", "UnknownFrameType", "crc16",
    "decode", "encode", "encode_frame", "pack_cells", "unpack_cells",
]  # fmt: skip
