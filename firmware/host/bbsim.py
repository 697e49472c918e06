"""The firmware on a simulated board, on a PC: a switch matrix you set, LEDs you read,
and a pseudo-terminal in place of the Pico's USB port.

The firmware code (bbfw) runs unchanged: its pins, PIO and watchdog come from the
stand-in ``machine`` and ``rp2`` modules beside this file, wired to a :class:`SimBoard`.
Use :class:`FirmwareSim` from Python (tests), or the command line::

    python firmware/main.py --pty /tmp/ttyBOARD [--corrupt 0.01] [--seed 1]

which makes a pty, links its terminal side to /tmp/ttyBOARD (point the daemon there)
and reads commands on stdin: ``board CELLS`` (81 cells, '/' allowed), ``press VALUE``,
``leds`` (prints a JSON list of [r, g, b]), ``pull``, ``plug``, ``reboot``, ``quit``.
"""

import argparse
import errno
import json
import os
import random
import sys
import threading
import time
import tty

import machine
from bbfw import core
from bbfw.config import Config

STARTING_CELLS = "xxxxxxxxx.x.....x.xxxxxxxxx...........................xxxxxxxxx.x.....x.xxxxxxxxx"


def parse_cells(text):
    cells = text.replace("/", "")
    if len(cells) != 81 or set(cells) - set(".xup"):
        raise ValueError(f"a board needs 81 cells of . x u p: {text!r}")
    return cells


class SimBoard:
    """The wooden board and its electronics: what sits on each square, the level of each
    pin, the LEDs (as the PIO program would light them) and the watchdog."""

    def __init__(self, cfg, cells=STARTING_CELLS):
        self.cfg = cfg
        self.lock = threading.Lock()
        self.cells = parse_cells(cells)
        self.levels = {}
        self.rows = {pin: r for r, pin in enumerate(cfg.ROW_PINS)}
        self.cols = {pin: c for c, pin in enumerate(cfg.COL_PINS)}
        self.buttons = {pin: value for value, pin in cfg.BUTTONS}
        self.pressed = set()
        self.leds = [(0, 0, 0)] * cfg.LED_COUNT
        self.led_writes = 0
        self.reset_cause = machine.PWRON_RESET
        self.wdt_timeout = None
        self.wdt_fed = None

    # what the test does
    def set_cells(self, cells):
        cells = parse_cells(cells)
        with self.lock:
            self.cells = cells

    def press(self, value, down=True):
        pins = [pin for pin, v in self.buttons.items() if v == value]
        if not pins:
            raise ValueError(f"no button for {value!r}")
        with self.lock:
            if down:
                self.pressed.add(pins[0])
            else:
                self.pressed.discard(pins[0])

    def led_colors(self):
        with self.lock:
            return list(self.leds)

    # what the firmware's pins see
    def write_pin(self, pin, value):
        self.levels[pin] = value

    def read_pin(self, pin):
        if pin in self.cols:
            c = self.cols[pin]
            cells = self.cells
            for rpin, r in self.rows.items():
                if self.levels.get(rpin, 1) == 0 and cells[r * 9 + c] != ".":
                    return 0  # a closed switch on a driven row pulls the column low
            return 1
        if pin in self.buttons:
            return 0 if pin in self.pressed else 1
        return self.levels.get(pin, 1)

    def pio_put(self, program, words):
        if program != "ws2812":
            return
        colors = []
        for w in words:
            grb = w >> 8
            colors.append(((grb >> 8) & 0xFF, (grb >> 16) & 0xFF, grb & 0xFF))
        with self.lock:
            n = len(colors)
            self.leds = colors + self.leds[n:] if n < len(self.leds) else colors
            self.led_writes += 1

    def wdt_start(self, timeout):
        self.wdt_timeout = timeout
        self.wdt_fed = time.monotonic()

    def wdt_feed(self):
        self.wdt_fed = time.monotonic()

    def wdt_expired(self):
        return (
            self.wdt_timeout is not None
            and time.monotonic() - self.wdt_fed > self.wdt_timeout / 1000
        )


