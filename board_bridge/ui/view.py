"""The board view: draws a position, the LED overlays, hands, clocks, engine and questions.

:class:`ViewState` is a plain value saying what to show; :class:`BoardView` draws
it onto any pygame Surface (the screen, or an offscreen surface in tests and
benchmarks). Geometry comes from :mod:`board_bridge.ui.layout`; piece images
are cached by :class:`board_bridge.ui.glyphs.PieceImages`, and the board's
static parts (wood, grid, labels, komadai) are drawn once per layout.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

import pygame

from board_bridge.drivers.leds import DEFAULT_PALETTE, Style
from board_bridge.shogi import (
    BLACK,
    HAND_PIECE_TYPES,
    WHITE,
    Board,
    Color,
    Move,
    Piece,
    PieceType,
    Square,
)
from board_bridge.tracker.intents import LedIntents, Mark
from board_bridge.ui.glyphs import KANJI, LATIN, Fonts, PieceImages
from board_bridge.ui.layout import Layout, Rect
from board_bridge.ui.notation import KANJI_NUMERALS, line_moves, move_text

RGB = tuple[int, int, int]

BACKGROUND: Final[RGB] = (40, 44, 52)
BOARD_WOOD: Final[RGB] = (222, 184, 110)
KOMADAI_WOOD: Final[RGB] = (196, 150, 86)
GRID: Final[RGB] = (60, 40, 20)
LABEL: Final[RGB] = (225, 225, 225)
TEXT: Final[RGB] = (235, 235, 235)
DIM_TEXT: Final[RGB] = (160, 165, 175)
BUTTON: Final[RGB] = (70, 110, 170)
BUTTON_EDGE: Final[RGB] = (200, 220, 255)
CLOCK_RUNNING: Final[RGB] = (250, 250, 250)
CLOCK_LOW: Final[RGB] = (255, 90, 70)
#: Overlay opacity (0-255) of a mark's colour over the wood.
OVERLAY_ALPHA: Final = 150
#: Marks drawn fainter: the last move is background information.
FAINT_ALPHA: Final[dict[Mark, int]] = {Mark.LAST_MOVE: 60, Mark.HINT: 110}

OPTION_LABELS: Final[dict[str, tuple[str, str]]] = {
    # option: (Japanese, English)
    "promote": ("成る", "Promote"),
    "nonpromote": ("成らず", "Don't promote"),
}
PIECE_NAMES_EN: Final[dict[str, str]] = {
    "R": "Rook",
    "B": "Bishop",
    "G": "Gold",
    "S": "Silver",
    "N": "Knight",
    "L": "Lance",
    "P": "Pawn",
}
LETTER_TYPES: Final[dict[str, PieceType]] = {LATIN[pt]: pt for pt in HAND_PIECE_TYPES}


@dataclass(frozen=True)
class ClockView:
    """The clocks: seconds left on each main clock (sente, gote), byoyomi seconds left
    in the current period (None: no byoyomi), and whose clock runs (None: stopped)."""

    remaining: tuple[float, float]
    byoyomi: tuple[float | None, float | None] = (None, None)
    running: Color | None = None


@dataclass(frozen=True)
class EngineView:
    """The engine's evaluation from sente's side (centipawns, or mate in N plies:
    positive for sente), its best line (USI moves from the shown position) and depth."""

    score_cp: int | None = None
    mate: int | None = None
    pv: tuple[str, ...] = ()
    depth: int | None = None
    name: str = ""
    position: Board | None = None  # where the best line starts (default: the shown position)


@dataclass(frozen=True)
class Question:
    """A question for the player: ``kind`` "promote" or "drop", and the options."""

    kind: str
    options: tuple[str, ...]
    square: Square | None = None

    @classmethod
    def from_intents(cls, intents: LedIntents) -> Question | None:
        """The question an intents value carries ("promote" or "drop:GSP"), if any."""
        q = intents.question
        if not q:
            return None
        if q == "promote":
            return cls("promote", ("promote", "nonpromote"))
        if q.startswith("drop:"):
            return cls("drop", tuple(q[5:]))
        return None


@dataclass(frozen=True)
class Held:
    """A piece the simulator's player holds under the mouse (drawn on top)."""

    piece: Piece
    pos: tuple[int, int]


