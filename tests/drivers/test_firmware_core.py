"""The firmware's logic on the host, without a pty: matrix scan through the stand-in pins,
debouncing, the reliable event queue, resume after the host was away, version mismatch."""

from __future__ import annotations

import time
from typing import Any

from board_bridge.drivers import firmware_sim
from board_bridge.drivers import protocol as p

bbsim = firmware_sim.load()
import machine  # noqa: E402  (the stand-in beside the simulator)
from bbfw import core, hal  # noqa: E402

STARTING = bbsim.STARTING_CELLS


class MemoryLink:
    """The firmware's link as two byte buffers."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.sent = bytearray()
        self.decoder = p.Decoder()

    def read(self, limit: int = 512) -> bytes:
        data = bytes(self.inbox[:limit])
        del self.inbox[:limit]
        return data

    def write(self, data: bytes) -> None:
        self.sent += data

    def send(self, msg: p.AnyMessage) -> None:
        self.inbox += p.encode(msg)

    def received(self) -> list[p.AnyMessage]:
        msgs = [p.decode(f) for f in self.decoder.feed(bytes(self.sent))]
        self.sent.clear()
        return msgs


def make(**cfg: Any) -> tuple[Any, Any, MemoryLink]:
    config = firmware_sim.config(**{"DEBOUNCE_MS": 20, "WDT_MS": 0, **cfg})
    board = bbsim.SimBoard(config)
    machine.board = board
    link = MemoryLink()
    fw = core.create(config, link)
    return fw, board, link


def run_for(fw: Any, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        fw.step()
        time.sleep(0.001)


def events(msgs: list[p.AnyMessage]) -> list[p.SensorReport | p.InputReport]:
    return [m for m in msgs if isinstance(m, p.SensorReport | p.InputReport)]


def test_matrix_scan_reads_the_board_through_the_pins() -> None:
    config = firmware_sim.config()
    board = bbsim.SimBoard(config, cells="x" + "." * 79 + "x")
    machine.board = board
    matrix = hal.Matrix(config)
    raw = matrix.scan()
    assert raw[0] == 1 and raw[80] == 1 and sum(raw) == 2
    # every row is released after the scan (no row left driving its switches)
    assert all(board.levels[pin] == 1 for pin in config.ROW_PINS)


def test_boot_says_hello_and_reports_the_board() -> None:
    fw, board, link = make()
    msgs = link.received()
    assert isinstance(msgs[0], p.Hello) and msgs[0].session == 0
    assert msgs[0].next_counter == 1 and msgs[0].boot_id == fw.boot_id
    assert fw.queue[0][core._COUNTER] == 1  # the boot frame waits for a host
    assert all(c == (0, 0, 0) for c in board.led_colors())


def test_bounces_shorter_than_the_debounce_time_are_ignored() -> None:
    fw, board, link = make()
    link.send(p.HostHello(session=9, timeout_ms=5000))
    run_for(fw, 0.03)
    link.received()
    lifted = STARTING[:60] + "." + STARTING[61:]
    for _ in range(5):  # a reed switch chattering for a few ms
        board.set_cells(lifted)
        run_for(fw, 0.004)
        board.set_cells(STARTING)
        run_for(fw, 0.004)
    run_for(fw, 0.05)
    assert events(link.received()) == []
    board.set_cells(lifted)
    run_for(fw, 0.06)
    got = events(link.received())
    assert [e.cells for e in got if isinstance(e, p.SensorReport)] == [lifted]


def test_unacknowledged_events_are_resent_and_acks_clear_them() -> None:
    fw, board, link = make(RETRANSMIT_MS=50)
    link.received()
    link.send(p.HostHello(session=9, timeout_ms=5000))
    run_for(fw, 0.02)
    hello = [m for m in link.received() if isinstance(m, p.Hello)][0]
    assert hello.session == 9
    link.send(p.RequestFrame())
    run_for(fw, 0.12)
    sent = events(link.received())
    assert len(sent) >= 2 and all(e.counter == hello.next_counter for e in sent)
    assert not sent[0].flags & p.EV_RETRANSMIT and sent[1].flags & p.EV_RETRANSMIT
    link.send(p.EventAck(hello.next_counter + 1))
    run_for(fw, 0.12)
    assert events(link.received()) == [] and fw.queue == []


def test_host_away_then_resuming_gets_what_it_missed() -> None:
    fw, board, link = make(QUEUE=4)
    link.received()
    link.send(p.HostHello(session=1, timeout_ms=5000))
    run_for(fw, 0.02)
    start = [m for m in link.received() if isinstance(m, p.Hello)][0].next_counter
    fw.host = False  # the host went away
    states = []
    cells = STARTING
    for sq in (54, 55, 56, 57, 58, 59):  # six changes, the queue keeps four
        cells = cells[:sq] + "." + cells[sq + 1 :]
        board.set_cells(cells)
        run_for(fw, 0.03)
        states.append(cells)
    link.send(p.HostHello(session=2, boot_id=fw.boot_id, resume=start, timeout_ms=5000))
    run_for(fw, 0.02)
    msgs = link.received()
    hello = [m for m in msgs if isinstance(m, p.Hello)][0]
    assert hello.session == 2 and hello.flags & p.HELLO_GAP
    got = events(msgs)
    assert [e.cells for e in got if isinstance(e, p.SensorReport)] == states[-4:]
    assert got[0].flags & p.EV_GAP and hello.next_counter == got[0].counter
    # a host of another boot (or a new daemon) starts afresh: nothing old is sent
    link.send(p.HostHello(session=3, boot_id=12345, resume=1, timeout_ms=5000))
    run_for(fw, 0.02)
    msgs = link.received()
    assert events(msgs) == [] and fw.queue == []


def test_version_mismatch_is_answered_clearly() -> None:
    fw, board, link = make()
    link.received()
    link.inbox += p.encode_frame(p.FrameType.HOST_HELLO, 0, bytes([9]) + bytes(16))
    run_for(fw, 0.01)
    msgs = link.received()
    assert any(isinstance(m, p.Hello) and m.protocol == p.PROTOCOL_VERSION for m in msgs)
    errors = [m for m in msgs if isinstance(m, p.ErrorReport)]
    assert errors and errors[0].code == p.ErrorCode.VERSION and "host 9" in errors[0].text
    assert not fw.host


def test_unknown_and_malformed_frames_are_refused_not_fatal() -> None:
    fw, board, link = make()
    link.received()
    link.inbox += p.encode_frame(0x55, 7, b"")
    link.inbox += p.encode_frame(p.FrameType.LED_FRAME, 8, b"\x01\x00")
    run_for(fw, 0.01)
    naks = [m for m in link.received() if isinstance(m, p.Nak)]
    assert [(n.frame_type, n.seq, n.code) for n in naks] == [
        (0x55, 7, p.ErrorCode.UNKNOWN_TYPE),
        (p.FrameType.LED_FRAME, 8, p.ErrorCode.BAD_PAYLOAD),
    ]


def test_an_exception_in_the_loop_is_reported_and_the_loop_goes_on() -> None:
    fw, board, link = make()
    link.received()
    calls = {"n": 0}
    real_scan = fw.matrix.scan

    def flaky_scan() -> bytearray:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("row 3 shorted")
        return real_scan()

    fw.matrix.scan = flaky_scan
    stops = iter([False] * 5 + [True])
    fw.run(should_stop=lambda: next(stops))
    msgs = link.received()
    errors = [m for m in msgs if isinstance(m, p.ErrorReport)]
    assert errors and errors[0].code == p.ErrorCode.INTERNAL and "row 3" in errors[0].text
    assert calls["n"] >= 4


def test_same_code_runs_without_dataclasses_or_typing() -> None:
    # the firmware modules import only what MicroPython has
    import ast

    root = firmware_sim.firmware_dir() / "bbfw"
    allowed = {"struct", "os", "sys", "time", "array", "select", "machine", "rp2", "bbfw"}
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [(node.module or "").split(".")[0]]
            else:
                continue
            assert set(names) <= allowed, f"{path.name} imports {names}"


def test_watchdog_stand_in_expires() -> None:
    config = firmware_sim.config(WDT_MS=50)
    board = bbsim.SimBoard(config)
    machine.board = board
    wd = hal.Watchdog(config.WDT_MS)
    wd.feed()
    assert not board.wdt_expired()
    time.sleep(0.08)
    assert board.wdt_expired()
