"""The on-screen simulator: the mouse (or a finger) lifts and places pieces on a virtual board.

:class:`Simulator` turns pointer events into physical actions on a
:class:`~board_bridge.ui.virtual.VirtualBoard` (lift a piece, put it down,
capture, take a piece from a komadai, drop it) and hands every change of
occupancy to a *hand*: an object with ``lift(sq)``, ``place(sq, promoted, kind)`` and
``press(value)``, such as the daemon's :class:`~board_bridge.app.simulated.SimulatedBoard`,
which turns them into the same sensor events a real board sends. A question
button pressed on the screen becomes ``press("promote")`` and so on.

Pointer handling (mouse and touch alike):

- press on a piece (board or komadai) picks it up; it follows the pointer;
- release over an empty square puts it there; over an opponent's piece captures
  it (the captured piece goes to the mover's komadai, the square empties and
  fills as in a real capture); over a komadai lays it there; a release where it
  was picked up (a click) keeps it in the hand until the next click;
- the right button, or Escape, puts the held piece back where it came from;
- the middle button, or F, turns the piece under the pointer over (seen by polarity boards).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Protocol

import pygame

from board_bridge.shogi import Board, Move, Piece, PieceType
from board_bridge.tracker.events import EMPTY
from board_bridge.ui.layout import Layout
from board_bridge.ui.view import Held, Question
from board_bridge.ui.virtual import PhysicalError, VirtualBoard

LOGGER = logging.getLogger(__name__)

#: Pixels the pointer must travel before a press counts as a drag (not a click).
DRAG_THRESHOLD = 6
MOUSE_EVENTS = frozenset({pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION})


class Hand(Protocol):
    """What the simulator drives: the sensor side of a simulated board."""

    def lift(self, sq: int) -> None: ...

    def place(self, sq: int, promoted: bool | None = None, kind: int | None = None) -> None: ...

    def press(self, value: str) -> None: ...


class Simulator:
    """Pointer events -> physical actions on the virtual board -> sensor events via ``hand``.

    ``question`` returns the question the game is waiting on (its buttons are live);
    ``on_change`` is called after anything visible changed (for a redraw);
    ``capture_gap``: seconds between the target emptying and filling in a capture.
    """

    def __init__(
        self,
        layout: Layout,
        virtual: VirtualBoard,
        hand: Hand,
        question: Callable[[], Question | None] = lambda: None,
        on_change: Callable[[], None] | None = None,
        capture_gap: float = 0.15,
    ) -> None:
        self.layout = layout
        self.virtual = virtual
        self.hand = hand
        self.question = question
        self.on_change = on_change
        self.pointer: tuple[int, int] = (0, 0)
        self._cells = virtual.cells()
        self._press: tuple[int, int] | None = None
        self._lifted_now = False  # the current press picked the piece up
        self.capture_gap = capture_gap
        self._not_before = 0.0  # loop time before which no report may go (keeps order)
        self.messages: list[str] = []

    # ------------------------------------------------------------------ state for the view

    def held(self) -> tuple[Held, ...]:
        piece = self.virtual.held
        return () if piece is None else (Held(piece, self.pointer),)

    def resync(self, board: Board) -> bool:
        """Take the pieces' kinds from the game's position when the occupancy agrees."""
        if self.virtual.sync(board):
            self._cells = self.virtual.cells()
            return True
        return False

    def reset(self, board: Board) -> None:
        """Stand the pieces as in ``board`` on the virtual board (the sensors see it all)."""
        self.virtual.set_position(Board(board.sfen()))
        cells = self.virtual.cells()
        set_position = getattr(self.hand, "set_position", None)
        if set_position is not None:
            set_position(board.sfen())  # one frame of the whole board
            self._cells = cells
        else:
            self._report(cells)
        self._changed()

    # ------------------------------------------------------------------ events

    def handle(self, event: pygame.event.Event) -> bool:
        """Handle one pygame event; returns whether it was the simulator's.

        Mouse buttons: 1 lifts and places, 2 turns the piece under the pointer over, 3 puts
        the held piece back. A finger is button 1; the mouse events SDL makes up from a
        touch (``event.touch``) are ignored, so a touch counts once.
        """
        et = event.type
        if et in MOUSE_EVENTS and getattr(event, "touch", False):
            return True
        if et in (pygame.MOUSEMOTION, pygame.FINGERMOTION):
            self.pointer = self._pos(event)
            if self.virtual.held is not None and self.on_change:
                self.on_change()
            return True
        if et == pygame.MOUSEBUTTONDOWN or et == pygame.FINGERDOWN:
            button = getattr(event, "button", 1)
            self.pointer = self._pos(event)
            if button == 1:
                self.press_at(*self.pointer)
            elif button == 2:
                self.flip_at(*self.pointer)
            elif button == 3:
                self.cancel()
            return True
        if et == pygame.MOUSEBUTTONUP or et == pygame.FINGERUP:
            self.pointer = self._pos(event)
            if getattr(event, "button", 1) == 1:
                self.release_at(*self.pointer)
            return True
        if et == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.virtual.held is not None:
            self.cancel()
            return True
        if et == pygame.KEYDOWN and event.key == pygame.K_f:
            self.flip_at(*self.pointer)
            return True
        return False

    def flip_at(self, x: int, y: int) -> None:
        """Turn the piece on the square under a point over (promote or unpromote it).

        Only polarity and identity boards' sensors see that (a magnet or a tag per face);
        on an occupancy board the board asks instead, and the virtual piece follows the
        answer."""
        sq = self.layout.square_at(x, y)
        if sq is None or self.virtual.squares[sq] is None:
            return
        try:
            self.virtual.flip(sq)
        except PhysicalError as exc:
            self._note(str(exc))
            return
        piece = self.virtual.squares[sq]
        flip = getattr(self.hand, "flip", None)
        if flip is not None and getattr(self.hand, "sensing", "occupancy") != "occupancy":
            promoted = piece is not None and piece.is_promoted()
            self._schedule(lambda: flip(sq, promoted))
        self._changed()

    def _pos(self, event: pygame.event.Event) -> tuple[int, int]:
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
            # touch coordinates are 0..1 of the window
            return (int(event.x * self.layout.width), int(event.y * self.layout.height))
        x, y = event.pos
        return (int(x), int(y))

    def press_at(self, x: int, y: int) -> None:
        """A press (mouse button down, finger down) at a point."""
        self._press = (x, y)
        self._lifted_now = False
        q = self.question()
        if q is not None:
            option = self.layout.button_at(q.options, x, y)
            if option is not None:
                self._schedule(lambda: self.hand.press(option))
                self._press = None
                self._changed()
                return
        if self.virtual.held is not None:
            self.put_at(x, y)  # click-to-place: the piece was already in the hand
            self._press = None
            return
        sq = self.layout.square_at(x, y)
        try:
            if sq is not None and self.virtual.squares[sq] is not None:
                self._report_all(self.virtual.lift(sq))
                self._lifted_now = True
                return
            slot = self.layout.hand_slot_at(x, y)
            if slot is not None and self.virtual.hand_count(*slot):
                self.virtual.take_from_hand(*slot)
                self._lifted_now = True
                self._changed()
        except PhysicalError as exc:
            self._note(str(exc))

    def release_at(self, x: int, y: int) -> None:
        """A release (mouse button up, finger up) at a point."""
        start = self._press
        self._press = None
        if self.virtual.held is None or start is None or not self._lifted_now:
            return
        moved = abs(x - start[0]) + abs(y - start[1]) > DRAG_THRESHOLD
        if not moved:
            return  # a click: keep holding the piece until the next click
        self.put_at(x, y)

    def put_at(self, x: int, y: int) -> None:
        """Put the held piece down at a point: a square, a capture, or a komadai."""
        piece = self.virtual.held
        if piece is None:
            return
        sq = self.layout.square_at(x, y)
        try:
            if sq is not None:
                target = self.virtual.squares[sq]
                if target is None:
                    self._report_all(self.virtual.place(sq))
                elif target.color != piece.color:
                    self._report_all(self.virtual.capture(sq))
                else:
                    self._note("that square is taken by your own piece")
                return
            color = self.layout.hand_at(x, y)
            if color is not None:
                self.virtual.put_in_hand(color)
                self._changed()
        except PhysicalError as exc:
            self._note(str(exc))

    def cancel(self) -> None:
        """Put the held piece back where it came from."""
        self._report_all(self.virtual.put_back())
        self._press = None
        self._changed()

    # ------------------------------------------------------------------ scripted moves

    async def play(self, board: Board, move: Move, delay: float = 0.3) -> None:
        """Make ``move`` (legal in ``board``) on the virtual board the way a hand does,
        waiting ``delay`` seconds between the steps (the engine's move, or a demo)."""
        if self.virtual.held is not None:
            self.cancel()
        mover = board.turn
        if move.from_square is None:
            assert move.drop_piece_type is not None
            self.virtual.take_from_hand(mover, move.drop_piece_type)
            self._changed()
            await asyncio.sleep(delay)
            self._report_all(self.virtual.place(move.to_square))
            return
        self._report_all(self.virtual.lift(move.from_square))
        await asyncio.sleep(delay)
        if self.virtual.squares[move.to_square] is not None:
            self._report_all(self.virtual.remove_to_hand(move.to_square, mover))
            await asyncio.sleep(delay)
        if move.promotion:
            self.virtual.held = _promoted(self.virtual.held)
        self._report_all(self.virtual.place(move.to_square))

    # ------------------------------------------------------------------ reporting

    def _report_all(self, changes: list[str]) -> None:
        """Report occupancy changes to the hand, in order. Where a gesture makes several
        (a capture: the target empties, then fills), the later ones follow ``capture_gap``
        seconds apart when an event loop runs, as they would under a real hand."""
        for i, cells in enumerate(changes):
            ops = self._diff(cells)
            if ops:
                self._schedule(functools.partial(self._send, ops), self.capture_gap if i else 0.0)
        self._changed()

    def _diff(self, cells: str) -> list[tuple[int, bool, int | None]]:
        """(square, now occupied, the piece type on it) for each square that changed."""
        ops = []
        for sq, (old, new) in enumerate(zip(self._cells, cells)):
            if old != new:
                piece = self.virtual.squares[sq]
                ops.append((sq, new != EMPTY, None if piece is None else piece.piece_type))
        self._cells = cells
        return ops

    def _schedule(self, action: Callable[[], None], gap: float = 0.0) -> None:
        """Run ``action`` now, or after the reports still waiting (and ``gap`` seconds)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or (gap <= 0 and loop.time() >= self._not_before):
            action()
            return
        when = max(loop.time(), self._not_before) + gap
        self._not_before = when + 1e-6  # keeps later reports after this one
        loop.call_at(when, action)

    def _send(self, ops: list[tuple[int, bool, int | None]]) -> None:
        for sq, occupied, kind in ops:
            if occupied:
                self.hand.place(sq, kind=kind)
            else:
                self.hand.lift(sq)

    def _report(self, cells: str) -> None:
        self._report_all([cells])

    def _note(self, message: str) -> None:
        LOGGER.debug("simulator: %s", message)
        self.messages.append(message)
        del self.messages[:-5]
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()


def _promoted(piece: Piece | None) -> Piece | None:
    if piece is None or piece.is_promoted():
        return piece
    pt: PieceType = piece.piece_type + 8
    return Piece(pt, piece.color)
