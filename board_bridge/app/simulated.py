"""Sensor sources without hardware: a virtual board driven by code, and a sensor-log replay.

:class:`SimulatedBoard` is the board a scripted player, the on-screen simulator or a test
plays on: ``lift(sq)``, ``place(sq)``, ``flip(sq, promoted)``, ``press(value)``, or
``await play_move(board, move)`` which emits the frames a hand makes (lift, capture, place) with a small delay between them.
:class:`LogReplaySource` replays a JSON-lines sensor log in real time or faster.
Both stamp events with the daemon's clock (``time.monotonic`` unless told otherwise), so the
tracker's settle timers and the daemon's ticks share one time base.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from board_bridge.drivers.base import SensorSource, SourceDisconnected
from board_bridge.drivers.settings import DriverConfigError, Settings
from board_bridge.shogi import PAWN, PROMOTABLE, STARTING_SFEN, Board, Move
from board_bridge.shogi.core import PROMOTION_OFFSET, unpromoted
from board_bridge.tracker.events import (
    EMPTY,
    PlayerInput,
    SensorEvent,
    SensorFrame,
    SensorLogError,
    parse_event,
)
from board_bridge.tracker.positions import cell_of_type, cells_of_codes, check_sensing

LOGGER = logging.getLogger(__name__)

Clock = Callable[[], float]


class _Disconnect:
    """Queue marker: the simulated cable was pulled."""


def _face_up(piece_type: int, promoted: bool) -> int:
    """``piece_type`` with its promoted face up (if it has one) or its unpromoted face."""
    base = unpromoted(piece_type)
    return base + PROMOTION_OFFSET if promoted and base in PROMOTABLE else base


def cells_of(board: Board, sensing: str = "occupancy") -> list[str]:
    """What the sensors of a board in ``board``'s position see, square by square."""
    return list(cells_of_codes(board.board_cells(), sensing))


class SimulatedBoard(SensorSource):
    """A virtual sensor board. Its methods change squares and queue the resulting frames.

    It knows which piece kind stands on each square and which it last lifted, so it shows
    what an occupancy, polarity or identity (``sensing``) board would: :meth:`place` puts
    down the piece last lifted (not one lifted from the square it lands on: that one was
    captured), face up as it was unless told.

    ``step_delay``: seconds :meth:`play_move` waits between a hand's steps (a real hand
    takes 0.2-1 s; tests use a few ms, but more than the tracker's settle time).
    """

    def __init__(
        self,
        sfen: str = STARTING_SFEN,
        *,
        sensing: str = "occupancy",
        step_delay: float = 0.05,
        clock: Clock = time.monotonic,
    ) -> None:
        self.sensing = check_sensing(sensing)
        self.step_delay = step_delay
        self.clock = clock
        self._set_kinds(Board(sfen))
        self._queue: asyncio.Queue[SensorEvent | _Disconnect] = asyncio.Queue()
        self.connected = True
        self.closed = False
        self.emitted: list[SensorEvent] = []
        self.on_emit: Callable[[SensorEvent], None] | None = None

    @classmethod
    def from_settings(
        cls,
        values: Mapping[str, Any] | None,
        *,
        sensing: str = "occupancy",
        sfen: str = STARTING_SFEN,
    ) -> SimulatedBoard:
        s = Settings("board.settings", values)
        delay = s.number("step_delay", 0.3, lo=0.0, hi=10.0)
        s.finish()
        return cls(sfen, sensing=sensing, step_delay=delay)

    # ------------------------------------------------------------------ the hand
    def frame(self) -> SensorFrame:
        return SensorFrame(self.clock(), "".join(self.cells))

    def _emit(self, event: SensorEvent) -> None:
        self.emitted.append(event)
        if self.on_emit is not None:
            self.on_emit(event)
        if self.connected:
            self._queue.put_nowait(event)

    def _set_kinds(self, board: Board) -> None:
        self.kinds = [c & 15 for c in board.board_cells()]  # piece type per square, 0: empty
        self.held: list[tuple[int, int]] = []  # (square, piece type) lifted, last one last
        self.cells = cells_of(board, self.sensing)

    def lift(self, sq: int) -> None:
        if self.kinds[sq]:
            self.held.append((sq, self.kinds[sq]))
            self.kinds[sq] = 0
        self.cells[sq] = EMPTY
        self._emit(self.frame())

    def _take_held(self, sq: int) -> int:
        """The piece type a hand sets down on ``sq``: the last lifted, unless it came from
        ``sq`` and another is held (then it was captured and goes to the stand)."""
        if not self.held:
            return PAWN  # a piece from the stand nobody named
        others = [i for i, (origin, _) in enumerate(self.held) if origin != sq]
        i = others[-1] if others else len(self.held) - 1
        kind = self.held[i][1]
        if others:  # set down on a captured piece's square: the captured piece is gone
            self.held = [h for j, h in enumerate(self.held) if j != i and h[0] != sq]
        else:
            del self.held[i]
        return kind

    def place(self, sq: int, promoted: bool | None = None, kind: int | None = None) -> None:
        """Set a piece down on ``sq``: ``kind`` (a piece type; default the piece in the
        hand), ``promoted`` face up (default: as it was)."""
        pt = self._take_held(sq) if kind is None else kind
        if promoted is not None:
            pt = _face_up(pt, promoted)
        self.kinds[sq] = pt
        self.cells[sq] = cell_of_type(pt, self.sensing)
        self._emit(self.frame())

    def flip(self, sq: int, promoted: bool) -> None:
        """Turn a piece over in place (an occupancy board does not see it)."""
        if unpromoted(self.kinds[sq]) not in PROMOTABLE:
            return
        self.kinds[sq] = _face_up(self.kinds[sq], promoted)
        self.cells[sq] = cell_of_type(self.kinds[sq], self.sensing)
        self._emit(self.frame())

    def press(self, value: str) -> None:
        """A button or screen input: ``promote``, ``nonpromote``, ``clock``, a piece letter."""
        self._emit(PlayerInput(self.clock(), value))

    def set_position(self, board: Board | str) -> None:
        """Put the pieces of a whole position on the board (one frame)."""
        position = Board(board) if isinstance(board, str) else board
        self._set_kinds(position)
        self._emit(self.frame())

    async def play_move(self, board: Board, move: Move, *, delay: float | None = None) -> None:
        """Make ``move`` (legal in ``board``, which is not changed) the way a hand does."""
        wait = self.step_delay if delay is None else delay
        after = board.copy(stack=False)
        after.push(move)
        piece = after.piece_at(move.to_square)
        assert piece is not None
        if move.from_square is not None:
            self.lift(move.from_square)
            await asyncio.sleep(wait)
            if board.piece_at(move.to_square) is not None:  # a capture: take the piece off
                self.lift(move.to_square)
                await asyncio.sleep(wait)
        self.place(move.to_square, kind=piece.piece_type)
        await asyncio.sleep(wait)

    async def request_frame(self) -> None:
        self._emit(self.frame())

    # ------------------------------------------------------------------ the cable
    def disconnect(self) -> None:
        """Pull the cable: :meth:`events` raises :class:`SourceDisconnected`."""
        self.connected = False
        self._queue.put_nowait(_Disconnect())

    def reconnect(self) -> None:
        self.connected = True

    # ------------------------------------------------------------------ SensorSource
    async def events(self) -> AsyncIterator[SensorEvent]:
        while not self.connected and not self.closed:
            await asyncio.sleep(0.05)
        if self.closed:
            return
        # drop what queued while unplugged; the first event is a full frame
        while not self._queue.empty():
            self._queue.get_nowait()
        yield self.frame()
        while not self.closed:
            item = await self._queue.get()
            if isinstance(item, _Disconnect):
                if self.closed:
                    return
                raise SourceDisconnected("simulated board unplugged")
            yield item

    async def close(self) -> None:
        self.closed = True
        self._queue.put_nowait(_Disconnect())


