"""The screen in the daemon: the board view as an LED sink, and the simulator as a sensor source.

``board-bridge sim`` runs the daemon (:class:`board_bridge.app.daemon.Daemon`) with a
:class:`~board_bridge.app.simulated.SimulatedBoard` driven by the mouse as its source and
:class:`ScreenSink` as its LEDs; ``board-bridge view`` runs it with the configured board
and LEDs, and the screen beside them (its question buttons reach the daemon as player
inputs, like the board's own buttons). Either way the game goes through the same
tracker, journal, clock and engine as on a real board.

:class:`Screen` is one asyncio task beside the daemon's: each frame it handles pygame's
events, builds a :class:`~board_bridge.ui.view.ViewState` from the daemon's game and
draws it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import pygame

from board_bridge.drivers.base import LedSink
from board_bridge.shogi import BLACK, Board, Move
from board_bridge.tracker.events import PlayerInput
from board_bridge.tracker.intents import LedIntents
from board_bridge.ui.glyphs import Fonts
from board_bridge.ui.layout import Layout
from board_bridge.ui.sim import Simulator
from board_bridge.ui.view import BoardView, ClockView, EngineView, Question, ViewState
from board_bridge.ui.virtual import VirtualBoard

LOGGER = logging.getLogger(__name__)

DEFAULT_SIZE: Final = (1024, 600)
#: Video drivers tried in turn when none is set: a desktop first, then the console.
#: kmsdrm is SDL2's (pygame 2) way onto a Pi screen without a desktop; fbcon was SDL1's.
CONSOLE_DRIVERS: Final = ("kmsdrm", "fbcon", "directfb")


class DisplayError(RuntimeError):
    """No video driver could open a screen."""


# --------------------------------------------------------------------------- daemon glue


class ScreenSink(LedSink):
    """The screen as an LED sink: keeps the intents the daemon shows (for the overlay)."""

    def __init__(self) -> None:
        self.intents = LedIntents()
        self.frames = 0

    async def show(self, intents: LedIntents) -> None:
        self.intents = intents
        self.frames += 1


class BesideSink(LedSink):
    """The board's own LED sink and the screen together. Unlike a plain tee it passes the
    daemon's context (the position, a status line) on to the sinks that draw it."""

    def __init__(self, leds: LedSink, screen: ScreenSink) -> None:
        self.leds = leds
        self.screen = screen
        self.redraw = bool(getattr(leds, "redraw", False))

    def set_context(self, board: Board | None, status: str = "") -> None:
        set_context = getattr(self.leds, "set_context", None)
        if set_context is not None:
            set_context(board, status)

    async def start(self) -> None:
        await self.leds.start()
        await self.screen.start()

    async def show(self, intents: LedIntents) -> None:
        await self.screen.show(intents)  # the screen first: it cannot fail
        await self.leds.show(intents)

    async def close(self) -> None:
        try:
            await self.leds.close()
        finally:
            await self.screen.close()


class ScreenButtons:
    """The screen's question buttons as a button set for
    :class:`board_bridge.drivers.buttons.WithButtons`: a press becomes a player input."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._deliver: Callable[[PlayerInput], None] | None = None

    def open(self, deliver: Callable[[PlayerInput], None]) -> None:
        self._deliver = deliver

    def press(self, value: str) -> None:
        if self._deliver is not None:
            self._deliver(PlayerInput(self.clock(), value))

    def close(self) -> None:
        self._deliver = None


@dataclass
class Analysis:
    """The engine's latest evaluation and best line, as the engine saw its position."""

    position: Board
    info: Any  # board_bridge.engine.protocol.Info


