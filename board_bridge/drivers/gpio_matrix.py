"""The 9x9 switch matrix wired straight to the Pi's GPIO pins, scanned with gpiozero.

Nine row pins are outputs, nine column pins inputs with pull-ups, one switch
(reed or digital hall) and one diode per square between its row and column
(anode on the column, cathode on the row; see hardware/wiring.md). A scan drives
each row low in turn and reads the columns: a column reads low while its row is
driven and its switch is closed. Optional *button rows* put up to nine buttons on
a tenth (and eleventh) row, so a board needs no extra pins for its choices.

Rows are driven *open-drain* by default (an unselected row floats instead of
driving high): a missing or shorted diode then causes ghost readings, never a
short between two outputs. ``row_drive = "push-pull"`` scans a little faster on a
board whose diodes are all good.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from board_bridge.drivers.buttons import parse_button
from board_bridge.drivers.gpio import resolve_pin_factory
from board_bridge.drivers.matrix import MatrixConfigError, SquareMap
from board_bridge.drivers.scanning import (
    DEBOUNCE_MS,
    DEBOUNCE_SCANS,
    SCAN_HZ,
    ScannedSource,
    scan_settings,
)
from board_bridge.drivers.settings import DriverConfigError, Settings
from board_bridge.tracker.events import EMPTY, OCCUPIED

ROW_DRIVES = ("open-drain", "push-pull")

#: The default wiring (BCM numbers), the same on the Pi 4 and the Pi 5; see hardware/pinmap-pi4.md.
DEFAULT_ROWS: tuple[int, ...] = (4, 5, 6, 13, 17, 19, 22, 26, 27)
DEFAULT_COLUMNS: tuple[int, ...] = (2, 3, 12, 16, 20, 21, 23, 24, 25)


@dataclass(frozen=True)
class ButtonRow:
    """A matrix row wired to buttons: ``values[c]`` is the input of the button on column c;
    ``holds[c]`` how long it must be held to count (default 0: on press)."""

    pin: int | str
    values: tuple[str | None, ...]
    holds: tuple[float, ...] = ()


class GpioMatrixSource(ScannedSource):
    """A diode switch matrix on GPIO pins, scanned in a thread at ``scan_hz`` (100 Hz or more).

    ``rows`` and ``columns``: nine pins each (BCM numbers or gpiozero pin names).
    ``pin_factory``: a gpiozero factory, its name (``"lgpio"``, ``"rpigpio"``,
    ``"mock"``) or None for gpiozero's default (lgpio first, which works on the Pi 5).
    ``square_map`` places matrix positions on the board. ``settle_us`` waits after
    driving a row before reading the columns: the default 20 us lets a column that the
    previous row pulled low rise again through the Pi's weak internal pull-up (external
    10 kohm pull-ups rise faster and allow less).
    """

    def __init__(
        self,
        rows: Sequence[int | str] = DEFAULT_ROWS,
        columns: Sequence[int | str] = DEFAULT_COLUMNS,
        *,
        pin_factory: Any = None,
        scan_hz: float = SCAN_HZ,
        debounce_scans: int = DEBOUNCE_SCANS,
        debounce_ms: float = DEBOUNCE_MS,
        row_drive: str = "open-drain",
        settle_us: float = 20.0,
        square_map: SquareMap | None = None,
        button_rows: Sequence[ButtonRow] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if len(rows) != 9 or len(columns) != 9:
            raise MatrixConfigError("a shogi matrix needs 9 row pins and 9 column pins")
        if row_drive not in ROW_DRIVES:
            raise MatrixConfigError(
                f"row_drive must be one of {', '.join(ROW_DRIVES)}: {row_drive!r}"
            )
        if len(button_rows) > 2:
            raise MatrixConfigError("at most two button rows")
        values: list[str | None] = []
        holds: list[float] = []
        for br in button_rows:
            if len(br.values) > 9:
                raise MatrixConfigError(f"button row on pin {br.pin}: at most 9 buttons")
            if br.holds and len(br.holds) != len(br.values):
                raise MatrixConfigError(f"button row on pin {br.pin}: one hold time per button")
            values.extend(list(br.values) + [None] * (9 - len(br.values)))
            row_holds = list(br.holds) or [0.0] * len(br.values)
            holds.extend(row_holds + [0.0] * (9 - len(br.values)))
        all_pins = [*rows, *columns, *(br.pin for br in button_rows)]
        if len(set(all_pins)) != len(all_pins):
            raise MatrixConfigError(f"a pin is used twice: {all_pins}")
        super().__init__(
            scan_hz=scan_hz,
            debounce_scans=debounce_scans,
            debounce_ms=debounce_ms,
            button_values=values,
            button_holds=holds,
            clock=clock,
        )
        self.row_names = tuple(rows)
        self.column_names = tuple(columns)
        self.button_rows = tuple(button_rows)
        self.row_drive = row_drive
        self.settle_us = settle_us
        self.square_map = square_map or SquareMap()
        self._factory_spec = pin_factory
        self._factory: Any = None
        self._rows: list[Any] = []
        self._cols: list[Any] = []

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> GpioMatrixSource:
        """Build from a config table; see docs/hardware.md for the keys."""
        s = Settings('source "gpio"', settings)
        rows = s.pins("rows", list(DEFAULT_ROWS), count=9)
        columns = s.pins("columns", list(DEFAULT_COLUMNS), count=9)
        button_rows = []
        for i, spec in enumerate(s.raw("button_rows", [])):
            where = f"button_rows[{i}]"
            if not isinstance(spec, Mapping) or set(spec) != {"pin", "buttons"}:
                raise s.error("button_rows", f"entry {i} must be a table with 'pin' and 'buttons'")
            sub = Settings(f'source "gpio" {where}', spec)
            pin = sub.pin("pin")
            raw_values = sub.raw("buttons")
            if isinstance(raw_values, str) or not isinstance(raw_values, Sequence):
                raise sub.error("buttons", 'must be a list of inputs (or "" for no button)')
            try:
                specs = [parse_button(v) for v in raw_values]
            except ValueError as exc:
                raise sub.error("buttons", str(exc)) from None
            button_rows.append(
                ButtonRow(pin, tuple(v for v, _ in specs), tuple(h for _, h in specs))
            )
        try:
            square_map = SquareMap.from_settings(
                rotate=s.integer("rotate", 0),
                mirror=s.boolean("mirror", False),
                order=s.raw("square_order", None),
            )
            source = cls(
                rows,
                columns,
                pin_factory=s.raw("pin_factory", None),
                **scan_settings(s),
                row_drive=s.text("row_drive", "open-drain", choices=ROW_DRIVES),
                settle_us=s.number("settle_us", 20.0, lo=0, hi=1000),
                square_map=square_map,
                button_rows=button_rows,
            )
        except (MatrixConfigError, TypeError) as exc:
            raise DriverConfigError(f'source "gpio": {exc}') from None
        s.finish()
        return source

    # -- hardware

    def _open(self) -> None:
        factory = resolve_pin_factory(self._factory_spec)
        row_names = [*self.row_names, *(br.pin for br in self.button_rows)]
        rows = []
        cols = []
        try:
            for name in row_names:
                pin = factory.pin(name)
                rows.append(pin)
                if self.row_drive == "push-pull":
                    pin.function = "output"
                    pin.state = 1
                else:
                    pin.function = "input"
                    if pin.info.pull != "up":
                        pin.pull = "floating"
            for name in self.column_names:
                pin = factory.pin(name)
                cols.append(pin)
                pin.function = "input"
                pin.pull = "up"
        except Exception:
            for pin in rows + cols:
                pin.close()
            raise
        self._factory, self._rows, self._cols = factory, rows, cols

    def _release(self) -> None:
        for pin in self._rows + self._cols:
            with contextlib.suppress(Exception):  # releasing must not stop half-way
                pin.close()  # back to an input: nothing driven
        self._rows, self._cols = [], []

    def _select(self, pin: Any) -> None:
        if self.row_drive == "open-drain":
            pin.function = "output"
        pin.state = 0

    def _deselect(self, pin: Any) -> None:
        if self.row_drive == "open-drain":
            pin.function = "input"
        else:
            pin.state = 1

    def _settle(self) -> None:
        if self.settle_us > 0:
            end = time.perf_counter() + self.settle_us / 1e6
            while time.perf_counter() < end:
                pass

    def read_positions(self) -> tuple[list[bool], list[bool]]:
        """One raw scan: closed switches by matrix position, then pressed button-row buttons."""
        closed: list[bool] = []
        cols = self._cols
        for pin in self._rows:
            self._select(pin)
            self._settle()
            closed.extend(not col.state for col in cols)
            self._deselect(pin)
        return closed[:81], closed[81:]

    def _scan(self) -> tuple[str, str]:
        closed, buttons = self.read_positions()
        cells = self.square_map.cells([OCCUPIED if c else EMPTY for c in closed])
        return cells, "".join("1" if b else "0" for b in buttons)
