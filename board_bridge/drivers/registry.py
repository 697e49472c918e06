"""Builds sensor sources and LED sinks from config tables, by kind name.

Each kind maps to a ``"module:factory"`` string, imported only when that kind is
used (so a Pi-only library is never needed to build another kind). A factory
takes the kind's settings table and returns the source or sink; it raises
:class:`DriverConfigError` naming the bad setting. Other layers add their kinds
with :func:`register_source` / :func:`register_sink` (the app registers
"simulated" and "replay").

Two keys are handled here for every source kind: ``buttons`` (GPIO buttons on
the Pi, see :class:`~board_bridge.drivers.buttons.ButtonInputs`) wraps the
source in :class:`~board_bridge.drivers.buttons.WithButtons`; and a
``sensor_log`` path given to :func:`make_source` records every event
(:class:`~board_bridge.drivers.recording.RecordingSource`).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from typing import Any

from board_bridge.drivers.base import LedSink, SensorSource
from board_bridge.drivers.settings import DriverConfigError, Settings

#: Source kinds: name -> "module:factory(settings)".
SOURCE_KINDS: dict[str, str] = {
    "gpio": "board_bridge.drivers.gpio_matrix:GpioMatrixSource.from_settings",
    "shift-register": "board_bridge.drivers.shift_register:ShiftRegisterSource.from_settings",
    "serial": "board_bridge.drivers.registry:serial_source",
}

#: Sink kinds: name -> "module:factory(settings)" (or factory(settings, source) for "serial").
SINK_KINDS: dict[str, str] = {
    "ws281x": "board_bridge.drivers.led_sinks:Ws281xSink.from_settings",
    "spi-ws2812": "board_bridge.drivers.led_sinks:SpiWs2812Sink.from_settings",
    "gpio-leds": "board_bridge.drivers.led_sinks:GpioLedSink.from_settings",
    "serial": "board_bridge.drivers.registry:serial_sink",
    "none": "board_bridge.drivers.led_sinks:NullSink",
}

#: Sink kinds whose factory also needs the source (the firmware's LEDs share its link).
SINKS_NEEDING_SOURCE: set[str] = {"serial"}


def register_source(kind: str, target: str) -> None:
    """Add (or replace) a source kind: ``target`` is ``"module:factory"``."""
    _check_target(target)
    SOURCE_KINDS[kind] = target


def register_sink(kind: str, target: str, *, needs_source: bool = False) -> None:
    """Add (or replace) a sink kind; ``needs_source``: the factory takes (settings, source)."""
    _check_target(target)
    SINK_KINDS[kind] = target
    if needs_source:
        SINKS_NEEDING_SOURCE.add(kind)
    else:
        SINKS_NEEDING_SOURCE.discard(kind)


def source_kinds() -> tuple[str, ...]:
    return tuple(sorted(SOURCE_KINDS))


def sink_kinds() -> tuple[str, ...]:
    return tuple(sorted(SINK_KINDS))


def _check_target(target: str) -> None:
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"a factory is named 'module:attribute', got {target!r}")


def _resolve(target: str, what: str) -> Callable[..., Any]:
    module_name, _, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise DriverConfigError(f"{what} is not available here: {exc}") from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise DriverConfigError(f"{what} is not available here: no {target}") from None
    return obj  # type: ignore[no-any-return]


def make_source(
    kind: str,
    settings: Mapping[str, Any] | None = None,
    *,
    sensor_log: str | os.PathLike[str] | None = None,
) -> SensorSource:
    """A sensor source of ``kind`` built from its ``settings`` table (not started yet)."""
    if kind not in SOURCE_KINDS:
        raise DriverConfigError(
            f"unknown source kind {kind!r} (one of {', '.join(source_kinds())})"
        )
    table = dict(settings or {})
    buttons_table = table.pop("buttons", None)
    factory = _resolve(SOURCE_KINDS[kind], f"source {kind!r}")
    source: SensorSource = factory(table)
    if buttons_table is not None:
        from board_bridge.drivers.buttons import ButtonInputs, WithButtons

        if not isinstance(buttons_table, Mapping):
            raise DriverConfigError(f"source \"{kind}\": setting 'buttons' must be a table")
        source = WithButtons(
            source, ButtonInputs.from_settings(buttons_table, where=f'source "{kind}" buttons')
        )
    if sensor_log is not None:
        from board_bridge.drivers.recording import RecordingSource

        source = RecordingSource(source, sensor_log)
    return source


def make_sink(
    kind: str, settings: Mapping[str, Any] | None = None, *, source: SensorSource | None = None
) -> LedSink:
    """An LED sink of ``kind`` built from its ``settings`` table (not started yet).
    ``source``: the sensor source, for sinks that share its hardware ("serial")."""
    if kind not in SINK_KINDS:
        raise DriverConfigError(
            f"unknown LED sink kind {kind!r} (one of {', '.join(sink_kinds())})"
        )
    table = dict(settings or {})
    factory = _resolve(SINK_KINDS[kind], f"LED sink {kind!r}")
    if kind in SINKS_NEEDING_SOURCE:
        sink: LedSink = factory(table, source)
    elif kind == "none":
        Settings('sink "none"', table).finish()
        sink = factory()
    else:
        sink = factory(table)
    return sink


def unwrap(source: SensorSource, cls: type[Any]) -> Any | None:
    """The ``cls`` instance inside wrappers (buttons, recording) around ``source``, if any."""
    seen = 0
    current: Any = source
    while current is not None and seen < 10:
        if isinstance(current, cls):
            return current
        current = getattr(current, "source", None)
        seen += 1
    return None


# --------------------------------------------------------------------------- serial kinds


def _led_options(s: Settings) -> dict[str, Any]:
    from board_bridge.drivers.leds import (
        DEFAULT_MAX_MILLIAMPS,
        LAYOUT_KEYS,
        Layout,
        LayoutError,
        palette_from_settings,
    )

    layout_settings = {k: s.raw(k) for k in LAYOUT_KEYS if s.has(k)}
    try:
        layout = Layout.from_settings(layout_settings) if layout_settings else None
        palette = palette_from_settings(s.table("palette", {}))
    except LayoutError as exc:
        raise DriverConfigError(f"{s.where}: {exc}") from None
    return {
        "layout": layout,
        "palette": palette,
        "brightness": s.number("brightness", 1.0, lo=0.0, hi=1.0),
        "max_milliamps": s.number("max_milliamps", DEFAULT_MAX_MILLIAMPS, lo=0.0) or None,
    }


def serial_source(settings: Mapping[str, Any]) -> SensorSource:
    """The board's firmware on a serial port: ``port`` (or ``url``), link timings, and the
    LED options of its LEDs (layout keys, ``brightness``, ``max_milliamps``, ``palette``)."""
    from board_bridge.drivers.serial_link import SerialBoard, SerialSettings

    s = Settings('source "serial"', settings)
    leds = _led_options(s)
    try:
        link = SerialSettings.from_settings(settings, ignore=frozenset({"palette"}))
    except ValueError as exc:
        raise DriverConfigError(f'source "serial": {exc}') from None
    return SerialBoard(settings=link, **leds)


def serial_sink(settings: Mapping[str, Any], source: SensorSource | None) -> LedSink:
    """The LEDs behind the board's firmware: needs the "serial" source (they share its link).
    Without LED settings, the source's own LED options are used."""
    from board_bridge.drivers.serial_link import SerialBoard, SerialLedSink

    board = None if source is None else unwrap(source, SerialBoard)
    if board is None:
        raise DriverConfigError(
            'LED sink "serial" drives the firmware\'s LEDs: it needs the "serial" source'
        )
    if not settings:
        return board.leds  # type: ignore[no-any-return]
    s = Settings('sink "serial"', settings)
    leds = _led_options(s)
    s.finish()
    sink = SerialLedSink(board, **leds)
    board.leds = sink
    return sink