@dataclass(frozen=True)
class ViewState:
    """Everything the view shows in one frame.

    ``pieces``/``hands`` are what stands on the board and lies on the komadai: the
    game's position for the view beside a real board, the virtual board's physical
    state in the simulator (a lifted piece is not on its square). Build from a
    position with :meth:`from_board`.
    """

    pieces: tuple[Piece | None, ...]
    hands: tuple[Mapping[PieceType, int], Mapping[PieceType, int]]
    turn: Color = BLACK
    ply: int = 1
    intents: LedIntents = field(default_factory=LedIntents)
    board: Board | None = None  # the game's position (for notation and the best line)
    last_move: Move | None = None
    check: Square | None = None  # the king in check
    clocks: ClockView | None = None
    engine: EngineView | None = None
    question: Question | None = None
    message: str | None = None
    game_over: str | None = None
    held: tuple[Held, ...] = ()
    t: float = 0.0  # for blinking overlays
    title: str = ""

    @classmethod
    def from_board(cls, board: Board, **kwargs: object) -> ViewState:
        """The state showing a position; other fields as keyword arguments.

        The last move and a king in check are taken from the board unless given.
        """
        pieces = tuple(board.piece_at(sq) for sq in range(81))
        hands = board.pieces_in_hand
        check: Square | None = None
        if board.is_check():
            check = board.king_square(board.turn)
        values: dict[str, object] = {
            "turn": board.turn,
            "ply": board.ply,
            "board": board,
            "last_move": board.peek(),
            "check": check,
        }
        values.update(kwargs)
        if "question" not in kwargs and "intents" in kwargs:
            intents = kwargs["intents"]
            if isinstance(intents, LedIntents):
                values["question"] = Question.from_intents(intents)
        return cls(pieces, hands, **values)  # type: ignore[arg-type]


