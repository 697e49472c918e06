"""A switch matrix simulated on gpiozero's MockFactory pins, diodes (or their absence) included.

The simulation watches the row pins (a MockPin subclass calls back whenever a
row's function or level changes) and drives the column pins the way the real
circuit would: a column's pull-up is pulled low when current can flow from it to
a row driven low, forward through any closed switch and backwards only through a
closed switch without its diode. Unselected rows float (open-drain) or drive high
(push-pull; a backwards path into a high row is a short and is counted).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin


class RowPin(MockPin):
    """A mock pin that tells the simulated matrix whenever it changes."""

    matrix: DiodeMatrix | None = None

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        if self.matrix is not None:
            self.matrix.row_changed(self)

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if self.matrix is not None:
            self.matrix.row_changed(self)
        return changed


class DiodeMatrix:
    """The physical board: which switches are closed, which diodes are missing.

    Positions are ``row * 9 + column`` of the pins given (the identity square map
    makes them squares). Extra rows (button rows) have positions 81 and up.
    """

    def __init__(
        self,
        factory: MockFactory,
        rows: Sequence[int],
        columns: Sequence[int],
        *,
        missing_diodes: Iterable[int] = (),
    ) -> None:
        self.factory = factory
        self.rows: list[RowPin] = []
        for n in rows:
            pin = factory.pin(n, pin_class=RowPin)
            assert isinstance(pin, RowPin), f"pin {n} was created before the matrix"
            self.rows.append(pin)
        self.cols: list[MockPin] = [factory.pin(n) for n in columns]
        self.missing_diodes = set(missing_diodes)
        self.closed: set[int] = set()
        self.shorts = 0
        self.scans = 0
        self._lock = threading.RLock()
        self._on_scan: list[Callable[[int], None]] = []
        for pin in self.rows:
            pin.matrix = self

    # -- the player's side

    def set_closed(self, positions: Iterable[int]) -> None:
        with self._lock:
            self.closed = set(positions)
            self._update()

    def close(self, *positions: int) -> None:
        with self._lock:
            self.closed.update(positions)
            self._update()

    def open(self, *positions: int) -> None:
        with self._lock:
            self.closed.difference_update(positions)
            self._update()

    def on_scan(self, hook: Callable[[int], None]) -> None:
        """Call ``hook(scan_number)`` each time row 0 is selected (the start of a scan),
        on the scanning thread: lets a test change switches between scans exactly."""
        self._on_scan.append(hook)

    # -- the circuit

    def _row_level(self, pin: MockPin) -> str:
        if pin.function != "output":
            return "float"
        return "high" if pin.state else "low"

    def row_changed(self, pin: RowPin) -> None:
        with self._lock:
            if pin is self.rows[0] and self._row_level(pin) == "low":
                self.scans += 1
                for hook in self._on_scan:
                    hook(self.scans)
            self._update()

    def _update(self) -> None:
        levels = [self._row_level(p) for p in self.rows]
        ncols = len(self.cols)
        low_rows = {r for r, lv in enumerate(levels) if lv == "low"}
        low_cols: set[int] = set()
        frontier = list(low_rows)
        while frontier:
            r = frontier.pop()
            for c in range(ncols):
                if r * ncols + c in self.closed and c not in low_cols:
                    low_cols.add(c)  # forward through the switch (and its diode)
                    for r2, lv in enumerate(levels):
                        pos = r2 * ncols + c
                        if (
                            r2 in low_rows
                            or pos not in self.closed
                            or pos not in self.missing_diodes
                        ):
                            continue
                        if lv == "high":
                            self.shorts += 1  # a driven-high row shorted to a low one
                            continue
                        low_rows.add(r2)  # backwards through a switch with no diode
                        frontier.append(r2)
        for c, pin in enumerate(self.cols):
            if pin.function != "input":
                continue
            if c in low_cols:
                pin.drive_low()
            elif pin.pull == "up" or pin.info.pull == "up":
                pin.drive_high()


def mock_factory() -> Any:
    """A fresh MockFactory (a Pi 3B's header: BCM 2-27 available)."""
    return MockFactory()
