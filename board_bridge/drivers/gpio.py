"""gpiozero plumbing shared by the Pi's direct drivers: choosing the pin factory."""

from __future__ import annotations

import logging
import warnings
from importlib.metadata import entry_points
from typing import Any

from board_bridge.drivers.settings import DriverConfigError

log = logging.getLogger(__name__)

#: Pin factory names gpiozero knows (its entry points): lgpio works on every Pi
#: including the Pi 5; rpigpio (RPi.GPIO) does not work on the Pi 5; mock is for tests.
FACTORY_NAMES = ("lgpio", "rpigpio", "pigpio", "native", "mock")


class PinFactoryError(RuntimeError):
    """No usable GPIO backend (not on a Pi, or the library is missing)."""


def resolve_pin_factory(value: Any = None) -> Any:
    """The gpiozero pin factory to use.

    ``None``: gpiozero's own choice (``Device.pin_factory`` if a program or test set
    it, else the ``GPIOZERO_PIN_FACTORY`` environment variable, else lgpio, then
    RPi.GPIO, ...). A string names a factory (``"lgpio"``, ``"rpigpio"``, ``"mock"``,
    ...). Anything else is taken to be a factory object already.
    """
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    if value is None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                Device.ensure_pin_factory()
            except BadPinFactory as exc:
                tried = "; ".join(str(w.message) for w in caught)
                raise PinFactoryError(
                    f"no GPIO backend ({exc}{': ' + tried if tried else ''}); on a Pi install"
                    " lgpio (apt install python3-lgpio) or set GPIOZERO_PIN_FACTORY"
                ) from None
        for w in caught:
            log.info("gpiozero: %s", w.message)
        return Device.pin_factory
    if isinstance(value, str):
        name = value.lower()
        for ep in entry_points(group="gpiozero_pin_factories"):
            if ep.name == name:
                try:
                    return ep.load()()
                except Exception as exc:
                    raise PinFactoryError(f"GPIO backend {value!r} failed to start: {exc}") from exc
        raise DriverConfigError(
            f"setting 'pin_factory': unknown GPIO backend {value!r} (one of {', '.join(FACTORY_NAMES)})"
        )
    return value
