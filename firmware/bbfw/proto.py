"""The board-bridge serial protocol on the wire, in the subset of Python MicroPython runs.

This is the firmware's copy of the protocol described in docs/protocol.md. The
host has its own typed implementation (board_bridge/drivers/protocol.py); the
tests check that both produce and accept the same bytes. No dataclasses, no
typing, no f-strings: this module must import on a Raspberry Pi Pico.

A frame on the wire is ``FLAG body FLAG`` where ``body`` is
``type u8 | seq u8 | payload | crc16 u16le`` with HDLC-style byte stuffing:
FLAG (0x7E), ESC (0x7D) and Ctrl-C (0x03) never appear inside a frame (they are
sent as ESC, byte ^ 0x20), so a receiver resynchronises at the next FLAG and a
MicroPython REPL's Ctrl-C stays usable. All integers are little-endian.
"""

import struct

PROTOCOL_VERSION = 1

FLAG = 0x7E
ESC = 0x7D
ESC_XOR = 0x20
CTRL_C = 0x03
_ESCAPED = (FLAG, ESC, CTRL_C)
MAX_PAYLOAD = 1024
MAX_BODY = MAX_PAYLOAD + 4

# Frame types. Firmware -> host: HELLO, HEARTBEAT, SENSOR_FRAME, INPUT, ACK, NAK, ERROR.
# Host -> firmware: HOST_HELLO, HOST_HEARTBEAT, EVENT_ACK, REQUEST_FRAME, LED_FRAME, RESET, ERROR.
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

# Board kinds (HELLO).
KIND_OCCUPANCY = 0
KIND_POLARITY = 1

# LED layouts (HELLO).
LAYOUT_NONE = 0
LAYOUT_SQUARES = 1  # one LED under each square, 81
LAYOUT_CORNERS = 2  # a 10 x 10 grid at the corners of the squares, 100

# HELLO flags.
HELLO_BUTTONS = 0x01  # the board has buttons and sends INPUT events
HELLO_GAP = 0x02  # the host asked to resume, but events it had not received were lost
HELLO_WDT_RESET = 0x04  # this boot followed a watchdog reset

# Event flags (SENSOR_FRAME, INPUT).
EV_RETRANSMIT = 0x01  # sent before (its time stamp is old: not a clock sample)
EV_GAP = 0x02  # events before this one were lost (the queue overflowed)
EV_REASON_MASK = 0x0C
EV_CHANGE = 0x00  # a square changed (after debouncing)
EV_REQUESTED = 0x04  # the host asked (REQUEST_FRAME)
EV_BOOT = 0x08  # the first frame after boot

# Error codes (ERROR, NAK).
E_BAD_PAYLOAD = 1
E_UNKNOWN_TYPE = 2
E_VERSION = 3
E_LED_COUNT = 4
E_QUEUE_OVERFLOW = 5
E_HARDWARE = 6
E_WATCHDOG = 7
E_INTERNAL = 8
E_INTERRUPTED = 9

# Cell codes, 2 bits per cell, 4 cells per byte, cell 0 in the low bits of byte 0.
CELL_CHARS = ".xup"
CELL_BYTES = 21  # ceil(81 / 4)

# Blink segments in LED_FRAME palettes: u16, bit 15 set = lit, low 15 bits = milliseconds.
SEG_ON = 0x8000
MAX_SEGMENTS = 8


def _make_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _make_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): crc16(b"123456789") == 0x29B1."""
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def encode(ftype, seq, payload=b""):
    """One frame on the wire: FLAG, the stuffed body with its CRC, FLAG."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = bytearray(len(payload) + 4)
    body[0] = ftype & 0xFF
    body[1] = seq & 0xFF
    body[2 : 2 + len(payload)] = payload
    crc = crc16(memoryview(body)[: 2 + len(payload)])
    body[-2] = crc & 0xFF
    body[-1] = crc >> 8
    out = bytearray()
    out.append(FLAG)
    for b in body:
        if b in _ESCAPED:
            out.append(ESC)
            out.append(b ^ ESC_XOR)
        else:
            out.append(b)
    out.append(FLAG)
    return bytes(out)