class Corruptor:
    """Replaces each byte with a random other byte with probability ``rate``."""

    def __init__(self, rate, seed=None):
        self.rate = rate
        self.rng = random.Random(seed)
        self.count = 0

    def __call__(self, data):
        if not self.rate or not data:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            if self.rng.random() < self.rate:
                out[i] ^= self.rng.randrange(1, 256)
                self.count += 1
        return bytes(out)


class PtyLink:
    """The firmware's side of a pty (the master): non-blocking, and like a USB port with
    nobody listening, it drops what cannot be written. ``corrupt_in``/``corrupt_out``
    damage bytes on the line."""

    def __init__(self, fd=None, corrupt_in=None, corrupt_out=None):
        self.fd = fd
        self.corrupt_in = corrupt_in
        self.corrupt_out = corrupt_out
        self.dropped = 0
        self.lock = threading.Lock()

    def attach(self, fd):
        with self.lock:
            self.fd = fd

    def detach(self):
        with self.lock:
            fd, self.fd = self.fd, None
        return fd

    def read(self, limit=512):
        with self.lock:
            if self.fd is None:
                return b""
            try:
                data = os.read(self.fd, limit)
            except OSError as exc:
                if exc.errno in (errno.EAGAIN, errno.EIO, errno.EWOULDBLOCK):
                    return b""  # nothing yet, or nobody has the terminal side open
                raise
        if self.corrupt_in is not None:
            data = self.corrupt_in(data)
        return data

    def write(self, data):
        if self.corrupt_out is not None:
            data = self.corrupt_out(data)
        with self.lock:
            if self.fd is None:
                self.dropped += len(data)
                return
            view = memoryview(data)
            while view:
                try:
                    n = os.write(self.fd, view)
                except OSError as exc:
                    if exc.errno in (errno.EAGAIN, errno.EIO, errno.EWOULDBLOCK):
                        self.dropped += len(view)
                        return
                    raise
                view = view[n:]


