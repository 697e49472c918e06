"""The board view rendered offscreen: pieces, gote turned round, overlays in the LED palette,
hands with counts, question buttons, clocks and game end, checked pixel by pixel."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from board_bridge.drivers.leds import DEFAULT_PALETTE
from board_bridge.shogi import BLACK, PAWN, STARTING_SFEN, WHITE, Board, parse_square
from board_bridge.tracker.intents import LedIntents, Mark
from board_bridge.ui.glyphs import Fonts, find_japanese_font, piece_text
from board_bridge.ui.layout import Layout
from board_bridge.ui.view import (
    BACKGROUND,
    BOARD_WOOD,
    BUTTON,
    FAINT_ALPHA,
    KOMADAI_WOOD,
    OVERLAY_ALPHA,
    BoardView,
    ClockView,
    EngineView,
    Question,
    ViewState,
    format_clock,
    option_label,
)

SIZE = (1024, 600)
LAYOUT = Layout.for_size(*SIZE)


def draw(state: ViewState, fonts: Fonts, size: tuple[int, int] = SIZE) -> pygame.Surface:
    view = BoardView(Layout.for_size(*size), fonts)
    surf = pygame.Surface(size)
    view.draw(surf, state)
    return surf


def px(surf: pygame.Surface, x: int, y: int) -> tuple[int, int, int]:
    c = surf.get_at((x, y))
    return (c.r, c.g, c.b)


def corner(sq: int, gote: bool = False, layout: Layout = LAYOUT) -> tuple[int, int]:
    """A point inside a square but beside the tip of any piece on it (top left for sente's
    pieces, bottom left for gote's) and inside the blinking edge of a strong mark."""
    x, y, w, h = layout.square_rect(sq)
    dx, dy = max(3, w // 12) + 2, max(3, h // 12) + 2
    return (x + dx, y + h - dy) if gote else (x + dx, y + dy)


def blend(over: tuple[int, int, int], under: tuple[int, int, int], alpha: int) -> tuple[int, ...]:
    return tuple((o * alpha + u * (255 - alpha)) / 255 for o, u in zip(over, under))


def close(a: tuple[int, ...], b: tuple[float, ...], tol: float = 4) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def crop(surf: pygame.Surface, sq: int, inset: int = 3) -> pygame.Surface:
    x, y, w, h = LAYOUT.square_rect(sq)
    return surf.subsurface((x + inset, y + inset, w - 2 * inset, h - 2 * inset)).copy()


def differing(a: pygame.Surface, b: pygame.Surface, tol: int = 24) -> int:
    assert a.get_size() == b.get_size()
    n = 0
    for x in range(a.get_width()):
        for y in range(a.get_height()):
            ca, cb = a.get_at((x, y)), b.get_at((x, y))
            if abs(ca.r - cb.r) + abs(ca.g - cb.g) + abs(ca.b - cb.b) > tol:
                n += 1
    return n


def test_japanese_font_found(fonts: Fonts) -> None:
    assert fonts.kanji and find_japanese_font() == fonts.japanese_path
    f = fonts.piece_font(40)
    assert all(m is not None for m in f.metrics("歩飛角玉王龍馬と"))


def test_piece_squares_differ_from_empty(fonts: Fonts, tmp_path: Path) -> None:
    surf = draw(ViewState.from_board(Board()), fonts)
    path = tmp_path / "start.png"
    pygame.image.save(surf, str(path))
    loaded = pygame.image.load(str(path))
    for name in ("7g", "5i", "8h", "5a", "2b", "1c"):  # pieces
        cx, cy = LAYOUT.square_center(parse_square(name))
        assert px(loaded, cx, cy) != BOARD_WOOD, name
        assert differing(crop(surf, parse_square(name)), crop(surf, parse_square("5e"))) > 50
    for name in ("5e", "7f", "1d", "9f"):  # empty squares: plain wood in the middle
        cx, cy = LAYOUT.square_center(parse_square(name))
        assert px(loaded, cx, cy) == BOARD_WOOD, name
    assert px(loaded, 2, 2) == BACKGROUND


def test_gote_pieces_are_turned_round(fonts: Fonts) -> None:
    sq = parse_square("5e")
    sente = draw(ViewState.from_board(Board("4k4/9/9/9/4P4/9/9/9/4K4 b - 1")), fonts)
    gote = draw(ViewState.from_board(Board("4k4/9/9/9/4p4/9/9/9/4K4 b - 1")), fonts)
    a, b = crop(sente, sq), crop(gote, sq)
    assert differing(a, b) > 100  # the glyph and shape point the other way
    assert differing(a, pygame.transform.rotate(b, 180)) < 10  # ... exactly turned round


def test_latin_letters_without_a_japanese_font(latin_fonts: Fonts, fonts: Fonts) -> None:
    assert not latin_fonts.kanji
    assert piece_text(PAWN, BLACK, False) == "P" and piece_text(PAWN, BLACK, True) == "歩"
    assert piece_text(8, WHITE, True) == "王" and piece_text(8, BLACK, True) == "玉"
    board = Board("4k4/9/9/9/4P4/9/9/9/4K4 b - 1")
    latin = draw(ViewState.from_board(board), latin_fonts)
    kanji = draw(ViewState.from_board(board), fonts)
    sq = parse_square("5e")
    empty = draw(ViewState.from_board(Board("4k4/9/9/9/9/9/9/9/4K4 b - 1")), latin_fonts)
    assert differing(crop(latin, sq), crop(empty, sq)) > 50
    assert differing(crop(latin, sq), crop(kanji, sq)) > 20


@pytest.mark.parametrize(
    "mark", [Mark.TARGET, Mark.ERROR, Mark.ENGINE_TO, Mark.LIFTED, Mark.QUESTION, Mark.FILL]
)
def test_overlay_colours_are_the_led_palette(fonts: Fonts, mark: Mark) -> None:
    sq = parse_square("5e")  # empty in this position
    state = ViewState.from_board(Board(), intents=LedIntents(marks={sq: mark}))
    surf = draw(state, fonts)
    cx, cy = LAYOUT.square_center(sq)
    colour = DEFAULT_PALETTE[mark].color
    assert close(px(surf, cx, cy), blend(colour, BOARD_WOOD, OVERLAY_ALPHA)), (
        mark,
        px(surf, cx, cy),
    )
    untouched = parse_square("5f")
    assert px(surf, *LAYOUT.square_center(untouched)) == BOARD_WOOD


def test_overlay_hues(fonts: Fonts) -> None:
    target, error, engine = parse_square("5e"), parse_square("4e"), parse_square("6e")
    marks = {target: Mark.TARGET, error: Mark.ERROR, engine: Mark.ENGINE_TO}
    surf = draw(ViewState.from_board(Board(), intents=LedIntents(marks=marks)), fonts)
    r, g, b = px(surf, *LAYOUT.square_center(target))
    assert g > r + 40 and g > b + 40  # green: a legal target
    r, g, b = px(surf, *LAYOUT.square_center(error))
    assert r > g + 80 and r > b + 80  # red: an error
    r, g, b = px(surf, *LAYOUT.square_center(engine))
    assert b > r + 40 and b > g + 20  # blue: the engine's move


def test_blinking_edge_follows_the_led_pattern(fonts: Fonts) -> None:
    sq = parse_square("5e")
    colour = DEFAULT_PALETTE[Mark.ENGINE_FROM].color  # blinks slowly: on 0.5 s, off 0.5 s
    x, y, _, _ = LAYOUT.square_rect(sq)
    edge = (x + 1, y + LAYOUT.square_h // 2)
    base = ViewState.from_board(Board(), intents=LedIntents(marks={sq: Mark.ENGINE_FROM}))
    on = draw(ViewState(**{**base.__dict__, "t": 0.25}), fonts)
    off = draw(ViewState(**{**base.__dict__, "t": 0.75}), fonts)
    assert px(on, *edge) == colour
    assert px(off, *edge) != colour


def test_last_move_and_check_from_the_position(fonts: Fonts) -> None:
    board = Board("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    board.push_usi("G*5b")  # check (and mate: the pawn guards the gold)
    state = ViewState.from_board(board)
    assert state.check == parse_square("5a") and state.last_move is not None
    surf = draw(state, fonts)
    king = corner(parse_square("5a"), gote=True)
    assert close(px(surf, *king), blend(DEFAULT_PALETTE[Mark.CHECK].color, BOARD_WOOD, 150))
    dest = corner(parse_square("5b"))
    faint = blend(DEFAULT_PALETTE[Mark.LAST_MOVE].color, BOARD_WOOD, FAINT_ALPHA[Mark.LAST_MOVE])
    assert close(px(surf, *dest), faint)


def test_hands_show_pieces_and_counts(fonts: Fonts) -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b 3PGr2p 1")
    surf = draw(ViewState.from_board(board), fonts)
    empty_hands = draw(ViewState.from_board(Board("4k4/9/9/9/9/9/9/9/4K4 b - 1")), fonts)
    one_pawn = draw(ViewState.from_board(Board("4k4/9/9/9/9/9/9/9/4K4 b P 1")), fonts)

    def slot_pixels(s: pygame.Surface, color: int, pt: int) -> pygame.Surface:
        return s.subsurface(LAYOUT.hand_slots(color)[pt]).copy()

    for color, pt in ((BLACK, 1), (BLACK, 7), (WHITE, 6), (WHITE, 1)):
        assert differing(slot_pixels(surf, color, pt), slot_pixels(empty_hands, color, pt)) > 50
    # an empty slot is plain komadai wood
    sx, sy, sw, sh = LAYOUT.hand_slots(BLACK)[5]
    assert px(surf, sx + sw // 2, sy + sh // 2) == KOMADAI_WOOD
    # three pawns carry a count, one pawn does not
    assert differing(slot_pixels(surf, BLACK, 1), slot_pixels(one_pawn, BLACK, 1)) > 30


@pytest.mark.parametrize(
    "question", [Question("promote", ("promote", "nonpromote")), Question("drop", ("G", "S", "P"))]
)
def test_question_buttons_are_drawn_and_hit(fonts: Fonts, question: Question) -> None:
    state = ViewState.from_board(Board(), question=question)
    surf = draw(state, fonts)
    plain = draw(ViewState.from_board(Board()), fonts)
    buttons = LAYOUT.question_buttons(question.options)
    for opt, (x, y, w, h) in buttons.items():
        inner = (x + 4, y + h // 2)
        assert px(surf, *inner) == BUTTON, opt
        assert px(plain, *inner) == BACKGROUND
        label = surf.subsurface((x, y, w, h)).copy()
        fill = pygame.Surface((w, h))
        fill.fill(BUTTON)
        assert differing(label, fill) > 40  # a label is written on it
        assert LAYOUT.button_at(question.options, x + w // 2, y + h // 2) == opt


def test_question_from_intents() -> None:
    assert Question.from_intents(LedIntents(question="promote")) == Question(
        "promote", ("promote", "nonpromote")
    )
    assert Question.from_intents(LedIntents(question="drop:GSP")) == Question(
        "drop", ("G", "S", "P")
    )
    assert Question.from_intents(LedIntents()) is None
    state = ViewState.from_board(Board(), intents=LedIntents(question="drop:NL"))
    assert state.question == Question("drop", ("N", "L"))
    assert option_label("promote", True).startswith("成")
    assert option_label("G", False) == "G Gold"


def test_clocks_engine_and_game_over(fonts: Fonts) -> None:
    board = Board()
    board.push_usi("7g7f")
    base = ViewState.from_board(board)
    busy = ViewState.from_board(
        board,
        clocks=ClockView((300.0, 4.5), (None, None), WHITE),
        engine=EngineView(score_cp=85, pv=("3c3d", "2g2f"), depth=12),
        game_over="sente wins by resignation",
    )
    a, b = draw(base, fonts), draw(busy, fonts)
    for color in (BLACK, WHITE):
        clock = LAYOUT.clock_rect(color)
        assert differing(a.subsurface(clock).copy(), b.subsurface(clock).copy()) > 30
    eval_row = LAYOUT.panel_rows()["eval"]
    assert differing(a.subsurface(eval_row).copy(), b.subsurface(eval_row).copy()) > 30
    bx, by, bw, bh = LAYOUT.board
    band = px(b, bx + 3, by + bh // 2)
    assert close(band, blend(DEFAULT_PALETTE[Mark.GAME_OVER].color, BOARD_WOOD, 215), 6)


def test_format_clock() -> None:
    assert format_clock(600) == "10:00"
    assert format_clock(3725) == "1:02:05"
    assert format_clock(9.25) == "0:09.2"
    assert format_clock(-3) == "0:00.0"


def test_portrait_render(fonts: Fonts) -> None:
    size = (480, 800)
    lay = Layout.for_size(*size)
    q = Question("drop", tuple("RBGSNLP"))
    surf = draw(ViewState.from_board(Board(STARTING_SFEN), question=q), fonts, size)
    x, y, w, h = lay.question_buttons(q.options)["P"]
    assert px(surf, x + 4, y + h // 2) == BUTTON
    cx, cy = lay.square_center(parse_square("5e"))
    assert px(surf, cx, cy) == BOARD_WOOD
