"""Piece names, font discovery and the cache of pre-rendered piece surfaces.

Pieces are drawn the way shogi players expect: a kanji on a five-sided piece
shape when a Japanese font is installed (Debian's fonts-noto-cjk or
fonts-ipafont), Latin letters otherwise. Gote's pieces point down the board
(drawn turned half round). Each piece image is rendered once per size and
cached, since rendering text every frame is slow on a Raspberry Pi.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

import pygame

from board_bridge.records.japanese import BOD_NAMES
from board_bridge.shogi import (
    BISHOP,
    BLACK,
    DRAGON,
    GOLD,
    HORSE,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    PROM_KNIGHT,
    PROM_LANCE,
    PROM_PAWN,
    PROM_SILVER,
    ROOK,
    SILVER,
    Color,
    PieceType,
)

#: One-character kanji as on real pieces and in printed diagrams (those of BOD diagrams).
#: Sente's king is 玉, gote's 王 (the tradition of the stronger player's king).
KANJI: Final[dict[PieceType, str]] = BOD_NAMES
GOTE_KING_KANJI: Final = "王"

#: Latin letters (the English convention: + for promoted pieces).
LATIN: Final[dict[PieceType, str]] = {
    PAWN: "P",
    LANCE: "L",
    KNIGHT: "N",
    SILVER: "S",
    GOLD: "G",
    BISHOP: "B",
    ROOK: "R",
    KING: "K",
    PROM_PAWN: "+P",
    PROM_LANCE: "+L",
    PROM_KNIGHT: "+N",
    PROM_SILVER: "+S",
    HORSE: "+B",
    DRAGON: "+R",
}

#: Relative piece sizes: real pieces grow from the pawn to the king.
PIECE_SCALE: Final[dict[PieceType, float]] = {
    KING: 1.0,
    ROOK: 0.97,
    BISHOP: 0.97,
    GOLD: 0.94,
    SILVER: 0.94,
    KNIGHT: 0.91,
    LANCE: 0.89,
    PAWN: 0.86,
}

#: Where Debian and Raspberry Pi OS put Japanese fonts (fonts-noto-cjk, fonts-ipafont).
KNOWN_JAPANESE_FONTS: Final = (
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf",
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-mincho.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
)
#: Set this to a font file to choose the kanji font, or to "none" to force Latin letters.
FONT_ENV: Final = "BOARD_BRIDGE_FONT"

WOOD: Final = (238, 205, 140)
WOOD_EDGE: Final = (120, 84, 40)
INK: Final = (20, 16, 12)
PROMOTED_INK: Final = (190, 20, 20)


def piece_text(piece_type: PieceType, color: Color, kanji: bool) -> str:
    """The characters written on a piece."""
    if not kanji:
        return LATIN[piece_type]
    if piece_type == KING and color != BLACK:
        return GOTE_KING_KANJI
    return KANJI[piece_type]


def _fc_match(pattern: str) -> str | None:
    exe = shutil.which("fc-match")
    if exe is None:
        return None
    try:
        out = subprocess.run(
            [exe, "-f", "%{file}", pattern], capture_output=True, text=True, timeout=5, check=False
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out or None


def _has_kanji(path: str, sample: str = "飛角歩") -> bool:
    """Whether a font file really draws the kanji (not a box of a fallback font)."""
    try:
        font = pygame.font.Font(path, 32)
    except (OSError, pygame.error):
        return False
    try:
        metrics = font.metrics(sample)
    except pygame.error:
        return False
    return all(m is not None for m in metrics) and font.size(sample)[0] > 0


@lru_cache(maxsize=1)
def find_japanese_font(candidates: tuple[str, ...] = KNOWN_JAPANESE_FONTS) -> str | None:
    """A font file that has the piece kanji, or None (then pieces use Latin letters).

    Looks at ``$BOARD_BRIDGE_FONT`` first ("none" turns kanji off), then the
    known Debian paths, then asks fontconfig (``fc-match``) for a Japanese serif
    and sans font, then pygame's own font list.
    """
    pygame.font.init()
    env = os.environ.get(FONT_ENV, "").strip()
    if env.lower() == "none":
        return None
    tried: list[str] = []
    if env:
        tried.append(env)
    tried.extend(candidates)
    for pattern in ("serif:lang=ja:weight=bold", "sans:lang=ja"):
        found = _fc_match(pattern)
        if found:
            tried.append(found)
    for name in ("notoserifcjkjp", "notosanscjkjp", "ipamincho", "ipagothic", "takaomincho"):
        found = pygame.font.match_font(name)
        if found:
            tried.append(found)
    for path in tried:
        if Path(path).is_file() and _has_kanji(path):
            return path
    return None


class Fonts:
    """The fonts of the view: kanji (if found) and Latin text, cached by size."""

    def __init__(self, japanese: str | None | bool = True) -> None:
        pygame.font.init()
        if japanese is True:
            self.japanese_path: str | None = find_japanese_font()
        elif japanese is False or japanese is None:
            self.japanese_path = None
        else:
            self.japanese_path = japanese
        self._cache: dict[tuple[str, int], pygame.font.Font] = {}

    @property
    def kanji(self) -> bool:
        """Whether pieces and labels are written in kanji."""
        return self.japanese_path is not None

    def piece_font(self, size: int) -> pygame.font.Font:
        return self._font(self.japanese_path, size)

    def text_font(self, size: int) -> pygame.font.Font:
        """A font for panel text: the Japanese font if there is one (it has Latin too)."""
        return self._font(self.japanese_path, size)

    def _font(self, path: str | None, size: int) -> pygame.font.Font:
        key = (path or "", max(6, size))
        font = self._cache.get(key)
        if font is None:
            font = pygame.font.Font(path, key[1])  # None: pygame's bundled Latin font
            self._cache[key] = font
        return font


@dataclass(frozen=True)
class PieceKey:
    piece_type: PieceType
    color: Color
    width: int
    height: int


def piece_outline(width: int, height: int, scale: float = 1.0) -> list[tuple[float, float]]:
    """The five corners of a piece shape (pointing up) inside a ``width`` x ``height`` box."""
    w = width * 0.84 * scale
    h = height * 0.90 * scale
    cx, cy = width / 2, height / 2 + height * 0.02
    top = cy - h / 2
    bottom = cy + h / 2
    shoulder = top + h * 0.24
    return [
        (cx, top),
        (cx + w * 0.40, shoulder),
        (cx + w * 0.50, bottom),
        (cx - w * 0.50, bottom),
        (cx - w * 0.40, shoulder),
    ]


class PieceImages:
    """Pre-rendered piece surfaces (shape and text), one per kind, owner and size."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self._cache: dict[PieceKey, pygame.Surface] = {}

    def get(self, piece_type: PieceType, color: Color, width: int, height: int) -> pygame.Surface:
        key = PieceKey(piece_type, color, width, height)
        surf = self._cache.get(key)
        if surf is None:
            surf = self._render(key)
            self._cache[key] = surf
        return surf

    def warm(self, sizes: Iterable[tuple[int, int]]) -> None:
        """Render every piece at these sizes now (so the first frames are not slow)."""
        for w, h in sizes:
            for pt in KANJI:
                for color in (0, 1):
                    self.get(pt, color, w, h)

    def _render(self, key: PieceKey) -> pygame.Surface:
        w, h = key.width, key.height
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        base = key.piece_type - 8 if key.piece_type > KING else key.piece_type
        scale = PIECE_SCALE.get(base, 0.9)
        outline = piece_outline(w, h, scale)
        pygame.draw.polygon(surf, WOOD, outline)
        pygame.draw.polygon(surf, WOOD_EDGE, outline, max(1, w // 28))
        text = piece_text(key.piece_type, key.color, self.fonts.kanji)
        ink = PROMOTED_INK if key.piece_type > KING else INK
        ys = [p[1] for p in outline]
        body_h = max(ys) - min(ys)
        if self.fonts.kanji:
            size = int(min(w * 0.62 * scale, body_h * 0.62))
        else:
            size = int(min(w * (0.62 if len(text) == 1 else 0.5) * scale * 1.5, body_h * 0.7))
        font = self.fonts.piece_font(size)
        glyph = font.render(text, True, ink)
        gx = (w - glyph.get_width()) // 2
        gy = int(min(ys) + body_h * 0.58 - glyph.get_height() / 2)
        surf.blit(glyph, (gx, gy))
        if key.color != BLACK:
            surf = pygame.transform.rotate(surf, 180)
        return surf
