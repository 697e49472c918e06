"""Precomputed move and attack tables of the rules core (built once at import)."""

from __future__ import annotations

import random
from typing import Final

from board_bridge.shogi.core import (
    BISHOP,
    BLACK,
    GOLD,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    PROM_BISHOP,
    PROM_KNIGHT,
    PROM_LANCE,
    PROM_PAWN,
    PROM_ROOK,
    PROM_SILVER,
    PROMOTABLE,
    ROOK,
    SILVER,
    WHITE,
)

# Directions as (rank delta, column delta) for black; white's are negated.
# Column = 9 - file, so +1 column is toward file 1 (black's right).
_N, _S, _E, _W = (-1, 0), (1, 0), (0, 1), (0, -1)
_NE, _NW, _SE, _SW = (-1, 1), (-1, -1), (1, 1), (1, -1)
_KNIGHT_JUMPS = ((-2, -1), (-2, 1))
_GOLD_STEPS = (_N, _NE, _NW, _E, _W, _S)
_SILVER_STEPS = (_N, _NE, _NW, _SE, _SW)
_KING_STEPS = (_N, _NE, _NW, _E, _W, _S, _SE, _SW)
_ORTH = (_N, _S, _E, _W)
_DIAG = (_NE, _NW, _SE, _SW)

#: For black: (steps, slides) of each piece type.
_MOVEMENT: Final[dict[int, tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]]] = {
    PAWN: ((_N,), ()),
    LANCE: ((), (_N,)),
    KNIGHT: (_KNIGHT_JUMPS, ()),
    SILVER: (_SILVER_STEPS, ()),
    GOLD: (_GOLD_STEPS, ()),
    BISHOP: ((), _DIAG),
    ROOK: ((), _ORTH),
    KING: (_KING_STEPS, ()),
    PROM_PAWN: (_GOLD_STEPS, ()),
    PROM_LANCE: (_GOLD_STEPS, ()),
    PROM_KNIGHT: (_GOLD_STEPS, ()),
    PROM_SILVER: (_GOLD_STEPS, ()),
    PROM_BISHOP: (_ORTH, _DIAG),
    PROM_ROOK: (_DIAG, _ORTH),
}

NUM_CODES: Final = 32  # piece code = piece type | color << 4


def _vec(color: int, d: tuple[int, int]) -> tuple[int, int]:
    return d if color == BLACK else (-d[0], -d[1])


def _shift(sq: int, d: tuple[int, int]) -> int:
    r, c = divmod(sq, 9)
    r += d[0]
    c += d[1]
    return r * 9 + c if 0 <= r < 9 and 0 <= c < 9 else -1


def _ray(sq: int, d: tuple[int, int]) -> tuple[int, ...]:
    out = []
    t = _shift(sq, d)
    while t >= 0:
        out.append(t)
        t = _shift(t, d)
    return tuple(out)


def in_zone(color: int, sq: int) -> bool:
    """Is the square in ``color``'s promotion zone (the far three ranks)?"""
    return sq < 27 if color == BLACK else sq >= 54


def is_dead_square(color: int, piece_type: int, sq: int) -> bool:
    """Would an unpromoted piece of this type have no further move on this square?"""
    rank = sq // 9 if color == BLACK else 8 - sq // 9  # 0 = the far rank
    if piece_type in (PAWN, LANCE):
        return rank == 0
    if piece_type == KNIGHT:
        return rank <= 1
    return False


# Promotion flags of a move's table entry.
NO_PROMO: Final = 0  # cannot promote
MAY_PROMO: Final = 1  # may promote or not
MUST_PROMO: Final = 2  # must promote (the piece would be dead)


def _promo_flag(code: int, fr: int, to: int) -> int:
    pt, color = code & 15, code >> 4
    if pt not in PROMOTABLE or not (in_zone(color, fr) or in_zone(color, to)):
        return NO_PROMO
    return MUST_PROMO if is_dead_square(color, pt, to) else MAY_PROMO


