"""Pure sensor-matrix logic: square mapping, per-square debouncing, polarity decoding, ghosting.

No pins here: the GPIO matrix and the shift-register chain read raw scans and
hand them to these classes, so the logic is tested without hardware and costs
little per scan.

A *raw scan* is 81 cell characters in square order (the cells of a
:class:`~board_bridge.tracker.events.SensorFrame`), read at a time ``t``. Matrix
*positions* are ``row * 9 + column`` of the wiring; a :class:`SquareMap` turns
them into squares (``rank * 9 + (9 - file)``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from board_bridge.tracker.events import EMPTY, OCCUPIED, PROMOTED, UNPROMOTED, SensorFrame

ALL_EMPTY: Final = EMPTY * 81


class MatrixConfigError(ValueError):
    """A matrix setting that cannot work (a bad square order, rotation, ...)."""


# --------------------------------------------------------------------------- square mapping


@dataclass(frozen=True)
class SquareMap:
    """Which square each matrix position (``row * 9 + column``) senses.

    The identity map says row 0 is rank a and column 0 is file 9 (the board as
    sente sees it). :meth:`from_settings` builds others: a board wired rotated
    or mirrored, or an explicit list of 81 squares.
    """

    squares: tuple[int, ...] = tuple(range(81))

    def __post_init__(self) -> None:
        if sorted(self.squares) != list(range(81)):
            raise MatrixConfigError("a square map must list each of the 81 squares exactly once")

    @classmethod
    def from_settings(
        cls,
        rotate: int = 0,
        mirror: bool = False,
        order: Sequence[int] | None = None,
    ) -> SquareMap:
        """``rotate`` (0, 90, 180, 270 degrees clockwise, as sente sees it) and ``mirror``
        (files swapped left to right) describe how the wiring's rows and columns lie on
        the board; ``order`` instead lists the square of each position outright."""
        if order is not None:
            if rotate or mirror:
                raise MatrixConfigError("give either square_order or rotate/mirror, not both")
            return cls(tuple(order))
        if rotate not in (0, 90, 180, 270):
            raise MatrixConfigError(f"rotate must be 0, 90, 180 or 270: {rotate!r}")
        squares = []
        for pos in range(81):
            r, c = divmod(pos, 9)
            if mirror:
                c = 8 - c
            for _ in range(rotate // 90):
                r, c = c, 8 - r  # a quarter turn clockwise
            squares.append(r * 9 + c)
        return cls(tuple(squares))

    def cells(self, by_position: Sequence[str]) -> str:
        """Cells in square order from cells in position order."""
        out = [EMPTY] * 81
        for pos, sq in enumerate(self.squares):
            out[sq] = by_position[pos]
        return "".join(out)

    def position(self, square: int) -> int:
        return self.squares.index(square)


def cells_from_bits(bits: int) -> str:
    """81 occupancy cells from an 81-bit number (bit ``i`` set = square ``i`` occupied)."""
    return "".join(OCCUPIED if bits >> i & 1 else EMPTY for i in range(81))


def bits_from_cells(cells: str) -> int:
    """The 81-bit number of a cell string (any non-empty cell counts as occupied)."""
    bits = 0
    for i, ch in enumerate(cells):
        if ch != EMPTY:
            bits |= 1 << i
    return bits


# --------------------------------------------------------------------------- polarity

#: How two sensor bits per square become a cell on a polarity board.
#: "two-unipolar": bit a = a south-pole sensor, bit b = a north-pole sensor (two
#: identical unipolar sensors, one mounted upside down). The unpromoted face of
#: every piece carries the south pole towards the board.
#: "presence-latch": bit a = an omnipolar switch (a magnet is there), bit b = a
#: bipolar latch, active (output low) after a south pole: the unpromoted face.
POLARITY_MODES: Final = ("two-unipolar", "presence-latch")


def polarity_cell(a: bool, b: bool, mode: str = "two-unipolar") -> str:
    """The cell one square's two sensor bits mean (``a``, ``b`` true when active)."""
    if mode == "two-unipolar":
        if a and b:
            return OCCUPIED  # both poles seen: a magnet on its edge; occupied, face unknown
        return UNPROMOTED if a else PROMOTED if b else EMPTY
    if mode == "presence-latch":
        if not a:
            return EMPTY
        return UNPROMOTED if b else PROMOTED
    raise MatrixConfigError(f"polarity must be one of {', '.join(POLARITY_MODES)}: {mode!r}")


# --------------------------------------------------------------------------- debouncing


@dataclass
class _Pending:
    cell: str
    since: float
    count: int