class Decoder:
    """A streaming decoder: feed it bytes, get (type, seq, payload) frames back.

    It never raises on garbage: bytes before the first FLAG are skipped, frames
    with a bad CRC, a bad escape or an overlong body are dropped and counted in
    ``bad``; the next FLAG always starts afresh.
    """

    def __init__(self, max_body=MAX_BODY):
        self.max_body = max_body
        self.buf = bytearray()
        self.synced = False
        self.escaping = False
        self.broken = False
        self.bad = 0  # frames dropped: bad CRC, bad escape, too short or too long
        self.skipped = 0  # bytes outside any frame
        self.good = 0

    def reset(self):
        self.buf = bytearray()
        self.synced = False
        self.escaping = False
        self.broken = False

    def feed(self, data):
        frames = []
        for b in data:
            if b == FLAG:
                if self.synced and (len(self.buf) or self.broken):
                    frame = self._finish()
                    if frame is None:
                        self.bad += 1
                    else:
                        self.good += 1
                        frames.append(frame)
                self.buf = bytearray()
                self.escaping = False
                self.broken = False
                self.synced = True
            elif not self.synced:
                self.skipped += 1
            elif self.broken:
                continue
            elif b == ESC:
                if self.escaping:
                    self.broken = True
                self.escaping = True
            else:
                if self.escaping:
                    b ^= ESC_XOR
                    self.escaping = False
                if len(self.buf) >= self.max_body:
                    self.broken = True
                else:
                    self.buf.append(b)
        return frames

    def _finish(self):
        buf = self.buf
        if self.broken or self.escaping or len(buf) < 4:
            return None
        n = len(buf) - 2
        if crc16(memoryview(buf)[:n]) != buf[n] | (buf[n + 1] << 8):
            return None
        return buf[0], buf[1], bytes(buf[2:n])


# ---------------------------------------------------------------- cells


def pack_codes(codes):
    """81 cell codes (0 '.', 1 'x', 2 'u', 3 'p') as 21 bytes."""
    out = bytearray(CELL_BYTES)
    for i in range(81):
        out[i >> 2] |= (codes[i] & 3) << ((i & 3) * 2)
    return bytes(out)


def pack_cells(cells):
    """81 cell characters ('.', 'x', 'u', 'p') as 21 bytes."""
    if len(cells) != 81:
        raise ValueError("a frame has 81 cells")
    codes = []
    for ch in cells:
        code = CELL_CHARS.find(ch)
        if code < 0:
            raise ValueError("bad cell")
        codes.append(code)
    return pack_codes(codes)


def unpack_cells(data):
    if len(data) != CELL_BYTES:
        raise ValueError("bad cells")
    chars = []
    for i in range(81):
        chars.append(CELL_CHARS[(data[i >> 2] >> ((i & 3) * 2)) & 3])
    return "".join(chars)


def _text(data):
    try:
        return bytes(data).decode("utf-8")
    except UnicodeError:
        raise ValueError("bad text") from None


# ---------------------------------------------------------------- firmware -> host


_HELLO = "<BBBBBBHIIIB"


def hello_payload(version, kind, layout, led_count, boot_id, session, next_counter, flags, name):
    return (
        struct.pack(
            _HELLO,
            PROTOCOL_VERSION,
            version[0],
            version[1],
            version[2],
            kind,
            layout,
            led_count,
            boot_id,
            session,
            next_counter,
            flags,
        )
        + name.encode("utf-8")[:32]
    )


def parse_hello(p):
    """(protocol, (major, minor, patch), kind, layout, led_count, boot_id, session,
    next_counter, flags, name). Only the first byte is read when the protocol differs."""
    if len(p) < 1:
        raise ValueError("empty HELLO")
    if p[0] != PROTOCOL_VERSION:
        return (p[0], None, None, None, None, None, None, None, None, "")
    n = struct.calcsize(_HELLO)
    if len(p) < n:
        raise ValueError("short HELLO")
    f = struct.unpack(_HELLO, p[:n])
    return (f[0], (f[1], f[2], f[3]), f[4], f[5], f[6], f[7], f[8], f[9], f[10], _text(p[n:]))


def heartbeat_payload(time_ms, boot_id, next_counter, led_id, rx_bad, queued):
    return struct.pack(
        "<IIIHHB", time_ms & 0xFFFFFFFF, boot_id, next_counter, led_id, min(rx_bad, 0xFFFF), queued
    )


def parse_heartbeat(p):
    """(time_ms, boot_id, next_counter, led_id, rx_bad, queued)."""
    if len(p) != 17:
        raise ValueError("bad HEARTBEAT")
    return struct.unpack("<IIIHHB", p)


def sensor_payload(counter, time_ms, flags, packed_cells):
    return struct.pack("<IIB", counter, time_ms & 0xFFFFFFFF, flags) + packed_cells


def parse_sensor(p):
    """(counter, time_ms, flags, cells as 81 characters)."""
    if len(p) != 9 + CELL_BYTES:
        raise ValueError("bad SENSOR_FRAME")
    counter, time_ms, flags = struct.unpack("<IIB", p[:9])
    return counter, time_ms, flags, unpack_cells(p[9:])


def input_payload(counter, time_ms, flags, value):
    return struct.pack("<IIB", counter, time_ms & 0xFFFFFFFF, flags) + value.encode("utf-8")[:16]


def parse_input(p):
    """(counter, time_ms, flags, value)."""
    if len(p) < 10 or len(p) > 25:
        raise ValueError("bad INPUT")
    counter, time_ms, flags = struct.unpack("<IIB", p[:9])
    return counter, time_ms, flags, _text(p[9:])


def ack_payload(ftype, seq):
    return bytes((ftype & 0xFF, seq & 0xFF))