class ObservedEngine:
    """Wraps the daemon's engine player and keeps what its searches reported, for the screen."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.latest: Analysis | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    @property
    def name(self) -> str:
        return str(self._engine.name)

    def _note(self, position: str, moves: Sequence[str], info: Any) -> None:
        if info is None:
            return
        try:
            board = Board(
                position.removeprefix("sfen ").strip() if position != "startpos" else None
            )
            for usi in moves:
                board.push_usi(usi)
        except ValueError:
            return
        self.latest = Analysis(board, info)

    async def play(self, position: str, moves: Sequence[str], limit: Any, **kwargs: Any) -> Any:
        result = await self._engine.play(position, moves, limit, **kwargs)
        self._note(position, moves, getattr(result, "info", None))
        return result

    async def analyse(self, position: str, moves: Sequence[str], limit: Any) -> Any:
        info = await self._engine.analyse(position, moves, limit)
        self._note(position, moves, info)
        return info


def engine_view(
    analysis: Analysis | None, name: str = "", shown: Board | None = None
) -> EngineView | None:
    """The engine's report turned to sente's point of view.

    With ``shown`` (the position on the screen), the best line starts there: the moves of
    it already played are left out (the engine's own move, once made), and a line the game
    has left is not shown (its score still is, until the next search)."""
    if analysis is None:
        return None
    info = analysis.info
    score = getattr(info, "score", None)
    sign = 1 if analysis.position.turn == BLACK else -1
    cp = mate = None
    if score is not None:
        if getattr(score, "cp", None) is not None:
            cp = sign * int(score.cp)
        elif getattr(score, "mate_side", 0):
            plies = score.mate if score.mate is not None else 0
            mate = sign * (abs(plies) or 1) * (1 if score.mate_side > 0 else -1)
    pv = tuple(getattr(info, "pv", ()) or ())
    start = analysis.position
    if shown is not None:
        pv, start = _line_from(analysis.position, pv, shown)
    return EngineView(cp, mate, pv, getattr(info, "depth", None), name, start)


def _line_from(position: Board, pv: tuple[str, ...], shown: Board) -> tuple[tuple[str, ...], Board]:
    """The rest of ``pv`` from ``shown`` if ``shown`` lies on it, else no line."""
    key = (shown.position_key(), shown.ply)
    board = position.copy(stack=False)
    for i in range(len(pv) + 1):
        if (board.position_key(), board.ply) == key:
            return pv[i:], board
        if i == len(pv):
            break
        try:
            move = Move.from_usi(pv[i])
        except ValueError:
            break
        if not board.is_legal(move):
            break
        board.push(move)
    return (), shown


def clock_view(clock: Any, t: float) -> ClockView | None:
    """The daemon's game clock as the view shows it (None without a time control).
    Each side has its own control (time odds)."""
    controls = getattr(clock, "controls", (clock.control, clock.control))
    if all(c.kind == "none" for c in controls):
        return None
    remaining = (clock.remaining(0, t), clock.remaining(1, t))
    byo: list[float | None] = [None, None]
    for color in (0, 1):
        control = controls[color]
        if control.kind != "byoyomi":
            continue
        if remaining[color] > 0:
            byo[color] = control.byoyomi
            continue
        spent = 0.0
        if clock.running == color:
            spent = clock.used_this_turn(t) - clock.remaining(color)
        byo[color] = control.byoyomi - (spent % control.byoyomi) if spent > 0 else control.byoyomi
    return ClockView(remaining, (byo[0], byo[1]), clock.running)


# --------------------------------------------------------------------------- the display


def open_display(
    size: tuple[int, int] = DEFAULT_SIZE, fullscreen: bool = False, title: str = "board-bridge"
) -> pygame.Surface:
    """Open the screen: a window on a desktop, or the whole screen of a Pi without one.

    ``SDL_VIDEODRIVER`` is honoured when set. Otherwise, with no desktop (no ``DISPLAY``
    or ``WAYLAND_DISPLAY``) the console drivers are tried in turn: kmsdrm (SDL2), then fbcon
    and directfb (older SDL builds); a console screen is always fullscreen.
    """
    drivers: list[str | None]
    if os.environ.get("SDL_VIDEODRIVER"):
        drivers = [None]
    elif sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        drivers = list(CONSOLE_DRIVERS)
        fullscreen = True
    else:
        drivers = [None]
    errors: list[str] = []
    for driver in drivers:
        if driver is not None:
            os.environ["SDL_VIDEODRIVER"] = driver
        try:
            pygame.display.init()
            pygame.display.set_caption(title)
            if fullscreen:
                return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            return pygame.display.set_mode(size, pygame.RESIZABLE)
        except pygame.error as exc:
            errors.append(f"{driver or os.environ.get('SDL_VIDEODRIVER') or 'default'}: {exc}")
            pygame.display.quit()
            if driver is not None:
                del os.environ["SDL_VIDEODRIVER"]
    raise DisplayError("cannot open a screen (" + "; ".join(errors) + ")")


# --------------------------------------------------------------------------- the screen


class Screen:
    """The board view (and, with ``board``, the simulator) beside a running daemon.

    ``board`` is the simulated board the mouse plays on (``board-bridge sim``); without it
    the view shows the game's position and its buttons press ``buttons`` (``board-bridge
    view``). ``auto_engine``: in the simulator, make the engine's moves on the virtual
    board by themselves (else the player makes them, following the lights).
    """

    def __init__(
        self,
        daemon: Any,
        sink: ScreenSink,
        *,
        board: Any | None = None,
        buttons: ScreenButtons | None = None,
        engine: ObservedEngine | None = None,
        surface: pygame.Surface | None = None,
        size: tuple[int, int] = DEFAULT_SIZE,
        fonts: Fonts | None = None,
        fps: float = 30.0,
        auto_engine: bool = True,
        engine_delay: float = 0.3,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.daemon = daemon
        self.sink = sink
        self.board = board
        self.buttons = buttons
        self.engine = engine
        self.surface = surface
        self.fonts = fonts if fonts is not None else Fonts()
        self.fps = fps
        self.auto_engine = auto_engine
        self.engine_delay = engine_delay
        self.now = clock
        self.layout = Layout.for_size(*(surface.get_size() if surface is not None else size))
        self.view = BoardView(self.layout, self.fonts)
        self.simulator: Simulator | None = None
        if board is not None:
            self.virtual = VirtualBoard(Board(daemon.config.game.start_sfen))
            self.simulator = Simulator(self.layout, self.virtual, board, self.question)
        self.frames = 0
        self.closed = False
        self._playing: asyncio.Task[None] | None = None
        self._played: Move | None = None
        self._new_game_asked: float | None = None
        self._engine_key: tuple[object, ...] = ()
        self._engine_cache: EngineView | None = None

    # ------------------------------------------------------------------ state

    def game(self) -> Any | None:
        return getattr(self.daemon, "game", None)

    def question(self) -> Question | None:
        q = Question.from_intents(self.sink.intents)
        if q is not None:
            return q
        game = self.game()
        pending = getattr(game.tracker, "pending_question", None) if game is not None else None
        if pending is not None:
            return Question(pending.kind, tuple(pending.options), pending.square)
        return None

    def state(self) -> ViewState:
        """What to draw now."""
        t = self.now()
        game = self.game()
        intents = self.sink.intents
        kwargs: dict[str, Any] = {"intents": intents, "t": t, "question": self.question()}
        board: Board | None = game.board if game is not None else None
        if game is not None:
            kwargs["clocks"] = clock_view(game.clock, t)
            if game.outcome is not None:
                kwargs["game_over"] = str(game.outcome)
            elif not game.started:
                kwargs["message"] = "set up the board as shown" if self.simulator is None else None
        if self.engine is not None:
            kwargs["engine"] = self._engine_view(board)
        if self.simulator is not None:
            if self.simulator.messages and "message" not in kwargs:
                kwargs["message"] = self.simulator.messages[-1]
            kwargs["held"] = self.simulator.held()
            if board is None:
                board = Board(self.daemon.config.game.start_sfen)
            state = ViewState.from_board(board, **kwargs)
            return ViewState(
                **{
                    **state.__dict__,
                    "pieces": tuple(self.virtual.squares),
                    "hands": (self.virtual.hand_view(0), self.virtual.hand_view(1)),
                }
            )
        if board is None:
            board = Board()
        return ViewState.from_board(board, **kwargs)

    def _engine_view(self, board: Board | None) -> EngineView | None:
        assert self.engine is not None
        latest = self.engine.latest
        key = (id(latest), board.position_key() if board is not None else None)
        if key != self._engine_key:
            self._engine_key = key
            self._engine_cache = engine_view(latest, self.engine.name, board)
        return self._engine_cache

    # ------------------------------------------------------------------ events

    def resize(self, size: tuple[int, int]) -> None:
        self.layout = Layout.for_size(*size)
        self.view = BoardView(self.layout, self.fonts)
        if self.simulator is not None:
            self.simulator.layout = self.layout

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event: quit, resize, keys, then the simulator or the view's buttons."""
        if event.type == pygame.QUIT:
            self.close()
            return
        if event.type == pygame.VIDEORESIZE and self.surface is not None:
            flags = self.surface.get_flags()
            self.surface = pygame.display.set_mode(event.size, flags)
            self.resize(event.size)
            return
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_q or (
                event.key == pygame.K_ESCAPE
                and (self.simulator is None or self.simulator.virtual.held is None)
            ):
                self.close()
                return
            if event.key == pygame.K_F11:
                with contextlib.suppress(pygame.error):
                    pygame.display.toggle_fullscreen()
                return
            if event.key == pygame.K_n and self.simulator is not None:
                self.new_game()
                return
            if event.key == pygame.K_r and event.mod & pygame.KMOD_CTRL:
                self.press("resign")  # the side to move resigns
                return
        if self.simulator is not None:
            self.simulator.handle(event)
            return
        if event.type == pygame.FINGERDOWN or (
            event.type == pygame.MOUSEBUTTONDOWN
            and getattr(event, "button", 1) == 1
            and not getattr(event, "touch", False)  # SDL's copy of a touch: counted once
        ):
            if event.type == pygame.FINGERDOWN:
                x, y = event.x * self.layout.width, event.y * self.layout.height
            else:
                x, y = event.pos
            q = self.question()
            if q is not None:
                option = self.layout.button_at(q.options, x, y)
                if option is not None:
                    self.press(option)

    def press(self, value: str) -> None:
        """A player input from the screen (a button, a key)."""
        if self.board is not None:
            self.board.press(value)
        elif self.buttons is not None:
            self.buttons.press(value)

    def new_game(self) -> None:
        """Simulator: set the pieces up for the next game (the start position)."""
        assert self.simulator is not None
        game = self.game()
        sfen = self.daemon.config.game.start_sfen
        if game is not None and game.outcome is None and game.started:
            return  # a game is on: finish it first
        self.simulator.reset(Board(sfen))
        self._new_game_asked = self.now()

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            self.daemon.stop("the screen was closed")

    # ------------------------------------------------------------------ simulator upkeep

    def upkeep(self) -> None:
        """Keep the virtual board in step with the game: piece kinds after a question was
        answered; the set-up when a game is waiting for it; the engine's moves."""
        sim = self.simulator
        game = self.game()
        if sim is None or game is None or sim.virtual.held is not None:
            return
        board = game.board
        if self._new_game_asked is not None:
            # the daemon starts the next game on a change of the board a moment after the
            # end: show it the set-up again until it does
            if game.outcome is None:
                self._new_game_asked = None
            elif self.now() - self._new_game_asked > 1.0 and self.board is not None:
                self._new_game_asked = self.now()
                self.board.set_position(self.daemon.config.game.start_sfen)
            return
        if game.outcome is None and not game.started and not sim.virtual.matches(board):
            if self._playing is None or self._playing.done():
                sim.reset(board)  # a resumed or new game: stand the pieces as the game needs
            return
        sim.resync(board)
        move = game.engine_move if self.auto_engine else None
        if (
            move is not None
            and move != self._played
            and (self._playing is None or self._playing.done())
            and board.is_legal(move)
        ):
            self._played = move
            self._playing = asyncio.create_task(sim.play(board.copy(), move, self.engine_delay))
        if move is None:
            self._played = None

    # ------------------------------------------------------------------ drawing

    def draw(self, target: pygame.Surface | None = None) -> pygame.Surface:
        """Draw one frame on ``target`` (the screen by default)."""
        surf = target if target is not None else self.surface
        if surf is None:
            surf = pygame.Surface((self.layout.width, self.layout.height))
        self.view.draw(surf, self.state())
        self.frames += 1
        return surf

    def step(self, events: Iterable[pygame.event.Event] = ()) -> None:
        """One frame's work without waiting: events, upkeep, drawing."""
        for event in events:
            self.handle(event)
        self.upkeep()
        if self.surface is not None:
            self.draw()
            if pygame.display.get_init() and self.surface is pygame.display.get_surface():
                pygame.display.flip()

    async def run(self) -> None:
        """Frames until the screen is closed or the daemon stops."""
        period = 1.0 / self.fps
        while not self.closed:
            started = time.monotonic()
            self.step(pygame.event.get() if pygame.display.get_init() else ())
            await asyncio.sleep(max(0.001, period - (time.monotonic() - started)))
        if self._playing is not None:
            self._playing.cancel()


async def run_with_screen(daemon: Any, screen: Screen) -> None:
    """Run the daemon and the screen together; closing either stops both."""
    screen_task = asyncio.create_task(screen.run(), name="bb-screen")
    try:
        await daemon.run()
    finally:
        screen.closed = True
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await screen_task