class Debouncer:
    """Per-square debouncing of raw scans into :class:`SensorFrame` s.

    A square takes a new value only once it has read that value in ``scans``
    consecutive scans spanning at least ``stable`` seconds; a bounce back to the
    old value cancels the change. The accepted change is stamped with the time of
    the first scan that saw it (the edge), so debouncing delays a frame but never
    shifts its time. Changes accepted together are emitted in the order of their
    edges, one frame per edge time, so a quick lift-and-capture keeps its order.
    Frame times never go backwards.

    The first frame comes once the whole board has read the same for ``scans``
    scans and ``stable`` seconds (or ``boot``: other (scans, seconds) for it alone).
    ``size`` other than 81 debounces other inputs (a row of buttons) through
    :meth:`update_raw`.
    """

    def __init__(
        self,
        scans: int = 3,
        stable: float = 0.005,
        size: int = 81,
        boot: tuple[int, float] | None = None,
    ) -> None:
        if scans < 1:
            raise MatrixConfigError(f"debounce_scans must be at least 1: {scans}")
        if stable < 0:
            raise MatrixConfigError(f"debounce_ms must not be negative: {stable * 1000}")
        self.scans = scans
        self.stable = stable
        self.size = size
        self._boot_scans, self._boot_stable = (scans, stable) if boot is None else boot
        self._state: str | None = None
        self._last_raw: str | None = None
        self._pending: dict[int, _Pending] = {}
        self._boot: _Pending | None = None
        self._last_t = float("-inf")

    @property
    def state(self) -> str | None:
        """The debounced cells, or None before the first frame."""
        return self._state

    def frame(self, t: float) -> SensorFrame | None:
        """The debounced board as a frame stamped ``t`` (or the last frame's time if later)."""
        if self._state is None:
            return None
        self._last_t = max(self._last_t, t)
        return SensorFrame(self._last_t, self._state)

    def update(self, raw: str, t: float) -> list[SensorFrame]:
        """Feed one raw scan read at ``t``; the frames it completes (usually none)."""
        return [SensorFrame(when, cells) for when, cells in self.update_raw(raw, t)]

    def update_raw(self, raw: str, t: float) -> list[tuple[float, str]]:
        """Like :meth:`update`, as (time, cells) pairs."""
        if len(raw) != self.size:
            raise ValueError(f"a raw scan needs {self.size} cells, got {len(raw)}")
        state = self._state
        if state is None:
            return self._boot_update(raw, t)
        if raw == self._last_raw and not self._pending:
            return []
        self._last_raw = raw
        pending = self._pending
        accepted: list[tuple[float, int, str]] = []
        if raw == state:
            indices: Iterable[int] = list(pending)
        else:
            indices = {i for i in range(self.size) if raw[i] != state[i]} | pending.keys()
        for i in indices:
            cell = raw[i]
            if cell == state[i]:
                pending.pop(i, None)  # bounced back
                continue
            p = pending.get(i)
            if p is None or p.cell != cell:
                p = pending[i] = _Pending(cell, t, 1)
            elif p.count < self.scans:
                p.count += 1
            if p.count >= self.scans and t - p.since >= self.stable:
                accepted.append((p.since, i, cell))
                del pending[i]
        if not accepted:
            return []
        accepted.sort()
        out = []
        cells = list(state)
        k = 0
        while k < len(accepted):
            since = accepted[k][0]
            while k < len(accepted) and accepted[k][0] == since:
                cells[accepted[k][1]] = accepted[k][2]
                k += 1
            self._last_t = max(self._last_t, since)
            out.append((self._last_t, "".join(cells)))
        self._state = "".join(cells)
        return out

    def _boot_update(self, raw: str, t: float) -> list[tuple[float, str]]:
        boot = self._boot
        if boot is None or boot.cell != raw:
            boot = self._boot = _Pending(raw, t, 1)
        else:
            boot.count += 1
        if boot.count >= self._boot_scans and t - boot.since >= self._boot_stable:
            self._state = self._last_raw = raw
            self._boot = None
            self._last_t = max(self._last_t, boot.since)
            return [(self._last_t, raw)]
        return []


# --------------------------------------------------------------------------- ghosting


def _rc(square: int) -> tuple[int, int]:
    return divmod(square, 9)


def ghost_closure(
    closed: Collection[int], missing_diodes: Collection[int] | None = None
) -> set[int]:
    """What a row-scanned matrix reads when the switches at ``closed`` positions are closed.

    ``missing_diodes``: positions whose switch has no diode (None: none has one).
    Driving a row low reads a column low if current can flow from the column's
    pull-up to that row: forward through any closed switch, and backwards (row to
    column) only through a closed switch without a diode. Unselected rows float.
    """
    closed_set = set(closed)
    no_diode = closed_set if missing_diodes is None else closed_set & set(missing_diodes)
    reads: set[int] = set()
    for row in range(9):
        low_rows = {row}
        low_cols: set[int] = set()
        frontier_rows = [row]
        while frontier_rows:
            r = frontier_rows.pop()
            for c in range(9):
                if r * 9 + c in closed_set and c not in low_cols:
                    low_cols.add(c)
                    for r2 in range(9):
                        if r2 not in low_rows and r2 * 9 + c in no_diode:
                            low_rows.add(r2)
                            frontier_rows.append(r2)
        reads.update(row * 9 + c for c in low_cols)
    return reads


def rectangle_ghosts(occupied: Collection[int]) -> dict[int, tuple[int, int, int]]:
    """Occupied positions that a diode-less matrix could be inventing.

    Each result maps a position to the three other occupied positions that make a
    rectangle with it (any of which may be the real fourth); the corner diagonal
    to it is the switch whose missing diode would cause it.
    """
    occ = set(occupied)
    out: dict[int, tuple[int, int, int]] = {}
    for p in sorted(occ):
        r, c = _rc(p)
        for r2 in range(9):
            if r2 == r or r2 * 9 + c not in occ:
                continue
            for c2 in range(9):
                if c2 != c and r * 9 + c2 in occ and r2 * 9 + c2 in occ:
                    out.setdefault(p, (r * 9 + c2, r2 * 9 + c, r2 * 9 + c2))
    return out


def suspect_diode(ghost: int, occupied: Collection[int]) -> int | None:
    """For a position that read occupied although empty, while ``occupied`` really were:
    the closed switch whose missing diode explains it (the corner diagonal to the
    ghost of a rectangle with two occupied corners beside it), or None."""
    occ = set(occupied) - {ghost}
    r, c = _rc(ghost)
    for p in sorted(occ):
        r2, c2 = _rc(p)
        if r2 != r and c2 != c and r * 9 + c2 in occ and r2 * 9 + c in occ:
            return p
    return None