def parse_ack(p):
    if len(p) != 2:
        raise ValueError("bad ACK")
    return p[0], p[1]


def nak_payload(ftype, seq, code, text):
    return bytes((ftype & 0xFF, seq & 0xFF, code & 0xFF)) + text.encode("utf-8")[:64]


def parse_nak(p):
    if len(p) < 3:
        raise ValueError("bad NAK")
    return p[0], p[1], p[2], _text(p[3:])


def error_payload(code, text):
    return bytes((code & 0xFF,)) + text.encode("utf-8")[:120]


def parse_error(p):
    if len(p) < 1:
        raise ValueError("bad ERROR")
    return p[0], _text(p[1:])


# ---------------------------------------------------------------- host -> firmware


def host_hello_payload(session, boot_id, resume, heartbeat_ms, timeout_ms):
    return struct.pack(
        "<BIIIHH", PROTOCOL_VERSION, session, boot_id, resume, heartbeat_ms, timeout_ms
    )


def parse_host_hello(p):
    """(protocol, session, boot_id, resume, heartbeat_ms, timeout_ms); only the protocol
    is read when it differs from ours."""
    if len(p) < 1:
        raise ValueError("empty HOST_HELLO")
    if p[0] != PROTOCOL_VERSION:
        return (p[0], 0, 0, 0, 0, 0)
    if len(p) != 17:
        raise ValueError("bad HOST_HELLO")
    return struct.unpack("<BIIIHH", p)


def host_heartbeat_payload(next_expected, led_id, rx_bad):
    return struct.pack("<IHH", next_expected, led_id, min(rx_bad, 0xFFFF))


def parse_host_heartbeat(p):
    """(next_expected, led_id, rx_bad)."""
    if len(p) != 8:
        raise ValueError("bad HOST_HEARTBEAT")
    return struct.unpack("<IHH", p)


def event_ack_payload(next_expected):
    return struct.pack("<I", next_expected)


def parse_event_ack(p):
    if len(p) != 4:
        raise ValueError("bad EVENT_ACK")
    return struct.unpack("<I", p)[0]


def led_payload(led_id, count, palette, indices):
    """``palette``: a list of (r, g, b, segments) with segments a list of u16 (SEG_ON | ms);
    ``indices``: one palette index per LED."""
    npal = len(palette)
    if npal == 0 or npal > 255 or count != len(indices):
        raise ValueError("bad LED frame")
    bits = 4 if npal <= 16 else 8
    out = bytearray(struct.pack("<HHBB", led_id, count, bits, npal))
    for r, g, b, segs in palette:
        if len(segs) > MAX_SEGMENTS:
            raise ValueError("too many blink segments")
        out.extend(bytes((r, g, b, len(segs))))
        for s in segs:
            out.extend(struct.pack("<H", s))
    if bits == 4:
        packed = bytearray((count + 1) // 2)
        for i in range(count):
            packed[i >> 1] |= (indices[i] & 0x0F) << ((i & 1) * 4)
        out.extend(packed)
    else:
        out.extend(bytes(indices))
    return bytes(out)


def parse_led(p):
    """(led_id, palette, indices) as for :func:`led_payload`."""
    if len(p) < 6:
        raise ValueError("short LED_FRAME")
    led_id, count, bits, npal = struct.unpack("<HHBB", p[:6])
    if bits not in (4, 8) or npal == 0:
        raise ValueError("bad LED_FRAME header")
    pos = 6
    palette = []
    for _ in range(npal):
        if pos + 4 > len(p):
            raise ValueError("short LED palette")
        r, g, b, nseg = p[pos], p[pos + 1], p[pos + 2], p[pos + 3]
        pos += 4
        if nseg > MAX_SEGMENTS or pos + 2 * nseg > len(p):
            raise ValueError("bad LED blink segments")
        segs = []
        for _ in range(nseg):
            segs.append(p[pos] | (p[pos + 1] << 8))
            pos += 2
        palette.append((r, g, b, segs))
    need = (count + 1) // 2 if bits == 4 else count
    if len(p) - pos != need:
        raise ValueError("bad LED index count")
    indices = []
    for i in range(count):
        if bits == 4:
            idx = (p[pos + (i >> 1)] >> ((i & 1) * 4)) & 0x0F
        else:
            idx = p[pos + i]
        if idx >= npal:
            raise ValueError("LED index outside the palette")
        indices.append(idx)
    return led_id, palette, indices


def segments_on(segs, t_ms):
    """Whether a blink pattern is lit ``t_ms`` milliseconds into time (phase 0 at 0)."""
    if not segs:
        return True
    period = 0
    for s in segs:
        period += s & 0x7FFF
    if period <= 0:
        return True
    phase = t_ms % period
    for s in segs:
        d = s & 0x7FFF
        if phase < d:
            return bool(s & SEG_ON)
        phase -= d
    return bool(segs[-1] & SEG_ON)
