"""Draws the documentation's screenshots of the board view (``python -m board_bridge.ui.screenshots DIR``).

Each picture is a real frame of :class:`~board_bridge.ui.view.BoardView`, drawn
offscreen, so the docs show exactly what the code draws.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from board_bridge.shogi import BLACK, WHITE, Board, parse_square  # noqa: E402
from board_bridge.tracker.intents import LedIntents, Mark  # noqa: E402
from board_bridge.ui.glyphs import Fonts  # noqa: E402
from board_bridge.ui.layout import Layout  # noqa: E402
from board_bridge.ui.view import (  # noqa: E402
    BoardView,
    ClockView,
    EngineView,
    ViewState,
)

#: A quiet opening line, then a bishop exchange: both hands hold a bishop.
OPENING = ["7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c", "3i4h", "8b4b", "5i6h", "5a6b"]


def sq(name: str) -> int:
    return parse_square(name)


def view_with_overlays(fonts: Fonts, size: tuple[int, int]) -> pygame.Surface:
    """Beside a real board: sente has lifted a piece (targets lit), the engine's last line."""
    board = Board()
    for usi in OPENING:
        board.push_usi(usi)
    marks = {sq("6i"): Mark.LIFTED, sq("5h"): Mark.TARGET, sq("6h"): Mark.NONE}
    marks.update({sq("7h"): Mark.TARGET, sq("5i"): Mark.TARGET})
    pieces = list(board.piece_at(s) for s in range(81))
    pieces[sq("6i")] = None  # the gold is in the player's hand
    state = ViewState.from_board(
        board,
        intents=LedIntents(marks={k: v for k, v in marks.items() if v != Mark.NONE}),
        clocks=ClockView((547.0, 512.4), (None, None), BLACK),
        engine=EngineView(
            score_cp=64, pv=("6i5h", "7a7b", "4i3h", "6b7a", "6g6f"), depth=21, name="engine"
        ),
        t=0.2,
    )
    state = ViewState(**{**state.__dict__, "pieces": tuple(pieces)})
    return draw(state, fonts, size)


def engine_to_move(fonts: Fonts, size: tuple[int, int]) -> pygame.Surface:
    """Playing the engine: its move is lit (blue) for the player to make on the board."""
    board = Board()
    for usi in [*OPENING, "2e2d", "2c2d", "2h2d"]:
        board.push_usi(usi)
    intents = LedIntents(
        marks={sq("3c"): Mark.ENGINE_FROM, sq("2d"): Mark.ENGINE_TO}, engine_move="3c2d"
    )
    state = ViewState.from_board(
        board,
        intents=intents,
        clocks=ClockView((0.0, 0.0), (30.0, 21.7), WHITE),
        engine=EngineView(
            score_cp=-112, pv=("3c2d", "P*2e", "2d3c", "7i7h", "6b7b", "6h7i"), depth=18
        ),
        t=0.2,
    )
    return draw(state, fonts, size)


def simulator_question(fonts: Fonts, size: tuple[int, int]) -> pygame.Surface:
    """The simulator: the bishop went into the promotion zone, the board asks."""
    board = Board()
    for usi in ("7g7f", "3c3d", "2g2f", "8c8d"):
        board.push_usi(usi)
    pieces = list(board.piece_at(s) for s in range(81))
    pieces[sq("3c")], pieces[sq("8h")] = pieces[sq("8h")], None  # on the board, not recorded
    state = ViewState.from_board(
        board,
        intents=LedIntents(
            marks={sq("3c"): Mark.QUESTION, sq("8h"): Mark.LIFTED}, question="promote"
        ),
        title="simulator",
        t=0.2,
    )
    state = ViewState(**{**state.__dict__, "pieces": tuple(pieces)})
    return draw(state, fonts, size)


def game_over(fonts: Fonts, size: tuple[int, int]) -> pygame.Surface:
    board = Board("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    board.push_usi("G*5b")
    state = ViewState.from_board(board, game_over="sente wins by checkmate")
    return draw(state, fonts, size)


def draw(state: ViewState, fonts: Fonts, size: tuple[int, int]) -> pygame.Surface:
    surf = pygame.Surface(size)
    BoardView(Layout.for_size(*size), fonts).draw(surf, state)
    return surf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    args = parser.parse_args()
    args.directory.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    fonts = Fonts()
    latin = Fonts(japanese=False)
    shots = {
        "view-overlays.png": view_with_overlays(fonts, (1024, 600)),
        "view-engine-move.png": engine_to_move(fonts, (1024, 600)),
        "view-latin.png": engine_to_move(latin, (1024, 600)),
        "sim-question.png": simulator_question(fonts, (1024, 600)),
        "view-portrait.png": view_with_overlays(fonts, (480, 800)),
        "view-game-over.png": game_over(fonts, (800, 480)),
    }
    for name, surf in shots.items():
        path = args.directory / name
        pygame.image.save(surf, str(path))
        print(path)


if __name__ == "__main__":
    main()
