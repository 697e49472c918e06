"""Building sources and sinks from config tables by kind."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from board_bridge.drivers import registry
from board_bridge.drivers.buttons import WithButtons
from board_bridge.drivers.gpio_matrix import GpioMatrixSource
from board_bridge.drivers.led_sinks import GpioLedSink, NullSink, SpiWs2812Sink, Ws281xSink
from board_bridge.drivers.registry import make_sink, make_source, unwrap
from board_bridge.drivers.settings import DriverConfigError
from board_bridge.drivers.shift_register import ShiftRegisterSource


def test_hardware_kinds() -> None:
    assert isinstance(make_source("gpio", {"scan_hz": 300}), GpioMatrixSource)
    assert isinstance(make_source("shift-register", {"load_pin": 24}), ShiftRegisterSource)
    assert isinstance(make_sink("ws281x", {"pin": 18}), Ws281xSink)
    assert isinstance(make_sink("spi-ws2812", {"layout": "corners"}), SpiWs2812Sink)
    assert isinstance(
        make_sink("gpio-leds", {"data_pin": 17, "clock_pin": 27, "latch_pin": 22}), GpioLedSink
    )
    assert isinstance(make_sink("none"), NullSink)
    assert {"gpio", "shift-register", "serial"} <= set(registry.source_kinds())
    assert {"ws281x", "spi-ws2812", "gpio-leds", "serial", "none"} <= set(registry.sink_kinds())


def test_errors_name_the_kind_and_setting() -> None:
    with pytest.raises(DriverConfigError, match="unknown source kind 'gpoi'.*gpio"):
        make_source("gpoi", {})
    with pytest.raises(DriverConfigError, match="unknown LED sink kind 'ws2812'"):
        make_sink("ws2812", {})
    with pytest.raises(DriverConfigError, match="'colums'"):
        make_source("gpio", {"colums": [1] * 9})
    with pytest.raises(DriverConfigError, match='sink "none"'):
        make_sink("none", {"brightness": 1})
    with pytest.raises(DriverConfigError, match='needs the "serial" source'):
        make_sink("serial", {}, source=make_source("gpio"))


async def test_buttons_and_sensor_log_wrap_any_source(tmp_path: Path) -> None:
    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    try:
        log = tmp_path / "sensor.jsonl"
        source = make_source(
            "gpio",
            {"scan_hz": 500, "debounce_scans": 1, "debounce_ms": 0, "buttons": {"undo": 7}},
            sensor_log=log,
        )
        assert isinstance(unwrap(source, WithButtons), WithButtons)
        matrix = unwrap(source, GpioMatrixSource)
        assert isinstance(matrix, GpioMatrixSource)
        async with source:
            events = source.events()
            first = await asyncio.wait_for(anext(events), 3)
            assert first.cells == "." * 81  # type: ignore[union-attr]
            factory.pin(7).drive_low()
            pressed = await asyncio.wait_for(anext(events), 3)
            assert pressed.value == "undo"  # type: ignore[union-attr]
        lines = [json.loads(x) for x in log.read_text().splitlines()]
        assert lines[0]["board"].count("/") == 8 and lines[1]["input"] == "undo"
    finally:
        Device.pin_factory = previous


def test_serial_kinds() -> None:
    from board_bridge.drivers.serial_link import SerialBoard, SerialLedSink

    source = make_source("serial", {"port": "socket://127.0.0.1:9", "brightness": 0.5})
    assert isinstance(source, SerialBoard) and source.url == "socket://127.0.0.1:9"
    sink = make_sink("serial", {}, source=source)
    assert sink is source.leds and isinstance(sink, SerialLedSink)
    own = make_sink("serial", {"layout": "corners", "max_milliamps": 900}, source=source)
    assert isinstance(own, SerialLedSink) and own.layout.num_leds == 100
    with pytest.raises(DriverConfigError, match="serial"):
        make_source("serial", {"prot": "/dev/ttyACM0"})


def test_extension_points() -> None:
    registry.register_source("test-fake", "board_bridge.drivers.led_sinks:NullSink")
    try:
        with pytest.raises(TypeError):
            make_source("test-fake", {})  # NullSink() takes no settings: the factory is called
    finally:
        del registry.SOURCE_KINDS["test-fake"]
    registry.register_sink("test-missing", "board_bridge.nowhere:Thing")
    try:
        with pytest.raises(DriverConfigError, match="not available"):
            make_sink("test-missing", {})
    finally:
        del registry.SINK_KINDS["test-missing"]
    with pytest.raises(ValueError):
        registry.register_source("bad", "no-colon")
