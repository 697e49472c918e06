"""LED sinks of the app: a small board in the terminal, a recorder for tests and benches, none.

:class:`TerminalLedSink` draws the pieces and the LED intents (ANSI background colours on a
terminal, a mark character beside each piece in plain text otherwise). The daemon gives it
the position and a status line through :meth:`TerminalLedSink.set_context`; a hardware sink
gets only the intents.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TextIO

from board_bridge.drivers.base import LedSink
from board_bridge.drivers.settings import Settings
from board_bridge.shogi import BLACK, WHITE, Board, piece_type_symbol
from board_bridge.tracker.intents import LedIntents, Mark

#: One character per mark for plain text (and the legend).
MARK_CHARS: Final = {
    Mark.NONE: " ",
    Mark.LAST_MOVE: ".",
    Mark.TARGET: "+",
    Mark.HINT: "h",
    Mark.ENGINE_FROM: "<",
    Mark.ENGINE_TO: ">",
    Mark.LIFTED: "^",
    Mark.CHECK: "!",
    Mark.QUESTION: "?",
    Mark.FILL: "F",
    Mark.CLEAR: "C",
    Mark.ERROR: "#",
    Mark.GAME_OVER: "*",
}
#: ANSI background colours (SGR codes) of the marks on a terminal.
MARK_COLOURS: Final = {
    Mark.LAST_MOVE: "44",
    Mark.TARGET: "42",
    Mark.HINT: "46",
    Mark.ENGINE_FROM: "45",
    Mark.ENGINE_TO: "105",
    Mark.LIFTED: "43",
    Mark.CHECK: "41",
    Mark.QUESTION: "103;30",
    Mark.FILL: "102;30",
    Mark.CLEAR: "104",
    Mark.ERROR: "101",
    Mark.GAME_OVER: "41",
}
LEGEND: Final = (
    "marks: < > engine move  ^ lifted  + target  . last move  ! check  ? question  "
    "F fill  C clear  # error  h hint  * game over"
)


def piece_text(board: Board | None, sq: int) -> str:
    """Two characters: `` P``, ``+R`` (black), `` p``, ``+r`` (white), `` ·`` (empty)."""
    piece = board.piece_at(sq) if board is not None else None
    if piece is None:
        return " ·"
    sym = piece_type_symbol(piece.piece_type)
    if piece.color == WHITE:
        sym = sym.lower()
    return sym.rjust(2)


def hand_text(board: Board, color: int) -> str:
    hand = board.pieces_in_hand[color]
    if not hand:
        return "-"
    items = []
    for pt, n in hand.items():
        sym = piece_type_symbol(pt)
        items.append((sym if color == BLACK else sym.lower()) + (str(n) if n > 1 else ""))
    return " ".join(items)


def render_board(
    intents: LedIntents, board: Board | None, *, colour: bool = False, status: str = ""
) -> str:
    """The board as text: files 9..1 across, ranks a..i down, each square marked."""
    lines = []
    if status:
        lines.append(status)
    if board is not None:
        lines.append(f"  white hand: {hand_text(board, WHITE)}")
    lines.append("   " + "".join(f" {f}  " for f in range(9, 0, -1)))
    for rank in range(9):
        row = []
        for sq in range(rank * 9, rank * 9 + 9):
            mark = intents.mark(sq)
            text = piece_text(board, sq)
            if colour:
                code = MARK_COLOURS.get(mark)
                cell = f" {text} "
                row.append(f"\x1b[{code}m{cell}\x1b[0m" if code else cell)
            else:
                row.append(f"{MARK_CHARS[mark]}{text} ")
        lines.append(f"  |{''.join(row)}| {'abcdefghi'[rank]}")
    if board is not None:
        lines.append(f"  black hand: {hand_text(board, BLACK)}")
    lines.extend(describe_intents(intents))
    return "\n".join(lines)


def describe_intents(intents: LedIntents) -> list[str]:
    """The words a screen shows beside the lights."""
    out = []
    if intents.engine_move:
        drop = f" (drop {intents.engine_drop})" if intents.engine_drop else ""
        out.append(f"  engine move to make: {intents.engine_move}{drop}")
    if intents.question:
        out.append(f"  question: {intents.question}")
    if intents.reason:
        out.append(f"  error: {intents.reason}")
    if intents.game_over:
        out.append(f"  game over: {intents.game_over}")
    return out


class TerminalLedSink(LedSink):
    """Draws the board and its LED intents on a terminal (or plain text in a pipe/file).

    ``colour``/``redraw``: ANSI colours and drawing in place; both default to whether the
    stream is a terminal. Identical consecutive pictures are not printed again.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        colour: bool | None = None,
        redraw: bool | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stdout
        tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.colour = tty if colour is None else colour
        self.redraw = tty if redraw is None else redraw
        self.board: Board | None = None
        self.status = ""
        self._last = ""
        self.frames = 0

    @classmethod
    def from_settings(cls, values: Mapping[str, Any] | None) -> TerminalLedSink:
        s = Settings("leds.settings", values)
        colour = s.raw("colour", None)
        redraw = s.raw("redraw", None)
        for key, value in (("colour", colour), ("redraw", redraw)):
            if value is not None and not isinstance(value, bool):
                raise s.error(key, f"must be true or false, got {value!r}")
        s.finish()
        return cls(colour=colour, redraw=redraw)

    def set_context(self, board: Board | None, status: str = "") -> None:
        """The position and a status line to draw with the next intents."""
        self.board = board
        self.status = status

    async def show(self, intents: LedIntents) -> None:
        text = render_board(intents, self.board, colour=self.colour, status=self.status)
        if text == self._last:
            return
        self._last = text
        self.frames += 1
        prefix = "\x1b[H\x1b[2J" if self.redraw else ""
        try:
            self.stream.write(f"{prefix}{text}\n\n")
            self.stream.flush()
        except (BrokenPipeError, ValueError):  # the reader went away: the game goes on
            pass

    async def close(self) -> None:
        if self.redraw and self.colour:
            try:
                self.stream.write("\x1b[0m")
                self.stream.flush()
            except (BrokenPipeError, ValueError):
                pass


class NullSink(LedSink):
    """No LEDs (a board without lights, or a daemon run under systemd without a screen)."""

    async def show(self, intents: LedIntents) -> None:
        return None


@dataclass(frozen=True)
class ShownFrame:
    t: float
    intents: LedIntents


class RecordingSink(LedSink):
    """Keeps every frame shown, stamped with ``clock()``; ``on_show`` is called for each."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.frames: list[ShownFrame] = []
        self.on_show: Callable[[ShownFrame], None] | None = None
        self.closed = False

    async def show(self, intents: LedIntents) -> None:
        frame = ShownFrame(self.clock(), intents)
        self.frames.append(frame)
        if self.on_show is not None:
            self.on_show(frame)

    @classmethod
    def from_settings(cls, values: Mapping[str, Any] | None) -> RecordingSink:
        Settings("leds.settings", values).finish()
        return cls()

    @property
    def last(self) -> LedIntents | None:
        return self.frames[-1].intents if self.frames else None

    async def close(self) -> None:
        self.closed = True


class TeeSink(LedSink):
    """Shows the same intents on several sinks (the board's LEDs and the terminal)."""

    def __init__(self, *sinks: LedSink) -> None:
        self.sinks = sinks

    async def start(self) -> None:
        for sink in self.sinks:
            await sink.start()

    async def show(self, intents: LedIntents) -> None:
        for sink in self.sinks:
            await sink.show(intents)

    async def close(self) -> None:
        for sink in self.sinks:
            await sink.close()
