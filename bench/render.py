"""Board view drawing speed: the time to draw one frame of a busy midgame with overlays.

Draws offscreen (SDL's dummy video driver), so the figure is the view's own work:
building the frame's state from the position, then the static board blit, overlays,
40 pieces, both hands, clocks, the engine's line and a question (not the display's
flip, which depends on the screen). The goal is under 10 ms a frame here, so 30 frames per second hold
on a Raspberry Pi. Also reports the first frame (font loading, piece images) and a
frame with the kanji font off (Latin letters).
Usage: python bench/render.py [--frames N] [--size WxH]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from board_bridge.shogi import BLACK, Board, parse_square  # noqa: E402
from board_bridge.tracker.intents import LedIntents, Mark  # noqa: E402
from board_bridge.ui.glyphs import Fonts  # noqa: E402
from board_bridge.ui.layout import Layout  # noqa: E402
from board_bridge.ui.view import (  # noqa: E402
    BoardView,
    ClockView,
    EngineView,
    Held,
    Question,
    ViewState,
)

#: A midgame with pieces in both hands (a Yagura-like middle game).
MIDGAME = "ln1g3nl/1r1sgk1b1/p1pppp1pp/1p4p2/7P1/2P1P4/PPSP1PP1P/1BG2S1R1/LN2KG1NL b Pps 31"


def busy_state(board: Board, t: float) -> ViewState:
    lifted = parse_square("7g")
    targets = [parse_square(s) for s in ("7f", "6f", "8f")]
    marks = {sq: Mark.TARGET for sq in targets}
    marks[lifted] = Mark.LIFTED
    marks[parse_square("2b")] = Mark.ERROR
    marks[parse_square("3d")] = Mark.ENGINE_FROM
    marks[parse_square("3e")] = Mark.ENGINE_TO
    intents = LedIntents(marks=marks, engine_move="3d3e", reason="nifu")
    return ViewState.from_board(
        board,
        intents=intents,
        t=t,
        clocks=ClockView((1234.5 - t, 98.7 - t), (None, 30.0), BLACK),
        engine=EngineView(
            score_cp=231, pv=("2e2d", "2c2d", "7g7f", "8d8e", "8h7g", "6c6d"), depth=22
        ),
        question=Question("promote", ("promote", "nonpromote")),
        held=(Held(board.piece_at(parse_square("8h")), (400, 300)),),  # type: ignore[arg-type]
    )


def bench(view: BoardView, board: Board, frames: int) -> tuple[float, list[float]]:
    """Times building the frame's state from the position and drawing it."""
    target = pygame.Surface((view.layout.width, view.layout.height))
    t0 = time.perf_counter()
    view.draw(target, busy_state(board, 0.0))
    first = time.perf_counter() - t0
    times = []
    for i in range(frames):
        t0 = time.perf_counter()
        state = busy_state(board, i / 30)  # clocks tick and overlays blink as on screen
        view.draw(target, state)
        times.append(time.perf_counter() - t0)
    return first, times


def report(name: str, first: float, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(
        f"{name:<24} mean {statistics.mean(ms):6.2f} ms   median {statistics.median(ms):6.2f} ms"
        f"   p99 {p99:6.2f} ms   max {ms[-1]:6.2f} ms   first frame {first * 1000:7.1f} ms"
        f"   ({1000 / statistics.mean(ms):5.0f} fps)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--size", default="1024x600")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    pygame.display.init()
    pygame.font.init()
    board = Board(MIDGAME)
    kanji = Fonts()
    print(f"frame {w}x{h}, {args.frames} frames, kanji font: {kanji.japanese_path or 'none'}")
    for name, fonts in (("kanji", kanji), ("latin letters", Fonts(japanese=False))):
        start = time.perf_counter()
        view = BoardView(Layout.for_size(w, h), fonts)
        setup = time.perf_counter() - start
        first, times = bench(view, board, args.frames)
        report(name, setup + first, times)
    portrait = BoardView(Layout.for_size(h, w), kanji)
    first, times = bench(portrait, board, args.frames)
    report(f"kanji portrait {h}x{w}", first, times)
    print("goal: mean under 10 ms (30 fps on a Raspberry Pi)")


if __name__ == "__main__":
    main()
