"""Reading driver settings from config tables, with errors that name the bad setting."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class DriverConfigError(ValueError):
    """A driver setting that is missing, misspelt or of the wrong kind."""


_MISSING: Any = object()


class Settings:
    """Typed access to one driver's settings table; :meth:`finish` rejects unknown keys.

    ``where`` names the table in messages, e.g. ``source "gpio"``.
    """

    def __init__(self, where: str, values: Mapping[str, Any] | None) -> None:
        if values is None:
            values = {}
        if not isinstance(values, Mapping):
            raise DriverConfigError(f"{where}: settings must be a table, got {values!r}")
        self.where = where
        self.values = dict(values)
        self._used: set[str] = set()

    def error(self, key: str, message: str) -> DriverConfigError:
        return DriverConfigError(f"{self.where}: setting {key!r} {message}")

    def has(self, key: str) -> bool:
        self._used.add(key)
        return key in self.values

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        self._used.add(key)
        if key in self.values:
            return self.values[key]
        if default is _MISSING:
            raise self.error(key, "is required")
        return default

    def integer(
        self, key: str, default: Any = _MISSING, *, lo: int | None = None, hi: int | None = None
    ) -> int:
        value = self.raw(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(key, f"must be a whole number, got {value!r}")
        self._range(key, value, lo, hi)
        return value

    def number(
        self,
        key: str,
        default: Any = _MISSING,
        *,
        lo: float | None = None,
        hi: float | None = None,
    ) -> float:
        value = self.raw(key, default)
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise self.error(key, f"must be a number, got {value!r}")
        self._range(key, value, lo, hi)
        return float(value)

    def boolean(self, key: str, default: Any = _MISSING) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"must be true or false, got {value!r}")
        return value

    def text(self, key: str, default: Any = _MISSING, *, choices: Sequence[str] = ()) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise self.error(key, f"must be a string, got {value!r}")
        if choices and value not in choices:
            raise self.error(key, f"must be one of {', '.join(choices)}, got {value!r}")
        return value

    def pin(self, key: str, default: Any = _MISSING) -> int | str:
        value = self.raw(key, default)
        return self._check_pin(key, value)

    def pins(
        self, key: str, default: Any = _MISSING, *, count: int | None = None
    ) -> list[int | str]:
        value = self.raw(key, default)
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            raise self.error(key, f"must be a list of GPIO pins, got {value!r}")
        if count is not None and len(value) != count:
            raise self.error(key, f"must list {count} GPIO pins, got {len(value)}")
        pins = [self._check_pin(key, v) for v in value]
        if len(set(pins)) != len(pins):
            raise self.error(key, f"lists a pin twice: {value!r}")
        return pins

    def table(self, key: str, default: Any = _MISSING) -> dict[str, Any]:
        value = self.raw(key, default)
        if not isinstance(value, Mapping):
            raise self.error(key, f"must be a table, got {value!r}")
        return dict(value)

    def finish(self) -> None:
        """Raise on keys nobody asked for (a typo should not be silently ignored)."""
        unknown = sorted(set(self.values) - self._used)
        if unknown:
            known = ", ".join(sorted(self._used))
            raise DriverConfigError(
                f"{self.where}: unknown setting(s) {', '.join(map(repr, unknown))} (known: {known})"
            )

    def _check_pin(self, key: str, value: Any) -> int | str:
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value <= 53:
                return value
        elif isinstance(value, str) and value.strip():
            return value.strip()
        raise self.error(
            key, f"has a bad GPIO pin {value!r} (a BCM number or a name like 'GPIO17')"
        )

    def _range(self, key: str, value: float, lo: float | None, hi: float | None) -> None:
        if lo is not None and value < lo:
            raise self.error(key, f"must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            raise self.error(key, f"must be at most {hi}, got {value}")
