"""Pure LED rendering: LED layouts, the palette of marks, blink patterns and the power cap.

Nothing here touches hardware. A sink (WS2812 from the Pi, the firmware link,
single-colour LEDs) asks :func:`render_colors` or :func:`render_single_colour`
for the LED values at time ``t`` and writes them out. Blinking is resolved from
the ``t`` passed in, so a render is deterministic and all blinking squares stay
in phase.

Squares use the shogi core's numbering: ``square = rank * 9 + (9 - file)``,
rank a (gote's back rank) first. In a layout, *row* 0 is rank a and *column* 0
is file 9, i.e. the board as sente sees it: row 0 at the top, file 9 on the left.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from board_bridge.tracker.intents import LedIntents, Mark

Color = tuple[int, int, int]
OFF: Final[Color] = (0, 0, 0)

CORNERS: Final = ("top-left", "top-right", "bottom-left", "bottom-right")
DIRECTIONS: Final = ("rows", "columns")

#: WS2812B draws about 20 mA per colour channel at full duty (60 mA full white)
#: and roughly 1 mA idle per LED (its own controller).
MILLIAMPS_PER_CHANNEL: Final = 20.0
IDLE_MILLIAMPS_PER_LED: Final = 1.0
#: The default cap on the LEDs' estimated current: 1.5 A leaves room on a 5 V 3 A
#: supply shared with the Pi. See hardware/power.md.
DEFAULT_MAX_MILLIAMPS: Final = 1500.0


class LayoutError(ValueError):
    """A layout setting that cannot describe a strip of LEDs."""


# --------------------------------------------------------------------------- layouts


def _grid_order(n: int, start: str, direction: str, serpentine: bool) -> list[tuple[int, int]]:
    """The (row, column) of each LED of an n x n grid, in strip order."""
    if start not in CORNERS:
        raise LayoutError(f"start must be one of {', '.join(CORNERS)}: {start!r}")
    if direction not in DIRECTIONS:
        raise LayoutError(f"direction must be one of {', '.join(DIRECTIONS)}: {direction!r}")
    cells = []
    for i in range(n * n):
        line, pos = divmod(i, n)
        if serpentine and line % 2 == 1:
            pos = n - 1 - pos
        r, c = (line, pos) if direction == "rows" else (pos, line)
        if start.startswith("bottom"):
            r = n - 1 - r
        if start.endswith("right"):
            c = n - 1 - c
        cells.append((r, c))
    return cells


@dataclass(frozen=True)
class Layout:
    """Which LEDs of a strip light each square.

    ``leds_of_square[sq]`` lists the strip indices lighting square ``sq``;
    ``squares_of_led[i]`` lists the squares LED ``i`` belongs to (several for a
    shared corner LED, none for an LED outside the board). Build one with
    :meth:`per_square`, :meth:`corner_grid` or :meth:`from_settings`.
    """

    kind: str
    num_leds: int
    leds_of_square: tuple[tuple[int, ...], ...]
    squares_of_led: tuple[tuple[int, ...], ...]

    @classmethod
    def per_square(
        cls,
        start: str = "top-left",
        direction: str = "rows",
        serpentine: bool = True,
        offset: int = 0,
    ) -> Layout:
        """One LED under each square: 81 LEDs (after ``offset`` others on the strip).

        ``start`` is the corner the strip begins at (as sente sees the board),
        ``direction`` whether it runs along the rows (ranks) or the columns (files),
        ``serpentine`` whether every other line runs back (the usual way to lay a
        strip) instead of every line starting on the same side (row-major).
        """
        return cls._build("square", 9, start, direction, serpentine, offset)

    @classmethod
    def corner_grid(
        cls,
        start: str = "top-left",
        direction: str = "rows",
        serpentine: bool = True,
        offset: int = 0,
    ) -> Layout:
        """A 10 x 10 grid of LEDs at the corners of the squares: each square is lit
        by its four corner LEDs; a corner shared by two marked squares shows the
        stronger mark (the higher :class:`Mark`)."""
        return cls._build("corners", 10, start, direction, serpentine, offset)

    @classmethod
    def _build(
        cls, kind: str, n: int, start: str, direction: str, serpentine: bool, offset: int
    ) -> Layout:
        if offset < 0:
            raise LayoutError(f"offset must be 0 or more: {offset}")
        order = _grid_order(n, start, direction, serpentine)
        index = {cell: offset + i for i, cell in enumerate(order)}
        leds: list[tuple[int, ...]] = []
        for sq in range(81):
            r, c = divmod(sq, 9)
            if kind == "square":
                leds.append((index[(r, c)],))
            else:
                corners = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
                leds.append(tuple(sorted(index[cell] for cell in corners)))
        num = offset + n * n
        owners: list[list[int]] = [[] for _ in range(num)]
        for sq, ids in enumerate(leds):
            for i in ids:
                owners[i].append(sq)
        return cls(kind, num, tuple(leds), tuple(tuple(o) for o in owners))

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> Layout:
        """A layout from config keys: ``layout`` ("square" or "corners"), ``start``,
        ``direction``, ``serpentine``, ``offset``. Unknown keys are left to the caller."""
        kind = settings.get("layout", "square")
        builders = {"square": cls.per_square, "corners": cls.corner_grid}
        if kind not in builders:
            raise LayoutError(f"layout must be 'square' or 'corners': {kind!r}")
        serpentine = settings.get("serpentine", True)
        if not isinstance(serpentine, bool):
            raise LayoutError(f"serpentine must be true or false: {serpentine!r}")
        offset = settings.get("offset", 0)
        if not isinstance(offset, int) or isinstance(offset, bool):
            raise LayoutError(f"offset must be a whole number: {offset!r}")
        return builders[kind](
            start=str(settings.get("start", "top-left")),
            direction=str(settings.get("direction", "rows")),
            serpentine=serpentine,
            offset=offset,
        )


#: Layout setting keys understood by :meth:`Layout.from_settings`.
LAYOUT_KEYS: Final = frozenset({"layout", "start", "direction", "serpentine", "offset"})


# --------------------------------------------------------------------------- blink patterns


@dataclass(frozen=True)
class Blink:
    """A repeating on/off pattern: ``segments`` of (seconds, on). Empty means steady on."""

    name: str
    segments: tuple[tuple[float, bool], ...] = ()

    @property
    def period(self) -> float:
        return sum(d for d, _ in self.segments)

    @property
    def steady(self) -> bool:
        return not self.segments

    def is_on(self, t: float) -> bool:
        """Whether the pattern is lit at time ``t`` (phase 0 at t = 0)."""
        if not self.segments:
            return True
        phase = math.fmod(t, self.period)
        if phase < 0:
            phase += self.period
        for duration, on in self.segments:
            if phase < duration:
                return on
            phase -= duration
        return self.segments[-1][1]


STEADY: Final = Blink("steady")
SLOW: Final = Blink("slow", ((0.5, True), (0.5, False)))
FAST: Final = Blink("fast", ((0.1, True), (0.1, False)))
DOUBLE: Final = Blink("double", ((0.12, True), (0.12, False), (0.12, True), (0.64, False)))
BLIP: Final = Blink("blip", ((0.15, True), (1.85, False)))
PATTERNS: Final = {p.name: p for p in (STEADY, SLOW, FAST, DOUBLE, BLIP)}


@dataclass(frozen=True)
class Style:
    """How an RGB LED shows one mark: a colour and a blink pattern."""

    color: Color
    blink: Blink = STEADY


#: What each mark looks like on RGB LEDs (see docs/leds.md).
DEFAULT_PALETTE: Final[Mapping[Mark, Style]] = {
    Mark.NONE: Style(OFF),
    Mark.LAST_MOVE: Style((24, 24, 40)),
    Mark.TARGET: Style((0, 160, 0)),
    Mark.HINT: Style((0, 90, 110)),
    Mark.ENGINE_FROM: Style((0, 60, 255), SLOW),
    Mark.ENGINE_TO: Style((0, 60, 255)),
    Mark.LIFTED: Style((190, 140, 0)),
    Mark.CHECK: Style((255, 70, 0), SLOW),
    Mark.QUESTION: Style((170, 0, 170), SLOW),
    Mark.FILL: Style((180, 180, 180), SLOW),
    Mark.CLEAR: Style((220, 0, 0)),
    Mark.ERROR: Style((255, 0, 0), FAST),
    Mark.GAME_OVER: Style((120, 0, 200), DOUBLE),
}

#: What each mark looks like on single-colour LEDs: only the pattern tells marks
#: apart, so marks shown at the same time get different patterns (None = dark).
SINGLE_COLOUR_PATTERNS: Final[Mapping[Mark, Blink | None]] = {
    Mark.NONE: None,
    Mark.LAST_MOVE: BLIP,
    Mark.TARGET: STEADY,
    Mark.HINT: BLIP,
    Mark.ENGINE_FROM: SLOW,
    Mark.ENGINE_TO: STEADY,
    Mark.LIFTED: STEADY,
    Mark.CHECK: DOUBLE,
    Mark.QUESTION: SLOW,
    Mark.FILL: SLOW,
    Mark.CLEAR: FAST,
    Mark.ERROR: FAST,
    Mark.GAME_OVER: DOUBLE,
}


def palette_from_settings(
    settings: Mapping[str, Any], base: Mapping[Mark, Style] = DEFAULT_PALETTE
) -> dict[Mark, Style]:
    """A palette with overrides from config: ``{"error": {"color": [255, 0, 0], "blink": "fast"}}``
    (mark names in lower case; ``color`` as [r, g, b] or "#rrggbb"; ``blink`` one of
    steady, slow, fast, double, blip)."""
    out = dict(base)
    for name, spec in settings.items():
        try:
            mark = Mark[name.upper()]
        except KeyError:
            names = ", ".join(m.name.lower() for m in Mark)
            raise LayoutError(f"palette: unknown mark {name!r} (one of {names})") from None
        if not isinstance(spec, Mapping):
            raise LayoutError(f"palette.{name} must be a table with color and/or blink")
        unknown = set(spec) - {"color", "blink"}
        if unknown:
            raise LayoutError(f"palette.{name}: unknown key(s) {', '.join(sorted(unknown))}")
        style = out[mark]
        color = parse_color(spec["color"], f"palette.{name}.color") if "color" in spec else None
        blink = style.blink
        if "blink" in spec:
            if spec["blink"] not in PATTERNS:
                raise LayoutError(
                    f"palette.{name}.blink must be one of {', '.join(PATTERNS)}: {spec['blink']!r}"
                )
            blink = PATTERNS[spec["blink"]]
        out[mark] = Style(color if color is not None else style.color, blink)
    return out


def parse_color(value: object, where: str = "color") -> Color:
    """An (r, g, b) colour from [r, g, b] or "#rrggbb"."""
    if isinstance(value, str) and len(value) == 7 and value.startswith("#"):
        try:
            return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
        except ValueError:
            pass
    elif (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and len(value) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in value)
    ):
        return (value[0], value[1], value[2])
    raise LayoutError(f"{where} must be [r, g, b] (0-255) or '#rrggbb': {value!r}")


# --------------------------------------------------------------------------- rendering


def _led_marks(intents: LedIntents, layout: Layout) -> list[Mark]:
    marks = intents.marks
    out = []
    for owners in layout.squares_of_led:
        best = Mark.NONE
        for sq in owners:
            m = marks.get(sq, Mark.NONE)
            if m > best:
                best = m
        out.append(best)
    return out


def render_colors(
    intents: LedIntents,
    layout: Layout,
    t: float,
    *,
    palette: Mapping[Mark, Style] = DEFAULT_PALETTE,
    brightness: float = 1.0,
    max_milliamps: float | None = DEFAULT_MAX_MILLIAMPS,
) -> list[Color]:
    """The colour of every LED of ``layout`` at time ``t``, in strip order.

    A corner LED shared by several marked squares shows the strongest mark. The
    result is scaled by ``brightness`` (0..1), then, if ``max_milliamps`` is set,
    scaled down further so the estimated current stays under it.
    """
    if not 0.0 <= brightness <= 1.0:
        raise ValueError(f"brightness must be between 0 and 1: {brightness}")
    colors: list[Color] = []
    for mark in _led_marks(intents, layout):
        style = palette.get(mark, DEFAULT_PALETTE[mark])
        if mark == Mark.NONE or not style.blink.is_on(t):
            colors.append(OFF)
        elif brightness == 1.0:
            colors.append(style.color)
        else:
            r, g, b = style.color
            colors.append((round(r * brightness), round(g * brightness), round(b * brightness)))
    if max_milliamps is not None:
        colors = limit_power(colors, max_milliamps)
    return colors


def render_single_colour(
    intents: LedIntents,
    layout: Layout,
    t: float,
    *,
    patterns: Mapping[Mark, Blink | None] = SINGLE_COLOUR_PATTERNS,
) -> list[bool]:
    """Whether every LED of ``layout`` is lit at time ``t``, in strip order."""
    out = []
    for mark in _led_marks(intents, layout):
        pattern = patterns.get(mark, SINGLE_COLOUR_PATTERNS[mark])
        out.append(pattern is not None and pattern.is_on(t))
    return out


def is_animated(
    intents: LedIntents,
    *,
    palette: Mapping[Mark, Style] | None = DEFAULT_PALETTE,
    patterns: Mapping[Mark, Blink | None] | None = None,
) -> bool:
    """Whether any shown mark blinks (so a sink must keep refreshing)."""
    for mark in set(intents.marks.values()):
        if palette is not None and not palette.get(mark, DEFAULT_PALETTE[mark]).blink.steady:
            return True
        if patterns is not None:
            p = patterns.get(mark, SINGLE_COLOUR_PATTERNS[mark])
            if p is not None and not p.steady:
                return True
    return False


# --------------------------------------------------------------------------- power


def estimate_milliamps(colors: Iterable[Color]) -> float:
    """Estimated current of WS2812-class LEDs showing ``colors``."""
    total = 0.0
    n = 0
    for r, g, b in colors:
        total += r + g + b
        n += 1
    return n * IDLE_MILLIAMPS_PER_LED + total * MILLIAMPS_PER_CHANNEL / 255.0


def limit_power(colors: Sequence[Color], max_milliamps: float) -> list[Color]:
    """``colors`` scaled down evenly so their estimated current is at most ``max_milliamps``."""
    if max_milliamps <= 0:
        raise ValueError(f"max_milliamps must be positive: {max_milliamps}")
    idle = len(colors) * IDLE_MILLIAMPS_PER_LED
    dynamic = estimate_milliamps(colors) - idle
    budget = max_milliamps - idle
    if dynamic <= budget or dynamic <= 0:
        return list(colors)
    scale = max(budget, 0.0) / dynamic
    # floor, so rounding can never push the total back over the cap
    return [(int(r * scale), int(g * scale), int(b * scale)) for r, g, b in colors]
