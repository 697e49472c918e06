"""Geometry of the board view: squares, hands and buttons map to pixels and back."""

from __future__ import annotations

import itertools

import pytest

from board_bridge.shogi import BLACK, HAND_PIECE_TYPES, PAWN, ROOK, WHITE, parse_square
from board_bridge.ui.layout import MIN_TOUCH, Layout, contains

SIZES = [(1024, 600), (800, 480), (1920, 1080), (720, 1280), (480, 800), (320, 240)]


def inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("size", SIZES)
def test_every_square_round_trips(size: tuple[int, int]) -> None:
    lay = Layout.for_size(*size)
    for sq in range(81):
        x, y, w, h = lay.square_rect(sq)
        assert lay.square_at(x, y) == sq
        assert lay.square_at(x + w - 1, y + h - 1) == sq
        assert lay.square_at(*lay.square_center(sq)) == sq
    bx, by, bw, bh = lay.board
    assert lay.square_at(bx - 1, by) is None
    assert lay.square_at(bx + bw, by + bh - 1) is None
    assert inside(lay.board, (0, 0, *size))


def test_diagram_orientation() -> None:
    lay = Layout.for_size(1024, 600)
    nine_a, one_a, nine_i = (lay.square_rect(parse_square(n)) for n in ("9a", "1a", "9i"))
    assert nine_a[0] < one_a[0] and nine_a[1] == one_a[1]  # file 9 on the left
    assert nine_a[1] < nine_i[1] and nine_a[0] == nine_i[0]  # rank a at the top
    assert lay.square_at(*lay.square_center(parse_square("5e"))) == 40


@pytest.mark.parametrize("size", SIZES)
def test_parts_do_not_overlap(size: tuple[int, int]) -> None:
    lay = Layout.for_size(*size)
    parts = [lay.board, lay.hand_rect(BLACK), lay.hand_rect(WHITE), lay.panel, *lay.clocks]
    for a, b in itertools.combinations(parts, 2):
        assert not overlap(a, b), (size, a, b)
    for part in parts:
        assert inside(part, (0, 0, *size)), (size, part)


@pytest.mark.parametrize("size", SIZES)
def test_hand_slots(size: tuple[int, int]) -> None:
    lay = Layout.for_size(*size)
    for color in (BLACK, WHITE):
        slots = lay.hand_slots(color)
        assert set(slots) == set(HAND_PIECE_TYPES)
        for pt, rect in slots.items():
            assert inside(rect, lay.hand_rect(color))
            cx, cy = rect[0] + rect[2] // 2, rect[1] + rect[3] // 2
            assert lay.hand_slot_at(cx, cy) == (color, pt)
            assert lay.hand_at(cx, cy) == color
        for a, b in itertools.combinations(slots.values(), 2):
            assert not overlap(a, b)
    # gote's komadai is sente's turned half round: the pawn sits at the far end
    sente, gote = lay.hand_slots(BLACK), lay.hand_slots(WHITE)
    axis = 1 if lay.orientation == "landscape" else 0
    assert sente[ROOK][axis] < sente[PAWN][axis]
    assert gote[PAWN][axis] < gote[ROOK][axis]


def test_sente_hand_bottom_right_gote_top_left() -> None:
    lay = Layout.for_size(1024, 600)
    sx, sy, _, _ = lay.hand_rect(BLACK)
    gx, gy, _, _ = lay.hand_rect(WHITE)
    assert sx > lay.board[0] > gx
    assert sy > gy
    portrait = Layout.for_size(720, 1280)
    assert portrait.orientation == "portrait"
    assert portrait.hand_rect(WHITE)[1] < portrait.board[1] < portrait.hand_rect(BLACK)[1]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("options", [("promote", "nonpromote"), tuple("RBGSNLP"), ("G", "S")])
def test_question_buttons(size: tuple[int, int], options: tuple[str, ...]) -> None:
    lay = Layout.for_size(*size)
    buttons = lay.question_buttons(options)
    assert list(buttons) == list(options)
    area = lay.panel_rows()["question"]
    for opt, rect in buttons.items():
        assert inside(rect, area), (opt, rect, area)
        cx, cy = rect[0] + rect[2] // 2, rect[1] + rect[3] // 2
        assert lay.button_at(options, cx, cy) == opt
        assert lay.square_at(cx, cy) is None
    for a, b in itertools.combinations(buttons.values(), 2):
        assert not overlap(a, b)
    if size[1] >= 480:  # a real screen: big enough for a finger
        assert all(r[3] >= MIN_TOUCH for r in buttons.values()), buttons
    assert lay.button_at(options, -5, -5) is None


def test_contains_edges() -> None:
    assert contains((10, 10, 5, 5), 10, 10)
    assert not contains((10, 10, 5, 5), 15, 10)


def test_too_small() -> None:
    with pytest.raises(ValueError, match="160"):
        Layout.for_size(100, 600)