class LogReplaySource(SensorSource):
    """Replays a sensor log. ``speed`` 1.0 is real time, 10 ten times faster.

    Event times are rescaled onto the daemon's clock: an event logged ``d`` seconds after
    the first is stamped ``start + d / speed`` and emitted then, so the tracker's settle
    timers see the log's pauses shortened by ``speed`` as well (keep ``speed`` modest for
    logs with fast captures). When the log ends, :meth:`events` waits (the game stays open)
    unless ``end_after`` is set.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        speed: float = 1.0,
        clock: Clock = time.monotonic,
        stop_at_end: bool = False,
    ) -> None:
        if speed <= 0:
            raise ValueError(f"speed must be positive: {speed}")
        self.path = Path(path)
        self.speed = speed
        self.clock = clock
        self.stop_at_end = stop_at_end
        self.finished = asyncio.Event()
        self._events: list[SensorEvent] | None = None
        self._closed = False

    @classmethod
    def from_settings(cls, values: Mapping[str, Any] | None) -> LogReplaySource:
        s = Settings("board.settings", values)
        path = s.text("path")
        speed = s.number("speed", 1.0, lo=0.001)
        stop = s.boolean("stop_at_end", False)
        s.finish()
        return cls(path, speed=speed, stop_at_end=stop)

    def load(self) -> list[SensorEvent]:
        """Read and check the whole log (errors name the line)."""
        if self._events is None:
            try:
                lines = self.path.read_text(encoding="utf-8").splitlines()
            except OSError as exc:
                raise DriverConfigError(f"cannot read sensor log {self.path}: {exc}") from None
            events: list[SensorEvent] = []
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    events.append(parse_event(line))
                except SensorLogError as exc:
                    raise SensorLogError(f"{self.path}:{number}: {exc}") from None
            if not events or not isinstance(events[0], SensorFrame):
                raise SensorLogError(f"{self.path}: a sensor log starts with a board frame")
            self._events = events
        return self._events

    async def start(self) -> None:
        self.load()

    async def events(self) -> AsyncIterator[SensorEvent]:
        events = self.load()
        t0 = events[0].t
        start = self.clock()
        for event in events:
            if self._closed:
                return
            due = start + (event.t - t0) / self.speed
            delay = due - self.clock()
            if delay > 0:
                await asyncio.sleep(delay)
            if isinstance(event, SensorFrame):
                yield SensorFrame(due, event.cells)
            else:
                yield PlayerInput(due, event.value)
        self.finished.set()
        LOGGER.info("sensor log %s replayed to its end", self.path)
        if self.stop_at_end:
            return
        while not self._closed:
            await asyncio.sleep(3600)

    async def close(self) -> None:
        self._closed = True
