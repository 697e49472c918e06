"""Tests of the pure LED rendering: layouts, palette, blinking and the power cap."""

from __future__ import annotations

import pytest

from board_bridge.drivers.leds import (
    DEFAULT_PALETTE,
    FAST,
    OFF,
    SLOW,
    Layout,
    LayoutError,
    Style,
    estimate_milliamps,
    is_animated,
    limit_power,
    palette_from_settings,
    parse_color,
    render_colors,
    render_single_colour,
)
from board_bridge.tracker.intents import LedIntents, Mark


def sq(name: str) -> int:
    """Square index of '5e' style names (file digit, rank letter), SFEN order."""
    file, rank = int(name[0]), ord(name[1]) - ord("a")
    return rank * 9 + (9 - file)


def test_per_square_row_major_from_top_left_is_sfen_order() -> None:
    layout = Layout.per_square(serpentine=False)
    assert layout.num_leds == 81
    assert [ids[0] for ids in layout.leds_of_square] == list(range(81))


def test_per_square_serpentine_reverses_every_other_row() -> None:
    layout = Layout.per_square(serpentine=True)
    assert layout.leds_of_square[sq("9a")] == (0,)
    assert layout.leds_of_square[sq("1a")] == (8,)
    assert layout.leds_of_square[sq("1b")] == (9,)  # second row runs back
    assert layout.leds_of_square[sq("9b")] == (17,)
    assert layout.leds_of_square[sq("9c")] == (18,)


@pytest.mark.parametrize(
    ("start", "direction", "first", "second"),
    [
        ("top-left", "rows", "9a", "8a"),
        ("top-right", "rows", "1a", "2a"),
        ("bottom-left", "rows", "9i", "8i"),
        ("bottom-right", "rows", "1i", "2i"),
        ("top-left", "columns", "9a", "9b"),
        ("bottom-right", "columns", "1i", "1h"),
    ],
)
def test_start_corner_and_direction(start: str, direction: str, first: str, second: str) -> None:
    layout = Layout.per_square(start=start, direction=direction)
    assert layout.leds_of_square[sq(first)] == (0,)
    assert layout.leds_of_square[sq(second)] == (1,)


def test_every_layout_is_a_bijection() -> None:
    for start in ("top-left", "top-right", "bottom-left", "bottom-right"):
        for direction in ("rows", "columns"):
            for serp in (True, False):
                layout = Layout.per_square(start, direction, serp)
                assert sorted(ids[0] for ids in layout.leds_of_square) == list(range(81))


def test_offset_shifts_indices_and_leaves_leading_leds_unowned() -> None:
    layout = Layout.per_square(serpentine=False, offset=3)
    assert layout.num_leds == 84
    assert layout.leds_of_square[0] == (3,)
    assert layout.squares_of_led[:3] == ((), (), ())
    colors = render_colors(LedIntents({0: Mark.TARGET}), layout, 0.0)
    assert colors[:3] == [OFF, OFF, OFF] and colors[3] != OFF


def test_corner_grid_geometry() -> None:
    layout = Layout.corner_grid(serpentine=False)
    assert layout.num_leds == 100
    assert layout.leds_of_square[sq("9a")] == (0, 1, 10, 11)
    assert layout.leds_of_square[sq("1i")] == (88, 89, 98, 99)
    # an inner corner is shared by four squares, an edge corner by two, a board corner by one
    assert len(layout.squares_of_led[11]) == 4
    assert len(layout.squares_of_led[1]) == 2
    assert len(layout.squares_of_led[0]) == 1


def test_corner_grid_shared_corner_shows_the_stronger_mark() -> None:
    layout = Layout.corner_grid(serpentine=False)
    intents = LedIntents({sq("9a"): Mark.TARGET, sq("8a"): Mark.CLEAR})
    colors = render_colors(intents, layout, 0.0, max_milliamps=None)
    green = DEFAULT_PALETTE[Mark.TARGET].color
    red = DEFAULT_PALETTE[Mark.CLEAR].color
    assert colors[0] == green and colors[10] == green  # only 9a's
    assert colors[1] == red and colors[11] == red  # shared: CLEAR > TARGET
    assert colors[2] == red
    assert colors.count(OFF) == 100 - 6


def test_blinking_is_resolved_from_t() -> None:
    layout = Layout.per_square()
    intents = LedIntents({sq("5e"): Mark.ERROR})
    i = layout.leds_of_square[sq("5e")][0]
    on = render_colors(intents, layout, 0.05, max_milliamps=None)[i]
    off = render_colors(intents, layout, 0.15, max_milliamps=None)[i]
    assert on == DEFAULT_PALETTE[Mark.ERROR].color and off == OFF
    assert render_colors(intents, layout, 0.25, max_milliamps=None)[i] == on


