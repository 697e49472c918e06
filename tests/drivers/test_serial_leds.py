"""LED frames from the host reach the firmware's LED buffer (PIO words on the simulated pin)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from board_bridge.drivers import protocol as p
from board_bridge.drivers.leds import DEFAULT_PALETTE, Layout, render_colors
from board_bridge.tracker.intents import LedIntents, Mark
from tests.drivers.test_serial_support import board, next_event, start_sim, wait_until

pytestmark = pytest.mark.timeout(60)

OFF = (0, 0, 0)


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "ttyBOARD"


async def test_intents_light_the_right_leds(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            intents = LedIntents(marks={60: Mark.LIFTED, 51: Mark.TARGET, 42: Mark.TARGET})
            await b.leds.show(intents)
            layout = Layout.per_square()
            want = render_colors(intents, layout, 0.0)  # all steady marks: time does not matter
            await wait_until(lambda: sim.leds() == want)
            await wait_until(lambda: b.led_acknowledged)  # the ACK follows the LEDs
            assert sum(1 for c in sim.leds() if c != OFF) == 3
            # the same intents again send nothing new
            sent = b.stats.led_frames
            await b.leds.show(intents)
            assert b.stats.led_frames == sent
    finally:
        sim.stop()


async def test_blinking_is_done_by_the_firmware(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            await b.leds.show(LedIntents(marks={40: Mark.ERROR}))  # fast blink: 0.1 s on/off
            led = Layout.per_square().leds_of_square[40][0]
            color = DEFAULT_PALETTE[Mark.ERROR].color
            seen = set()
            deadline = time.monotonic() + 2
            while len(seen) < 2 and time.monotonic() < deadline:
                seen.add(sim.leds()[led])
                await asyncio.sleep(0.01)
            assert seen == {color, OFF}
            sent = b.stats.led_frames
            await asyncio.sleep(0.3)
            assert b.stats.led_frames == sent  # no frame per blink
    finally:
        sim.stop()


async def test_led_frame_survives_a_reboot_and_is_refused_when_too_long(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            intents = LedIntents(marks={0: Mark.TARGET})
            await b.leds.show(intents)
            await wait_until(lambda: sim.leds()[0] != OFF)
            sim.reboot()
            await next_event(events)  # the full frame after the reboot
            # the new boot starts dark; the host shows its frame again
            await wait_until(lambda: sim.leds()[0] != OFF)
            # a 10 x 10 corner grid on an 81-LED firmware is refused, clearly
            b.leds._layout = Layout.corner_grid()
            await b.leds.show(LedIntents(marks={0: Mark.ERROR}))
            await wait_until(lambda: any(e.code == p.ErrorCode.LED_COUNT for e in b.stats.errors))
            sent = b.stats.led_frames
            await asyncio.sleep(0.3)
            assert b.stats.led_frames == sent  # not resent forever
    finally:
        sim.stop()


async def test_closing_turns_the_leds_off(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        async with b:
            events = b.events()
            await next_event(events)
            await b.leds.show(LedIntents(marks={5: Mark.TARGET}))
            await wait_until(lambda: sim.leds()[5] != OFF)
        await wait_until(lambda: all(c == OFF for c in sim.leds()))
        await b.close()  # twice is fine
    finally:
        sim.stop()


async def test_firmware_goes_dark_when_the_host_disappears(link: Path) -> None:
    sim = start_sim(link)
    try:
        b = board(link)
        events = b.events()
        await next_event(events)
        await b.leds.show(LedIntents(marks={5: Mark.TARGET}))
        await wait_until(lambda: sim.leds()[5] != OFF)
        # the host stops talking without a goodbye (daemon killed): firmware_timeout is 1 s
        await b._drop_link()
        t0 = time.monotonic()
        await wait_until(lambda: sim.leds()[5] == OFF, timeout=3)
        assert time.monotonic() - t0 >= 0.8
    finally:
        sim.stop()
