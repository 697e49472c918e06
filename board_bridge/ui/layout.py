"""Pure geometry of the board view: squares, hands, panel and buttons as pixel rectangles.

Nothing here imports pygame, so the geometry can be tested (and reused by other
front ends) without a display. Rectangles are ``(x, y, w, h)`` tuples.

The board is drawn the way shogi diagrams are: rank a (gote's back rank) at the
top, file 9 on the left, so square ``sq`` (``rank * 9 + (9 - file)``) sits at row
``sq // 9`` and column ``sq % 9``. Gote's hand (komadai) is at the top left,
sente's at the bottom right, as in a printed diagram.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from board_bridge.shogi import BLACK, HAND_PIECE_TYPES, WHITE, Color, PieceType, Square

Rect = tuple[int, int, int, int]

#: Real squares are a little taller than wide (about 33 x 36 mm).
SQUARE_ASPECT: Final = 1.09
#: The smallest button side (in pixels) that a finger hits reliably.
MIN_TOUCH: Final = 44


def contains(rect: Rect, x: float, y: float) -> bool:
    """Whether the point lies inside the rectangle (left/top edges included)."""
    rx, ry, rw, rh = rect
    return rx <= x < rx + rw and ry <= y < ry + rh


@dataclass(frozen=True)
class Layout:
    """Where everything goes on a screen of ``width`` x ``height`` pixels.

    Build one with :meth:`for_size`. ``orientation`` is ``"landscape"`` (hands and
    panel beside the board) or ``"portrait"`` (hands above and below, panel under).
    """

    width: int
    height: int
    orientation: str
    board: Rect  # the 9 x 9 grid of squares
    square_w: int
    square_h: int
    hands: tuple[Rect, Rect]  # komadai of (sente, gote)
    panel: Rect  # status, evaluation, messages, question buttons
    clocks: tuple[Rect, Rect]  # clocks of (sente, gote)

    # ------------------------------------------------------------------ building

    @classmethod
    def for_size(cls, width: int, height: int) -> Layout:
        """The layout for a screen: landscape unless the screen is clearly taller than wide."""
        if width < 160 or height < 160:
            raise ValueError(f"a board view needs at least 160 x 160 pixels: {width} x {height}")
        if height > width * 1.15:
            return cls._portrait(width, height)
        return cls._landscape(width, height)

    @classmethod
    def _landscape(cls, width: int, height: int) -> Layout:
        # Widths in square widths: hand 1.5, gap .15, board 9, labels .5, gap .15, hand 1.5,
        # gap .3, panel >= 4.5. Heights: labels .5 + 9 squares + margins .4.
        by_height = height / (0.9 + 9 * SQUARE_ASPECT)
        by_width = width / (1.5 + 0.15 + 9 + 0.5 + 0.15 + 1.5 + 0.3 + 4.5)
        sw = max(8, int(min(by_height, by_width)))
        sh = int(sw * SQUARE_ASPECT)
        margin = max(4, int(sw * 0.2))
        label = int(sw * 0.5)
        hand_w = int(sw * 1.5)
        gap = int(sw * 0.15)
        content_h = label + 9 * sh
        top = max(margin, (height - content_h) // 2) + label
        gote_hand = (margin, top, hand_w, min(7 * sh + sh // 2, 9 * sh))
        bx = margin + hand_w + gap
        board = (bx, top, 9 * sw, 9 * sh)
        sente_x = bx + 9 * sw + label + gap
        sente_hand = (sente_x, top + 9 * sh - gote_hand[3], hand_w, gote_hand[3])
        px = sente_x + hand_w + int(sw * 0.3)
        pw = max(0, width - px - margin)
        clock_h = int(max(12, sh // 2) * 1.6)
        gote_clock = (px, top - label, pw, clock_h)
        sente_clock = (px, top + 9 * sh - clock_h, pw, clock_h)
        gap_y = max(4, sh // 6)
        py = gote_clock[1] + clock_h + gap_y
        panel = (px, py, pw, max(0, sente_clock[1] - gap_y - py))
        return cls(
            width,
            height,
            "landscape",
            board,
            sw,
            sh,
            (sente_hand, gote_hand),
            panel,
            (sente_clock, gote_clock),
        )

    @classmethod
    def _portrait(cls, width: int, height: int) -> Layout:
        # Heights in square heights: hand 1.2, board 9, labels .5, hand 1.2, panel >= 3.5.
        by_width = width / (9 + 0.5 + 0.6)
        by_height = height / ((1.2 + 0.5 + 9 + 1.2 + 3.2 + 0.6) * SQUARE_ASPECT)
        sw = max(8, int(min(by_width, by_height)))
        sh = int(sw * SQUARE_ASPECT)
        margin = max(4, int(sw * 0.2))
        label = int(sw * 0.5)
        hand_h = int(sh * 1.2)
        bx = max(margin, (width - 9 * sw - label) // 2)
        hand_w = int(sw * 6.3)  # the clock goes beside the komadai
        clock_x = bx + hand_w + margin
        clock_w = bx + 9 * sw + label - clock_x
        gote_hand = (bx, margin, hand_w, hand_h)
        gote_clock = (clock_x, margin, clock_w, hand_h)
        top = margin + hand_h + label
        board = (bx, top, 9 * sw, 9 * sh)
        sente_hand = (bx, top + 9 * sh + margin, hand_w, hand_h)
        sente_clock = (clock_x, sente_hand[1], clock_w, hand_h)
        py = sente_hand[1] + hand_h + margin
        panel = (margin, py, width - 2 * margin, max(0, height - py - margin))
        return cls(
            width,
            height,
            "portrait",
            board,
            sw,
            sh,
            (sente_hand, gote_hand),
            panel,
            (sente_clock, gote_clock),
        )

    # ------------------------------------------------------------------ squares

    def square_rect(self, sq: Square) -> Rect:
        """The pixel rectangle of a square."""
        row, col = divmod(sq, 9)
        bx, by, _, _ = self.board
        return (bx + col * self.square_w, by + row * self.square_h, self.square_w, self.square_h)

    def square_center(self, sq: Square) -> tuple[int, int]:
        x, y, w, h = self.square_rect(sq)
        return (x + w // 2, y + h // 2)

    def square_at(self, x: float, y: float) -> Square | None:
        """The square under a point, or None off the board."""
        bx, by, bw, bh = self.board
        if not (bx <= x < bx + bw and by <= y < by + bh):
            return None
        col = int((x - bx) // self.square_w)
        row = int((y - by) // self.square_h)
        return row * 9 + col

    def file_label_pos(self, col: int) -> tuple[int, int]:
        """Centre of the file number above column ``col`` (0 = file 9)."""
        bx, by, _, _ = self.board
        return (bx + col * self.square_w + self.square_w // 2, by - self.square_w // 4)

    def rank_label_pos(self, row: int) -> tuple[int, int]:
        """Centre of the rank label right of row ``row`` (0 = rank a)."""
        bx, by, bw, _ = self.board
        return (bx + bw + self.square_w // 4, by + row * self.square_h + self.square_h // 2)

    # ------------------------------------------------------------------ hands

    def hand_rect(self, color: Color) -> Rect:
        return self.hands[0 if color == BLACK else 1]

    def hand_slots(self, color: Color) -> dict[PieceType, Rect]:
        """One slot per kind a hand can hold, in the order R B G S N L P from the far side.

        Sente's slots run down its komadai towards the player; gote's are the same
        turned half round (pawn at the top), as the pieces would lie on a real komadai.
        """
        hx, hy, hw, hh = self.hand_rect(color)
        n = len(HAND_PIECE_TYPES)
        slots: dict[PieceType, Rect] = {}
        for i, pt in enumerate(HAND_PIECE_TYPES):
            idx = i if color == BLACK else n - 1 - i
            if self.orientation == "landscape":
                step = hh // n
                slots[pt] = (hx, hy + idx * step, hw, step)
            else:
                step = hw // n
                slots[pt] = (hx + idx * step, hy, step, hh)
        return slots

    def hand_at(self, x: float, y: float) -> Color | None:
        """Whose komadai is under a point, if any."""
        for color in (BLACK, WHITE):
            if contains(self.hand_rect(color), x, y):
                return color
        return None

    def hand_slot_at(self, x: float, y: float) -> tuple[Color, PieceType] | None:
        """The hand slot under a point, if any."""
        color = self.hand_at(x, y)
        if color is None:
            return None
        for pt, rect in self.hand_slots(color).items():
            if contains(rect, x, y):
                return (color, pt)
        return None

    # ------------------------------------------------------------------ panel

    def clock_rect(self, color: Color) -> Rect:
        return self.clocks[0 if color == BLACK else 1]

    def _unit(self) -> int:
        return max(12, self.square_h // 2)

    def panel_rows(self) -> dict[str, Rect]:
        """The panel's parts from the top: status, evaluation, best line, message,
        and the question area below them.

        Where the panel is too short for the question's buttons (a small portrait
        screen), the question area starts at the evaluation row instead and covers
        the engine's rows while a question is open (see :attr:`question_covers_engine`).
        """
        px, py, pw, ph = self.panel
        unit = self._unit()
        gap = max(2, unit // 6)
        rows: dict[str, Rect] = {}
        y = py
        pv_h = unit * 2 if self.orientation == "landscape" else unit
        for name, h in (("status", unit), ("eval", unit), ("pv", pv_h), ("message", unit)):
            rows[name] = (px, y, pw, h)
            y += h + gap
        bottom = py + ph
        if bottom - y < self._question_need():
            y = rows["eval"][1]
        rows["question"] = (px, y, pw, max(0, bottom - y))
        return rows

    def _question_need(self) -> int:
        gap = max(4, self.square_w // 8)
        return self._unit() + 2 * MIN_TOUCH + gap

    @property
    def question_covers_engine(self) -> bool:
        """Whether an open question's buttons cover the evaluation and best-line rows."""
        rows = self.panel_rows()
        return rows["question"][1] <= rows["eval"][1]

    def question_buttons(self, options: tuple[str, ...]) -> dict[str, Rect]:
        """Button rectangles for a question's options, laid out in the question area.

        Two options (promote / do not promote) get two big buttons side by side;
        more (which piece was dropped) get a grid. Each button is at least
        :data:`MIN_TOUCH` pixels tall where the area allows, for fingers.
        """
        if not options:
            return {}
        qx, qy, qw, qh = self.panel_rows()["question"]
        title_h = self._unit()
        ay, ah = qy + title_h, max(0, qh - title_h)
        cols = 2 if len(options) <= 4 else 4
        rows = -(-len(options) // cols)
        gap = max(4, self.square_w // 8)
        bw = max(1, (qw - gap * (cols - 1)) // cols)
        bh = max(1, min(max(MIN_TOUCH, self.square_h), (ah - gap * (rows - 1)) // rows))
        out: dict[str, Rect] = {}
        for i, opt in enumerate(options):
            r, c = divmod(i, cols)
            out[opt] = (qx + c * (bw + gap), ay + r * (bh + gap), bw, bh)
        return out

    def button_at(self, options: tuple[str, ...], x: float, y: float) -> str | None:
        """The option whose button is under a point, if any."""
        for opt, rect in self.question_buttons(options).items():
            if contains(rect, x, y):
                return opt
        return None
