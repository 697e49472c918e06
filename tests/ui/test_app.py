"""The screen's glue: the engine's report for the view, the game clock, the screen buttons."""

from __future__ import annotations

import os
import sys

import pygame
import pytest

from board_bridge.app.clock import GameClock, TimeControl
from board_bridge.engine.protocol import Info, Score
from board_bridge.shogi import Board
from board_bridge.tracker.events import PlayerInput
from board_bridge.ui.app import (
    Analysis,
    DisplayError,
    ScreenButtons,
    clock_view,
    engine_view,
    open_display,
)


def after(*usi: str) -> Board:
    board = Board()
    for u in usi:
        board.push_usi(u)
    return board


def test_engine_score_is_turned_to_sente() -> None:
    gote_to_move = after("7g7f")
    view = engine_view(Analysis(gote_to_move, Info(depth=9, score=Score(cp=120))))
    assert view is not None and view.score_cp == -120 and view.depth == 9
    view = engine_view(Analysis(Board(), Info(score=Score(cp=35))))
    assert view is not None and view.score_cp == 35
    mated = engine_view(Analysis(gote_to_move, Info(score=Score(mate=-4, mate_side=-1))))
    assert mated is not None and mated.mate == 4  # gote is mated: good for sente
    assert engine_view(None) is None


def test_best_line_follows_the_game() -> None:
    searched = after("7g7f")
    analysis = Analysis(searched, Info(score=Score(cp=10), pv=("3c3d", "2g2f", "8c8d")))
    same = engine_view(analysis, shown=after("7g7f"))
    assert same is not None and same.pv == ("3c3d", "2g2f", "8c8d")
    played = engine_view(analysis, shown=after("7g7f", "3c3d"))  # the engine's move made
    assert played is not None and played.pv == ("2g2f", "8c8d")
    assert played.position is not None and played.position.sfen() == after("7g7f", "3c3d").sfen()
    left = engine_view(analysis, shown=after("7g7f", "8c8d"))  # the game left the line
    assert left is not None and left.pv == () and left.score_cp == -10


def test_clock_view_from_the_game_clock() -> None:
    assert clock_view(GameClock(TimeControl()), 0.0) is None
    clock = GameClock(TimeControl("byoyomi", main=60, byoyomi=10))
    clock.start(0, 100.0)
    view = clock_view(clock, 130.0)
    assert view is not None and view.running == 0
    assert view.remaining == (30.0, 60.0) and view.byoyomi == (10, 10)
    view = clock_view(clock, 163.5)  # main time gone, 3.5 s into byoyomi
    assert view is not None and view.remaining[0] == 0.0
    assert abs(view.byoyomi[0] - 6.5) < 1e-9  # type: ignore[operator]


def test_screen_buttons_deliver_inputs() -> None:
    got: list[PlayerInput] = []
    buttons = ScreenButtons(clock=lambda: 7.0)
    buttons.press("promote")  # not open yet: nowhere to go
    buttons.open(got.append)
    buttons.press("promote")
    buttons.close()
    buttons.press("G")
    assert got == [PlayerInput(7.0, "promote")]


def test_console_drivers_tried_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a desktop the console drivers are tried in order, fullscreen; the first that
    opens wins. (pygame's display calls are replaced: this machine has no console screen.)"""
    tried: list[tuple[str, object]] = []

    def init() -> None:
        driver = os.environ.get("SDL_VIDEODRIVER", "")
        tried.append(("init", driver))
        if driver == "kmsdrm":
            raise pygame.error("kmsdrm not available")

    def set_mode(size: tuple[int, int], flags: int = 0) -> pygame.Surface:
        tried.append(("mode", (size, bool(flags & pygame.FULLSCREEN))))
        return pygame.Surface((800, 480))

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(pygame.display, "init", init)
    monkeypatch.setattr(pygame.display, "quit", lambda: None)
    monkeypatch.setattr(pygame.display, "set_caption", lambda title: None)
    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    surface = open_display((1024, 600), fullscreen=False)
    assert surface.get_size() == (800, 480)
    assert tried == [("init", "kmsdrm"), ("init", "fbcon"), ("mode", ((0, 0), True))]
    assert os.environ["SDL_VIDEODRIVER"] == "fbcon"


def test_no_driver_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def init() -> None:
        raise pygame.error("no screen")

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(pygame.display, "init", init)
    monkeypatch.setattr(pygame.display, "quit", lambda: None)
    with pytest.raises(DisplayError, match="kmsdrm: no screen; fbcon: no screen; directfb"):
        open_display()
    assert "SDL_VIDEODRIVER" not in os.environ


async def test_beside_sink_feeds_the_leds_and_the_screen() -> None:
    import io

    from board_bridge.app.sinks import TerminalLedSink
    from board_bridge.tracker.intents import LedIntents, Mark
    from board_bridge.ui.app import BesideSink, ScreenSink

    out = io.StringIO()
    leds = TerminalLedSink(out, colour=False, redraw=False)
    screen = ScreenSink()
    sink = BesideSink(leds, screen)
    await sink.start()
    sink.set_context(Board(), "move 1")
    intents = LedIntents(marks={56: Mark.LIFTED})
    await sink.show(intents)
    assert screen.intents == intents and screen.frames == 1
    assert "move 1" in out.getvalue() and " L " in out.getvalue()  # the position reached the LEDs
    await sink.close()