def _build() -> tuple[
    list[list[tuple[tuple[int, int], ...]]],
    list[list[tuple[tuple[tuple[int, int], ...], ...]]],
    list[list[tuple[int, ...]]],
]:
    steps: list[list[tuple[tuple[int, int], ...]]] = [[() for _ in range(81)] for _ in range(32)]
    slides: list[list[tuple[tuple[tuple[int, int], ...], ...]]] = [
        [() for _ in range(81)] for _ in range(32)
    ]
    step_targets: list[list[tuple[int, ...]]] = [[() for _ in range(81)] for _ in range(32)]
    for color in (BLACK, WHITE):
        for pt, (st, sl) in _MOVEMENT.items():
            code = pt | color << 4
            for sq in range(81):
                targets = [t for d in st if (t := _shift(sq, _vec(color, d))) >= 0]
                step_targets[code][sq] = tuple(targets)
                steps[code][sq] = tuple((t, _promo_flag(code, sq, t)) for t in targets)
                rays = []
                for d in sl:
                    ray = _ray(sq, _vec(color, d))
                    if ray:
                        rays.append(tuple((t, _promo_flag(code, sq, t)) for t in ray))
                slides[code][sq] = tuple(rays)
    return steps, slides, step_targets


#: STEPS[code][sq]: ((target, promo flag), ...) of the piece's single steps.
#: SLIDES[code][sq]: rays of (target, promo flag), nearest square first.
STEPS, SLIDES, STEP_TARGETS = _build()


def _build_attacks() -> tuple[
    list[list[tuple[tuple[int, frozenset[int]], ...]]],
    list[list[tuple[tuple[tuple[int, ...], frozenset[int]], ...]]],
]:
    """ATTACK_STEPS[by][sq]: (from, codes of ``by`` that attack sq from there by a step).
    ATTACK_RAYS[by][sq]: (ray from sq outward, codes of ``by`` sliding toward sq along it)."""
    att_steps: list[list[tuple[tuple[int, frozenset[int]], ...]]] = [[], []]
    att_rays: list[list[tuple[tuple[tuple[int, ...], frozenset[int]], ...]]] = [[], []]
    for by in (BLACK, WHITE):
        for sq in range(81):
            by_from: dict[int, set[int]] = {}
            for pt, (st, _sl) in _MOVEMENT.items():
                code = pt | by << 4
                for d in st:
                    v = _vec(by, d)
                    src = _shift(sq, (-v[0], -v[1]))
                    if src >= 0:
                        by_from.setdefault(src, set()).add(code)
            att_steps[by].append(tuple((s, frozenset(c)) for s, c in sorted(by_from.items())))
            rays = []
            for d in _ORTH + _DIAG:  # a direction from sq outward
                ray = _ray(sq, d)
                if not ray:
                    continue
                toward = (-d[0], -d[1])  # the slider moves toward sq
                codes = frozenset(
                    pt | by << 4
                    for pt, (_st, sl) in _MOVEMENT.items()
                    if any(_vec(by, s) == toward for s in sl)
                )
                if codes:
                    rays.append((ray, codes))
            att_rays[by].append(tuple(rays))
    return att_steps, att_rays


ATTACK_STEPS, ATTACK_RAYS = _build_attacks()


def _build_between() -> list[list[frozenset[int]]]:
    """BETWEEN[a][b]: squares strictly between a and b on a line (empty if not aligned)."""
    out = [[frozenset[int]() for _ in range(81)] for _ in range(81)]
    for a in range(81):
        for d in _ORTH + _DIAG:
            ray = _ray(a, d)
            for i, b in enumerate(ray):
                out[a][b] = frozenset(ray[:i])
    return out


BETWEEN: Final = _build_between()

#: DROP_DEAD[color][piece type][sq]: a drop there would leave a dead piece.
DROP_DEAD: Final = [
    [[is_dead_square(c, pt, sq) for sq in range(81)] for pt in range(8)] for c in (BLACK, WHITE)
]
ZONE: Final = [[in_zone(c, sq) for sq in range(81)] for c in (BLACK, WHITE)]

# Zobrist keys for repetition detection.
_rng = random.Random(0x5D0615)
ZOBRIST_PIECE: Final = [[_rng.getrandbits(64) for _ in range(81)] for _ in range(NUM_CODES)]
ZOBRIST_HAND: Final = [
    [[_rng.getrandbits(64) for _ in range(20)] for _ in range(8)] for _ in (BLACK, WHITE)
]
ZOBRIST_TURN: Final = _rng.getrandbits(64)
for _c in (BLACK, WHITE):
    for _pt in range(8):
        ZOBRIST_HAND[_c][_pt][0] = 0  # an empty hand contributes nothing