def test_steady_marks_do_not_blink_and_unmarked_are_off() -> None:
    layout = Layout.per_square()
    intents = LedIntents({sq("7f"): Mark.TARGET})
    for t in (0.0, 0.13, 0.5, 0.77, 1234.5):
        colors = render_colors(intents, layout, t)
        assert colors.count(OFF) == 80


def test_brightness_scales() -> None:
    layout = Layout.per_square()
    intents = LedIntents({0: Mark.CLEAR})
    c = render_colors(intents, layout, 0.0, brightness=0.5, max_milliamps=None)[0]
    assert c == (110, 0, 0)
    with pytest.raises(ValueError):
        render_colors(intents, layout, 0.0, brightness=1.5)


def test_power_cap_is_enforced_by_default() -> None:
    layout = Layout.corner_grid()
    everything = LedIntents(dict.fromkeys(range(81), Mark.FILL))  # a steady-ish bright white
    colors = render_colors(everything, layout, 0.1)  # SLOW is on at t=0.1
    assert estimate_milliamps(colors) <= 1500.0
    uncapped = render_colors(everything, layout, 0.1, max_milliamps=None)
    assert estimate_milliamps(uncapped) > 1500.0
    assert all(c != OFF for c in colors)


def test_limit_power_keeps_small_loads_and_scales_big_ones() -> None:
    small = [(10, 10, 10)] * 5
    assert limit_power(small, 1000) == small
    big = [(255, 255, 255)] * 100  # 6 A worst case
    assert estimate_milliamps(big) == pytest.approx(6100.0)
    capped = limit_power(big, 2000)
    assert estimate_milliamps(capped) <= 2000
    assert capped[0][0] == capped[0][1] == capped[0][2] > 0


def test_single_colour_patterns_tell_marks_apart() -> None:
    layout = Layout.per_square()
    intents = LedIntents({sq("5e"): Mark.TARGET, sq("4e"): Mark.ENGINE_FROM, sq("3e"): Mark.ERROR})
    samples = [i * 0.05 for i in range(40)]  # two seconds

    def trace(name: str) -> list[bool]:
        i = layout.leds_of_square[sq(name)][0]
        return [render_single_colour(intents, layout, t)[i] for t in samples]

    target, engine, error = trace("5e"), trace("4e"), trace("3e")
    assert all(target)
    assert 0 < sum(engine) < len(samples) and 0 < sum(error) < len(samples)
    assert engine != error

    # fast blink toggles more often than slow blink
    def toggles(xs: list[bool]) -> int:
        return sum(a != b for a, b in zip(xs, xs[1:]))

    assert toggles(error) > toggles(engine)
    assert sum(render_single_colour(intents, layout, 0.0)) <= 3


def test_is_animated() -> None:
    assert not is_animated(LedIntents({1: Mark.TARGET}))
    assert is_animated(LedIntents({1: Mark.ERROR}))
    assert not is_animated(LedIntents({1: Mark.LIFTED}), palette=None)
    assert is_animated(
        LedIntents({1: Mark.LAST_MOVE}), palette=None, patterns={Mark.LAST_MOVE: SLOW}
    )


def test_layout_settings_and_errors() -> None:
    layout = Layout.from_settings({"layout": "corners", "start": "bottom-right"})
    assert layout.num_leds == 100 and layout.leds_of_square[sq("1i")][0] == 0
    with pytest.raises(LayoutError, match="start"):
        Layout.from_settings({"start": "middle"})
    with pytest.raises(LayoutError, match="layout"):
        Layout.from_settings({"layout": "hexagonal"})
    with pytest.raises(LayoutError, match="serpentine"):
        Layout.from_settings({"serpentine": "yes"})


def test_palette_overrides() -> None:
    pal = palette_from_settings({"target": {"color": "#0000ff", "blink": "fast"}})
    assert pal[Mark.TARGET] == Style((0, 0, 255), FAST)
    assert pal[Mark.ERROR] == DEFAULT_PALETTE[Mark.ERROR]
    with pytest.raises(LayoutError, match="unknown mark"):
        palette_from_settings({"tagret": {"color": "#0000ff"}})
    with pytest.raises(LayoutError, match="blink"):
        palette_from_settings({"target": {"blink": "strobe"}})
    assert parse_color([1, 2, 3]) == (1, 2, 3)
    with pytest.raises(LayoutError):
        parse_color([1, 2, 300])
