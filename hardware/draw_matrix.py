"""Draws hardware/matrix.svg (the reed matrix) and hardware/leds.svg (the WS2812 data line).

Run from the repository: ``python hardware/draw_matrix.py``. The pin labels come from
the driver's defaults, so the pictures cannot drift from the code. Output is
deterministic (the test suite checks the committed SVGs are up to date).
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from board_bridge.drivers.gpio_matrix import DEFAULT_COLUMNS, DEFAULT_ROWS  # noqa: E402

FILES = "987654321"
RANKS = "abcdefghi"


class Svg:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []

    def line(self, x1: float, y1: float, x2: float, y2: float, cls: str = "w") -> None:
        self.parts.append(f'<line class="{cls}" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"/>')

    def rect(self, x: float, y: float, w: float, h: float, cls: str, rx: float = 0) -> None:
        self.parts.append(
            f'<rect class="{cls}" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}"/>'
        )

    def poly(self, points: list[tuple[float, float]], cls: str) -> None:
        pts = " ".join(f"{x:g},{y:g}" for x, y in points)
        self.parts.append(f'<polygon class="{cls}" points="{pts}"/>')

    def dot(self, x: float, y: float, r: float = 2.6) -> None:
        self.parts.append(f'<circle class="dot" cx="{x:g}" cy="{y:g}" r="{r:g}"/>')

    def text(self, x: float, y: float, s: str, cls: str = "t", anchor: str = "middle") -> None:
        self.parts.append(
            f'<text class="{cls}" x="{x:g}" y="{y:g}" text-anchor="{anchor}">{escape(s)}</text>'
        )

    def render(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}"'
            f' viewBox="0 0 {self.width} {self.height}">\n'
            f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="#ffffff"/>\n'
        )
        body = "\n".join(self.parts)
        for cls, attrs in STYLES.items():  # presentation attributes: every viewer draws them
            body = body.replace(f'class="{cls}"', attrs)
        return head + body + "\n</svg>\n"


STYLES = {
    "w": 'stroke="#222222" stroke-width="1.4" fill="none"',
    "row": 'stroke="#1f5fbf" stroke-width="2" fill="none"',
    "col": 'stroke="#b0361f" stroke-width="2" fill="none"',
    "glass": 'stroke="#555555" stroke-width="1.2" fill="#e8f4f8"',
    "blade": 'stroke="#333333" stroke-width="1.4" fill="none"',
    "diode": 'stroke="#222222" stroke-width="1.2" fill="#222222"',
    "box": 'stroke="#222222" stroke-width="1.4" fill="#ffffff"',
    "chip": 'stroke="#222222" stroke-width="1.6" fill="#f3f0e6"',
    "dot": 'fill="#222222"',
    "t": 'font-family="sans-serif" font-size="13" fill="#222222"',
    "s": 'font-family="sans-serif" font-size="11" fill="#444444"',
    "h": 'font-family="sans-serif" font-size="17" font-weight="bold" fill="#111111"',
    "rt": 'font-family="sans-serif" font-size="12" font-weight="bold" fill="#1f5fbf"',
    "ct": 'font-family="sans-serif" font-size="12" font-weight="bold" fill="#b0361f"',
}


def switch_and_diode(svg: Svg, xc: float, yr: float) -> None:
    """One square: a reed switch from the column, then a diode down to the row
    (anode on the column side, cathode on the row)."""
    ytap = yr - 34
    svg.dot(xc, ytap)
    svg.line(xc, ytap, xc + 7, ytap)
    svg.rect(xc + 7, ytap - 5, 24, 10, "glass", rx=5)
    svg.line(xc + 9, ytap, xc + 20, ytap - 1.5, "blade")
    svg.line(xc + 18, ytap + 1.5, xc + 29, ytap, "blade")
    svg.line(xc + 31, ytap, xc + 38, ytap)
    svg.line(xc + 38, ytap, xc + 38, yr - 22)
    svg.poly([(xc + 32, yr - 22), (xc + 44, yr - 22), (xc + 38, yr - 12)], "diode")
    svg.line(xc + 31, yr - 12, xc + 45, yr - 12, "diode")
    svg.line(xc + 38, yr - 12, xc + 38, yr)
    svg.dot(xc + 38, yr)


def draw_matrix() -> str:
    cell = 72
    x0, y0 = 170, 150
    width = x0 + 9 * cell + 60
    height = y0 + 9 * cell + 130
    svg = Svg(width, height)
    svg.text(
        width / 2,
        32,
        "board-bridge: 9 x 9 reed matrix, one switch and one 1N4148 per square",
        "h",
    )
    svg.text(
        width / 2,
        54,
        "Default GPIO (BCM) of the gpio source, Pi 4 and Pi 5; the board as sente sees it",
        "s",
    )
    top = y0 - 40
    bottom = y0 + 9 * cell - 8
    left = x0 - 20
    right = x0 + 9 * cell
    for c in range(9):
        xc = x0 + c * cell + 14
        svg.line(xc, top, xc, bottom, "col")
        svg.text(xc, top - 44, f"file {FILES[c]}", "ct")
        svg.text(xc, top - 30, f"GPIO{DEFAULT_COLUMNS[c]}", "ct")
        # the pull-up: the Pi's internal one (GPIO 2/3 have 1.8 k on the board)
        svg.rect(xc - 4, top - 24, 8, 16, "box")
        svg.line(xc, top - 8, xc, top)
    svg.text(x0 - 40, top - 14, "pull-ups to 3V3", "s", anchor="end")
    for r in range(9):
        yr = y0 + r * cell + 40
        svg.line(left, yr, right, yr, "row")
        svg.text(left - 10, yr - 2, f"rank {RANKS[r]}", "rt", anchor="end")
        svg.text(left - 10, yr + 13, f"GPIO{DEFAULT_ROWS[r]}", "rt", anchor="end")
        for c in range(9):
            switch_and_diode(svg, x0 + c * cell + 14, yr)
    notes = [
        "Rows are driven low one at a time (the others float); columns read with pull-ups.",
        "A closed switch pulls its column low only while its own row is driven: the diode",
        "(anode to the column, cathode to the row) stops current flowing back through other",
        "closed switches, which would make a fourth square of a rectangle read occupied (ghosting).",
    ]
    for i, note in enumerate(notes):
        svg.text(x0 - 150, bottom + 40 + 17 * i, note, "t", anchor="start")
    return svg.render()


def draw_leds() -> str:
    width, height = 900, 330
    svg = Svg(width, height)
    svg.text(width / 2, 32, "board-bridge: WS2812 data line from a 3.3 V GPIO", "h")
    # the Pi / Pico
    svg.rect(30, 90, 150, 120, "chip", rx=6)
    svg.text(105, 125, "Raspberry Pi", "t")
    svg.text(105, 145, "GPIO10 (SPI MOSI)", "s")
    svg.text(105, 160, "or GPIO18 (PWM)", "s")
    svg.text(105, 175, "or Pico GP22", "s")
    svg.text(105, 200, "GND", "s")
    # the level shifter
    svg.rect(290, 90, 150, 120, "chip", rx=6)
    svg.text(365, 120, "74AHCT125", "t")
    svg.text(365, 138, "VCC = 5 V, /OE = GND", "s")
    svg.text(365, 156, "1A in, 1Y out", "s")
    svg.text(365, 174, "unused inputs to GND", "s")
    svg.line(180, 150, 290, 150)
    svg.text(235, 143, "3.3 V data", "s")
    # the resistor
    svg.line(440, 150, 500, 150)
    svg.rect(500, 143, 50, 14, "box")
    svg.text(525, 135, "330 ohm", "s")
    svg.line(550, 150, 640, 150)
    svg.text(595, 143, "5 V data", "s")
    # the strip
    for i in range(3):
        x = 640 + i * 80
        svg.rect(x, 120, 56, 60, "chip", rx=4)
        svg.text(x + 28, 155, "WS2812B", "s")
        if i < 2:
            svg.line(x + 56, 150, x + 80, 150)
    svg.text(800, 200, "... 81 or 100 LEDs", "s")
    svg.text(668, 110, "DIN", "s")
    # power
    svg.line(30, 270, 870, 270, "col")
    svg.text(40, 262, "+5 V LED supply (its own, >= 2 A; see power.md)", "s", anchor="start")
    svg.line(30, 300, 870, 300, "row")
    svg.text(40, 318, "GND, joined to the Pi's GND", "s", anchor="start")
    svg.line(105, 210, 105, 300)
    svg.dot(105, 300)
    for x, y in ((350, 210), (668, 180)):  # 5 V to the level shifter and the first LED
        svg.line(x, y, x, 270)
        svg.dot(x, 270)
    svg.line(700, 180, 700, 300)
    svg.dot(700, 300)
    svg.line(380, 210, 380, 300)
    svg.dot(380, 300)
    # the capacitor across the strip's supply
    svg.line(610, 270, 610, 280)
    svg.line(598, 280, 622, 280, "w")
    svg.line(598, 287, 622, 287, "w")
    svg.line(610, 287, 610, 300)
    svg.dot(610, 270)
    svg.dot(610, 300)
    svg.text(560, 290, "1000 uF", "s")
    return svg.render()


def main() -> int:
    (HERE / "matrix.svg").write_text(draw_matrix(), encoding="utf-8")
    (HERE / "leds.svg").write_text(draw_leds(), encoding="utf-8")
    print(f"wrote {HERE / 'matrix.svg'} and {HERE / 'leds.svg'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