def format_clock(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` past an hour; tenths under ten seconds)."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"0:0{seconds:.1f}"
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def score_text(engine: EngineView) -> str:
    if engine.mate is not None:
        side = "sente" if engine.mate > 0 else "gote"
        return f"mate in {abs(engine.mate)} for {side}"
    if engine.score_cp is not None:
        return f"{engine.score_cp:+d}"
    return "..."


def option_label(option: str, kanji: bool) -> str:
    """What a question button says."""
    if option in OPTION_LABELS:
        ja, en = OPTION_LABELS[option]
        return f"{ja} {en}" if kanji else en
    if option in LETTER_TYPES:
        en = PIECE_NAMES_EN[option]
        return f"{KANJI[LETTER_TYPES[option]]} {en}" if kanji else f"{option} {en}"
    return option


class BoardView:
    """Draws :class:`ViewState` values onto a surface of the layout's size."""

    def __init__(
        self,
        layout: Layout,
        fonts: Fonts | None = None,
        palette: Mapping[Mark, Style] = DEFAULT_PALETTE,
    ) -> None:
        self.layout = layout
        self.fonts = fonts if fonts is not None else Fonts()
        self.palette = palette
        self.images = PieceImages(self.fonts)
        self._static: pygame.Surface | None = None
        self._overlays: dict[tuple[Mark, bool], pygame.Surface] = {}
        self._text: dict[tuple[str, int, RGB], pygame.Surface] = {}
        self._sizes: dict[tuple[str, int, int], int] = {}
        self._notation: dict[tuple[object, ...], str] = {}
        self.images.warm([(layout.square_w, layout.square_h)])

    # ------------------------------------------------------------------ helpers

    def text(self, s: str, size: int, color: RGB = TEXT) -> pygame.Surface:
        """A rendered line of text, cached (clock and panel text repeat a lot)."""
        key = (s, size, color)
        surf = self._text.get(key)
        if surf is None:
            if len(self._text) > 512:
                self._text.clear()
            surf = self.fonts.text_font(size).render(s, True, color)
            self._text[key] = surf
        return surf

    def _blit_center(self, target: pygame.Surface, surf: pygame.Surface, cx: int, cy: int) -> None:
        target.blit(surf, (cx - surf.get_width() // 2, cy - surf.get_height() // 2))

    def _fit_size(self, s: str, w: int, h: int) -> int:
        """The largest font size (up to 80% of ``h``) at which ``s`` fits ``w`` (cached)."""
        key = (s, w, h)
        size = self._sizes.get(key)
        if size is None:
            size = max(8, int(h * 0.8))
            width = self.text(s, size).get_width()
            if width > w:
                # one estimate from the measured width, then a few small steps
                size = max(8, int(size * w / width))
                while self.text(s, size).get_width() > w and size > 8:
                    size = max(8, size - max(1, size // 10))
            if len(self._sizes) > 512:
                self._sizes.clear()
            self._sizes[key] = size
        return size

    def _blit_fit(
        self, target: pygame.Surface, s: str, rect: Rect, color: RGB = TEXT, center: bool = False
    ) -> None:
        """Text in a row, shrunk until it fits the row's width."""
        x, y, w, h = rect
        surf = self.text(s, self._fit_size(s, w, h), color)
        if center:
            self._blit_center(target, surf, x + w // 2, y + h // 2)
        else:
            target.blit(surf, (x, y + (h - surf.get_height()) // 2))

    def _blit_lines(
        self,
        target: pygame.Surface,
        lines: Sequence[str],
        rect: Rect,
        color: RGB = TEXT,
        center: bool = False,
    ) -> None:
        """Lines of text one under another in ``rect``, all at the same (fitting) size."""
        lines = [line for line in lines if line]
        if not lines:
            return
        x, y, w, h = rect
        row = h // len(lines)
        size = min(self._fit_size(line, w, row) for line in lines)
        for i, line in enumerate(lines):
            surf = self.text(line, size, color)
            top = y + i * row + (row - surf.get_height()) // 2
            left = x + (w - surf.get_width()) // 2 if center else x
            target.blit(surf, (left, top))

    def overlay_color(self, mark: Mark) -> RGB:
        """The colour a mark is drawn in: the LED palette's, so the screen matches the board."""
        return tuple(self.palette[mark].color)  # type: ignore[return-value]

    # ------------------------------------------------------------------ static parts

    def _build_static(self) -> pygame.Surface:
        lay = self.layout
        surf = pygame.Surface((lay.width, lay.height))
        surf.fill(BACKGROUND)
        bx, by, bw, bh = lay.board
        pad = max(2, lay.square_w // 10)
        pygame.draw.rect(surf, BOARD_WOOD, (bx - pad, by - pad, bw + 2 * pad, bh + 2 * pad))
        for i in range(10):
            w = 2 if i in (0, 9) else 1
            x = bx + i * lay.square_w
            y = by + i * lay.square_h
            pygame.draw.line(surf, GRID, (x, by), (x, by + bh), w)
            pygame.draw.line(surf, GRID, (bx, y), (bx + bw, y), w)
        r = max(2, lay.square_w // 14)
        for i in (3, 6):
            for j in (3, 6):
                pygame.draw.circle(surf, GRID, (bx + i * lay.square_w, by + j * lay.square_h), r)
        size = max(8, lay.square_w * 4 // 10)
        for col in range(9):
            self._blit_center(surf, self.text(str(9 - col), size, LABEL), *lay.file_label_pos(col))
        for row in range(9):
            label = KANJI_NUMERALS[row + 1] if self.fonts.kanji else "abcdefghi"[row]
            self._blit_center(surf, self.text(label, size, LABEL), *lay.rank_label_pos(row))
        for color in (BLACK, WHITE):
            hx, hy, hw, hh = lay.hand_rect(color)
            pygame.draw.rect(surf, KOMADAI_WOOD, (hx, hy, hw, hh), border_radius=pad)
            pygame.draw.rect(surf, GRID, (hx, hy, hw, hh), 1, border_radius=pad)
        return surf

    def _overlay(self, mark: Mark, strong: bool) -> pygame.Surface:
        key = (mark, strong)
        surf = self._overlays.get(key)
        if surf is None:
            w, h = self.layout.square_w, self.layout.square_h
            color = self.overlay_color(mark)
            surf = pygame.Surface((w, h), pygame.SRCALPHA)
            surf.fill((*color, FAINT_ALPHA.get(mark, OVERLAY_ALPHA)))
            if strong:
                edge = max(2, w // 12)
                pygame.draw.rect(surf, (*color, 255), (0, 0, w, h), edge)
            self._overlays[key] = surf
        return surf

    # ------------------------------------------------------------------ drawing

    def draw(self, target: pygame.Surface, state: ViewState) -> None:
        """Draw one whole frame of ``state`` onto ``target``."""
        if self._static is None:
            self._static = self._build_static()
        target.blit(self._static, (0, 0))
        self._draw_marks(target, state)
        self._draw_pieces(target, state)
        self._draw_hands(target, state)
        self._draw_panel(target, state)
        if state.game_over:
            self._draw_game_over(target, state.game_over)
        for held in state.held:
            img = self.images.get(
                held.piece.piece_type, held.piece.color, self.layout.square_w, self.layout.square_h
            )
            self._blit_center(target, img, *held.pos)

    def marks_of(self, state: ViewState) -> dict[Square, Mark]:
        """The mark drawn on each square: the intents' marks, plus the last move and
        check from the position where the intents do not mark them already."""
        marks = dict(state.intents.marks)
        if state.last_move is not None:
            squares = [state.last_move.to_square]
            if state.last_move.from_square is not None:
                squares.append(state.last_move.from_square)
            for sq in squares:
                marks.setdefault(sq, Mark.LAST_MOVE)
        if state.check is not None and marks.get(state.check, Mark.NONE) < Mark.CHECK:
            marks[state.check] = Mark.CHECK
        return marks

    def _draw_marks(self, target: pygame.Surface, state: ViewState) -> None:
        for sq, mark in self.marks_of(state).items():
            if mark == Mark.NONE:
                continue
            style = self.palette[mark]
            # The fill stays steady (readable); the edge blinks as the LED does.
            strong = mark >= Mark.ENGINE_FROM and style.blink.is_on(state.t)
            x, y, _, _ = self.layout.square_rect(sq)
            target.blit(self._overlay(mark, strong), (x, y))

    def _draw_pieces(self, target: pygame.Surface, state: ViewState) -> None:
        lay = self.layout
        for sq, piece in enumerate(state.pieces):
            if piece is None:
                continue
            img = self.images.get(piece.piece_type, piece.color, lay.square_w, lay.square_h)
            x, y, _, _ = lay.square_rect(sq)
            target.blit(img, (x, y))

    def _draw_hands(self, target: pygame.Surface, state: ViewState) -> None:
        lay = self.layout
        for color in (BLACK, WHITE):
            hand = state.hands[color]
            hx, hy, hw, hh = lay.hand_rect(color)
            if state.turn == color and not state.game_over:
                pygame.draw.rect(target, CLOCK_RUNNING, (hx - 2, hy - 2, hw + 4, hh + 4), 2, 4)
            for pt, (sx, sy, sw, sh) in lay.hand_slots(color).items():
                n = hand.get(pt, 0)
                if not n:
                    continue
                pw = min(lay.square_w, sw)
                ph = min(lay.square_h, sh)
                img = self.images.get(pt, color, pw, ph)
                px = sx + (sw - pw) // 2 - (pw // 5 if n > 1 else 0)
                py = sy + (sh - ph) // 2
                target.blit(img, (px, py))
                if n > 1:
                    label = self.text(str(n), max(9, ph * 4 // 10), TEXT)
                    lx = px + pw - 2
                    ly = sy + (sh - label.get_height()) // 2
                    bg = pygame.Rect(lx - 2, ly, label.get_width() + 4, label.get_height())
                    pygame.draw.rect(target, (30, 30, 30), bg, border_radius=4)
                    target.blit(label, (lx, ly))

    def _draw_panel(self, target: pygame.Surface, state: ViewState) -> None:
        rows = self.layout.panel_rows()
        for color in (BLACK, WHITE):
            self._draw_clock(target, self.layout.clock_rect(color), color, state)
        turn = "sente" if state.turn == BLACK else "gote"
        status = f"move {state.ply} · {turn} to play"
        if state.title:
            status = f"{state.title} · {status}"
        if state.last_move is not None and state.board is not None and state.board.ply > 1:
            status += "   last " + self._last_move_text(state.board)
        self._blit_fit(target, status, rows["status"], DIM_TEXT)
        if state.check is not None and not state.game_over:
            x, y, w, h = rows["status"]
            self._blit_fit(target, "check!", (x + w - h * 3, y, h * 3, h), self._c(Mark.CHECK))
        covered = state.question is not None and self.layout.question_covers_engine
        if state.engine is not None and not covered:
            self._draw_engine(target, rows["eval"], rows["pv"], state)
        message = state.message
        if message is None and state.intents.reason:
            message = f"illegal: {state.intents.reason}"
        if message:
            ink = self._c(Mark.ERROR) if state.intents.reason else TEXT
            self._blit_fit(target, message, rows["message"], ink)
        if state.intents.engine_move and state.question is None:
            text = f"engine: {self._engine_move_text(state)}  (move it on the board)"
            qx, qy, qw, _ = rows["question"]
            self._blit_fit(target, text, (qx, qy, qw, rows["message"][3]), self._c(Mark.ENGINE_TO))
        if state.question is not None:
            self._draw_question(target, rows["question"], state.question)

    def _memo(self, key: tuple[object, ...], make: Callable[[], str]) -> str:
        text = self._notation.get(key)
        if text is None:
            if len(self._notation) > 256:
                self._notation.clear()
            text = self._notation[key] = make()
        return text

    def _last_move_text(self, board: Board) -> str:
        def make() -> str:
            prev = board.copy()
            last = prev.pop()
            return move_text(prev, last, self.fonts.kanji)

        return self._memo(("last", board.position_key(), board.ply, board.peek()), make)

    def _line_text(self, board: Board, pv: tuple[str, ...]) -> str:
        """The best line on two lines of text (at most four moves each), "\n" between."""

        def make() -> str:
            moves = line_moves(board, pv, self.fonts.kanji)
            sep = "　" if self.fonts.kanji else "  "
            return sep.join(moves[:4]) + "\n" + sep.join(moves[4:8])

        return self._memo(("pv", board.position_key(), board.ply, pv), make)

    def _c(self, mark: Mark) -> RGB:
        """A mark's colour lightened for text on the dark panel."""
        r, g, b = self.overlay_color(mark)
        return ((r + 255) // 2, (g + 255) // 2, (b + 255) // 2)

    def _engine_move_text(self, state: ViewState) -> str:
        usi = state.intents.engine_move or ""
        if state.board is not None:
            try:
                move = Move.from_usi(usi)
            except ValueError:
                return usi
            if state.board.is_legal(move):
                return move_text(state.board, move, self.fonts.kanji)
        return usi

    def _draw_clock(
        self, target: pygame.Surface, rect: Rect, color: Color, state: ViewState
    ) -> None:
        x, y, w, h = rect
        running = state.clocks is not None and state.clocks.running == color
        bg = (70, 76, 90) if running else (52, 56, 66)
        pygame.draw.rect(target, bg, rect, border_radius=max(3, h // 8))
        side = ("☗ " if color == BLACK else "☖ ") if self.fonts.kanji else ""
        side += "sente" if color == BLACK else "gote"
        pad = max(2, h // 8)
        if w < h * 3:  # a narrow box (beside a komadai): the name above the time
            label_rect: Rect = (x + pad, y + pad // 2, w - 2 * pad, h // 4)
            time_rect: Rect = (x + pad, y + h // 4, w - 2 * pad, h - h // 4 - pad // 2)
        else:  # a wide box: the name at the left, the time at the right
            label_rect = (x + h // 4, y, w // 3, h // 2)
            time_rect = (x + w // 3, y, w * 2 // 3 - h // 4, h)
        self._blit_fit(target, side, label_rect, DIM_TEXT)
        if state.clocks is None:
            return
        left = state.clocks.remaining[color]
        byo = state.clocks.byoyomi[color]
        text = format_clock(left)
        low = left < 10
        if byo is not None and left <= 0:
            text = f"byoyomi {format_clock(byo)}"
            low = byo < 10
        ink = CLOCK_LOW if low else (CLOCK_RUNNING if running else DIM_TEXT)
        self._blit_fit(target, text, time_rect, ink, center=w < h * 3)

    def _draw_engine(
        self, target: pygame.Surface, eval_rect: Rect, pv_rect: Rect, state: ViewState
    ) -> None:
        engine = state.engine
        assert engine is not None
        x, y, w, h = eval_rect
        bar_w = w // 3
        # Evaluation bar: sente's share, squashed so +-2000 cp fills most of it.
        if engine.mate is not None:
            share = 1.0 if engine.mate > 0 else 0.0
        elif engine.score_cp is not None:
            share = 0.5 + 0.5 * max(-1.0, min(1.0, engine.score_cp / 2000))
        else:
            share = 0.5
        pygame.draw.rect(target, (20, 20, 20), (x, y + h // 4, bar_w, h // 2))
        pygame.draw.rect(target, (245, 245, 245), (x, y + h // 4, int(bar_w * share), h // 2))
        label = "eval " + score_text(engine)
        if engine.depth:
            label += f"  d{engine.depth}"
        self._blit_fit(target, label, (x + bar_w + h // 3, y, w - bar_w - h // 3, h), TEXT)
        start = engine.position if engine.position is not None else state.board
        if engine.pv and start is not None:
            px, py, pw, ph = pv_rect
            first, second = self._line_text(start, engine.pv).split("\n")
            if self.layout.orientation == "portrait":  # one row: as much as fits
                self._blit_fit(
                    target, f"{first}　{second}".strip("　 "), pv_rect, self._c(Mark.HINT)
                )
            else:
                self._blit_lines(
                    target, [first, second], (px, py, pw, ph // 2 * 2), self._c(Mark.HINT)
                )

    def _draw_question(self, target: pygame.Surface, rect: Rect, q: Question) -> None:
        kanji = self.fonts.kanji
        x, y, w, _ = rect
        title_h = self.layout.panel_rows()["status"][3]
        if q.kind == "promote":
            title = "成りますか？ Promote?" if kanji else "Promote?"
        else:
            title = "何を打ちましたか？ Which piece?" if kanji else "Which piece was dropped?"
        self._blit_fit(target, title, (x, y, w, title_h), self._c(Mark.QUESTION))
        for opt, (bx, by, bw, bh) in self.layout.question_buttons(q.options).items():
            r = max(4, bh // 6)
            pygame.draw.rect(target, BUTTON, (bx, by, bw, bh), border_radius=r)
            pygame.draw.rect(target, BUTTON_EDGE, (bx, by, bw, bh), 2, border_radius=r)
            pad = bh // 8
            label = option_label(opt, kanji)
            inner = (bx + pad, by + pad, bw - 2 * pad, bh - 2 * pad)
            if kanji and " " in label and bw < bh * 4:  # Japanese above, English below
                head, tail = label.split(" ", 1)
                self._blit_lines(target, [head, tail], inner, TEXT, center=True)
            else:
                self._blit_fit(target, label, inner, TEXT, center=True)

    def _draw_game_over(self, target: pygame.Surface, text: str) -> None:
        bx, by, bw, bh = self.layout.board
        h = self.layout.square_h
        band = pygame.Surface((bw, h * 2), pygame.SRCALPHA)
        band.fill((*self.overlay_color(Mark.GAME_OVER), 215))
        target.blit(band, (bx, by + bh // 2 - h))
        self._blit_fit(
            target, text, (bx + h // 4, by + bh // 2 - h, bw - h // 2, h * 2), TEXT, True
        )


def render(
    state: ViewState, size: tuple[int, int] = (1024, 600), fonts: Fonts | None = None
) -> pygame.Surface:
    """Draw one frame offscreen (for tests, screenshots and benchmarks)."""
    view = BoardView(Layout.for_size(*size), fonts)
    surf = pygame.Surface(size)
    view.draw(surf, state)
    return surf


def hand_from_letters(letters: Sequence[str]) -> dict[PieceType, int]:
    """``["P", "P", "G"]`` -> {PAWN: 2, GOLD: 1}: handy for building hands in tests."""
    out: dict[PieceType, int] = {}
    for letter in letters:
        pt = LETTER_TYPES[letter]
        out[pt] = out.get(pt, 0) + 1
    return out
