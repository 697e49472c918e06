"""Hardware access, isolated: the clock, the sensor matrix, buttons, WS2812 LEDs, the watchdog
and the link to the host. On the Pico these use machine/rp2; on a PC the stand-ins in
firmware/host/ take their place, so the rest of the firmware runs unchanged."""

import os
import sys
import time

try:  # MicroPython
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
    sleep_ms = time.sleep_ms
    sleep_us = time.sleep_us
except AttributeError:  # CPython (the host simulator): the same calls on time.monotonic
    _PERIOD = 1 << 30

    def ticks_ms():
        return int(time.monotonic() * 1000) & (_PERIOD - 1)

    def ticks_diff(a, b):
        return ((a - b + _PERIOD // 2) & (_PERIOD - 1)) - _PERIOD // 2

    def sleep_ms(ms):
        time.sleep(ms / 1000)

    def sleep_us(us):
        pass  # a simulated matrix settles at once


ON_MICROPYTHON = sys.implementation.name == "micropython"


def random_u32():
    """A random non-zero 32-bit number (a boot's identity)."""
    b = os.urandom(4)
    n = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)
    return n or 1


def watchdog_reset():
    """Whether this boot followed a watchdog reset."""
    import machine

    return machine.reset_cause() == machine.WDT_RESET


def reset():
    """Restart the microcontroller (never returns on the Pico)."""
    import machine

    machine.reset()


class Matrix:
    """A 9 x 9 switch matrix: each row is driven low in turn and the columns, pulled up,
    read low where a switch is closed. ``scan()`` returns 81 codes (1 closed, 0 open)
    in square order (rank a first, file 9 to 1)."""

    def __init__(self, cfg):
        from machine import Pin

        self.rows = [Pin(p, Pin.OUT, value=1) for p in cfg.ROW_PINS]
        self.cols = [Pin(p, Pin.IN, Pin.PULL_UP) for p in cfg.COL_PINS]
        self.settle_us = cfg.SCAN_SETTLE_US
        self.raw = bytearray(81)

    def scan(self):
        raw = self.raw
        i = 0
        for row in self.rows:
            row.value(0)
            if self.settle_us:
                sleep_us(self.settle_us)
            for col in self.cols:
                raw[i] = 0 if col.value() else 1
                i += 1
            row.value(1)
        return raw


class Buttons:
    """Push buttons to ground with pull-ups: ``read()`` returns 1 per pressed button."""

    def __init__(self, cfg):
        from machine import Pin

        self.values = [value for value, _ in cfg.BUTTONS]
        self.pins = [Pin(pin, Pin.IN, Pin.PULL_UP) for _, pin in cfg.BUTTONS]
        self.raw = bytearray(len(self.pins))

    def read(self):
        for i, pin in enumerate(self.pins):
            self.raw[i] = 0 if pin.value() else 1
        return self.raw


class LedStrip:
    """WS2812 LEDs clocked out by a PIO state machine (GRB order, 24 bits each)."""

    def __init__(self, cfg):
        import array

        import rp2
        from machine import Pin

        from bbfw import ws2812

        self.count = cfg.LED_COUNT
        self.scale = cfg.LED_BRIGHTNESS
        self.buf = array.array("I", [0] * self.count)
        self.sm = rp2.StateMachine(
            cfg.LED_SM, ws2812.ws2812, freq=ws2812.FREQ, sideset_base=Pin(cfg.LED_PIN)
        )
        self.sm.active(1)

    def write(self, colors):
        """Show ``colors`` ((r, g, b) tuples, strip order); LEDs past the end go dark."""
        buf = self.buf
        scale = self.scale
        n = len(colors)
        for i in range(self.count):
            if i < n:
                r, g, b = colors[i]
                if scale < 255:
                    r = r * scale // 255
                    g = g * scale // 255
                    b = b * scale // 255
                buf[i] = (g << 16) | (r << 8) | b
            else:
                buf[i] = 0
        self.sm.put(buf, 8)


class Watchdog:
    """machine.WDT: resets the board when not fed for ``ms`` milliseconds (0 = none)."""

    def __init__(self, ms):
        self.wdt = None
        if ms:
            import machine

            self.wdt = machine.WDT(timeout=ms)

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()

    def stop(self):
        """Stop the watchdog before leaving for the REPL (RP2040 only: no API for it)."""
        if self.wdt is None or not ON_MICROPYTHON:
            return
        try:
            import machine

            if "RP2040" in os.uname().machine:
                # WATCHDOG CTRL (0x40058000), atomic bit-clear alias (+0x3000): ENABLE, bit 30
                machine.mem32[0x40058000 + 0x3000] = 1 << 30
        except Exception:  # best effort: never stop the firmware for this
            pass
        self.wdt = None


class UsbLink:
    """The USB serial port MicroPython's REPL uses (stdin/stdout), read without blocking."""

    def __init__(self):
        import select

        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)

    def read(self, limit=512):
        data = bytearray()
        while len(data) < limit and self.poll.poll(0):
            b = self.inp.read(1)
            if not b:
                break
            data.extend(b)
        return data

    def write(self, data):
        self.out.write(data)


class UartLink:
    """A hardware UART (e.g. to a Pi's GPIO14/15), read without blocking."""

    def __init__(self, cfg):
        from machine import UART, Pin

        self.uart = UART(
            cfg.UART_ID,
            baudrate=cfg.UART_BAUD,
            tx=Pin(cfg.UART_TX),
            rx=Pin(cfg.UART_RX),
            rxbuf=2048,
            timeout=0,
        )

    def read(self, limit=512):
        n = self.uart.any()
        if not n:
            return b""
        return self.uart.read(min(n, limit)) or b""

    def write(self, data):
        self.uart.write(data)


def open_link(cfg):
    if cfg.LINK == "uart":
        return UartLink(cfg)
    if cfg.LINK == "usb":
        return UsbLink()
    raise ValueError("LINK must be 'usb' or 'uart'")