def open_pty():
    """A new pty pair in raw mode: (master fd, terminal path). The terminal side is closed
    again here; the host opens it by path."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    os.set_blocking(master, False)
    os.close(slave)
    return master, path


def _relink(link_path, target):
    tmp = f"{link_path}.{os.getpid()}.tmp"
    if os.path.lexists(tmp):
        os.unlink(tmp)
    os.symlink(target, tmp)
    os.replace(tmp, link_path)


class FirmwareSim:
    """The firmware running in a thread on a :class:`SimBoard`, reached over a pty.

    ``link_path`` is a stable symlink to the pty's terminal side (like
    /dev/serial/by-id/...), re-pointed when the cable is plugged back in.
    """

    def __init__(self, link_path, config=None, corrupt=0.0, seed=None, cells=STARTING_CELLS):
        self.cfg = config if config is not None else Config()
        self.board = SimBoard(self.cfg, cells)
        self.link_path = link_path
        rng = random.Random(seed)
        self.corrupt_in = Corruptor(corrupt, rng.random())
        self.corrupt_out = Corruptor(corrupt, rng.random())
        self.link = PtyLink(None, self.corrupt_in, self.corrupt_out)
        self.tty_path = None
        self.firmware = None
        self.boots = 0
        self.errors = []
        self._thread = None
        self._stop = False
        self._reboot = False
        self._hang = 0.0
        self._booted = threading.Event()

    # ---- life cycle
    def start(self):
        self.plug()
        self._thread = threading.Thread(target=self._run, name="firmware-sim", daemon=True)
        self._thread.start()
        if not self._booted.wait(5):
            raise TimeoutError("the simulated firmware did not boot")
        return self

    def stop(self):
        self._stop = True
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        self.pull()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _run(self):
        machine.board = self.board
        while not self._stop:
            fw = core.create(self.cfg, self.link)
            self.firmware = fw
            self.boots += 1
            self._booted.set()
            cause = machine.SOFT_RESET
            try:
                fw.run(should_stop=self._should_stop)
            except machine.SimulatedReset:
                cause = machine.WDT_RESET if self.board.wdt_expired() else machine.SOFT_RESET
            except BaseException as exc:  # a crash of the firmware itself: keep it for the test
                self.errors.append(exc)
                raise
            self._reboot = False
            self.board.reset_cause = cause
            self.board.wdt_timeout = None

    def _should_stop(self):
        if self._hang:
            time.sleep(self._hang)  # the main loop is stuck: the watchdog must bite
            self._hang = 0.0
        if self.board.wdt_expired():
            raise machine.SimulatedReset()
        return self._stop or self._reboot

    # ---- what a test does to the board
    def set_cells(self, cells):
        self.board.set_cells(cells)

    def press(self, value, down=True):
        self.board.press(value, down)

    def leds(self):
        return self.board.led_colors()

    def reboot(self, wait=5.0):
        """Restart the firmware (power cycle): a new boot with an empty queue."""
        boots = self.boots
        self._reboot = True
        deadline = time.monotonic() + wait
        while self.boots == boots:
            if time.monotonic() > deadline:
                raise TimeoutError("the simulated firmware did not reboot")
            time.sleep(0.005)

    def hang(self, seconds):
        """Stall the main loop once for ``seconds`` (the watchdog should reset the board)."""
        self._hang = seconds

    def pull(self):
        """Pull the cable: the host's port fails; the firmware keeps running unheard."""
        fd = self.link.detach()
        if fd is not None:
            os.close(fd)

    def plug(self):
        """Plug the cable (back) in: a new pty, the stable link path pointed at it."""
        if self.link.fd is not None:
            return
        master, path = open_pty()
        self.tty_path = path
        _relink(self.link_path, path)
        self.link.attach(master)


def main(argv):
    parser = argparse.ArgumentParser(
        prog="firmware/main.py", description="Run the board firmware on a simulated board."
    )
    parser.add_argument("--pty", required=True, help="symlink to create for the host")
    parser.add_argument("--corrupt", type=float, default=0.0, help="byte corruption rate")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--debounce-ms", type=int, default=None)
    parser.add_argument("--buttons", action="store_true", help="promote/nonpromote buttons")
    args = parser.parse_args(argv)
    overrides = {}
    if args.debounce_ms is not None:
        overrides["DEBOUNCE_MS"] = args.debounce_ms
    if args.buttons:
        overrides["BUTTONS"] = (("promote", 20), ("nonpromote", 21))
    sim = FirmwareSim(args.pty, Config(**overrides), corrupt=args.corrupt, seed=args.seed)
    sim.start()
    print(f"ready {args.pty} -> {sim.tty_path}", flush=True)
    try:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            cmd, rest = words[0], words[1:]
            try:
                if cmd == "board" and rest:
                    sim.set_cells(rest[0])
                elif cmd == "press" and rest:
                    sim.press(rest[0])
                    time.sleep(max(0.05, 2 * sim.cfg.BUTTON_DEBOUNCE_MS / 1000))
                    sim.press(rest[0], down=False)
                elif cmd == "leds":
                    print(json.dumps(sim.leds()), flush=True)
                    continue
                elif cmd == "pull":
                    sim.pull()
                elif cmd == "plug":
                    sim.plug()
                elif cmd == "reboot":
                    sim.reboot()
                elif cmd == "quit":
                    break
                else:
                    print(f"error unknown command: {line.strip()}", flush=True)
                    continue
            except ValueError as exc:
                print(f"error {exc}", flush=True)
                continue
            print("ok", flush=True)
    finally:
        sim.stop()
        if os.path.lexists(args.pty):
            os.unlink(args.pty)
    return 0
