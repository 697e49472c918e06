"""The firmware's logic: scan and debounce the matrix, report events reliably, answer the
host, show its LED frames, send heartbeats. Single-threaded and cooperative: ``step()``
does one short turn of every job and returns; ``run()`` calls it forever."""

from bbfw import VERSION, hal, proto

FAST_RETRANSMIT_MS = 30  # a repeated acknowledgement resends at most this often
ERROR_EVERY_MS = 1000  # at most one internal-error report a second
NUDGE_EVERY_MS = 1000  # unsolicited HELLO to a host we do not know, at most this often

# Fields of a queued event (a list, so the flags and send time can change).
_COUNTER = 0
_TYPE = 1
_TIME = 2
_FLAGS = 3
_DATA = 4
_SENT_AT = 5
_SENDS = 6


class Debouncer:
    """Per-item debouncing: an item takes a new value once it has read the same for ``ms``."""

    def __init__(self, n, ms):
        self.n = n
        self.ms = ms
        self.stable = None
        self.cand = bytearray(n)
        self.since = [0] * n

    def update(self, raw, now):
        """Feed one scan; True when any stable value changed."""
        if self.stable is None:
            self.stable = bytearray(raw)
            self.cand = bytearray(raw)
            return True
        stable = self.stable
        cand = self.cand
        since = self.since
        changed = False
        for i in range(self.n):
            v = raw[i]
            if v == stable[i]:
                cand[i] = v
            elif v != cand[i]:
                cand[i] = v
                since[i] = now
            elif now - since[i] >= self.ms:
                stable[i] = v
                changed = True
        return changed


