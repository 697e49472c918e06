"""The real SerialBoard client against the real firmware code, running on the host over a pty."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from board_bridge.drivers.base import SourceDisconnected
from board_bridge.tracker.events import PlayerInput, SensorFrame
from tests.drivers.test_serial_support import STARTING, board, next_event, start_sim, with_cell

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "ttyBOARD"


async def test_first_event_is_the_whole_board_and_changes_follow(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            first = await next_event(events)
            assert first == SensorFrame(first.t, STARTING)
            assert b.info is not None and b.info.name == "board-bridge-pico"
            assert b.info.firmware_version == (1, 0, 0)
            before = time.monotonic()
            lifted = with_cell(STARTING, 60, ".")
            sim.set_cells(lifted)
            ev = await next_event(events)
            after = time.monotonic()
            assert isinstance(ev, SensorFrame) and ev.cells == lifted
            # the firmware's time stamp, mapped to our clock, lies between set and receipt
            assert before - 0.01 <= ev.t <= after
            assert ev.t >= first.t
    finally:
        sim.stop()


async def test_cable_pulled_and_plugged_back_delivers_what_happened_meanwhile(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            sim.pull()
            with pytest.raises(SourceDisconnected):
                await next_event(events)
            # while the cable is out, a piece is lifted and put down elsewhere
            lifted = with_cell(STARTING, 60, ".")
            moved = with_cell(lifted, 51, "x")
            sim.set_cells(lifted)
            await asyncio.sleep(0.05)
            sim.set_cells(moved)
            await asyncio.sleep(0.05)
            t_plug = time.monotonic()
            sim.plug()
            events = b.events()
            got = [await next_event(events), await next_event(events)]
            assert [e.cells for e in got if isinstance(e, SensorFrame)] == [lifted, moved]
            # both happened before the cable came back: their times say so
            assert got[0].t < got[1].t < t_plug
            assert b.stats.connects == 2 and b.stats.reboots == 0
    finally:
        sim.stop()


async def test_board_waits_for_a_port_that_is_not_there_yet(link: Path) -> None:
    b = board(link)
    async with b:
        events = b.events()
        task = asyncio.ensure_future(next_event(events, timeout=5))
        await asyncio.sleep(0.3)  # a few failed attempts with backoff
        assert not task.done()
        sim = start_sim(link)
        try:
            first = await task
            assert isinstance(first, SensorFrame) and first.cells == STARTING
        finally:
            sim.stop()


async def test_firmware_reboot_mid_game_is_followed_by_a_full_frame(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            moved = with_cell(with_cell(STARTING, 60, "."), 51, "x")
            sim.set_cells(moved)
            assert (await next_event(events)).cells == moved  # type: ignore[union-attr]
            boot = b.info.boot_id if b.info else 0
            sim.reboot()
            ev = await next_event(events)
            # the same board, seen afresh by a new boot: a full frame, no disconnection
            assert isinstance(ev, SensorFrame) and ev.cells == moved
            assert b.info is not None and b.info.boot_id != boot
            assert b.stats.reboots == 1
            after = with_cell(moved, 42, "x")
            sim.set_cells(after)
            assert (await next_event(events)).cells == after  # type: ignore[union-attr]
    finally:
        sim.stop()


async def test_silent_firmware_is_declared_dead_then_reconnected(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            t0 = time.monotonic()
            sim.hang(1.0)  # the main loop stalls: no heartbeat, no answer
            with pytest.raises(SourceDisconnected, match="nothing heard"):
                await next_event(events, timeout=3)
            assert 0.5 <= time.monotonic() - t0 < 1.0  # link_timeout is 0.6 s
            events = b.events()
            ev = await next_event(events, timeout=5)
            assert isinstance(ev, SensorFrame) and ev.cells == STARTING
    finally:
        sim.stop()


async def test_watchdog_resets_a_stuck_firmware(link: Path) -> None:
    sim = start_sim(link, WDT_MS=200)
    try:
        b = board(link, link_timeout=2.0)
        async with b:
            events = b.events()
            await next_event(events)
            sim.hang(0.4)
            ev = await next_event(events, timeout=5)
            assert isinstance(ev, SensorFrame) and ev.cells == STARTING
            assert sim.boots == 2
            assert b.info is not None and b.info.watchdog_reset
            assert b.stats.reboots == 1
    finally:
        sim.stop()


async def test_reset_command_restarts_the_firmware(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            await b.reset_board()
            ev = await next_event(events)
            assert isinstance(ev, SensorFrame) and ev.cells == STARTING
            assert sim.boots == 2 and b.stats.reboots == 1
    finally:
        sim.stop()


async def test_buttons_arrive_as_player_inputs_in_order(link: Path) -> None:
    sim = start_sim(link, BUTTONS=(("promote", 20), ("nonpromote", 21)))
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            assert b.info is not None and b.info.buttons
            moved = with_cell(STARTING, 60, ".")
            sim.set_cells(moved)
            await asyncio.sleep(0.05)
            sim.press("promote")
            await asyncio.sleep(0.08)
            sim.press("promote", down=False)
            frame = await next_event(events)
            press = await next_event(events)
            assert isinstance(frame, SensorFrame) and frame.cells == moved
            assert isinstance(press, PlayerInput) and press.value == "promote"
            assert press.t >= frame.t
    finally:
        sim.stop()


async def test_request_frame_yields_the_board_again(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            first = await next_event(events)
            await b.request_frame()
            again = await next_event(events)
            assert isinstance(again, SensorFrame) and again.cells == STARTING
            assert again.t >= first.t
    finally:
        sim.stop()


async def test_garbage_on_the_line_is_skipped(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            rng = __import__("random").Random(7)
            garbage = bytes(rng.randrange(256) for _ in range(3000))
            sim.link.write(garbage)  # as if the firmware's port spewed noise
            moved = with_cell(STARTING, 60, ".")
            sim.set_cells(moved)
            ev = await next_event(events)
            assert isinstance(ev, SensorFrame) and ev.cells == moved
            assert b.stats.bad_frames > 0
    finally:
        sim.stop()


async def test_firmware_of_another_protocol_version_is_refused_clearly(link: Path) -> None:
    import os
    import threading

    from board_bridge.drivers import firmware_sim
    from board_bridge.drivers import protocol as p
    from board_bridge.drivers.serial_link import ProtocolVersionError

    bbsim = firmware_sim.load()
    master, path = bbsim.open_pty()
    link.symlink_to(path)
    stop = threading.Event()

    def future_firmware() -> None:  # answers every HOST_HELLO with a protocol-2 HELLO
        dec = p.Decoder()
        while not stop.is_set():
            try:
                data = os.read(master, 256)
            except OSError:
                time.sleep(0.01)
                continue
            for frame in dec.feed(data):
                if frame.type == p.FrameType.HOST_HELLO:
                    os.write(master, p.encode_frame(p.FrameType.HELLO, 0, bytes([2, 7, 7])))

    thread = threading.Thread(target=future_firmware, daemon=True)
    thread.start()
    try:
        b = board(link)
        async with b:
            with pytest.raises(ProtocolVersionError, match="speaks protocol 2.*flash"):
                await next_event(b.events())
    finally:
        stop.set()
        thread.join(2)
        os.close(master)