class Firmware:
    """One boot of the board. Give it the hardware (see :mod:`bbfw.hal`) and call ``step()``."""

    def __init__(self, cfg, link, matrix, strip=None, watchdog=None, buttons=None, wdt_reset=False):
        self.cfg = cfg
        self.link = link
        self.matrix = matrix
        self.strip = strip
        self.watchdog = watchdog
        self.buttons = buttons
        self.decoder = proto.Decoder()
        self.boot_id = hal.random_u32()
        self._t_last = hal.ticks_ms()
        self.now = 0  # milliseconds since boot
        self.seq = 0
        self.debounce = Debouncer(81, cfg.DEBOUNCE_MS)
        self.button_debounce = None
        if buttons is not None and buttons.pins:
            self.button_debounce = Debouncer(len(buttons.pins), cfg.BUTTON_DEBOUNCE_MS)
            self.button_debounce.update(buttons.read(), 0)
        self.queue = []
        self.next_counter = 1
        self.host = False
        self.host_seen = 0
        self.host_timeout = cfg.HOST_TIMEOUT_MS
        self.last_heartbeat = None
        self.last_error = None
        self.last_nudge = None
        self.overflow_reported = False
        self.led_id = 0
        self.palette = None
        self.indices = None
        self.led_states = None
        self.leds_dark = False
        self.reset_at = None
        flags = proto.HELLO_WDT_RESET if wdt_reset else 0
        if buttons is not None and buttons.pins:
            flags |= proto.HELLO_BUTTONS
        self.hello_flags = flags
        self._scan(proto.EV_BOOT)
        self._send_hello(0, self.next_counter - 1, 0)
        if wdt_reset:
            self._send(proto.ERROR, proto.error_payload(proto.E_WATCHDOG, "watchdog reset"))
        self._show_dark()

    # ------------------------------------------------------------------ main loop

    def run(self, should_stop=None):
        """Run until ``should_stop()`` says so (forever on the board)."""
        while should_stop is None or not should_stop():
            try:
                self.step()
            except KeyboardInterrupt:
                if self.host and self.now - self.host_seen < 2000:
                    # a Ctrl-C byte cannot come from a host speaking the protocol: line noise
                    self._report(proto.E_INTERRUPTED, "stray Ctrl-C ignored (host connected)")
                    continue
                self.shutdown()
                raise
            except Exception as exc:  # keep scanning: report and go on
                self._report(proto.E_INTERNAL, f"{type(exc).__name__}: {exc}")
            hal.sleep_ms(self.cfg.LOOP_MS)

    def step(self):
        self._tick()
        self._receive()
        self._scan(proto.EV_CHANGE)
        self._scan_buttons()
        self._transmit()
        self._heartbeat()
        self._check_host()
        self._render_leds()
        if self.reset_at is not None and self.now >= self.reset_at:
            hal.reset()
        if self.watchdog is not None:
            self.watchdog.feed()

    def shutdown(self):
        """Leave the main loop for the REPL: LEDs off, watchdog stopped."""
        self._show_dark()
        if self.watchdog is not None:
            self.watchdog.stop()

    def _tick(self):
        t = hal.ticks_ms()
        self.now += max(0, hal.ticks_diff(t, self._t_last))
        self._t_last = t

    # ------------------------------------------------------------------ sending

    def _send(self, ftype, payload=b""):
        frame = proto.encode(ftype, self.seq, payload)
        self.seq = (self.seq + 1) & 0xFF
        self.link.write(frame)

    def _send_hello(self, session, start, flags):
        self._send(
            proto.HELLO,
            proto.hello_payload(
                VERSION,
                self.cfg.BOARD_KIND,
                self.cfg.LED_LAYOUT if self.strip is not None else proto.LAYOUT_NONE,
                self.cfg.LED_COUNT if self.strip is not None else 0,
                self.boot_id,
                session,
                start,
                self.hello_flags | flags,
                self.cfg.NAME,
            ),
        )

    def _report(self, code, text):
        if self.last_error is not None and self.now - self.last_error < ERROR_EVERY_MS:
            return
        self.last_error = self.now
        try:
            self._send(proto.ERROR, proto.error_payload(code, text))
        except Exception:  # the link itself failed: nothing more to do
            return

    def _heartbeat(self):
        every = self.cfg.HEARTBEAT_MS if self.host else 2 * self.cfg.HEARTBEAT_MS
        if self.last_heartbeat is not None and self.now - self.last_heartbeat < every:
            return
        self.last_heartbeat = self.now
        self._send(
            proto.HEARTBEAT,
            proto.heartbeat_payload(
                self.now,
                self.boot_id,
                self.next_counter,
                self.led_id,
                self.decoder.bad,
                len(self.queue),
            ),
        )

    # ------------------------------------------------------------------ events

    def _add_event(self, ftype, flags, data):
        q = self.queue
        if len(q) >= self.cfg.QUEUE:
            q.pop(0)
            q[0][_FLAGS] |= proto.EV_GAP
            if self.host and not self.overflow_reported:
                self.overflow_reported = True
                self._report(proto.E_QUEUE_OVERFLOW, "events lost: the host did not acknowledge")
        q.append([self.next_counter, ftype, self.now, flags, data, None, 0])
        self.next_counter += 1

    def _scan(self, reason):
        raw = self.matrix.scan()
        if self.debounce.update(raw, self.now):
            self._add_event(proto.SENSOR_FRAME, reason, proto.pack_codes(self.debounce.stable))

    def _scan_buttons(self):
        d = self.button_debounce
        if d is None:
            return
        before = bytes(d.stable)
        if d.update(self.buttons.read(), self.now):
            for i in range(d.n):
                if d.stable[i] and not before[i]:
                    self._add_event(proto.INPUT, proto.EV_CHANGE, self.buttons.values[i])

    def _event_payload(self, e):
        flags = e[_FLAGS] | (proto.EV_RETRANSMIT if e[_SENDS] else 0)
        if e[_TYPE] == proto.SENSOR_FRAME:
            return proto.sensor_payload(e[_COUNTER], e[_TIME], flags, e[_DATA])
        return proto.input_payload(e[_COUNTER], e[_TIME], flags, e[_DATA])

    def _send_event(self, e):
        self._send(e[_TYPE], self._event_payload(e))
        e[_SENT_AT] = self.now
        e[_SENDS] += 1

    def _transmit(self):
        if not self.host or not self.queue:
            return
        window = self.queue[: self.cfg.WINDOW]
        head = window[0]
        if head[_SENT_AT] is not None and self.now - head[_SENT_AT] >= self.cfg.RETRANSMIT_MS:
            for e in window:
                e[_SENT_AT] = None
        for e in window:
            if e[_SENT_AT] is None:
                self._send_event(e)

    def _acked(self, next_expected):
        q = self.queue
        if q and next_expected == q[0][_COUNTER]:
            # the host still misses the head: resend it soon rather than on the timer
            head = q[0]
            if head[_SENT_AT] is not None and self.now - head[_SENT_AT] >= FAST_RETRANSMIT_MS:
                for e in q[: self.cfg.WINDOW]:
                    e[_SENT_AT] = None
            return
        n = 0
        while n < len(q) and q[n][_COUNTER] < next_expected:
            n += 1
        if n:
            del q[:n]
            self.overflow_reported = False

    # ------------------------------------------------------------------ receiving

    def _receive(self):
        data = self.link.read()
        if not data:
            return
        for ftype, seq, payload in self.decoder.feed(data):
            try:
                self._handle(ftype, seq, payload)
            except ValueError as exc:
                self._send(proto.NAK, proto.nak_payload(ftype, seq, proto.E_BAD_PAYLOAD, str(exc)))

    def _handle(self, ftype, seq, payload):
        if ftype == proto.HOST_HELLO:
            self._on_host_hello(payload)
            return
        if ftype in (
            proto.HELLO,
            proto.HEARTBEAT,
            proto.SENSOR_FRAME,
            proto.INPUT,
            proto.ACK,
            proto.NAK,
        ):
            return  # our own kind of frame echoed back (a loopback): not for us
        if ftype == proto.ERROR:
            return  # the host reports something; nothing we can do about it
        known = ftype in (
            proto.HOST_HEARTBEAT,
            proto.EVENT_ACK,
            proto.REQUEST_FRAME,
            proto.LED_FRAME,
            proto.RESET,
        )
        if not known:
            self._send(
                proto.NAK, proto.nak_payload(ftype, seq, proto.E_UNKNOWN_TYPE, "unknown type")
            )
            return
        self.host_seen = self.now
        # a host talking to us without a handshake (we timed it out, or rebooted):
        # announce ourselves so that it says HOST_HELLO again
        if not self.host and (
            self.last_nudge is None or self.now - self.last_nudge >= NUDGE_EVERY_MS
        ):
            self.last_nudge = self.now
            self._send_hello(0, self.next_counter, 0)
        if ftype == proto.HOST_HEARTBEAT:
            next_expected, _led_id, _bad = proto.parse_host_heartbeat(payload)
            if self.host:
                self._acked(next_expected)
        elif ftype == proto.EVENT_ACK:
            if self.host:
                self._acked(proto.parse_event_ack(payload))
        elif ftype == proto.REQUEST_FRAME:
            if self.debounce.stable is not None:
                self._add_event(
                    proto.SENSOR_FRAME, proto.EV_REQUESTED, proto.pack_codes(self.debounce.stable)
                )
            self._send(proto.ACK, proto.ack_payload(ftype, seq))
        elif ftype == proto.LED_FRAME:
            self._on_led(seq, payload)
        elif ftype == proto.RESET:
            self._send(proto.ACK, proto.ack_payload(ftype, seq))
            self.reset_at = self.now + 50

    def _on_host_hello(self, payload):
        version, session, boot_id, resume, _heartbeat_ms, timeout_ms = proto.parse_host_hello(
            payload
        )
        if version != proto.PROTOCOL_VERSION:
            self._send_hello(session, self.next_counter, 0)
            self._send(
                proto.ERROR,
                proto.error_payload(
                    proto.E_VERSION,
                    f"firmware speaks protocol {proto.PROTOCOL_VERSION}, host {version}",
                ),
            )
            return
        q = self.queue
        flags = 0
        if boot_id == self.boot_id and 0 < resume <= self.next_counter:
            n = 0
            while n < len(q) and q[n][_COUNTER] < resume:
                n += 1
            del q[:n]
            start = q[0][_COUNTER] if q else self.next_counter
            if start > resume:
                flags |= proto.HELLO_GAP
        else:
            del q[:]  # a new host: it starts from the board as it is now
            start = self.next_counter
        for e in q:
            e[_SENT_AT] = None
        self.host = True
        self.host_seen = self.now
        self.host_timeout = timeout_ms or self.cfg.HOST_TIMEOUT_MS
        self.overflow_reported = False
        self._send_hello(session, start, flags)

    def _check_host(self):
        if self.host and self.now - self.host_seen > self.host_timeout:
            self.host = False  # the host went away: keep the events, turn the LEDs off

    # ------------------------------------------------------------------ LEDs

    def _on_led(self, seq, payload):
        led_id, palette, indices = proto.parse_led(payload)
        limit = self.cfg.LED_COUNT if self.strip is not None else 0
        if len(indices) > limit:
            self._send(
                proto.NAK,
                proto.nak_payload(
                    proto.LED_FRAME,
                    seq,
                    proto.E_LED_COUNT,
                    f"this board has {limit} LEDs, the frame {len(indices)}",
                ),
            )
            return
        self.led_id = led_id
        self.palette = palette
        self.indices = indices
        self.led_states = None
        self._send(proto.ACK, proto.ack_payload(proto.LED_FRAME, seq))

    def _show_dark(self):
        if self.strip is not None and not self.leds_dark:
            self.strip.write([])
            self.leds_dark = True
            self.led_states = None

    def _render_leds(self):
        if self.strip is None:
            return
        if not self.host or self.palette is None:
            self._show_dark()
            return
        now = self.now
        states = [proto.segments_on(entry[3], now) for entry in self.palette]
        if states == self.led_states:
            return
        self.led_states = states
        palette = self.palette
        colors = []
        for idx in self.indices:
            entry = palette[idx]
            colors.append((entry[0], entry[1], entry[2]) if states[idx] else (0, 0, 0))
        self.strip.write(colors)
        self.leds_dark = False


def create(cfg, link=None):
    """The firmware on this board's hardware as ``cfg`` describes it."""
    strip = hal.LedStrip(cfg) if cfg.LED_LAYOUT and cfg.LED_COUNT else None
    buttons = hal.Buttons(cfg) if cfg.BUTTONS else None
    wdt_reset = hal.watchdog_reset()
    return Firmware(
        cfg,
        link if link is not None else hal.open_link(cfg),
        hal.Matrix(cfg),
        strip=strip,
        watchdog=hal.Watchdog(cfg.WDT_MS),
        buttons=buttons,
        wdt_reset=wdt_reset,
    )
