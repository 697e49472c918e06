"""The move tracker: explains each settled board state with the rules core and the history.

How it decides (see docs/tracker.md): the tracker keeps the game (with the last move
still open to correction), each square's lifts since the current move began, and the
states the board went through. When the board has been still for ``settle`` seconds it
explains the state: nothing / a piece lifted / a move by the side to move / a correction
or retraction of the open move / a take-back / a move and the reply that followed before
the board settled / an illegal state. Among explanations that fit the occupancy, the one
that leaves the fewest lifted squares unexplained wins (then the one whose unexplained
lifts are oldest, then the simplest kind). A capture needs its target emptied and
refilled after the attacker was lifted: occupancy alone cannot tell it from a held piece.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from board_bridge.shogi import (
    HAND_PIECE_TYPES,
    KING,
    PROMOTABLE,
    STARTING_SFEN,
    Board,
    IllegalReason,
    Move,
    Outcome,
    Ruleset,
    Termination,
    piece_type_from_symbol,
    piece_type_symbol,
    square_distance,
    square_name,
)
from board_bridge.shogi.core import PROMOTION_OFFSET
from board_bridge.shogi.tables import BETWEEN
from board_bridge.tracker.events import (
    DROP_INPUTS,
    EMPTY,
    IDENTITY_CELLS,
    INPUT_NONPROMOTE,
    INPUT_PROMOTE,
    OCCUPIED,
    PROMOTED,
    UNKNOWN_TAG,
    UNPROMOTED,
    PlayerInput,
    SensorEvent,
    SensorFrame,
)
from board_bridge.tracker.history import SquareHistory
from board_bridge.tracker.intents import LedIntents, Mark, merge_marks
from board_bridge.tracker.outputs import (
    GameEnded,
    IllegalState,
    MoveClosed,
    MoveCorrected,
    MoveMade,
    MoveRetracted,
    QuestionAsked,
    QuestionCancelled,
    Resynced,
    SetupComplete,
    SetupProgress,
    StateRestored,
    TakeBack,
    TrackerOutput,
)
from board_bridge.tracker.params import TrackerParams
from board_bridge.tracker.positions import (
    PosInfo,
    PositionCache,
    cell_of_type,
    check_sensing,
    diff,
)

MODES = ("casual", "tournament")

# Kinds of explanation, in order of preference when everything else is equal.
IDLE, MOVE, CORRECT, RETRACT, BACK, INPROG, INPROG0, TWO = range(8)
_NEG_INF = float("-inf")
_INF = float("inf")
# the most a chain ending with its piece held over an empty square may cost (see
# _hovered): its move in progress, and the hover (a lift)
_HOVER_MOST = 2
# the reasons a move of the right piece, by its own pattern, is still illegal
_RULES = frozenset(
    r.value
    for r in (
        IllegalReason.KING_IN_CHECK,
        IllegalReason.NIFU,
        IllegalReason.PAWN_DROP_MATE,
        IllegalReason.DEAD_PIECE,
    )
)
_DEPTH = 4  # earlier moves a chain may hold: quick hands make five moves with no pause
_DEPTH_STUCK = 8  # ... when nothing else explains the board (see Tracker._explain)
# as long as ``settle`` (x0.4: a touch, a knock and four moves in 2.6 s)
_MAX_STATES = 120  # intermediate states looked at for a move made before the board settled
_SHORT = 0.2  # a position shown less long before the reply began is a less likely story
_SHORT_STEPS = 0.8  # ... or this many steps of quick hands' pace (see Tracker._short)
_SWAP = 0.05  # a target empty for less than this was swapped out by the capturing hand
_KNOCK_LEAD = 0.02  # a target lifted less than this before its attacker: a knock as it is
_FLIGHT = 0.06  # a piece lifted lands no sooner than this (not slid: its square opens first)
_LANDED_SOONEST = 0.04  # ... and no capture reads as landing sooner, a switch slow to
# release showing the attacker's lift late (see Tracker._capture_ok)
_ROCKED = 0.045  # a neighbour opened less than this after a piece was lifted: rocked by the
# lift, it settles back by itself (see Tracker._score)
_TOUCH_STEPS = 0.12  # steps of the hands' pace: a piece off for less than this was not
# touched on purpose (a wobble, or a capture's target swapped out: tens of milliseconds)
_TOUCH_MIN = 0.25  # ... at most this many seconds (see Tracker._touch_min)
_TOUCH_FLOOR = 0.025  # ... and at least this many
_SLID = 1.5  # times ``overlap``: a piece slid slowly, or off a switch slow to release, may
# leave its square this long after the next one closed (see Tracker._left)
_PRESSED_SETTLE = 0.05  # an answer pressed sooner after a change leaves the state open
_ANSWER_LEAD = 0.25  # an answer pressed this long before its piece landed answers it
_ANSWERED = 2  # unexplained lifts' worth a story may cost more when only it asks the answer given
_GAPS = 13  # the last moves whose last steps (previous change to landing) give the pace
_CHATTER = 0.03  # transitions closer than this are one landing's contact bounce
_HASTY = 0.02  # a piece put back less than this before a capture's target is lifted, the
# attacker in the air: no hand did both (see Tracker._score; quick hands reach the target
# 25 ms after a knock settles, the independent generator x0.3)
_REACTION = 0.6  # steps of the hands' pace after a landing: a touch after the capture, not
# a knock in it (a knock, then the target lifted, is one motion; see Tracker._reaction)
_REACTION_MIN = 0.25  # ... and at least this many seconds
_HOVER_STEPS = 1.0  # steps of the hands' pace a hover's touch-down may last (_hover_left)
_HOVER_MIN = 0.5  # ... and at least this many seconds
_TOUCHED_STEPS = 2.5  # ... a target swapped out this long after another's landing: a touch
_CHAIN_STEPS = 2.5  # steps of the hands' pace: see Tracker._chain_wait
_CHAIN_WAIT_MIN = 0.5  # ... and at least this many seconds
_ORIGIN_STEPS = 1.5  # ... or this many, the opponent's drop on the attacker's square next
_HELD_MOST = 8.0  # a piece may be held over the board this long (see Tracker._held_open)
_HELD_STEPS = 15.0  # ... or this many steps of slow hands' pace, up to _HELD_LONGEST
_HELD_LONGEST = 15.0
_END_DOUBT = 30.0  # a game end waits this long while another story goes on (see _confirm_end)
_END_STEPS = 10.0  # steps of slow hands' pace a game-ending move stands first (see _end_wait)
_ORIGIN_SOON = 0.3  # the opponent's drop on the square a move left lands no sooner after it
# opened (see Tracker._dropped_on_origin_soon)
_QUICK_STEPS = 1.8  # steps of the hands' pace: see Tracker._set_down_after
_SOON_STEPS = 2.5  # ... and the same (three until session 35)
_FORKS = 12  # other stories kept at once (see _Fork; 8 until session 48)
_UNSEEN_TIED = 6  # ... of them stories of captures never seen, alike (see _keep_unseen)
_LOOSE_ANSWERS = 4  # answers with no question waiting remembered
_FORK_PLIES = 60  # ... each until the game went this many plies past it (both stories
# can stay legal for a long while: a capture of one piece or of its neighbour)
_KNOCKED_PLIES = 40  # ... a capture's other target kept while nothing was wrong, this many
# (16 until session 44: the game may tell the two apart 25 or 35 plies later; it costs
# some 5% of bench/replay.py's events per second)
_FORK_EVENTS = 6000  # ... or this many events
_FORK_STUCK = 2  # ... or until the game went this many plies on while it showed an error
# the plies of a kept story in which nothing was made from its ply on, as the tracker's
# own story was read (a move in progress, a knock): one, or two, moves none of the
# tracker's, so that it meets the tracker's story only once it makes its own (see _met)
_NONE_MADE: tuple[tuple[Move, ...], ...] = ((),)
_NEITHER_MADE: tuple[tuple[Move, ...], ...] = ((), ())
_FORK_LAG = 16  # events a kept story may lag behind: fed as they come past this, so
# that a story taken late needs only a few fed at that moment (see _Fork.caught_up)


def _corrects(expl: _Expl) -> bool:
    """Does an explanation correct the open move (alone, or as a chain's first ply)?"""
    return expl.kind == CORRECT or (expl.kind == TWO and expl.chain[0].correcting)


def _squares(move: Move) -> frozenset[int]:
    if move.from_square is None:
        return frozenset((move.to_square,))
    return frozenset((move.from_square, move.to_square))


def _add(deps: dict[int, int], sq: int) -> None:
    deps[sq] = deps.get(sq, 0) + 1


def _dep_move(base: PosInfo, move: Move, deps: dict[int, int]) -> dict[int, int]:
    """Squares a move empties on the board (its from-square, the square it captures on)."""
    if move.from_square is not None:
        _add(deps, move.from_square)
        if base.codes[move.to_square]:
            _add(deps, move.to_square)
    return deps


def _dep_correct(prev: PosInfo, om: Move, move: Move, deps: dict[int, int]) -> dict[int, int]:
    """Squares emptied when the open move ``om`` is replaced by ``move`` (played from
    ``prev``): the open move's piece leaves its square, and so on."""
    _add(deps, om.to_square)
    if move.from_square is not None:
        if move.from_square != om.from_square:
            _add(deps, move.from_square)
        if prev.codes[move.to_square] and move.to_square != om.to_square:
            _add(deps, move.to_square)
    return deps


def _dep_lifted(lifted: tuple[int, ...], deps: dict[int, int]) -> dict[int, int]:
    for sq in lifted:
        _add(deps, sq)
    return deps


def _windows(
    deps: dict[int, int], after: float, until: float
) -> tuple[tuple[int, float, float], ...]:
    return tuple((sq, after, until) for sq, n in deps.items() for _ in range(n))


_Key = tuple[bool, bool, bool, int, int, int]  # (a story's rank in _revisable)


def _guesses(
    chosen: Tracker, fitting: list[Tracker], now: float, wait: float, own: list[Move] | None = None
) -> bool:
    """Would taking ``chosen``, a story of a capture never seen, guess between such
    captures the board still shows alike (``fitting``: the stories that explain it)? None
    is guessed: the game tells them apart (see Tracker._keep_unseen). A story waiting on a
    question, where ``chosen`` asks none, is no such story: its question was never shown
    (the player sees the tracker's own story), so no answer will come, and it explains
    the board only by leaving the moves made since unread (``--scan 100`` x0.4
    ``--rich``, game 10 of seed 41174: 2h1g, its sente holding a lance, asked L or P for
    a pawn dropped, then stood beside 2h1h through eight plies it never read). Not one
    whose question is younger than ``wait`` (the story wait): the answer may be coming,
    and may be the very input being read (``--scan 100`` x0.4 ``--rich``, game 24 of seed
    42778: 8h7g+, 8h9g+ and 8h9i+ unseen, gote's pawn drop on 3c asked N or P where a
    knight or a lance was taken; "P" pressed 0.19 s after the question, and 8h9g+, where
    no question was asked, taken: a false move). And any story of them when more fitted
    alike than were kept: one not kept may be the game's (see Tracker._keep_unseen).
    ``own``: the tracker's own moves. Stories that read alike from the last ply the
    tracker's own story and one of them share on, ``chosen`` being that one, are one
    reading of what the board shows since: they differ only in an older capture never seen
    that the board still shows alike, and ``chosen`` keeps the tracker's reading of it
    (``--scan 100`` x0.4 ``--rich``, game 24 of seed 59570: gote's 7g7f, 7g8g unseen kept
    alike; 11 plies later 3d taking 4e unseen, kept in both stories, neither taken, and the
    tracker in error to the game's end), once ``chosen`` went two plies past its own."""
    if chosen._premise is None:
        return False
    one_story = len(fitting) > 1 and len({tuple(a._history) for a in fitting}) == 1
    if chosen._premise[2] and not chosen._moved_on() and not one_story:
        # (alike stories were left unkept: see Tracker._keep_unseen. Not when the kept
        # ones, each another capture, all came to one story: the game told it, as it
        # would have for those left unkept; 100 Hz x0.4 --rich, game 21 of seed 50615,
        # five of gote's tokin's captures kept, 3c3b the game's, all read on to it)
        return True
    asks_none = chosen._pending is None

    def unshown(a: Tracker) -> bool:
        return a._pending is not None and now - a._pending.question.t >= wait

    fits = [a for a in fitting if not (asks_none and unshown(a))]
    k = 0
    if own is not None and fits:
        k = _agreed(own, chosen._history)
        # (and only once ``chosen`` went two plies past the move it reads there, the game
        # going on in its reading: the seventh generator, x2, game 24 of seed 79, 1g5c+
        # answered "promote", then gote's rook set on 6e and moved on to 5c 3 s later; 1g
        # taking 7a unseen, read after 5c4c and after 5c5d alike, explained that error
        # with 6c6e, and was taken, a false move)
        if any(_agreed(own, a._history) > k for a in fits) or len(chosen._history) < k + 3:
            k = 0
    return len({tuple(a._history[k:]) for a in fits}) > 1


def _ply_of(history: list[Move], move: Move) -> tuple[int, int] | None:
    """The ply of ``history``'s last move from and to ``move``'s squares, and its
    square; None if there is none."""
    for i in range(len(history) - 1, -1, -1):
        m = history[i]
        if (m.from_square, m.to_square) == (move.from_square, move.to_square):
            return i, m.to_square
    return None


def _agreed(mine: list[Move], theirs: list[Move]) -> int:
    """How many first moves two stories share."""
    k = 0
    while k < min(len(mine), len(theirs)) and mine[k] == theirs[k]:
        k += 1
    return k


def _keeps(alt: Tracker, k: int, moves: list[Move]) -> bool:
    """Does the story ``alt`` read ``moves`` from ply ``k`` on, or keep a story that does
    (see Tracker._adopt)?"""
    if not moves:
        return False
    if alt._history[k : k + 1] == moves[:1]:
        return True
    return any(g.at == k and g.plies and moves[0] in g.plies[0] for g in alt._forks)


# when the open move's piece was last lifted, and when the opponent's pieces a correction
# leaves alone were off the board (see Tracker._others_off)
_Off = tuple[float, list[tuple[float, float]]]


def _replying(off: _Off | None) -> bool:
    """A correction of the open move (``off``: see Tracker._others_off): was one of the
    opponent's pieces it leaves alone off the board when the open move's piece was lifted
    to be moved on? The opponent's hand held it: its reply had begun, and the open move
    stood."""
    return off is not None and any(start < off[0] < end for start, end in off[1])


def _same_piece(a: Move, b: Move) -> bool:
    """Do ``a`` and ``b`` move the same piece: from the same square, or dropped from the
    hand as the same kind?"""
    return (a.from_square, a.drop_piece_type) == (b.from_square, b.drop_piece_type)


def _origin(move: Move) -> int:
    """The square ``move`` leaves (-1 for a drop: no square)."""
    return -1 if move.from_square is None else move.from_square


def _drop_on(moves: tuple[Move, ...], sq: int) -> bool:
    """Are ``moves`` (variants) a drop on ``sq``?"""
    return bool(moves) and moves[0].from_square is None and moves[0].to_square == sq


@dataclass(frozen=True, slots=True)
class _Gap:
    """States ``lo`` to ``j`` (excluded) in which no move from ``j``'s cells was seen (see
    ``Tracker._moved_between``), and the single squares lifted (and shown) in them before
    the first state with two lifted: a capture's, if two were lifted before ``lo``."""

    j: int
    lo: int
    singles: frozenset[int]


def _chain_key(c: _Expl) -> tuple[tuple[Move, ...], ...]:
    """A chain's moves, each with its variants (the stories it tells)."""
    return tuple(p.variants for p in c.chain)


def _read_from(ctx: _Ctx, expl: _Expl) -> tuple[PosInfo, float] | None:
    """The position a move or a correction is read from, and since when (its window)."""
    if expl.kind == MOVE:
        return ctx.cur, ctx.w_cur
    if expl.kind == CORRECT and ctx.prev is not None:
        return ctx.prev, ctx.w_prev
    return None


_AROUND = [frozenset(b for b in range(81) if square_distance(a, b) <= 1) for a in range(81)]


def _moves_again(
    base: PosInfo, moves: tuple[Move, ...], moved: set[int], cells: str
) -> tuple[Move, ...]:
    """A chain's move read again from ``base`` if its piece stands on a square of
    ``moved`` (read otherwise than the chain search had it): every legal move from and to
    the same squares, with or without promotion (see Tracker._unseen_left), that shows
    what the board showed (``cells``) as the search read it: on a polarity board, the
    face (x0.3 ``--polarity --rich``, game 25 of seed 53515: 8e8f, then 8f8g+ set down
    promoted, read again as 8f8g+ or 8f8g, and "promote?" asked of a board that never
    answers it; the rest of the game lost)."""
    first = moves[0]
    if first.from_square is None or first.from_square not in moved:
        return moves
    to = first.to_square
    again = tuple(
        m
        for m in base.moves_from(first.from_square)
        if m.to_square == to and base.face_after(m) == cells[to]
    )
    return again or moves


def _answered_alike(alt: Tracker, empty: frozenset[int]) -> None:
    """Mark ``alt``, a story of a capture never seen that took the player's answer, as
    one of several alike: kept, none guessed, told apart by the game (see
    Tracker._answered_unseen_open)."""
    alt._premise = (len(alt._history), empty, False)
    alt._unerring = "answered"


def _legal_again(
    base: PosInfo, moves: tuple[Move, ...], moved: set[int], cells: str
) -> tuple[Move, ...] | None:
    """A chain's move read again on the position made (``_moves_again``), or None if it is
    not legal there: an earlier move's other variant (promoted or not) may give or block
    a check, or be the piece itself."""
    again = _moves_again(base, moves, moved, cells)
    return again if again[0] in _legal_like(base, again[0]) else None


def _legal_like(base: PosInfo, move: Move) -> list[Move]:
    """The legal moves from ``move``'s square on ``base`` (the drops on its target for a
    drop)."""
    if move.from_square is None:
        return base.drops_to(move.to_square)
    return base.moves_from(move.from_square)


def _refilled_after(origin: int, target: int, later: list[Move]) -> bool:
    """Does one of ``later`` (a chain's moves after a capture from ``origin`` to
    ``target``) fill ``origin`` after another has moved from or to ``target``?"""
    proven = False
    for m in later:
        if proven and m.to_square == origin:
            return True
        proven = proven or target in (m.from_square, m.to_square)
    return False


def _taking(base: PosInfo, move: Move, lo: float, hi: float) -> _Take:
    """A capture seen only in the history (its lifts after ``lo``, up to ``hi``), with the
    squares a hand holding its attacker may touch: next to its path, or where it could go
    (and the empty squares: a reading there is the held piece hovering)."""
    origin = move.from_square
    assert origin is not None
    target = move.to_square
    near = _AROUND[origin] | _AROUND[target]
    for sq in BETWEEN[origin][target]:
        near |= _AROUND[sq]
    reach = frozenset(m.to_square for m in base.moves_from(origin))
    near |= reach
    near |= {sq for sq in range(81) if not base.codes[sq]}
    return _Take(origin, target, lo, hi, near, reach)


def _landing(base: PosInfo, move: Move, lo: float, hi: float, take: _Take | None) -> _Take | None:
    """A chain move's capture for the touches after its landing (see ``_Ply.landing``):
    its ``take`` if it has one, else, for any other capture, where it landed and the
    squares its attacker could have gone to instead (no hand's reach: only
    ``_landing_reaches`` reads it). None for a move that takes nothing."""
    origin = move.from_square
    if take is not None or origin is None or not base.codes[move.to_square]:
        return take
    reach = frozenset(m.to_square for m in base.moves_from(origin))
    return _Take(origin, move.to_square, lo, hi, frozenset(), reach)


def _landing_reaches(
    takes: tuple[_Take, ...], touches: dict[int, list[tuple[float, float]]]
) -> dict[float, frozenset[int]]:
    """A chain's captures by when each landed (its target's last refill in its time),
    each with the squares its attacker could have gone to instead."""
    out: dict[float, frozenset[int]] = {}
    for take in takes:
        lift = _target_lift(take, touches)
        if lift is not None and lift[1] != _INF:
            out[lift[1]] = take.reach
    return out


def _forbidden(ill: _Illegal, turn: int) -> bool:
    """Is the illegal state a move of the side to move (``turn``) that the rules forbid
    (its king left in check, a second pawn on a file, a pawn drop that mates, a piece with
    no further move)?"""
    return ill.offender == turn and ill.reason in _RULES


def _target_lift(
    take: _Take, touches: dict[int, list[tuple[float, float]]]
) -> tuple[float, float] | None:
    """The capture's target's last lift in the capture's time: when it was lifted, and
    when its square was refilled (the attacker landing; inf: not yet)."""
    lifts = [(a, b) for a, b in touches.get(take.target, ()) if take.lo < a <= take.hi]
    return lifts[-1] if lifts else None


def _attacker_lift(take: _Take, touches: dict[int, list[tuple[float, float]]]) -> float | None:
    """When the capture's attacker was lifted: its origin's last lift in the capture's time."""
    lifts = [start for start, _end in touches.get(take.origin, ()) if take.lo < start <= take.hi]
    return lifts[-1] if lifts else None


def _aside(take: _Take, touches: dict[int, list[tuple[float, float]]]) -> _Aside | None:
    """For a capture made attacker first: is a lift of a square at a time one the mover's
    hands could hardly have made (a piece away from the held attacker's reach, lifted
    while it was held and before its target was)? A touch or an adjustment then is the
    opponent's, after the capture, in another story."""
    lo, hi = take.lo, take.hi
    held = _attacker_lift(take, touches)
    taken = [start for start, _end in touches.get(take.target, ()) if lo < start <= hi]
    if held is None or not taken or taken[-1] < held:
        return None
    t0, t1 = held, taken[-1]
    near = take.near

    def aside(sq: int, start: float) -> bool:
        return t0 < start < t1 and sq not in near

    return aside


def _story(c: _Expl) -> tuple[object, ...]:
    """The squares of the moves an explanation makes, in order (variants alike)."""
    plies = [(_squares(p.variants[0]), p.correcting) for p in c.chain]
    if not c.moves:
        return (*plies, c.lifted)  # a chain ending with a move in progress
    return (*plies, (_squares(c.moves[0]), c.kind == CORRECT))


def _plies(c: _Expl) -> list[tuple[Move, ...]]:
    """The variants of each move an explanation makes, in order (a chain's, then its
    last)."""
    return [p.variants for p in c.chain] + ([c.moves] if c.moves else [])


def _held_over(info: PosInfo, obs: str, d: Sequence[int]) -> tuple[int, ...]:
    """The squares of a capture in progress (``d``: the board's differences from ``info``)
    whose target was lifted first and whose attacker, held, closes one empty square on
    its way, or ()."""
    fills = [sq for sq in d if obs[sq] != EMPTY and info.exp[sq] == EMPTY]
    if len(d) != 3 or len(fills) != 1:
        return ()
    lifted = Tracker._lifted(info, obs, [sq for sq in d if sq != fills[0]])
    return lifted if lifted is not None and len(lifted) == 2 else ()


def _in_progress(c: _Expl) -> bool:
    """Does the explanation leave a move in progress (nothing to decide yet)?"""
    return c.kind in (INPROG, INPROG0) or (c.kind == TWO and not c.moves)


@dataclass(frozen=True, slots=True)
class _Ply:
    """A move of a chain: its variants, whether it replaces the open move, and when (and
    how) the board showed its position."""

    variants: tuple[Move, ...]
    correcting: bool
    t: float
    cells: str
    short: bool  # shown less than _SHORT, a capture not waited out...: a less likely story
    held: bool = False  # a correction: the open capture's attacker was held (see _candidates)
    take: _Take | None = None  # a capture that may be its attacker held
    # any capture, doubtful or not (its take if it has one): where it landed, and where its
    # attacker could have gone instead (see Tracker._score, the touches after a landing)
    landing: _Take | None = None
    # short only for its capture's wait, and waited long enough if a drop on the square
    # its attacker left comes next (see Tracker._origin_drop_wait)
    lenient: bool = False
    # short only for its capture's wait (not shown briefly): the one square lifted when
    # the board left its position, if one (see _shorts)
    then: int | None = None
    # a capture not waited out (shown briefly, or what came next could be its attacker
    # still held): see _stands
    doubtful: bool = False
    shown: float = 0.0  # how long the board showed its position after the previous ply's
    aired: bool = False  # a capture with a piece seen in the air after it (see _aired)
    unheld: int = 0  # its square filled before its piece left, none held (_unheld_fill)
    # a reply set down too soon after the open capture's landing for the opponent, where
    # the held attacker's move explains the same position (see Tracker._chain)
    hasty: bool = False


def _stands(chain: tuple[_Ply, ...], last: tuple[Move, ...], k: int) -> bool:
    """Whether a chain's ``k``-th move (then the final move ``last``, or none) stands as
    far as its capture goes: not one that may be its attacker still in the air (one not
    waited out, or followed only by drops or by no move yet: a piece hovering reads as a
    drop). A move from the board after it (a piece lifted that the held one could not
    be) proves it."""
    ply = chain[k]
    if ply.doubtful:
        return False
    later = [p.variants[0] for p in chain[k + 1 :]] + list(last[:1])
    return ply.take is None or any(m.from_square is not None for m in later)


def _shorts(chain: tuple[_Ply, ...], last: tuple[Move, ...], anywhere: bool = False) -> int:
    """How many of a chain's plies are short stories, given the moves after each (the
    final move ``last``, or none): a lenient capture followed by the opponent's drop on
    the square its attacker left (``anywhere``: on any square) is not, nor a capture
    shown long enough whose position the board left by the next move's piece lifted."""
    n = 0
    for k, ply in enumerate(chain):
        after = chain[k + 1].variants if k + 1 < len(chain) else last
        origin = ply.variants[0].from_square
        n += (
            ply.short
            and not (
                ply.lenient
                and bool(after)
                and after[0].from_square is None
                and (anywhere or after[0].to_square == origin)
            )
            # (a capture not waited out whose position the next move's piece, lifted, left
            # first: that move from the board proves it, as in _stands)
            and not (ply.then is not None and bool(after) and after[0].from_square == ply.then)
        )
    return n


@dataclass(frozen=True, slots=True)
class _Take:
    """A capture an explanation makes that may be its attacker held (see ``_taking``)."""

    origin: int
    target: int
    lo: float
    hi: float
    near: frozenset[int]
    reach: frozenset[int]  # the squares its attacker could have gone to instead


_Aside = Callable[[int, float], bool]


@dataclass(slots=True)
class _Expl:
    """One explanation of a board state."""

    kind: int
    moves: tuple[Move, ...] = ()  # MOVE/CORRECT (or TWO's second move): variants, same squares
    chain: tuple[_Ply, ...] = ()  # TWO: the earlier moves, the board showed each briefly
    lifted: tuple[int, ...] = ()  # in-progress lifts
    back: int = 0  # BACK: plies taken back
    involved: dict[int, int] = field(default_factory=dict)  # square -> lifts it explains
    windows: tuple[tuple[int, float, float], ...] = ()  # chains: (square, after, until)
    penalty: int = 0  # lifts' worth of implausibility (two moves before the board settled)
    capture: bool = False  # a capture seen only in the history: waits capture_settle
    held: bool = False  # CORRECT: the open capture's attacker was held (waits held_settle)
    takes: tuple[_Take, ...] = ()  # MOVE/TWO: the captures that may be an attacker held
    landings: tuple[_Take, ...] = ()  # TWO: all its captures, doubtful or not (_Ply.landing)
    swapped_aside: bool = False  # MOVE: its attacker swapped out another target first
    unheld: int = 0  # MOVE: its square filled before its piece left (_unheld_fill)
    # CORRECT: the square its capture's attacker was lifted from (the open move's, where
    # the piece moving on stood), if not its move's own origin
    attacker: int | None = None
    hovered: bool = False  # TWO: in progress, a held piece closing an empty square
    # CORRECT/RETRACT: made as one of the opponent's pieces was off the board (_replying)
    replying: bool = False
    score: tuple[int, int, int, int, tuple[float, ...], int, float] = (0, 0, 0, 0, (), 0, 0.0)


@dataclass(slots=True)
class _Ctx:
    """The positions a state is explained against (the real game, or with a pending move)."""

    cur: PosInfo
    prev: PosInfo | None  # before the open (or pending) move
    open_move: Move | None
    w_cur: float
    ref_cur: str
    w_prev: float
    virtual: bool


@dataclass(frozen=True, slots=True)
class _UnseenRead:
    """A chain read as captures never seen (see Tracker._unseen_left)."""

    left: frozenset[int]  # the squares their attackers left
    chain: tuple[_Ply, ...]  # its moves, promotions and drops' kinds read from answers
    first: int  # the index of its first capture never seen
    empty: frozenset[int]  # ... of ``left``, those that must still read empty
    last: tuple[Move, ...]  # its last move, read again as its chain was


@dataclass(slots=True)
class _Pending:
    kind: str  # "move": a new move from base; "correct": replaces the open move
    base: PosInfo
    cands: tuple[Move, ...]
    question: QuestionAsked
    saved_prev: tuple[float, str] | None
    # "correct": the open move's landing window before the question (see _unasked)
    saved_cur: tuple[float, str] | None = None
    # a capture whose target was emptied and refilled after the attacker was lifted: the
    # attacker may still be in the air (a knocked piece put back), see _candidates
    held: bool = False


@dataclass(slots=True)
class _Fork:
    """The other story of a doubtful capture: the tracker did not believe it (the board
    changed within the capture wait: read as the attacker still held), or believed it and
    the held attacker's move came too late to be read (see ``held_settle``); of a tie
    (``_keep_rival``); of a correction, in which the open move stood (``_keep_uncorrected``);
    of a take-back, in which a move was in progress (``_keep_in_progress``); or of an
    illegal state a chain with a short story explained (``_keep_illegal``). The tracker
    as it would be in that story, and the events since, fed to it as they come (at most
    ``_FORK_LAG`` behind), taken when the board reaches a state the tracker's own story
    cannot explain and it explains everything since."""

    alt: Tracker
    events: list[SensorEvent]
    plies: tuple[tuple[Move, ...], ...]  # the moves the other story made then (variants)
    at: int  # the first one's index in the game's moves (a correction: the open move's)
    fed: int = 0  # events fed to ``alt`` so far
    in_progress: bool = False  # a take-back believed slowly: a move was in progress
    # the game's length when ``alt`` was last seen explaining the board (or kept), and when
    # it was seen showing an error since (see ``Tracker._stuck``)
    seen: int = 0
    stuck: int | None = None
    met: int = -1  # the other story's length when last compared (see Tracker._met)
    born: float = _NEG_INF  # when it was kept
    # what else tells it from a story of the same moves ("knock": see _keep_knock_held)
    kind: str = ""

    def note(self, n: int) -> None:
        """Note whether ``alt`` explains the board, the game being ``n`` plies long."""
        if self.alt._illegal is None:
            self.seen, self.stuck = n, None
        elif self.stuck is None:
            self.stuck = n

    def tells(
        self, plies: tuple[tuple[Move, ...], ...], at: int, in_progress: bool, kind: str = ""
    ) -> bool:
        """Is this the story of ``plies`` from ply ``at`` (see Tracker._kept)?"""
        return (self.plies, self.at, self.in_progress, self.kind) == (plies, at, in_progress, kind)

    def caught_up(self) -> Tracker:
        """``alt``, fed the events it has not seen yet."""
        for event in self.events[self.fed :]:
            self.alt.feed(event)
        self.fed = len(self.events)
        return self.alt

    def settled(self, now: float) -> Tracker:
        """``alt``, fed the events it has not seen yet, and its timers run up to ``now``."""
        alt = self.caught_up()
        alt.tick(now)
        return alt


@dataclass(frozen=True, slots=True)
class _Display:
    lifted: tuple[int, ...]
    targets: frozenset[int]


@dataclass(frozen=True, slots=True)
class _Illegal:
    reason: str
    clear: frozenset[int]
    fill: frozenset[int]
    error: frozenset[int]
    offender: int | None  # the colour that made an illegal move (tournament: it loses)


class Tracker:
    """Turns sensor events into moves, questions, errors and LED intents. Pure: no clock,
    no I/O; time comes in with each event. See the module docstring and docs/tracker.md.
    """

    def __init__(
        self,
        sfen: str = STARTING_SFEN,
        *,
        sensing: str = "occupancy",
        mode: str = "casual",
        ruleset: Ruleset | None = None,
        params: TrackerParams | None = None,
        setup: bool = True,
        revise: bool = True,
    ) -> None:
        check_sensing(sensing)
        if mode not in MODES:
            raise ValueError(f"mode must be casual or tournament, not {mode!r}")
        self.sensing = sensing
        self.mode = mode
        self.params = params or TrackerParams()
        self._norm = _normaliser(sensing)
        self._tournament = mode == "tournament"
        self.ruleset = ruleset or Ruleset(illegal_move_loses=self._tournament)
        self._game = Board(sfen)
        self._history: list[Move] = []  # the game's moves (Board.move_stack decodes all)
        self._times: list[float] = []  # ... when each was read as made (or corrected)
        self._cache = PositionCache(sensing)
        self._open = False  # the last move may still be corrected by its mover
        self._open_engine = False  # ... and it was the engine's move (no corrections)
        self._p0: PosInfo | None = None  # the position before the open move
        self._phase = "setup" if setup else "play"
        self._outcome: Outcome | None = None
        self._hist = SquareHistory(self.params.min_lift, self.params.bounce)
        exp = self._info().exp
        # sensor state
        self._cells: str | None = None if setup else exp
        self._t_change = _NEG_INF
        self._t_now = _NEG_INF
        self._settled = True
        self._state_id = 0
        self._states: list[tuple[float, str]] = []
        # _stood's moves of each past state (by its time; doubtful captures flagged), for
        # one window and position
        self._stood_memo: (
            tuple[tuple[object, ...], dict[float, list[tuple[tuple[Move, ...], bool]]]] | None
        )
        self._stood_memo = None
        # windows: when the position (and the one before the open move) was last on the board
        self._w_cur = _NEG_INF
        self._ref_cur = exp
        self._w_prev = _NEG_INF
        self._ref_prev = exp
        # decisions
        self._gen = 0
        self._eval_key: tuple[int, int] | None = None
        self._answering: str | None = None  # an answer arrived as the board was unsettled
        self._ending = False  # the log ends: the board stays as it is (see _decide_now)
        self._answered_at: float | None = None  # when the last question was answered
        self._answered_ply = 0  # the number of moves made up to the one it was about
        self._asked_at: float | None = None  # ... and when it was asked
        # the last answers given with no question waiting (see _unseen_left)
        self._loose_answers: tuple[tuple[float, str], ...] = ()
        # a loose answer a capture never seen may yet take: when, what, in which state
        self._unseen_answer: tuple[float, str, int] | None = None
        self._misanswered: _Pending | None = None  # a drop's kind asked, another answered
        # the last answer, given with its piece off the square asked about (see _ask)
        self._astray: tuple[float, str] | None = None
        # the piece a question was last asked about since the last move was made (its
        # square, None for a drop) and when it first landed (see _ask)
        self._asked_about: tuple[int | None, float] | None = None
        self._is_fork = False  # another story's tracker (see _Fork)
        self._nested = False  # ... kept by another story's tracker
        self._deep = False  # ... looking deeper, as one looked at to be taken (_deeper)
        self._cut = False  # the last chain search stopped at its depth with states left
        self._deep_for = -1  # ... the state it last looked deeper at
        self._unseen = False  # captures whose target never read empty may be read
        self._unseen_for = -1  # ... the state last looked at so (see _keep_unseen)
        self._reread_for = -1  # the state last looked at for a move read again (_keep_reread)
        # another story's moves up to a capture never seen, and the squares its attackers
        # left (see _keep_unseen): it is taken only once the board went on past them, those
        # squares still empty; and whether more such stories fit alike than were kept, so
        # that it is never taken as the only one left (None: not such a story)
        self._premise: tuple[int, frozenset[int], bool] | None = None
        # ... and, where more fitted alike than were kept, the ply of its first such
        # capture and the square it took on (see _moved_on)
        self._unseen_to: tuple[int, int] | None = None
        # a story of a capture never seen kept while the tracker's own showed no error:
        # "dropped" (see _keep_dropped_unseen), "touched" (_keep_touched_unseen) or
        # "knocked" (_keep_knocked_unseen), "answered" (_answered_unseen_open); it does
        # not go when an error of the tracker's does
        self._unerring = ""
        # the log ended with moves in doubt, taken back: which, and why (see
        # _withdraw_doubted)
        self._doubted: str | None = None
        self._eval: tuple[_Expl | None, _Expl | None, _Ctx] | None = None
        self._pending: _Pending | None = None
        self._illegal: _Illegal | None = None
        self._shown: IllegalState | None = None
        self._display: _Display | None = None
        self._preview_id = -1
        self._setup_last: tuple[frozenset[int], frozenset[int]] | None = None
        self._expected: Move | None = None
        self._hint: Move | None = None
        self._resync = False
        self._end_pending: tuple[Outcome, float] | None = None  # the last move ends the game
        self._intents: LedIntents | None = None
        self._gaps: list[float] = []  # the last moves' last steps (see _note_step)
        self._pace: float | None = None  # their upper quartile, from the third move on
        # the other story of a capture not believed (see _Fork); moves already sent to a
        # server cannot be revised: the daemon turns this off when playing online
        self._revise = revise
        # the capture waiting: (state id, game generation, its explanation)
        self._waiting: tuple[int, int, _Expl] | None = None
        self._forks: list[_Fork] = []
        # when each illegal state counted against the story began (see _n_illegal)
        self._shown_times: tuple[float, ...] = ()
        self._n_shown_now = 0  # ... of them, since the error shown now began (see _hover_left)
        self._err_since: float | None = None  # ... the error shown since, unbroken (or None)
        self._calm_at = _NEG_INF  # ... when the last error shown went (see _errs_alone)
        self._err_last = _NEG_INF  # ... when one was last shown
        # when the error began that the board last left as a piece in the air with lifts
        # unexplained (see _restored), until the board is read again (see _gone_round)
        self._round_from: float | None = None
        # an error of the tracker's story went, and no move of its own was read since: a
        # kept story that went on through it may come round to the same squares yet
        self._put_right: float | None = None
        self._erred = False  # ... since the board last showed the position (see _apply)
        # the last move is a doubtful capture made when its wait ran out: its attacker may
        # still have been in the air (see _candidates); any push or pop clears it
        self._open_held = False
        self._shown_for_now = -1  # the state shown as an error while another story waits
        self._unasked_for = -1  # the state read again from before a waiting question
        self._no_later = -1  # a state kept as a move in progress (see _keep_in_progress)
        self._no_later_at = -1  # ... and, in that story, the moves made until its next move
        self._fixed = 0  # moves before this are not taken back (see _keep_uncorrected)

    # ------------------------------------------------------------------ public API

    @property
    def board(self) -> Board:
        """The game so far (a copy), including a move still open to correction."""
        return self._game.copy()

    @property
    def phase(self) -> str:
        """``"setup"``, ``"play"`` or ``"over"``."""
        return self._phase

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def pending_question(self) -> QuestionAsked | None:
        return self._pending.question if self._pending is not None else None

    @property
    def _n_illegal(self) -> int:
        """How many illegal states this story showed that count against it (not those
        ``_knocked_only`` or ``_hover_left`` leaves out)."""
        return len(self._shown_times)

    @property
    def moves(self) -> list[Move]:
        """The moves of the game so far."""
        return list(self._history)

    def _push(self, move: Move, t: float) -> None:
        self._game.push(move)
        self._history.append(move)
        self._times.append(t)
        self._open_held = False

    def _pop(self) -> Move:
        self._history.pop()
        self._times.pop()
        self._open_held = False
        return self._game.pop()

    @property
    def intents(self) -> LedIntents:
        """What the LEDs should show now."""
        if self._intents is None:
            self._intents = self._build_intents()
        return self._intents

    def feed(self, event: SensorEvent) -> list[TrackerOutput]:
        """Process a sensor frame or a player input."""
        t = max(event.t, self._t_now)
        outs = self._advance(t)
        if self._waiting is not None or self._forks:
            self._keep_stories(event)
        if isinstance(event, SensorFrame):
            self._frame(t, event.cells)
        elif isinstance(event, PlayerInput):
            outs += self._input(t, event.value)
        else:  # pragma: no cover - guarded by the type
            raise TypeError(f"not a sensor event: {event!r}")
        return outs

    def tick(self, t: float) -> list[TrackerOutput]:
        """Time passes with no event: settle timers may fire."""
        return self._advance(max(t, self._t_now))

    def finish(self, t: float) -> list[TrackerOutput]:
        """The end of a log: settle whatever can be settled now."""
        t = max(t, self._t_now)
        outs = self._advance(t) + self._decide_now(t)
        if self._unseen_answer is not None:
            # (after the board's own decisions, as in _advance: 200 Hz x0.3 --extra, game
            # 13 of seed 55502, 4d3c+ landed and "promote" pressed 76 ms later as the log
            # ended, read as 4d taking 5c never seen)
            outs += self._answer_unseen(t, force=True)
            outs += self._decide_now(t)
        outs += self._confirm_end(t, force=True)
        if self._forks and self._phase == "play" and self.unresolved() is not None:
            # the log ends unresolved (a question no one answered, a piece in the
            # air, say): a capture's other story that explains the whole log is the
            # better one; first one in which the game ended there (100 Hz x0.4
            # --rich, game 25 of seed 37174: 4f took 3e unseen, 4e alike, and gote's
            # S*3d mated only after 4f3e; the log ended, and 4f4e, in which the game
            # went on, was taken. A knock read as a fast capture, the next piece set
            # down read as the opponent's drop, and the mating move then a piece
            # lifted)
            alt = self._revisable(t, finish=True, ended=True, unseen=True)
            alt = alt or self._revisable(t, finish=True, unseen=True)
            if alt is not None:
                outs += self._adopt(alt, t)
        if self._phase == "play" and self.unresolved() is not None:
            alt = self._mated_unseen(t)
            if alt is not None:
                outs += self._adopt(alt, t)
        alt = self._knocked_at_end(t)
        if alt is not None:
            outs += self._adopt(alt, t)
        outs += self._withdraw_doubted(t)
        outs += self._withdraw_lifted(t)
        return outs

    def _decide_now(self, t: float) -> list[TrackerOutput]:
        """The log ends: decide the state now, unless settled (twice: another story taken
        there may itself be unsettled)."""
        outs: list[TrackerOutput] = []
        self._ending = True
        try:
            for _ in range(2):
                if self._cells is not None and not self._settled:
                    outs += self._decide(t, force=True)
        finally:
            self._ending = False
        return outs

    def _knocked_at_end(self, t: float) -> Tracker | None:
        """The log ends with the tracker's story settled, and in it a move from a square
        and the opponent's drop on that square, read as made less than the chain wait
        (``_chain_wait``: a chain's first move stood as long is not believed) after that
        move; a story kept from that move on, with one move fewer, explains the whole log
        too: a piece set down where that move went, the neighbour knocked by the hand and
        put back. Mid-game the
        next move tells them apart (the side to move differs); at the log's end nothing
        will, and a knock put back is far commoner than a reply dropped that fast on the
        square just left (the sixth generator, x0.4, game 17 of seed 151: gote's G*4b,
        its king on 5c knocked 1 ms after the landing and put back 0.45 s later as the
        log ended, read as 5c4b, slid, and sente's R*5c; polarity x0.4 noise x2, game 7
        of seed 113: sente's R*5a, 6a knocked 1 ms after the landing for 0.65 s, and
        gote's B*7a, read as 6a5a, gote's B*6a and sente's R*7a)."""
        if (
            self._phase != "play"
            or self._is_fork
            or not self._forks
            or self._illegal is not None
            or self.unresolved() is not None
        ):
            return None
        mine, times = self._history, self._times
        wait = self._chain_wait()
        for f in reversed(self._forks):
            j = f.at
            if (
                j + 1 >= len(mine)
                or not f.plies
                or not _drop_on((mine[j + 1],), _origin(mine[j]))
                or times[j + 1] - times[j] >= wait
                or any(m.to_square != mine[j].to_square for m in f.plies[0])
            ):
                continue
            alt = f.caught_up()
            alt.finish(t)
            if (
                self._explains(alt)
                and alt._premise is None
                and alt.unresolved() is None
                and len(alt._history) == len(mine) - 1
            ):
                return alt
        return None

    def _withdraw_lifted(self, t: float) -> list[TrackerOutput]:
        """The log ends with the tracker's last move still open and its piece lifted again
        from the square it landed on, a move in progress: where it went the board never
        showed, so that move is in doubt and is taken back, as ``_withdraw_astray`` does
        for an error (100 Hz x0.4 --rich, game 1 of seed 50237: 4c taking 6c unseen, the
        piece held over 4e for 0.7 s on its way and read as 4c4e; the log ended with it
        lifted again and 4c4e recorded, a false move). The log stays unresolved."""
        if (
            self._phase != "play"
            or self._illegal is not None
            or self._pending is not None
            or self._is_fork
            or self._cells is None
        ):
            return []
        expl, _later, _ctx = self._evaluate()
        if expl is None or not _in_progress(expl):
            return []
        return self._withdraw_astray(t, shown=False)

    def _withdraw_doubted(self, t: float) -> list[TrackerOutput]:
        """The log ends with the board in an error in the tracker's story, while other
        stories explain all of it, none taken (captures never seen the board shows alike,
        see ``_guesses``; or one still asking a question): the tracker's moves none of
        them made are in doubt, and are taken back, so that the record ends with the last
        move every story made and no move that may not have been (100 Hz x0.4 --rich,
        game 17 of seed 47512: 2f taking 1e unseen, 3e alike; gote's 3g touched, read as
        2f taking 3g, then 3g3h and B*9h, 2f1e and 2f3e kept and never told apart: 2f3g
        was recorded, a false move). The log stays unresolved, and says why."""
        if (
            self._phase != "play"
            or self._illegal is None
            or self._is_fork
            or self._cells is None
            or not self._keeps_stories()
        ):
            return []
        mine = self._history
        fitting = [
            f.alt for f in self._forks if self._explains(f.alt) or self._explains(f.alt, "over")
        ]
        if not fitting:
            return self._withdraw_astray(t)
        k = min(_agreed(mine, a._history) for a in fitting)
        if k >= len(mine):
            return []
        ply = self._game.ply - (len(mine) - k)  # the SFEN move number of the first one
        outs = self._take_back(len(mine) - k, t, self._cells)
        stories = sorted({" ".join(m.usi() for m in a._history[k:]) or "none" for a in fitting})
        self._doubted = (
            f"the moves from move {ply} on are in doubt, other stories explain the board "
            f"alike: {' / '.join(stories)}"
        )
        return outs + self._show_illegal(self._analyse_illegal(self._context()), t)

    def _withdraw_astray(self, t: float, shown: bool = True) -> list[TrackerOutput]:
        """The log ends with the board in an error no story explains, the tracker's last
        move still open (no reply made on it) and its square empty: its piece went on
        from there, and where it went the board never showed (a capture never seen,
        say), so that move is in doubt and is taken back (100 Hz x0.4 --rich, game 1 of
        seed 48808: 1g taking 2h unseen, the piece held over 1f on its way and read as
        1g1f; 4b4c and 2h1i followed, and the log ended in errors with 1g1f recorded, a
        false move)."""
        last = self._game.peek()
        cells = self._cells
        if not self._open or last is None or cells is None or cells[last.to_square] != EMPTY:
            return []
        ply = self._game.ply - 1
        outs = self._take_back(1, t, cells)
        self._doubted = (
            f"move {ply} ({last.usi()}) is in doubt: its piece left "
            f"{square_name(last.to_square)} and was never seen set down"
        )
        if not shown:  # (a move in progress, not an error: see _withdraw_lifted)
            self._settled = False
            return outs
        return outs + self._show_illegal(self._analyse_illegal(self._context()), t)

    def _mated_unseen(self, t: float) -> Tracker | None:
        """The log ends with one piece lifted, never set down: if exactly one capture
        whose target never read empty (see ``_keep_unseen``) ends the game there, its
        question (if it asks one) answered by the player's input since the lift, that
        is the story: the game ended, and nothing came after because nothing could
        (100 Hz x0.4 --rich, game 13 of seed 46209: the bishop dropped on 4d took 3c and
        promoted, mate, in a swap the scan never saw; "promote" pressed, and the log
        ended with 4d lifted; 4d5c+ asked the same answer but mated nothing)."""
        cells = self._cells
        if (
            not self._keeps_stories()
            or self._is_fork
            or cells is None
            or self._pending is not None
            or self._illegal is not None
        ):
            return None
        ctx = self._context()
        if ctx.virtual:
            return None
        # (the piece lifted; or the open move's, set down and lifted again to go on, a
        # correction: 100 Hz x0.4 --rich, game 15 of seed 46912, 5h set on 4h, then taking
        # 6i unseen, mate, read as 5h4h with 4h lifted)
        bases = [(ctx.cur, ctx.w_cur, MOVE)]
        if ctx.open_move is not None and ctx.prev is not None:
            bases.append((ctx.prev, ctx.w_prev, CORRECT))
        kept = list(self._forks)
        ended: list[Tracker] = []
        for base, since, kind in bases:
            lifted = diff(cells, base.exp)
            if len(lifted) != 1 or cells[lifted[0]] != EMPTY:
                continue
            origin = lifted[0]
            lift = self._hist.last_lift(origin, since)
            if lift is None:
                continue
            answers = [value for ta, value in self._loose_answers if ta > lift]
            value = answers[-1] if answers else None
            for ms in self._unseen_from(base, cells, lifted, since):
                c = _Expl(kind, moves=ms)
                if value is not None and not self._asks(c, value):
                    continue
                alt = self._fork(c)
                if alt is None:
                    continue
                if value is not None and alt._pending is not None:
                    alt._input(t, value)
                alt.finish(t)
                if alt._phase == "over" and alt.unresolved() is None:
                    ended.append(alt)
        self._forks = kept
        return ended[0] if len({tuple(a._history) for a in ended}) == 1 else None

    def _unseen_from(
        self, base: PosInfo, cells: str, lifted: Sequence[int], since: float
    ) -> list[tuple[Move, ...]]:
        """The captures (each with its variants) by the one piece lifted from ``base``
        (``lifted``), the board ``cells``, whose target never read empty since ``since``
        (see ``_keep_unseen``)."""
        origin = lifted[0]
        return [
            ms
            for ms, _doubtful in self._complete(base, cells, lifted, since, None, unseen=True)
            if base.codes[ms[0].to_square]
            and self._never_empty(origin, ms[0].to_square, since, _INF)
        ]

    def expect(self, move: Move | None) -> None:
        """The engine's move the player must make on the board (None: no longer)."""
        if move is not None:
            self._drop_stories()
        self._expected = move
        self._changed()
        self._redecide()

    def hint(self, move: Move | None) -> None:
        """An analysis hint, shown as Mark.HINT."""
        self._hint = move
        self._intents = None

    def close_move(self, t: float) -> list[TrackerOutput]:
        """The clock was pressed: the last move can no longer be corrected."""
        t = max(t, self._t_now)
        self._drop_stories()
        outs = self._advance(t)
        if self._phase != "play":
            return outs
        if self._end_pending is not None and self._settled:
            return outs + self._confirm_end(t, force=True)
        if not self._settled and self._tournament and self._cells is not None:
            expl, _later, ctx = self._evaluate()
            if expl is None and self._analyse_illegal(ctx).offender is not None:
                return outs + self._decide(t, force=True)
        if (
            self._open
            and self._game.peek() is not None
            and not (self._pending is not None and self._pending.kind == "correct")
        ):
            last = self._game.peek()
            assert last is not None
            outs.append(MoveClosed(last, t, self._game.ply - 1))
            self._close()
        return outs

    def _close(self) -> None:
        """The last move can no longer be corrected."""
        self._open = False
        self._open_engine = False
        self._p0 = None
        self._changed()

    def end_game(self, outcome: Outcome, t: float) -> list[TrackerOutput]:
        """The game ended outside the board (resignation, time, declaration...)."""
        if self._phase == "over":
            return []
        self._drop_stories()
        return self._end(outcome, max(t, self._t_now))

    def resync(self, t: float) -> list[TrackerOutput]:
        """The sensor source reconnected: the next frame is compared with the position;
        up to two legal plies are recovered (``Resynced`` + ``MoveMade`` each), else the
        board guides the player back. Returns no outputs itself (they come with frames)."""
        self._t_now = max(t, self._t_now)
        self._drop_stories()
        self._resync = self._phase == "play"
        self._cells = None
        self._settled = True
        self._hist.clear()
        self._states = []
        self._display = None
        self._changed()
        return []

    def apply_move(self, move: Move, t: float) -> list[TrackerOutput]:
        """A move known from elsewhere (a journal being resumed): it joins the game closed,
        and the board is expected to show it. Raises IllegalMoveError if it is illegal."""
        if self._phase == "over":
            raise ValueError("the game is over")
        self._game.check_legal(move)
        t = max(t, self._t_now)
        self._drop_stories()
        self._pending = None
        self._push(move, t)
        self._open = False
        self._open_engine = False
        self._p0 = None
        self._expected = None
        self._hint = None
        info = self._info()
        self._w_cur = self._w_prev = t
        self._ref_cur = self._ref_prev = info.exp
        self._hist.prune(t)
        self._states = []
        self._setup_last = None
        self._changed()
        self._redecide()
        return self._check_end(t, at_once=True)

    def unresolved(self) -> str | None:
        """Why the board is not in a resolved state now (None if it is): set-up not done,
        a question unanswered, an illegal state on the board, a piece still in the air."""
        if self._phase == "setup":
            if self._cells is None:
                return "no board frame was seen"
            n = len(diff(self._cells, self._info().exp))
            return f"the board was never set up: {n} square(s) differ from the position"
        if self._pending is not None:
            q = self._pending.question
            return (
                f"a question was never answered: {q.kind} at {square_name(q.square)} "
                f"({'/'.join(q.options)})"
            )
        if self._phase == "play" and self._illegal is not None:
            ill = self._illegal
            doubt = f"; {self._doubted}" if self._doubted is not None else ""
            return f"the board ends in an illegal state ({ill.reason}){_guidance(ill)}{doubt}"
        if self._phase == "play" and self._cells is not None:
            expl, _later, ctx = self._evaluate()
            if expl is None and not self._settled:
                ill = self._analyse_illegal(ctx)
                return f"the board ends in an illegal state ({ill.reason}){_guidance(ill)}"
            cells = self._cells
            d = diff(cells, ctx.cur.exp) if expl is not None and _in_progress(expl) else []
            if d:
                # (a piece still in the air: the move it began was never finished. Not a
                # board showing the position, a capture's attacker possibly still held)
                assert expl is not None
                off = expl.lifted or [s for s in d if cells[s] == EMPTY]
                where = " ".join(square_name(s) for s in sorted(off))
                doubt = f"; {self._doubted}" if self._doubted is not None else ""
                return f"the board ends with a move in progress: lifted {where}{doubt}"
        return None

    # ------------------------------------------------------------------ events

    def _advance(self, now: float) -> list[TrackerOutput]:
        outs = self._timers(now)
        if self._unseen_answer is not None:
            # (after the board's own decisions: a move decided now may ask for it)
            taken = self._answer_unseen(now)
            if taken:
                outs += taken + self._timers(now)
        return outs

    def _timers(self, now: float) -> list[TrackerOutput]:
        self._t_now = now
        if self._cells is None:
            return []
        if self._settled:
            return self._confirm_end(now, force=False) if self._end_pending else []
        quiet = now - self._t_change
        if quiet >= self.params.settle:
            outs = self._decide(now, force=False)
            if self._end_pending is not None and self._settled:
                outs += self._confirm_end(now, force=False)
            return outs
        if (
            self._phase == "setup"
            and quiet >= self.params.bounce
            and self._cells == self._info().exp
        ):
            return self._decide_setup()  # set up: no need to wait for the settle time
        if quiet >= self.params.bounce and self._preview_id != self._state_id:
            self._preview()
        return []

    def _frame(self, t: float, raw: str) -> None:
        obs = raw.translate(self._norm)
        old = self._cells
        if old is None:
            self._cells = obs
            self._new_state(t, obs)
            return
        if obs == old:
            return
        hist = self._hist
        for i in diff(old, obs):
            was, now = old[i] != EMPTY, obs[i] != EMPTY
            if was != now:
                hist.record(i, t, now)
        self._cells = obs
        self._new_state(t, obs)

    def _new_state(self, t: float, obs: str) -> None:
        self._t_change = t
        self._state_id += 1
        self._settled = False
        self._states.append((t, obs))

    def _input(self, t: float, value: str) -> list[TrackerOutput]:
        if self._phase != "play":
            return []
        outs: list[TrackerOutput] = []
        answer = value in (INPUT_PROMOTE, INPUT_NONPROMOTE) or value in DROP_INPUTS
        # the stories kept before this input (held here: a story dropped meanwhile must
        # not leave its id to a new one, which would then pass for one kept before)
        before = list(self._forks)
        kept = {id(f) for f in before}
        # (the tracker's own story as the player pressed: before this input's decision,
        # see _answered_elsewhere)
        seen = (self._w_prev, self._w_cur, len(self._history))
        if (
            answer
            and self._cells is not None
            and not self._settled
            and t - self._t_change >= _PRESSED_SETTLE
        ):
            # the player answered the board: the hand is off the board, the state is final
            # (unless the board changed just now, less than _PRESSED_SETTLE ago: a piece
            # slid on may not have left its square yet, and the answer waits as a loose one
            # for its question, see _ask; the fifth generator, game 2 of seed 2:
            # "nonpromote" pressed 8 ms after 9c closed, 9d open 43 us later, read as R*9c)
            self._answering, self._eval = value, None
            try:
                outs += self._decide(t, force=True)
            finally:
                self._answering, self._eval = None, None
            for f in self._forks:
                if id(f) not in kept:
                    f.events.append(PlayerInput(t, value))  # the other story's answer too
        pending = self._pending
        if pending is not None and value in pending.question.options:
            outs += self._answer(t, value)
        elif answer and self._phase == "play":
            if pending is not None and pending.question.kind == "drop" and value in DROP_INPUTS:
                self._misanswered = pending  # (see _misasked)
            self._loose_answers = (*self._loose_answers[1 - _LOOSE_ANSWERS :], (t, value))
            taken = self._answered_elsewhere(t, value, kept, seen)
            outs += taken
            if not taken:
                self._unseen_answer = (t, value, self._state_id)
                outs += self._answer_unseen(t)
        return outs

    def _answer_unseen(self, now: float, force: bool = False) -> list[TrackerOutput]:
        """A loose answer (see ``_input``) that a capture never seen may take, once the board
        has stayed as it was ``_ANSWER_LEAD`` (or the log ends): the hand may have pressed
        as it set a piece down, and that piece's question takes the answer (see ``_ask``;
        the fifth generator, game 19 of seed 2: "promote" pressed 5 ms before 8e9c+ landed,
        8e still lifted, read as 8e taking 7c unseen, promoted, and the rest of the game
        lost). A change meanwhile leaves the answer to the question it brings."""
        assert self._unseen_answer is not None
        t, value, state = self._unseen_answer
        if state != self._state_id or self._answered_at == t:
            self._unseen_answer = None
            return []
        if now - t < _ANSWER_LEAD and not force:
            return []
        if self._cells is not None and self._phase == "play" and self._pending is None:
            # (only while the board reads a piece in the air: a move waiting out its
            # capture, say, may yet ask for it; 200 Hz x0.3 --extra, game 18 of seed
            # 55505: 2b2a landed, "nonpromote" pressed 78 ms later, and read as 2b taking
            # 3a never seen while 2b2a waited)
            expl, _later, _ctx = self._evaluate()
            if expl is not None and not _in_progress(expl):
                return []
        self._unseen_answer = None
        return self._answered_unseen_open(t, value)

    def _changed(self) -> None:
        """The game, the question or the expectations changed: re-explain, re-draw."""
        self._gen += 1
        self._intents = None

    def _redecide(self) -> None:
        if self._phase == "play" and self._cells is not None and self._pending is None:
            self._settled = False

    # ------------------------------------------------------------------ decisions

    def _info(self) -> PosInfo:
        return self._cache.get(self._game)

    def _context(self) -> _Ctx:
        p = self._pending
        if p is not None:
            cur = self._cache.after(p.base, p.cands[0])
            return _Ctx(cur, p.base, p.cands[0], self._w_cur, self._ref_cur, self._w_prev, True)
        open_move = self._game.peek() if self._open else None
        prev = self._p0 if open_move is not None else None
        return _Ctx(self._info(), prev, open_move, self._w_cur, self._ref_cur, self._w_prev, False)

    def _evaluate(self) -> tuple[_Expl | None, _Expl | None, _Ctx]:
        """The best explanation of the current state, a slower one that may replace it if
        the board stays so (a take-back looking like a move in progress), and the context."""
        key = (self._state_id, self._gen)
        if self._eval_key != key or self._eval is None:
            ctx = self._context()
            assert self._cells is not None
            best, later = self._explain(ctx, self._cells)
            self._eval = (best, later, ctx)
            self._eval_key = key
        return self._eval

    def _decide(self, now: float, force: bool) -> list[TrackerOutput]:
        if self._phase == "setup":
            return self._decide_setup()
        if self._phase == "over":
            self._settled = True
            return []
        if self._resync:
            return self._decide_resync()
        expl, later, ctx = self._evaluate()
        quiet = now - self._t_change
        if (
            later is not None
            # (or the log ends: the board stays so; the sixth generator, polarity x0.4
            # noise x2, game 1 of seed 17: the last move 4c6c, its target taken first and
            # 7b knocked, landing as the log ended, read as 4c lifted and left unresolved)
            and (quiet >= self._takeback_wait() or self._ending)
            and self._no_later != self._state_id
            and len(self._history) != self._no_later_at
        ):
            expl = later
        elif later is not None:
            # a move in progress for now; a take-back if the board stays so
            assert expl is not None
            if (
                expl.kind == TWO
                and later.kind in (MOVE, CORRECT, TWO)
                and not ctx.virtual
                and self._keeps_stories()
            ):
                # (a chain's moves made, and one in progress: the complete story kept,
                # taken if the chain's fails; the sixth generator, polarity x0.4 noise x2,
                # game 11 of seed 11: sente's silver set on 8d, gote's gold on 8f taken,
                # 8e knocked 50 ms with both hands full, and the silver moved on to 8f:
                # read as 7e8d, the gold taking 8e, and a piece lifted, 7e8f never kept)
                self._fork(later)
            alt = self._left_error_in_progress(ctx, now, expl)
            if alt is not None:
                return self._adopt(alt, now)
            return self._apply_pending(ctx, expl) if ctx.virtual else self._apply(ctx, expl)
        if expl is not None and expl.kind in (RETRACT, BACK) and self._no_later == self._state_id:
            expl = None  # the other story of a take-back (see _keep_in_progress)
        if (
            expl is None
            and ctx.virtual
            and not self._is_fork  # (a story gone wrong would live on by it, and cost)
            and self._unasked_for != self._state_id
        ):
            self._unasked_for = self._state_id
            outs = self._unasked()
            if outs is not None:
                return outs + self._decide(now, force)
        if expl is None and not ctx.virtual:
            stood = self._stood(ctx)
            if stood is not None:
                # a capture that was waiting (_capture_wait) stands: what followed it could
                # not be its piece still held. Make it, then judge the board after it.
                moves, t0, cells, rivals = stood
                outs = []
                turned = self._turned_on_square(ctx, moves[0], t0)
                if turned is not None:
                    # (the piece it takes was turned over first: the open move corrected)
                    twin, t_face, cells_face = turned
                    assert ctx.prev is not None
                    outs += self._correct(ctx.prev, (twin,), t_face, cells_face)
                    ctx = self._context()
                for ms in rivals:
                    self._keep_stood(ctx, ms, t0, cells, now)
                self._keep_correcting(ctx, moves[0])
                outs += self._new_move(ctx.cur, moves, t0, t0, cells)
                return outs + self._decide(now, force)
        if (
            expl is None
            and not ctx.virtual
            and self._open_held
            and self._keeps_stories()
            and self._shown_for_now != self._state_id  # (once a state: not at every tick)
        ):
            # the held attacker set down, and the reply begun before that state was decided
            # on: only the held piece's story explains the board (see _keep_held)
            self._keep_held(ctx)
        if (
            expl is None
            and not ctx.virtual
            and (not self._is_fork or (self._premise is not None and not self._unerring))
            and self._keeps_stories()
            and self._unseen_for != self._state_id
        ):
            self._keep_unseen(ctx)
        if (
            # (or read only as a move in progress with lifts left over: the sixth
            # generator, noise x2, game 5 of seed 75, sente's silver set on 1g, moved on
            # to take 3i, its target lifted first with 4i knocked 25 ms, read as 2h1g and
            # gote's 3i4i; the silver then set on 3i read as 1g lifted, for 20 s)
            (expl is None or (expl.kind in (INPROG, INPROG0) and expl.score[0] > 0))
            and not ctx.virtual
            and not self._is_fork
            and self._keeps_stories()
            and self._reread_for != self._state_id
        ):
            self._keep_reread(ctx, now)
        if expl is None and self._forks:
            # (also while a question waits: it may be one only the tracker's story asks)
            alt = self._revisable(now, unseen=True)
            if alt is not None:
                wait = self._story_wait() * (2 if self._dropped_astray(ctx, alt) else 1)
                # (a move the rules forbid, left on the board: taken only once the board
                # goes on through the error; looked at only once the wait is over)
                if (
                    (force and self._asks_answer(alt, now))
                    or (quiet >= wait and not self._ruled_out(ctx))
                    or (self._played_through(alt, now, wait) and not self._putting_back(ctx))
                ):
                    return self._adopt(alt, now)
                # or an error the player is about to undo (a piece dropped where it may
                # not go): shown as one until the board has stayed so
                return self._show_for_now(ctx)
        if expl is None:
            ill = self._analyse_illegal(ctx)
            if self._tournament and ill.offender is not None and not ctx.virtual:
                if not force and quiet < self.params.illegal_settle:
                    return []
                self._settled = True
                detail = f"{ill.reason} by {('black', 'white')[ill.offender]}"
                return self._end(Outcome(Termination.ILLEGAL_MOVE, ill.offender ^ 1, detail), now)
            self._settled = True
            return self._show_illegal(ill, self._t_change)
        if expl.held and not ctx.virtual and not force and quiet < self._story_wait():
            # the held attacker's move, or a piece put on its square by the opponent (an
            # illegal drop, say): shown as the error it would be, believed if it stays;
            # if the board changes first (the reply begins), kept as the other story
            if expl.kind == CORRECT and self._keeps_stories():
                self._waiting = (self._state_id, self._gen, expl)
            return self._show_for_now(ctx)
        if expl.replying and not ctx.virtual and self._forks:
            # a correction (or a take-back) of the open move made while a piece of the
            # opponent was off the board: the opponent's hand had begun its reply, and a
            # kept story that explains the board is taken instead (the open move stood,
            # that piece the reply's target lifted first; see _keep_dropped_beside)
            alt = self._revisable(now)
            if alt is not None:
                return self._adopt(alt, now)
        if _corrects(expl) and not ctx.virtual and self._corrected_late(ctx, expl):
            # (believed only once the board has stayed so, as a held attacker's move is,
            # unless a kept story explains the board first)
            alt = self._revisable(now) if self._forks else None
            if alt is not None:
                return self._adopt(alt, now)
            if not force and quiet < self._story_wait():
                return self._show_for_now(ctx)
        if expl.kind in (MOVE, TWO, RETRACT) and self._forks and not ctx.virtual:
            alt = self._completes_in_progress(now) if expl.kind != RETRACT else None
            if alt is None and self._illegal is not None:
                alt = self._left_error_by_a_move(ctx, now, expl)
            if alt is not None:
                return self._adopt(alt, now)
        alt = self._left_error_in_progress(ctx, now, expl)
        if alt is not None:
            return self._adopt(alt, now)
        if expl.kind == BACK and expl.score[0] > expl.score[2] and self._forks and not ctx.virtual:
            # moves taken back with lifts left unexplained, where a kept story explains the
            # board with the game gone on (a position repeated: the king took the promoted
            # pawn and a pawn was dropped again): that story. (Lifts, not the take-back's
            # own penalty: a clean take-back is no sign of another story, x0.7, seed 33213)
            alt = self._revisable(now)
            if alt is not None and len(alt._history) >= len(self._history):
                return self._adopt(alt, now)
        round_from, self._round_from = self._round_from, None
        if (
            expl.kind in (IDLE, BACK)
            and (self._illegal is not None or round_from is not None or self._put_right is not None)
            and self._forks
            and not ctx.virtual
        ):
            # (or to a position before it, read as moves taken back: game 20 of seed 48527;
            # or once the error went as a piece in the air, see _gone_round)
            alt = self._gone_round(
                now,
                len(self._history) - (expl.back if expl.kind == BACK else 0),
                round_from if round_from is not None else self._put_right,
                taken_back=expl.kind == BACK,
            )
            if alt is not None:
                return self._adopt(alt, now)
        goes_on = expl.kind == MOVE or (expl.kind == TWO and not expl.chain[0].correcting)
        if ctx.virtual and goes_on and self._forks:
            # the game went on while a question waits: a kept story that asks nothing and
            # explains the board is the better one (a knock read as a correction that
            # asks "promote?", say), taken once the board has stayed so. (Not when the
            # mover changed the move asked about: the question goes with it.)
            alt = self._revisable(now)
            if alt is not None and alt._pending is None:
                # (not on the answer to the question waiting: the player answered what
                # the board asked, and the answer is its story's; the sixth generator,
                # polarity, game 24 of seed 50: P*3c asked "B or P?" as 2b was knocked
                # for 0.9 s, "P" pressed once it was back, and a story two plies shorter
                # taken on it, the rest of the game lost)
                if (force and not self._answers_own()) or quiet >= self._story_wait():
                    return self._adopt(alt, now)
                return []
        held = self._held(ctx, expl, quiet) if expl.capture else _INF
        if not force and held < self._capture_wait():
            first = self._proven_first(expl) if not ctx.virtual else None
            if first is not None:
                # a chain waiting for its last capture, or one only drops followed, whose
                # first move a move from the board came after: that move stands (quick
                # hands never leave the board quiet long enough for the whole chain)
                if self._open_held and self._keeps_stories():
                    self._keep_held(ctx)
                self._keep_others(ctx, expl)
                if expl.kind == TWO:
                    # (its first move a capture read: as when the chain is made at once;
                    # 100 Hz x0.4 --rich, game 4 of seed 50800, 2g taking 2f unseen, 3f
                    # knocked, read as 2g3f with gote's 4f3g waiting out its capture)
                    self._keep_knocked_in_chain(ctx, expl)
                outs = self._new_move(ctx.cur, first.variants, first.t, first.t, first.cells)
                return outs + self._decide(now, force)
            if expl.kind in (MOVE, CORRECT, TWO) and self._keeps_stories():
                self._waiting = (self._state_id, self._gen, expl)
            return []
        self._settled = True
        if ctx.virtual:
            return self._apply_pending(ctx, expl, held)
        was_pending = self._pending
        if self._open_held and not expl.held and self._keeps_stories():
            self._keep_held(ctx)
        self._keep_others(ctx, expl)
        if self._keeps_stories() and (
            expl.kind == BACK or (expl.kind == RETRACT and expl is later)
        ):
            # (a retraction believed at once, the mover's piece put back, is no other
            # story's: its mover was still at the board)
            self._keep_in_progress(expl.back, slow=expl is later)
        outs = self._apply(ctx, expl)
        self._note_in_the_air(ctx, expl, held, was_pending)
        return outs

    def _proven_first(self, expl: _Expl) -> _Ply | None:
        """A chain's first move, if it stands whatever the rest of the chain waits for: a
        move (not a correction) shown long enough, asking nothing, and no capture that may
        be its attacker held (see _stands)."""
        if expl.kind != TWO:
            return None
        first = expl.chain[0]
        if first.correcting or first.short or not _stands(expl.chain, expl.moves, 0):
            return None
        return first if len(self._choose(first.variants)) == 1 else None

    def _note_in_the_air(
        self, ctx: _Ctx, expl: _Expl, held: float, was_pending: _Pending | None
    ) -> None:
        """After ``expl`` was applied: if its capture may be the attacker still in the air,
        say so, so that the held piece set down elsewhere soon reads as its move (see
        _held_open)."""
        if expl.kind not in (MOVE, CORRECT, TWO) or not self._ends_taking(expl):
            return
        if self._in_the_air(ctx, expl, held):
            if self._pending is not None and self._pending is not was_pending:
                self._pending.held = True
            elif self._open and self._history[-1] in expl.moves:
                self._open_held = True

    def _ends_taking(self, expl: _Expl) -> bool:
        """Whether ``expl``, just applied, ends with a capture: a chain's last move may be
        one (a quiet move, then a capture waited out) or not (a capture, then a quiet
        reply, settled together). Moves and corrections: see _in_the_air."""
        if expl.kind != TWO:
            return True
        if not expl.moves:
            return False
        pending = self._pending
        if pending is not None and expl.moves[0] in pending.cands:
            return bool(pending.base.codes[expl.moves[0].to_square])
        return (
            bool(self._history)
            and self._history[-1] in expl.moves
            and self._game.captured_piece_type() is not None
        )

    # --- explaining a state -------------------------------------------------------

    def _explain(self, ctx: _Ctx, obs: str) -> tuple[_Expl | None, _Expl | None]:
        cands = self._candidates(ctx, obs, _INF)
        best = min(cands, key=lambda c: c.score) if cands else None
        if best is None or best.kind >= INPROG or best.score[0] > 0:
            # (the open capture's attacker may still have been held, if its target rocked
            # back: see _rocked_back)
            om = ctx.open_move
            rocked = om is not None and self._rocked_back(om, ctx.w_prev, _INF)
            two = self._scored_chains(ctx, obs, held=rocked)
            if not two and best is None and (not self._is_fork or self._deep):
                # nothing explains the board: the quickest hands may have made more moves
                # before it settled than a chain holds (x0.3 --rich: six moves, lost).
                # (Not in another story's tracker as it is fed: a story gone wrong
                # explains nothing for long, and would pay for it at every event; only
                # once a state when the tracker looks at it to take it, see _deeper.)
                two = self._scored_chains(ctx, obs, depth=_DEPTH_STUCK)
            elif two and (not self._is_fork or self._deep):
                top = min(two, key=lambda c: c.score)
                if top.score[0] > 0 and self._cut:
                    # a lift left over, and the search stopped a chain at its depth: the
                    # quickest hands may have made more moves than it holds (x0.3 --only
                    # hover, game 15 of seed 35118: P*9i, P*9h, 9i9h and three more moves
                    # with no pause, read as P*9i corrected to P*9h with 9h hovered over,
                    # two plies lost; game 20 of seed 40417, however short the best chain:
                    # 4b4a+, 3a4a twice, P*4b and 4a3a between, then 3i4h, the second
                    # 3a4a's cells the first's again, read as 3a4a and 3i4h with five
                    # lifts left over, four plies lost)
                    two += self._scored_chains(ctx, obs, depth=_DEPTH_STUCK)
            if two:
                cands += two
                best = min(cands, key=lambda c: c.score)
        if self._answering is not None and best is not None:
            answered = self._answered(ctx, obs, cands, best, self._answering)
            if answered is not None:
                return answered, None
        # A move in progress for now, but a complete explanation nearly as good (a take-back
        # that looks like a capture begun, two quick moves): adopted if the board stays so
        # (see TrackerParams.takeback_settle).
        if best is not None and _in_progress(best):
            complete = [c for c in cands if not _in_progress(c)]
            if complete:
                alt = min(complete, key=lambda c: c.score)
                slack = alt.penalty if alt.kind in (RETRACT, BACK) else 1
                if alt.score[0] <= best.score[0] + slack:
                    return best, alt
        elif best is not None and (best.kind in (RETRACT, BACK) or best.unheld):
            # (also a move whose square read occupied before its piece left: a drop and
            # the next move begun may be the story, see _unheld_fill)
            prog = [c for c in cands if _in_progress(c) and c.score[0] <= best.score[0]]
            if prog:
                return min(prog, key=lambda c: c.score), best
            d = diff(obs, ctx.cur.exp)
            if all(obs[sq] == EMPTY for sq in d):
                # only pieces missing (a drop taken back, or a piece knocked off): wait
                return _Expl(INPROG, lifted=tuple(d)), best
        return best, None

    def _answered(
        self, ctx: _Ctx, obs: str, cands: list[_Expl], best: _Expl, value: str
    ) -> _Expl | None:
        """The player answered a question (``value``) before the board settled: if the best
        explanation asks none that the answer fits, the best one that does, unless it
        costs more than ``_ANSWERED`` unexplained lifts more (a quick capture then a drop,
        read as one move with a knock: only the drop asks which piece)."""
        if self._asks(best, value):
            return None
        if not any(c.kind == TWO for c in cands):
            cands = cands + self._scored_chains(ctx, obs)
        fits = [c for c in cands if self._asks(c, value)]
        if not fits:
            return None
        other = min(fits, key=lambda c: c.score)
        return other if other.score[0] <= best.score[0] + _ANSWERED else None

    def _asks(self, expl: _Expl, value: str | None) -> bool:
        """Would applying ``expl`` ask a question (that ``value`` answers, if given)?"""
        if expl.kind not in (MOVE, CORRECT, TWO):
            return False
        plies = [ply.variants for ply in expl.chain] + [expl.moves]
        for variants in plies:
            variants = self._choose(variants)
            if len(variants) > 1:
                if value is None:
                    return True
                if variants[0].from_square is None:
                    return any(
                        m.drop_piece_type is not None
                        and piece_type_symbol(m.drop_piece_type) == value
                        for m in variants
                    )
                return value in (INPUT_PROMOTE, INPUT_NONPROMOTE)
        return False

    def _candidates(self, ctx: _Ctx, obs: str, until: float) -> list[_Expl]:
        """The one-step explanations of ``obs`` (scored), seeing the history up to ``until``."""
        touches = self._touches(ctx.w_cur, until)
        cands: list[_Expl] = []
        cur = ctx.cur
        d = diff(obs, cur.exp)
        if not d:
            cands.append(_Expl(IDLE))
        else:
            for ms, cap in self._complete(cur, obs, d, ctx.w_cur, None, until):
                deps = _dep_move(cur, ms[0], {})
                takes = (_taking(cur, ms[0], _NEG_INF, _INF),) if cap else ()
                penalty = int(
                    cap
                    and (
                        self._from_nowhere(cur, ms[0], touches, until)
                        or self._aired(cur, ms[0], ctx.w_cur, until, obs)
                    )
                )
                unheld = self._unheld_fill(cur, ms[0], ctx.w_cur, until)
                penalty += self._mover_holding(ctx, ms[0], touches, until)
                cands.append(
                    _Expl(
                        MOVE,
                        moves=ms,
                        capture=cap,
                        involved=deps,
                        takes=takes,
                        penalty=penalty + unheld,
                        unheld=unheld,
                    )
                )
            self._mark_swapped_aside(cands, cur, ctx.w_cur, until)
            lifted = self._lifted(cur, obs, d)
            if lifted is not None:
                cands.append(_Expl(INPROG, lifted=lifted, involved=_dep_lifted(lifted, {})))
        om = ctx.open_move
        quick = False  # a held attacker's piece set down soon (see _set_down_after)
        held_moved = False  # a held attacker's move read, doubted or not
        if ctx.prev is not None and om is not None:
            prev = ctx.prev
            d0 = diff(obs, prev.exp)
            # (or the piece there turned over where it stands, a promotion decided on the
            # square: the fifth generator, identity, game 15 of seed 3, the bishop slid to
            # 5b and turned over 0.6 s later, read as a piece that may not promote there)
            src_ok = self._src_ok(om, obs, ctx.w_cur, until) or (
                obs[om.to_square] != ctx.cur.exp[om.to_square]
            )
            # (from the first lift since: slow hands lift the target in time and set the
            # held piece down later; the built-in simulator, seeds 89 and 127)
            held = not src_ok and self._held_open(
                ctx, min((a for ls in touches.values() for a, _b in ls), default=self._t_change)
            )
            # putting a captured piece back on the board is deliberate, and rare
            uncapture = bool(prev.codes[om.to_square])
            if not d0:
                if (src_ok and self._could_go_back(om, until)) or (held and not touches):
                    # (taken back as the opponent's reply had begun: see _replying)
                    off = self._others_off(ctx, om, touches)
                    replying = _replying(off)
                    cands.append(
                        _Expl(
                            RETRACT,
                            involved={om.to_square: 1},
                            penalty=int(uncapture) + replying,
                            held=held,
                            replying=replying,
                        )
                    )
            elif src_ok or held:
                for ms, cap in self._corrections(ctx, obs, d0, until, held):
                    held_moved = held_moved or held
                    deps = _dep_correct(prev, om, ms[0], {})
                    after = self._set_down_after(ctx, ms[0], until) if held else None
                    soon = after is None or after < _SOON_STEPS  # (see _set_down_after)
                    fast = after is not None and after < _QUICK_STEPS
                    quick = quick or fast
                    # the held piece's story is the less likely one (and waits to be
                    # believed), unless its target was swapped out too fast for a touch
                    # soon after the landing: the clean story then reads a piece wobbling
                    # after the landing, with no hand to knock it, and the open capture is
                    # read as the knock; or unless it was set down too soon for a reply
                    # (but not a capture whose target was lifted after a pause: a touch)
                    doubted = (
                        held
                        and (not fast or self._taken_after_a_pause(ctx, ms[0], until))
                        and not (soon and self._swapped_fast(om, ms[0], ctx.w_prev, until))
                        and not self._rocked_back(om, ctx.w_prev, until)
                    )
                    if held:
                        penalty = int(doubted)
                    else:
                        penalty = int(uncapture and ms[0].to_square != om.to_square)
                    penalty += 2 * self._lifted_first(ctx, ms[0], until)
                    off = self._others_off(ctx, ms[0], touches)
                    replying = _replying(off)
                    penalty += replying
                    penalty += self._redropped_soon(om, ms[0], until)
                    rekinded = self._rekinded(om, ms, ctx.w_cur, until)
                    penalty += rekinded
                    turned = self._turn_begun(om, off, ctx.w_prev) or self._set_down_first(
                        ctx, ms[0], off
                    )
                    penalty += turned
                    moved_on = cap and ms[0].from_square == om.from_square
                    cands.append(
                        _Expl(
                            CORRECT,
                            moves=ms,
                            capture=cap,
                            involved=deps,
                            penalty=penalty,
                            # (the same piece pushed on as another kind, or moved on
                            # after the opponent's turn began: not believed at once, the
                            # board may yet show a knocked piece put back)
                            held=doubted or rekinded == 2 or turned,
                            attacker=om.to_square if moved_on else None,
                            replying=replying,
                        )
                    )
            lifted0 = self._lifted(prev, obs, d0)
            if lifted0 is not None:
                extra = tuple(sq for sq in lifted0 if sq not in (om.from_square, om.to_square))
                deps = _dep_lifted(extra, {om.to_square: 1})
                cands.append(_Expl(INPROG0, lifted=lifted0, involved=deps))
        if quick and any(c.kind == CORRECT and not c.held for c in cands):
            # set down too soon after the capture's landing for the opponent's reply
            for c in cands:
                if c.kind == MOVE:
                    c.penalty += 1
        if d and not ctx.virtual and not self._tournament and self._game.peek() is not None:
            cands += self._takebacks(ctx, obs, until)
        if ctx.virtual and (held_moved or any(c.held for c in cands)):
            # the mover has not answered its question yet: a piece set down where its held
            # piece could go is that piece, not the opponent's reply begun before the answer
            # (also where that piece's move is not doubted: its target rocked back as the
            # hand reached, see _rocked_back; the sixth generator, game 7 of seed 120:
            # 9g lifted, 9f off 15 ms later for 67 ms, asked "promote?" as 9g took 9f,
            # and the held piece set on 8g 1.4 s later read as the opponent's B*8g)
            # (nor, one lift more likely, the opponent's touch: the built-in simulator,
            # game 1 of seed 160, 8g9g+ read as 8g8i+ and 9g touched, the game lost)
            for c in cands:
                if c.kind == MOVE:
                    c.penalty += 2
                elif c.kind == IDLE:
                    c.penalty += 1
        for c in cands:
            c.score = self._score(c, touches, cur.exp, cur if c.kind == MOVE else None)
        return cands

    def _mark_swapped_aside(
        self, cands: list[_Expl], cur: PosInfo, since: float, until: float
    ) -> None:
        """Two captures by one attacker that the board shows alike (both targets refilled),
        one target off the board for less than a touch (and than ``_SWAP``) after the
        attacker was lifted, the other lifted more than ``_REACTION`` steps of the hands'
        pace after that refill and off for longer: the capture of the second is marked.
        The brief lift was the attacker swapped in (a fast capture), the later one the
        hand withdrawing, a knock or a touch (motorgen x0.7, steps of 0.1 s: 1c1d, 1d off
        28 ms, then 2c knocked 1.5 steps later for 0.33 s, read as 1c2c). Lifted sooner,
        it is the target, lifted in the motion that put a knocked piece back (the
        independent generator's held attacker: 6h5h knocked 40 ms, 6i lifted 0.4 steps
        later, off 85 ms; `_REACTION_MIN` is for knocks that are no swap)."""
        caps = [c for c in cands if c.kind == MOVE and cur.codes[c.moves[0].to_square]]
        if len(caps) < 2 or self._pace is None:
            return
        for c in caps:
            origin, to = c.moves[0].from_square, c.moves[0].to_square
            assert origin is not None
            others = [o.moves[0].to_square for o in caps if o.moves[0].from_square == origin]
            c.swapped_aside |= self._swapped_aside(origin, to, others, since, until)

    def _swapped_aside(
        self, origin: int, to: int, others: list[int], since: float, until: float
    ) -> bool:
        """Did the attacker on ``origin`` swap out one of the ``others`` (off the board for
        less than a touch, and than ``_SWAP``), ``to`` then lifted more than ``_REACTION``
        steps of the hands' pace after that refill and off for longer (see
        ``_mark_swapped_aside``)? Or take one of them, off as long as a touch or longer,
        ``to`` then off for less but lifted more than ``_TOUCHED_STEPS`` after that
        landing: a hand holding the attacker over a knocked piece's square swaps the
        target in soon after putting that piece back (the independent generator's, at
        most 1.5 steps later in the 15 ties measured), while the opponent's touch before its
        reply comes long after the capture, and may be as brief (x0.3 ``--rich``, game 4
        of seed 52038: 4f3g, 3g off 0.18 s, then sente's 7i touched 48 ms 4.4 steps
        later, read as 4f7i with 3g knocked, a false move at the log's end)."""
        assert self._pace is not None
        touch, hist = max(self._touch_min(), _SWAP), self._hist
        lift = hist.last_lift(to, since, until)
        own = self._swap(origin, to, since, until)
        if lift is None or own is None:
            return False
        for other in others:
            if other == to:
                continue
            swap = self._swap(origin, other, since, until)
            refill = hist.last_refill(other, since, until)
            if swap is None or refill is None:
                continue
            if touch <= own and swap < touch and lift - refill > _REACTION * self._pace:
                return True  # (the other swapped in, this one knocked or touched after)
            if own < touch <= swap and lift - refill > _TOUCHED_STEPS * self._pace:
                return True  # (the other taken, this one the opponent's touch long after)
        return False

    def _mark_swapped_aside_in_chains(self, two: list[_Expl], since: float) -> None:
        """``_mark_swapped_aside`` for chains alike but for one capture's target, its
        attacker the same: read in that move's time (100 Hz x0.4 --rich, game 19 of seed
        51737: gote's tokin on 1e took 1f, off 30 ms, then sente touched 1d, 0.24 s after
        1f's refill, for 0.15 s, and moved 8i8h; read as 1e1d with 1f knocked, the
        chains' tie left to the earlier refill, a false move the game never told apart)."""
        if len(two) < 2 or self._pace is None:
            return
        # (the chains by their moves but for one move's target: that move's index, the
        # others' squares, its origin; each with its target and its time)
        alike: dict[tuple[object, ...], list[tuple[_Expl, int, int, float, float]]] = {}
        for c in two:
            story = _story(c)
            lo = since
            for i, p in enumerate(c.chain):
                origin = p.variants[0].from_square
                # (its landing, the change at its time, seen: noise x2 of the
                # fourth generator, game 19 of seed 13, 2e straightened for 15 ms 1.3 s
                # after 1e took 1f, its close the time of 1e2e's position, unseen, and
                # 2e's knock before it read as its swap)
                hi = math.nextafter(p.t, _INF)
                if origin is not None:
                    key = (i, story[:i], origin, story[i + 1 :])
                    to = p.variants[0].to_square
                    alike.setdefault(key, []).append((c, origin, to, lo, hi))
                lo = hi
        for moves in alike.values():
            if len(moves) < 2:
                continue
            others = [to for _c, _origin, to, _lo, _hi in moves]
            for c, origin, to, lo, hi in moves:
                c.swapped_aside |= self._swapped_aside(origin, to, others, lo, hi)

    def _from_nowhere(
        self, base: PosInfo, move: Move, touches: dict[int, list[tuple[float, float]]], until: float
    ) -> bool:
        """After a capture's landing (its target's last refill), did the board show a piece
        more than its position has, none of them in the air, while the opponent had nothing
        in hand to drop? No hand put it there: the capture's attacker was still held (set
        down on a square it could not reach, before the target it took), and the target's
        refill was a knocked piece put back. A piece shown for less than ``settle`` was not
        set down but seen in the air (see ``_aired``)."""
        lifts = touches.get(move.to_square)
        if not lifts or lifts[-1][1] == _INF or base.opponent_holds():
            return False
        landed = lifts[-1][1]
        exp = self._cache.after(base, move).exp
        hist = self._hist
        for t, cells in reversed(self._states):
            if t <= landed:
                break
            if t >= until:
                continue
            extra = air = 0
            for sq in diff(cells, exp):
                if cells[sq] == EMPTY:
                    air += 1
                elif exp[sq] == EMPTY:
                    filled = hist.last_fill(sq, math.nextafter(t, _INF))
                    extra += filled is None or not self._passed_over(sq, filled)
            if extra > air:
                return True
        return False

    def _unheld_fill(self, base: PosInfo, move: Move, since: float, until: float) -> int:
        """How many lifts' worth of implausibility a piece set down from a hand, missing
        from a story of ``move``, adds (none, one or two).

        A quiet board move: did its square read occupied after ``since`` while its piece
        still stood on its origin (more than ``overlap`` before it left), with no piece of
        ``base`` off the board then? No hand held a piece over it: that was a piece from
        the hand, a drop (x0.4 ``--overlap --rich``: gote's L*9g, then 9f taken target
        first and 9g knocked for 50 ms, read as 9f9g+ with the lance a hover of nothing;
        the game lost from there). One.

        A drop: did a square empty in ``base`` read occupied from before its piece landed
        until more than ``overlap`` after (see ``_beside_drop``)? The hand held only the
        dropped piece: the other was set down too. Two: the story calls it a hover, the
        likeliest noise, which it cannot be (x0.3 ``--polarity --rich``, game 15 of seed
        41519: P*9i, P*9h, then 9i lifted to take 9h, held over 9f on the way: read as
        P*9h with 9i a hover though it stayed closed 0.25 s after P*9h landed: one lift,
        against two for the chain whose pawn was held over 9f, a piece merely lifted and
        its hover; one more would only tie. Two plies lost)."""
        origin = move.from_square
        if origin is None:
            return 2 * self._beside_drop(base, move.to_square, since, until)
        if base.codes[move.to_square]:
            return 0  # (a capture's target refilled: a knock, see _from_nowhere)
        hist, overlap = self._hist, self.params.overlap
        exp = base.exp
        states = self._states
        for tf in hist.fills(move.to_square, since, until):
            if hist.left_by(origin, tf, overlap):
                continue
            cells = next((c for t, c in reversed(states) if t <= tf), None)
            if cells is not None and all(cells[sq] != EMPTY for sq in diff(cells, exp)):
                return 1
        return 0

    def _beside_drop(self, base: PosInfo, to: int, since: float, until: float) -> bool:
        """Did a square empty in ``base`` read occupied (filled after ``since``) from before
        a drop on ``to`` landed (its last fill before ``until``) until more than ``overlap``
        after it (see ``_unheld_fill``)?"""
        hist = self._hist
        landed = hist.last_fill(to, until)
        if landed is None or landed <= since:
            return False
        exp, late = base.exp, landed + self.params.overlap
        for sq in hist.changed_since(since):
            if sq == to or exp[sq] != EMPTY:
                continue
            filled = hist.last_fill(sq, landed)
            if filled is not None and filled > since:
                gone = hist.emptied_after(sq, filled)
                if gone is None or gone > late:
                    return True
        return False

    def _held_open(self, ctx: _Ctx, t: float) -> bool:
        """A capture made when its wait ran out (or whose promotion question waits), then
        nothing lifted (but the piece the held one takes) and a piece set down soon (the
        hand at it from ``t``: the target's lift, for a capture): the attacker may have
        been held all along (a knocked piece put back), and
        this its move from where it stood (never a likelier story than a clean one)."""
        pending = self._pending
        return (
            not self._tournament  # there a piece left where it may not go loses
            and (pending.held if pending is not None else self._open_held)
            and t - ctx.w_cur <= self._held_window()
        )

    def _held_window(self) -> float:
        """How long after a capture made when its wait ran out its attacker, held all
        along, may still be set down as its own move (see ``_held_open``)."""
        return max(2 * self._capture_wait(), self._story_wait(), self._held_most())

    def _set_down_after(self, ctx: _Ctx, move: Move, until: float) -> float | None:
        """How many steps of the hands' pace after the open capture's landing the held
        piece's ``move`` set it down (None until the pace is known): when its square was
        last filled, not the board's last change (the opponent's hand may have touched
        pieces since). Under ``_QUICK_STEPS`` it was
        too soon for the opponent to reply: the held attacker's own move is the likelier
        story (the target knocked and put back: x2.0 5e4f, 4e knocked, the drop 1.7 steps
        later; x0.4 4c4a, 3b knocked, 1.2). Over ``_SOON_STEPS`` the opponent's hand is at
        the board, and a touch of theirs reads as short as a target swapped out (27 to
        42 ms at x0.3): such a capture by the held attacker is doubted like any other
        (x0.3 --overlap: 7c8d, then 6c touched 32 ms 1.04 s later, six steps, read as
        7c6c)."""
        if self._pace is None:
            return None
        fill = self._hist.last_fill(move.to_square, until)
        return ((self._t_change if fill is None else fill) - ctx.w_cur) / self._pace

    def _taken_after_a_pause(self, ctx: _Ctx, move: Move, until: float) -> bool:
        """Whether ``move``, a held attacker's move replacing the open capture, takes a
        piece lifted more than ``_reaction`` after that capture's landing: the hand
        that knocked a piece and put it back lifts its target in the same motion, while a
        touch after a capture comes after a pause (see ``_score``). x0.5 ``--overlap``:
        7c8d, its target swapped out in 21 ms, then 7d touched 0.4 s later (a step of
        0.42 s), set down 1.6 steps after the landing, read as 7c7d."""
        assert ctx.prev is not None
        to = move.to_square
        if not ctx.prev.codes[to]:
            return False
        lift = self._hist.last_lift(to, ctx.w_cur, until)
        return lift is not None and lift - ctx.w_cur > self._reaction()

    def _swapped_fast(self, om: Move, move: Move, since: float, until: float) -> bool:
        """Whether ``move``, a held attacker's capture replacing the open move ``om``, took
        a target that was off the board for less than a touch (see ``_touch_min``), and
        for less than the open move's own target was: the held piece's story reads that
        one as a knock, put back by a hand, and a swap is the quicker of the two. (x0.4
        ``--polarity --extra --overlap``, game 1 of seed 41919: 7c8d with 8d swapped in
        13 ms, then sente's 6d off for 36 ms 0.31 s later: read as 7c held, 8d knocked
        and 6d taken, a false move.)"""
        if move.from_square != om.from_square or move.to_square == om.to_square:
            return False
        assert move.from_square is not None
        swap = self._swap(move.from_square, move.to_square, since, until)
        if swap is None or swap >= self._touch_min():
            return False
        knock = self._last_off(om.to_square, since, until)
        return knock is None or knock[1] - knock[0] > swap

    def _src_ok(self, om: Move, cells: str, since: float, until: float = float("inf")) -> bool:
        """Undoing the open move: if its destination still reads occupied, the piece the
        tracker believes is there must have been lifted since (another piece is there now)."""
        src = om.to_square
        return cells[src] == EMPTY or self._hist.last_lift(src, since, until) is not None

    def _left(self, origin: int, to: int, t: float) -> bool:
        """Had the piece on ``origin`` left it when ``to`` was filled at ``t``? A piece slid
        onto the next square may close it a moment before its own square opens (up to
        ``_SLID`` times ``overlap``: the fifth generator's slow hands, x2, game 7 of seed 3,
        6b slid to 7b and open 85 ms after 7b closed, read as another piece on 7b and the
        rest of the game lost); slid farther, the first square it crossed did (the fifth
        generator, game 19 of seed 2: the lance slid from 9i over 9h to 9g, 9i read
        occupied until 16 ms after 9g closed, its switch slow to open, read as another
        piece on 9g and the rest of the game lost)."""
        hist, overlap = self._hist, self.params.overlap * _SLID
        if square_distance(origin, to) <= 1:
            return hist.left_by(origin, t, overlap)
        if hist.left_by(origin, t, 0.0):
            return True
        between = BETWEEN[origin][to]
        if not between:
            return False
        first = min(between, key=lambda sq: square_distance(sq, origin))
        crossed = hist.last_fill(first, t)
        return crossed is not None and hist.left_by(origin, crossed, overlap)

    def _landed_after(self, origin: int, to: int, until: float) -> bool:
        """Could the piece standing on ``origin`` have been set down on ``to``? Not if
        ``to`` was last filled while ``origin`` still read occupied: another piece."""
        fill = self._hist.last_fill(to, until)
        return fill is None or self._left(origin, to, fill)

    def _corrections(
        self,
        ctx: _Ctx,
        cells: str,
        d0: Sequence[int],
        until: float = float("inf"),
        held: bool = False,
    ) -> list[tuple[tuple[Move, ...], bool]]:
        """Other moves from the position before the open move that show ``cells``
        (``held``: the open move's piece never landed, it moves from where it stood, and
        nothing was lifted since but what it takes)."""
        om = ctx.open_move
        assert ctx.prev is not None and om is not None
        reloc = None if held else (om.from_square, om.to_square, ctx.w_cur)
        back = om.from_square
        # the open move's piece goes back where it came from (another piece moves instead)
        back_ok = held or self._could_go_back(om, until)
        touched = self._touches(ctx.w_cur, until) if held else {}
        return [
            (ms, cap)
            for ms, cap in self._complete(
                ctx.prev, cells, d0, ctx.w_prev, reloc, until, unseen=self._unseen
            )
            if om not in ms  # the open move itself (or its promotion, on occupancy boards)
            and (back_ok or back in (ms[0].from_square, ms[0].to_square))
            and self._held_alone(ctx.prev, ms[0], touched, until)
        ]

    def _held_alone(
        self,
        prev: PosInfo,
        move: Move,
        touched: dict[int, list[tuple[float, float]]],
        until: float,
    ) -> bool:
        """The held attacker's ``move``: was nothing lifted while it was held but what it
        takes? A square empty in the position before was only crossed by the carried
        piece; a piece lifted after the held one was set down is the opponent's hand (a
        touch before its reply), left over as in any story (x0.4 --overlap --rich, game
        15 of seed 40550: 3b held, 3e knocked and put back in 50 ms, read as 3b taking
        3e; the rook set on 3d 0.3 s later, then sente's hand on 9i and 8i: P*3d read,
        the held rook's move ruled out by those touches, and the game lost)."""
        to = move.to_square
        set_down = self._hist.last_fill(to, until)
        return all(
            sq == to
            or not prev.codes[sq]
            or (set_down is not None and all(start > set_down for start, _end in lifts))
            for sq, lifts in touched.items()
        )

    def _lifted_first(self, ctx: _Ctx, move: Move, until: float) -> bool:
        """A correction in which another piece moves instead of the open move's: was that
        piece lifted while the open move's piece still stood where it was set down? People
        take the wrong piece off first; the other order is more often the opponent's hand
        (a target lifted first, a neighbour knocked)."""
        om = ctx.open_move
        assert om is not None
        fr = move.from_square
        if fr is None or fr == om.from_square:
            return False
        new = self._hist.last_lift(fr, ctx.w_cur, until)
        # (the first time the open move's piece left: it may have been taken back, and
        # the other piece carried over its square after)
        left = self._hist.lifts(om.to_square, ctx.w_cur, until)
        return new is not None and bool(left) and new < left[0][0]

    def _others_off(
        self, ctx: _Ctx, move: Move, touches: dict[int, list[tuple[float, float]]]
    ) -> _Off | None:
        """For ``move`` correcting the open move: when the open move's piece was last
        lifted, and when the opponent's pieces ``move`` leaves alone were off the board
        (see ``_replying``, ``_turn_begun``). None if that piece was not lifted."""
        om = ctx.open_move
        assert om is not None
        lifts = touches.get(om.to_square)
        if not lifts:
            return None
        mine = _squares(move)
        offs = [
            off for sq, ls in touches.items() if sq not in mine and ctx.cur.own(sq) for off in ls
        ]
        return lifts[-1][0], offs

    def _corrected_late(self, ctx: _Ctx, expl: _Expl) -> bool:
        """A correction of the open move by a move of another piece (``expl``, alone or as
        a chain's first ply): did that move land before the open move's piece was lifted?
        The mover made a whole move with the piece it had just set down still standing,
        and took that piece off only after: no hand corrects so. Where a kept story explains the board, it is taken
        instead (the independent generator, x2.0 ``--rich --extra``, game 9 of seed
        59748: gote's horse 5e4f with sente's 4e knocked, read as the horse taking 4e and
        sente's S*4f; sente's 8b9b, then the horse lifted from 4f 3.9 s after, read as
        S*4f corrected to 8b9b and gote's N*5e, the horse's story kept all along). Such a
        correction is believed only once the board has stayed so (``_story_wait``), as a
        held attacker's move is."""
        om = ctx.open_move
        new = expl.moves[0] if expl.kind == CORRECT else expl.chain[0].variants[0]
        if om is None or new.from_square in (om.from_square, om.to_square):
            # (the open move's own piece moved on: slid to the next square, it may fill
            # that square before its own opens, see ``overlap``)
            return False
        lifted = self._hist.last_lift(om.to_square, ctx.w_prev)
        landed = self._hist.last_fill(new.to_square)
        return lifted is not None and landed is not None and landed < lifted

    def _turn_begun(self, om: Move, off: _Off | None, since: float) -> bool:
        """A correction of the open move: was one of the opponent's pieces it leaves alone
        lifted and put back before the open move's piece was lifted to be moved on, later
        after its landing than a knock of the mover's hand (see ``_reaction``)? The
        opponent's hand touched it: its turn had begun, and the open move stood. Such a
        correction costs a lift and waits to be believed (``held``): the board may show
        the piece it moved put back, a knock (the sixth generator, noise x2, game 15 of
        seed 21: sente's P*9i, gote's 9e touched 2.4 s from 7.5 s on, then P*9h with 9i
        knocked 0.97 s, read as P*9i moved on to 9h, and 9i9h next as a touch: two plies
        lost). ``off``: see ``_others_off``; ``since``: when the board showed the
        position before the open move."""
        if off is None:
            return False
        lifted, offs = off
        # (its first landing: the last fill before the lift may be that lift's chatter;
        # the sixth generator, noise x2, game 19 of seed 133: sente's N*9c, gote's 4f
        # touched 0.68 s after for 0.64 s, then gote's P*9d with 9c knocked 20 ms after
        # its landing, read as N*9c moved on to 9d and P*9c, two false moves)
        landed = self._hist.fills(om.to_square, since, lifted)
        if not landed:
            return False
        touched = landed[0] + self._reaction()
        return any(touched <= start < end < lifted for start, end in offs)

    def _set_down_first(self, ctx: _Ctx, move: Move, off: _Off | None) -> bool:
        """A correction of the open move: was a piece set down on an empty square that
        ``move`` leaves alone, and lifted again, after the open move's piece landed and
        before it was lifted to be moved on? The opponent's hand had a piece from its
        stand over the board (a drop shown and taken back, a hover): its turn had begun,
        as in ``_turn_begun`` (the sixth generator, polarity x0.4 noise x2, game 19 of
        seed 93: gote's N*9c, sente's nifu P*5g shown and taken back, then P*9d carried
        over 6f, 9c knocked 0.2 ms after its landing for 0.42 s; read as N*9c moved on
        to 9d and sente's P*9c, two false moves). So is a chain's first ply, a
        correction."""
        om = ctx.open_move
        if off is None or om is None:
            return False
        lifted = off[0]
        # (its first landing: the last fill before the lift may be that lift's chatter)
        landed = self._hist.fills(om.to_square, ctx.w_prev, lifted)
        if not landed:
            return False
        mine = _squares(move) | _squares(om)
        # (from its landing on: the mover's hand, empty once the piece is down, sets no
        # other piece on an empty square, as it may knock one standing by)
        for t, sq in self._hist.fills_between(landed[0], lifted):
            if sq in mine or ctx.cur.exp[sq] != EMPTY:
                continue
            gone = self._hist.emptied_after(sq, t)
            if gone is not None and gone < lifted:
                return True
        return False

    def _mover_holding(
        self, ctx: _Ctx, move: Move, touches: dict[int, list[tuple[float, float]]], until: float
    ) -> bool:
        """A reply to the open move: did it land while the open move's piece was off its
        square (lifted before, put back after)? The mover's hand held that piece: its move
        was not over (being corrected or taken back), and the reply had not begun, as
        ``_replying`` has it the other way round (the built-in simulator, game 1 of seed
        580: gote's 7c8d, then its piece lifted from 8d, set back on 7c and the captured
        piece put back on 8d: read as sente's L*7c with 8d touched, and when 7c8d was made
        again, as 7c6c, a false move). Not lifted less than ``_KNOCK_LEAD`` before the
        landing: the replying hand knocked it as it came down (the sixth generator, noise
        x2, game 12 of seed 68: 8d8e, then gote's P*8d with 8e off from 2 ms before its
        landing for 63 ms, read as 8d8e corrected to P*8e)."""
        om = ctx.open_move
        if om is None:
            return False
        lifts = touches.get(om.to_square)
        if not lifts:
            return False
        landed = self._hist.last_fill(move.to_square, until)
        return landed is not None and any(
            start < landed - _KNOCK_LEAD and landed < end for start, end in lifts
        )

    def _could_go_back(self, om: Move, until: float) -> bool:
        """Could the open move's piece be back where it came from? Only if it left the
        square it was set down on before its origin was last refilled (a drop goes back to
        the hand)."""
        return om.from_square is None or self._landed_after(om.to_square, om.from_square, until)

    def _score(
        self,
        c: _Expl,
        touches: dict[int, list[tuple[float, float]]],
        exp: str | None = None,
        info: PosInfo | None = None,
    ) -> tuple[int, int, int, int, tuple[float, ...], int, float]:
        """(lifts left unexplained + penalty, in progress?, penalty, minus the pieces lifted
        and put back well after the explanation's last landing (plus one if another target
        of its attacker was swapped out first, see ``_mark_swapped_aside``), the refills left
        unexplained, latest first, kind, minus how long a chain's briefest position was
        shown): smaller is better. A square still empty after a hover counts
        alike for every explanation, so only refills break ties.

        A tie between two captures by one attacker (its target taken, then the opponent's
        hand on another piece the attacker could take; or that piece knocked by the
        mover's hand, then the target taken) goes to the story in which the piece left
        over was lifted more than ``_reaction`` after the landing: the mover's hand lifts
        the target at once after putting a knocked piece back, in one motion, while a
        touch after a capture comes after a pause. Else to the
        story whose left-over refill came first (a knock, the likelier story), compared
        latest first: a touch after both (the opponent's, before its reply) leaves the
        tie to the refills before it. ``exp``: the position's cells (a knock lifts a piece
        that stood there; a move onto a piece takes it). ``info``: the position a move is
        made from: for a capture, only a piece its attacker could have taken instead is
        such a touch (another piece lifted and put back is left over in every story, and
        would count only in those whose landing came earlier)."""
        n = c.penalty
        refills: list[float] = []  # the refills left unexplained (per square, its last)
        # the lifts left unexplained (refilled ones), by square
        loose: list[tuple[int, float, float]] = []
        rivals: frozenset[int] | None = None  # the squares a capture's attacker could take
        landed = _NEG_INF  # the latest refill the explanation makes (a capture's landing)
        lifts_made: list[float] = []  # when a chain's moves lifted their pieces
        landings: list[float] = []  # ... and when they refilled squares (captures landing)
        asides = [a for a in (_aside(take, touches) for take in c.takes) if a is not None]
        attacker: float | None = None  # when a capture's attacker was lifted
        reaches: dict[float, frozenset[int]] = {}  # a chain's captures, by their landings
        if c.windows:
            # a chain: each move explains the lifts of its own time, the last of them (a
            # capture comes last; the earlier ones were knocks or touches)
            free = list(c.windows)
            lifted_at = [a for a in (_attacker_lift(t, touches) for t in c.takes) if a is not None]
            full = [h for h in (self._hands_full(t, touches) for t in c.takes) if h is not None]
            # (every capture's, doubtful or not, as for one move; x0.3 --rich, game 5 of
            # seed 52530: gote's king took 6a, 7b knocked 37 ms before, then sente touched
            # 1i: 6b7b, its target swapped out fast, had no take, so the touch counted
            # after its landing as after a quiet move's, and the chain read 6b7b)
            reaches = _landing_reaches(c.landings, touches)
            for sq, lifts in touches.items():
                # every lift after this one was left unexplained, the last never put back
                loose_after = False
                # (a square empty before the chain: what was lifted there was a moving
                # piece set down on its way, and what fills it at the end is the chain's
                # own landing, no piece put back)
                landing = exp is not None and exp[sq] == EMPTY and lifts[-1][1] != _INF
                for start, end in reversed(lifts):
                    for i, (wsq, lo, hi) in enumerate(free):
                        if wsq == sq and lo < start <= hi:
                            del free[i]
                            lifts_made.append(start)
                            if end != _INF:
                                landings.append(end)
                                if loose_after:
                                    # a piece set down where a move of the chain left,
                                    # then lifted again for good: the story makes
                                    # neither (seed 30837: the rook set down on 8c
                                    # while the opponent moved is no loose lift's end)
                                    refills.append(end)
                            loose_after = False
                            break
                    else:
                        loose_after = end == _INF or loose_after
                        n += 1 + any(aside(sq, start) for aside in asides)
                        if landing and (start, end) == lifts[-1]:
                            # (a hover's cost, no refill nor touch: the identity board,
                            # x0.3 --rich --overlap, game 17 of seed 58827, sente's gold
                            # set on 1c, moved on 0.24 s later to take 2b, and gote's rook
                            # set on 1c; read as 2c1c and the rook taking it, 1c's lift a
                            # gold put back as a rook, a refill left over)
                            pass
                        elif end != _INF:
                            refills.append(end)
                            loose.append((sq, start, end))
                            # (as for one move: a touch still off the board when a
                            # capture's attacker was lifted, or put back while the
                            # mover's hands held the attacker and the target)
                            n += sum(start < a < end for a in lifted_at)
                            n += sum(a < end and taken < end < busy for a, taken, busy in full)
        else:
            origin = None
            # any capture, doubtful or not: the hands' rules hold for all
            taking = c.kind == MOVE and exp is not None and exp[c.moves[0].to_square] != EMPTY
            if c.capture or taking:
                origin = c.moves[0].from_square if c.attacker is None else c.attacker
            attacker = touches[origin][-1][0] if origin in touches else None
            if origin is not None and info is not None and c.attacker is None:
                rivals = frozenset(m.to_square for m in info.moves_from(origin))
            # the target's last lift (its piece taken) and the attacker's landing
            target_sq = c.moves[0].to_square if attacker is not None else -1
            target = touches.get(target_sq)
            taken, down = target[-1] if target else (_INF, _INF)
            busy = self._busy(taken, down)
            for sq, lifts in touches.items():
                k = len(lifts) - c.involved.get(sq, 0)
                for _start, end in lifts[max(k, 0) :]:
                    if end != _INF:
                        landed = max(landed, end)
                if k > 0:
                    # the move explains the last lifts of a square (a capture comes last);
                    # the earlier ones were knocks or touches
                    n += k
                    refilled = [(start, end) for start, end in lifts[:k] if end != _INF]
                    if refilled:
                        refills.append(refilled[-1][1])
                    loose += [(sq, start, end) for start, end in refilled]
                    if attacker is not None and (exp is None or exp[sq] != EMPTY):
                        # (a square that stood empty only lost the fill of a piece carried
                        # over it: no knock, and nothing to put back)
                        # a knock or touch still off the board when the attacker was lifted:
                        # one hand cannot hold the one piece and lift the other. Put back
                        # just after the target was lifted (within a step), the attacker not
                        # yet landed: the mover's hands held the attacker and the target
                        # then, and neither put it back. (Neither for a neighbour of the
                        # attacker's square that opened as it was lifted, from _KNOCK_LEAD
                        # before to _ROCKED after: the reaching hand rocked it, and it
                        # settles back by itself; the fourth generator, polarity x0.4
                        # noise x2, game 7 of seed 12: 6d7e, 5c open 33 ms after 6d's lift
                        # and closed again after 7e's, read as 6d5c with 7e knocked; x0.4,
                        # game 13 of seed 13: 7f6g, 8g open 1 ms before 7f's lift, read as
                        # 7f8g.)
                        beside = origin is not None and sq in _AROUND[origin]
                        for start, end in lifts[:k]:
                            if beside and attacker - _KNOCK_LEAD <= start < attacker + _ROCKED:
                                continue
                            n += start < attacker < end != _INF
                            # (put back a moment before the attacker's lift, off another
                            # square: no hand sets one piece down and lifts another so
                            # soon, least of all while the other hand holds the target)
                            # (or before the target's lift, the attacker in one hand). A
                            # piece off less than _SWAP was straightened, or wobbled: the
                            # opponent's hand straightens its piece as the reply begins
                            # (the fifth generator's blitz overlap, x0.4, games 15 and 16
                            # of seed 7)
                            hasty = (
                                sq != origin
                                and end - start >= _SWAP
                                and (
                                    attacker - _CHATTER < end <= attacker
                                    or (attacker < end <= taken < end + _HASTY and sq != target_sq)
                                )
                            )
                            n += hasty
                            n += (attacker < end or hasty) and taken < end < busy
                    for aside in asides:
                        n += sum(aside(sq, start) for start, _end in lifts[:k])
        # a piece lifted and put back turned over (or another kind) is no touch nor knock:
        # a story that leaves it so misses what a hand did on purpose (the sixth generator,
        # polarity x0.4 noise x2, game 1 of seed 18: 4d4c, turned over on the square 0.35
        # s after, and taken by 3c4c 0.17 s after that, read as 4d4c unpromoted with 4c
        # touched, the correction to 4d4c+ being short: a false move)
        turned = [lift for lift in loose if not self._put_back_alike(*lift)]
        n += 2 * len(turned)
        # a piece lifted and put back well after the explanation's last landing (a
        # capture's), before the next move's piece was: the opponent's touch before its
        # reply, not a knock in the move
        after = 0
        if landed != _NEG_INF:
            landings.append(landed)
            if attacker is not None:
                # a capture whose attacker was seen passing over the squares on its way
                assert origin is not None
                after += self._crossed(origin, c.moves[0].to_square, attacker, landed)
        if landings:
            wait, touch = self._reaction(), self._touch_min()
            # (in a chain, after each move's landing, and put back before the next move's
            # first lift: a lift that spans it may be that move's target, lifted first)
            for sq, start, end in loose:
                last = max((down for down in landings if down < start), default=_NEG_INF)
                # (in a chain, after a capture's landing: only a piece its attacker could
                # have taken instead, as for one move; the built-in simulator, game 18 of
                # seed 470: 7e taking 6d, 4h knocked, then gote's tokin lifted from 4i, put
                # back and moved: read as 7e4h, the lift counted after 4h's earlier landing)
                near = rivals if rivals is not None else reaches.get(last)
                if last != _NEG_INF and (near is None or sq in near):
                    reply = min((lift for lift in lifts_made if lift > last), default=_INF)
                    # (a piece off for less than _touch_min was no touch: a wobble, or a
                    # target swapped out by its attacker; nor one put back turned over)
                    after += (
                        last + wait < start
                        and end < reply
                        and end - start >= touch
                        and (sq, start, end) not in turned
                    )
        after -= c.swapped_aside
        latest = tuple(sorted(refills, reverse=True))
        # (two chains alike so far: the one whose briefest position was shown longer)
        brief = min((p.shown for p in c.chain), default=0.0)
        return (n, int(_in_progress(c)), c.penalty, -after, latest, c.kind, -brief)

    def _busy(self, taken: float, down: float) -> float:
        """Until when the mover's hands were both full in a capture whose target was lifted
        at ``taken`` and whose attacker landed at ``down``: a step after the target's lift
        at most (the hand then has put it on the stand)."""
        return min(down, taken + (self._pace or 0.0))

    def _hands_full(
        self, take: _Take, touches: dict[int, list[tuple[float, float]]]
    ) -> tuple[float, float, float] | None:
        """For a chain's capture: when its attacker was lifted, when its target was, and
        until when both hands were full (see ``_busy``); None if either was not seen."""
        attacker = _attacker_lift(take, touches)
        lift = _target_lift(take, touches)
        if attacker is None or lift is None:
            return None
        taken, down = lift
        return attacker, taken, self._busy(taken, down)

    def _crossed(self, origin: int, target: int, lifted: float, landed: float) -> int:
        """How many squares between a capture's origin and target read occupied after its
        attacker was lifted (``lifted``) and before it landed: a sliding piece carried
        there over them."""
        hist = self._hist
        return sum(hist.filled_between(sq, lifted, landed) for sq in BETWEEN[origin][target])

    def _touches(self, since: float, until: float = _INF) -> dict[int, list[tuple[float, float]]]:
        """Every lift seen since ``since``: square -> when each ended (inf: still empty).
        An explanation accounts for some of them; the others are knocks, touches, hovers."""
        out: dict[int, list[tuple[float, float]]] = {}
        inf = float("inf")
        hist = self._hist
        for sq in hist.changed_since(since):
            ends = [(a, inf if b is None else b) for a, b in hist.lifts(sq, since, until)]
            if ends:
                out[sq] = ends
        return out

    def _capture_ok(
        self,
        origin: int,
        target: int,
        since: float,
        until: float,
        cells: str,
        reach: frozenset[int],
    ) -> bool | None:
        """None unless the target was emptied and refilled after the attacker (on
        ``origin``) was lifted, and the attacker was not seen set down again after that: a
        while on an empty square it could have moved to, or back on its own (then lifted:
        it was still in the air, or put back and lifted again), with no other piece lifted
        in between. Else whether a piece was seen in the air after it (see ``_aired``).
        (The built-in simulator, polarity, game 1 of seed 44: gote's rook lifted from 8g,
        8f knocked and put back, the rook set back on 8g for 0.6 s, then lifted to take
        9g: read as 8g taking 8f, the rest of the game lost.)"""
        off = self._last_off(target, since, until)
        if off is None:
            return None
        refill = off[1]
        if origin != target and not self._left(origin, target, refill):
            return None  # the attacker was still on its square when the target was refilled
        if origin != target and self._rocked(origin, off, since, until, _LANDED_SOONEST):
            # the target rocked back as the attacker was lifted: no hand takes a piece off
            # and sets another in its place that fast (the fourth generator, noise x2,
            # game 11 of seed 19: 5d lifted, 4c off from 20 ms before until 28 ms after,
            # read as 5d4c, and the piece then set on 3e, an illegal move, as gote's G*3e:
            # the rest of the game lost). Not up to _FLIGHT: a switch slow to release
            # shows the attacker's lift late (the fifth generator, x0.4, game 8 of seed 9:
            # 8d released 70 ms late, its capture of 8e landing 59 ms after)
            return None
        after = self._after_landing(refill, target, until, cells)
        if any((sq in reach or sq == origin) and not brief for _tf, sq, brief in after):
            return None
        return any(brief for _tf, _sq, brief in after)

    def _aired(
        self,
        base: PosInfo,
        move: Move,
        since: float,
        until: float,
        cells: str,
        within: float = _INF,
    ) -> bool:
        """Was a piece seen in the air after the capture's landing (its target's last refill),
        passing over an empty square (a reading under ``settle``), with no other piece
        lifted in between, next to where the attacker could go (its origin or another
        square it could move to)? The held attacker's, if the refill was a knocked piece
        put back. The capture is doubtful (it waits), and costs one reading more than a
        story with no piece in the air. A reading away from anywhere the attacker could
        go is another piece: the captured one, carried over the board to the stand while
        the attacker lands (motorgen x1.0: gote's silver 6d7e, 9d closed 52 ms after the
        landing, then sente touched 5c: read as 6d5c, the held silver passing over 9d, two
        squares from anywhere it could go), or the next player's, brought to drop (since
        session 53; until then it counted unless on the way to the mover's stand).
        ``within``: only a piece seen that soon after the landing counts (a chain's
        capture: one seen after its wait is the next player's hand, see _chain)."""
        target, origin = move.to_square, move.from_square
        refill = self._hist.last_refill(target, since, until)
        if refill is None or origin is None:
            return False
        # (or set down sooner after the landing than the opponent's hand could react:
        # the built-in simulator, game 7 of seed 318, gote's bishop lifted from 6d, 5c
        # knocked for 77 ms, then the bishop held over 8f 0.11 s later for 0.5 s before
        # taking 7e: read as 6d5c with 7e touched after)
        soon = self._reaction()
        aired = [
            sq
            for tf, sq, brief in self._after_landing(refill, target, until, cells)
            if (brief or tf - refill < soon) and tf - refill < within
        ]
        if not aired:
            return False
        held = _AROUND[origin].union(
            *(_AROUND[m.to_square] for m in base.moves_from(origin) if m.to_square != target)
        )
        # (not a square away from wherever the attacker could go, even off the way to the
        # stand: the next player's hand, bringing a piece to drop; the independent
        # generator, x0.3 --extra, corpus game 1 of seed 57133: gote's 7c8d, 7d knocked 29
        # ms, sente's lance over 4i 0.49 s after the landing and dropped on 3g, read as
        # 7c7d, a false move)
        return any(sq in held for sq in aired)

    def _after_landing(
        self, refill: float, target: int, until: float, cells: str
    ) -> list[tuple[float, int, bool]]:
        """The empty squares (in ``cells``) filled after the capture's landing at ``refill``
        with no other piece lifted in between (the opponent's, say): when, which, and
        whether only briefly (emptied within ``settle``)."""
        hist, overlap = self._hist, self.params.overlap
        out = []
        for tf, sq in hist.fills_between(refill, until):
            if cells[sq] != EMPTY or hist.emptied_between(refill, tf, target):
                continue
            if any(
                (opened := hist.emptied_after(nb, tf - overlap)) is not None
                and opened <= tf + overlap
                for nb in _AROUND[sq]
                if nb not in (sq, target)
            ):
                # (a neighbour's piece pushed onto it, its own square opening then: a
                # knock, not the held piece; the fifth generator, noise x2, game 18 of
                # seed 3: gote's 9b took 8b, and the hand knocked 8a onto 9a 36 ms after
                # the landing, read as the held piece set on 9a, and the capture never
                # read: the rest of the game lost)
                continue
            out.append((tf, sq, self._passed_over(sq, tf)))
        return out

    def _passed_over(self, sq: int, filled: float) -> bool:
        """Whether the piece that filled ``sq`` at ``filled`` was gone again within
        ``settle``: a piece seen passing over the square, not set down on it."""
        gone = self._hist.emptied_after(sq, filled)
        return gone is not None and gone - filled < self.params.settle

    def _never_empty(self, origin: int, target: int, since: float, until: float) -> bool:
        """Did the target of a capture from ``origin`` never read empty once the attacker
        had left (see ``_keep_unseen``)? An opening refilled while the attacker still stood
        is no part of it: the target touched, or the landing bounce of the piece just set
        there, which the scan stretches past ``bounce`` (100 Hz x0.4 --rich, game 12 of
        seed 44071: gote's P*3c, its landing read open 20 ms, then 3d taking 3c unseen and
        gote's P*3h; no story kept, and the rest of the game lost)."""
        return all(
            end is not None and not self._left(origin, target, end)
            for _start, end in self._hist.lifts(target, since, until)
        )

    def _capture_doubtful(self, origin: int, target: int, since: float, until: float) -> bool:
        """Could this capture be an attacker still held after a knocked neighbour was put
        back? Not if the target was lifted before the attacker (nobody knocks a piece they
        have not reached yet... and keeps holding), nor if it was swapped out in under a
        twentieth of a second (no hand puts a knocked piece back that fast)."""
        swap = self._swap(origin, target, since, until)
        return swap is not None and swap >= _SWAP

    def _wobbled_target(self, to: int, since: float, until: float) -> bool:
        """Was a capture's target last off for less than a touch (``_touch_min``), lifted
        less than ``_reaction()`` after it was set down there? The hand that set it down
        was still at it: a wobble, however fast it stood again, proves no capture (see
        ``_capture_doubtful``), which then waits to be believed (the sixth generator,
        identity noise x2, game 12 of seed 117: sente's 9d9c, 9c off 0.19 s after the
        landing for 45 ms, then gote's 9b knocked for 0.38 s: read as 9b taking 9c, slid,
        and sente's P*9b, two false moves)."""
        if self._pace is None:
            return False
        lifts = self._hist.lifts(to, since, until)
        if not lifts:
            return False
        lift, back = lifts[-1]
        # (off no longer than a wobble: a target taken off on purpose, then the attacker
        # set down, is a capture however soon it began; 100 Hz x0.4 --rich, game 2 of seed
        # 4941602, 8b off 1.7 s from 0.19 s after a hover set it down)
        if back is None or back - lift >= self._touch_min():
            return False
        down = self._hist.last_fill(to, lift)
        return down is not None and lift - down < self._reaction()

    def _rocked_back(self, om: Move, since: float, until: float) -> bool:
        """Was the open capture's target last off from a moment before its attacker's lift
        (up to ``_KNOCK_LEAD``) until less than ``_FLIGHT`` after it? No hand sets a piece
        down so soon after lifting it: a neighbour the reaching hand rocked, settling back
        by itself, and the attacker still held; its story is no less likely (the fourth
        generator, noise x2, game 7 of seed 17: 6d7e, 5c off from 16 ms before 6d's lift
        until 30 ms after, read as 6d5c, a false move to the log's end)."""
        return om.from_square is not None and self._rocked(
            om.from_square, self._last_off(om.to_square, since, until), since, until
        )

    def _rocked(
        self,
        origin: int,
        off: tuple[float, float] | None,
        since: float,
        until: float,
        flight: float = _FLIGHT,
    ) -> bool:
        """Was a target, last off over ``off`` (its lift and refill, see ``_last_off``),
        off from up to ``_KNOCK_LEAD`` before ``origin``'s last lift (or from any time
        after it) until less than ``flight`` after it (see ``_rocked_back``)?"""
        if off is None or off[1] - off[0] >= _KNOCK_LEAD + flight:
            return False  # (off longer than that: the attacker's lift need not be looked up)
        attacker = self._hist.last_lift(origin, since, until)
        if attacker is None:
            return False
        start, end = off
        # (or from after it: set down that soon, it was never the attacker's landing; the
        # sixth generator, x2, game 14 of seed 15: 7h lifted, 7i off from 12 ms after until
        # 31 ms after, read as 7h taking 7i, and the piece, held 9.7 s, set on 6i as the
        # opponent's drop)
        return attacker - _KNOCK_LEAD <= start and attacker < end < attacker + flight

    def _swap(self, origin: int, target: int, since: float, until: float) -> float | None:
        """How long the target was last empty, if it was lifted after the attacker (inf if
        it never was); None if it was lifted first. Lifted less than ``_KNOCK_LEAD``
        before it counts as after: the hand reaching for the attacker knocks a neighbour a
        moment before it grips (the fourth generator's, up to 20 ms; no hand takes a
        target off first and is back for the attacker that soon)."""
        off = self._last_off(target, since, until)
        if off is None:
            return _INF
        start, end = off
        # (the attacker's last lift before the target was refilled: a lift after that is no
        # part of this capture; x1.0, game 4 of seed 59605, 8i6g moved on for 5f, 4e
        # knocked, and 6g crossed again on the way; read as 8i4e, 4e the target lifted
        # first, with no story of the bishop still held, and 5f read as gote's G*5f)
        attacker = self._hist.last_lift(origin, since, end)
        return None if attacker is not None and start < attacker - _KNOCK_LEAD else end - start

    def _last_off(self, sq: int, since: float, until: float) -> tuple[float, float] | None:
        """The last time ``sq`` was lifted and refilled (after ``since``, before ``until``)."""
        closed = [(a, b) for a, b in self._hist.lifts(sq, since, until) if b is not None]
        return closed[-1] if closed else None

    def _in_the_air(self, ctx: _Ctx, expl: _Expl, held: float) -> bool:
        """The capture just read may be its attacker still in the air: it waited out the
        capture wait (``held``), or its target was swapped out fast after the attacker
        was lifted (a knocked piece can wobble back as fast), or it was read as the
        attacker pushed onto its target (see _pushed_refill). See _candidates."""
        if held < _INF:
            return True
        read = _read_from(ctx, expl)
        move = expl.moves[0] if expl.moves else None
        if read is None and expl.kind == TWO and self._open and self._pending is None:
            # a chain's last move, just made: read from the position before it, shown
            # since its last ply (x0.4: 8b9b and 4f4e made together, 4e wobbling 49 ms;
            # the bishop set on 5e 0.35 s later read as the opponent's S*5e)
            move, p0 = self._history[-1], self._p0
            read = (p0, self._w_prev) if p0 is not None and move in expl.moves else None
        elif read is None and expl.kind == TWO and move is not None:
            # a chain's last move, asking its question: read from the position it asks
            # about, shown since the ply before it (x0.4 --only knock: 4a5b, then 5d
            # lifted and 5b wobbling 33 ms, read as 5d5b asking "promote?"; the lance
            # set on 5c 0.33 s later read as gote's L*5c)
            pending = self._pending
            if pending is not None and move in pending.cands:
                read = (pending.base, self._w_prev)
        if read is None or move is None:
            return False
        # (the refill that made the state is seen: changes at ``until`` are not)
        until = math.nextafter(self._t_change, _INF)
        return self._wobbled(read[0], move, read[1], until) or self._pushed_refill(
            read[0], move, read[1], until
        )

    def _pushed_refill(self, base: PosInfo, move: Move, since: float, until: float) -> bool:
        """A capture read as its attacker pushed onto a target lifted first: the target's
        square refilled before the attacker's was lifted. A knocked piece put back just
        before the attacker was lifted reads the same (see ``overlap``)."""
        if move.from_square is None or not base.codes[move.to_square]:
            return False
        off = self._last_off(move.to_square, since, until)
        attacker = self._hist.last_lift(move.from_square, since, until)
        return off is not None and attacker is not None and off[1] <= attacker

    def _wobbled(self, base: PosInfo, move: Move, since: float, until: float) -> bool:
        """A capture whose target was swapped out fast after the attacker was lifted: also
        the readings of a knocked piece wobbling back while the attacker was held."""
        if not base.codes[move.to_square]:
            return False
        return self._swapped_within(move, since, until, _SWAP)

    def _swapped_within(self, move: Move, since: float, until: float, limit: float) -> bool:
        """Whether ``move``'s target was last off the board for less than ``limit``, lifted
        after the attacker (see ``_swap``)."""
        if move.from_square is None:
            return False
        swap = self._swap(move.from_square, move.to_square, since, until)
        return swap is not None and swap < limit

    def _complete(
        self,
        info: PosInfo,
        obs: str,
        d: Sequence[int],
        since: float,
        reloc: tuple[int | None, int, float] | None,
        until: float = float("inf"),
        relaxed: bool = False,
        unseen: bool = False,
    ) -> list[tuple[tuple[Move, ...], bool]]:
        """Legal moves from ``info`` whose result shows ``obs`` (``d``: the differing
        squares), grouped by squares; with whether each is a capture that may yet be an
        attacker held after a knock (see ``_capture_doubtful``).
        ``reloc``: (from, None for a drop, where that piece physically is, since when) for
        a correction: a piece set down elsewhere must have left that square first, and
        what it takes was lifted after it was set down there. ``unseen``: also captures
        whose target never read empty (see ``_keep_unseen``)."""
        n = len(d)
        if n == 0 or n > 2:
            return []
        out: list[tuple[tuple[Move, ...], bool]] = []
        exp = info.exp
        for f in d:
            if obs[f] != EMPTY or not info.own(f):
                continue
            groups: dict[int, list[Move]] = {}
            for m in info.moves_from(f):
                to = m.to_square
                face = info.face_after(m)
                if obs[to] != face:
                    continue
                if exp[to] != face:
                    if n != 2 or to not in d:
                        continue
                elif n != 1:
                    continue
                groups.setdefault(to, []).append(m)
            reach: frozenset[int] | None = None
            origin, cap_since = f, since
            if reloc is not None and reloc[0] == f:
                origin, cap_since = reloc[1], max(since, reloc[2])
            for to, ms in groups.items():
                capture = bool(info.codes[to])
                if (
                    not capture
                    and not relaxed
                    and origin != to
                    and not self._landed_after(origin, to, until)
                ):
                    # the piece lands after it was lifted (on polarity boards a piece set
                    # down, then turned over where it stands, is its own origin)
                    continue
                doubtful = False
                if capture and not relaxed and not (reloc is not None and origin == to):
                    # (a correction onto the square its piece stands on: the open move's
                    # own capture, turned over there; its target was seen taken then)
                    if reach is None:
                        reach = frozenset(m.to_square for m in info.moves_from(f)) - {to}
                    aired = self._capture_ok(origin, to, cap_since, until, obs, reach)
                    if aired is None:
                        if not (unseen and self._never_empty(origin, to, cap_since, until)):
                            continue
                        aired = True  # (a capture never seen: see _keep_unseen)
                    doubtful = (
                        aired
                        or self._capture_doubtful(origin, to, cap_since, until)
                        or self._wobbled_target(to, cap_since, until)
                    )
                out.append((tuple(ms), doubtful))
        if n == 1:
            s = d[0]
            dropped = reloc[1] if reloc is not None and reloc[0] is None else None
            if (
                exp[s] == EMPTY
                and obs[s] != EMPTY
                and (
                    dropped is None
                    or dropped == s
                    or relaxed
                    or self._landed_after(dropped, s, until)
                )
            ):
                # the kinds in hand that show what the sensors see (identity boards: one)
                drops = [m for m in info.drops_to(s) if info.face_after(m) == obs[s]]
                if drops:
                    out.append((tuple(drops), False))
        return out

    @staticmethod
    def _lifted(info: PosInfo, obs: str, d: Sequence[int]) -> tuple[int, ...] | None:
        """The squares of a move in progress (pieces lifted, nothing placed), or None."""
        if not d or len(d) > 2 or any(obs[s] != EMPTY for s in d):
            return None
        if len(d) == 1:
            s = d[0]
            if info.own(s) or (info.theirs(s) and info.moves_onto(s)):
                return (s,)
            return None
        a, b = d
        if info.theirs(a):
            a, b = b, a
        if info.own(a) and info.theirs(b) and any(m.to_square == b for m in info.moves_from(a)):
            return (a, b)
        return None

    @classmethod
    def _hovered(cls, info: PosInfo, obs: str, d: Sequence[int]) -> tuple[int, ...]:
        """The square of a move in progress whose piece, lifted and held, closes one empty
        square, or (). The piece is still in the air: a hover, which costs a lift (x0.3
        ``--rich`` at 200 Hz, game 20 of seed 37332: gote's king lifted to take the tokin
        on 4a, held over 6f, read as sente's drop corrected to P*6f). Only the mover's own
        piece: a target lifted first is in the hand, not over the board (200 Hz x0.3
        ``--extra --overlap``, game 17 of 37532: a knight held over 1g, then dropped on
        1f, read as N*1g and gote's capture of it begun, 1f a hover)."""
        fills = [sq for sq in d if obs[sq] != EMPTY and info.exp[sq] == EMPTY]
        if len(d) != 2 or len(fills) != 1:
            return ()
        lifted = cls._lifted(info, obs, [sq for sq in d if sq != fills[0]])
        return lifted if lifted is not None and info.own(lifted[0]) else ()

    def _takebacks(self, ctx: _Ctx, obs: str, until: float = _INF) -> list[_Expl]:
        """Casual mode: the board set back one or two moves (the first may be the open one)."""
        out: list[_Expl] = []
        # undoing moves changes only their squares: a quick test before any copying
        near: set[int] = set()
        game = self._game
        last = game.peek()
        if last is None:
            return out
        near |= _squares(last)
        if not all(sq in near for sq in diff(obs, ctx.cur.exp)):
            prev_move = self._history[-2] if len(self._history) > 1 else None
            if prev_move is None or not all(
                sq in near | _squares(prev_move) for sq in diff(obs, ctx.cur.exp)
            ):
                return out
        full = game.copy()
        popped: list[Move] = []
        for k in (1, 2):
            if full.peek() is None or len(self._history) - k < self._fixed:
                break
            m = full.pop()
            popped.append(m)
            if k == 1 and self._open:
                continue  # that is a retraction, explained above
            if obs != self._cache.get(full).exp:
                continue
            # a piece put back on a square the undone moves left occupied (a captured
            # piece returned, a piece moved back through it) was lifted off it first
            refilled = {mv.to_square for mv in popped if obs[mv.to_square] != EMPTY}
            if any(self._hist.last_refill(sq, ctx.w_cur, until) is None for sq in refilled):
                continue
            deps: dict[int, int] = {}
            for mv in popped:
                _add(deps, mv.to_square)
            # taking back a move the opponent had answered: deliberate and rare; two
            # moves, rarer than two made at once that come back to that position (the king
            # took the promoted pawn, and the pawn was dropped again)
            out.append(_Expl(BACK, back=k, involved=deps, penalty=1 + k))
        return out

    def _scored_chains(
        self,
        ctx: _Ctx,
        obs: str,
        held: bool = False,
        depth: int = _DEPTH,
        dead: list[tuple[_Ply, ...]] | None = None,
    ) -> list[_Expl]:
        """The chains that explain ``obs`` (see ``_two_ply``), scored."""
        touches = self._touches(ctx.w_cur)
        two = self._two_ply(ctx, obs, held, depth, dead)
        self._mark_swapped_aside_in_chains(two, ctx.w_cur)
        om = ctx.open_move
        for c in two:
            if om is not None and c.chain and c.chain[0].correcting:
                first = c.chain[0].variants
                c.penalty += self._rekinded(om, first, ctx.w_cur, _INF)
                off = self._others_off(ctx, first[0], touches)
                # (the opponent's turn begun: as for a correction alone, see _candidates)
                c.penalty += self._turn_begun(om, off, ctx.w_prev) or self._set_down_first(
                    ctx, first[0], off
                )
            c.score = self._score(c, touches, ctx.cur.exp)
        # (a held piece's hover only where the chain explains every lift, with no penalty
        # but the hover's and its move's being in progress: else the board is in an
        # error, a piece carried where it may not go, to be shown as one)
        return [
            c
            for c in two
            if not c.hovered or c.score[0] - self._before(c, ctx.w_cur) <= _HOVER_MOST
        ]

    def _before(self, c: _Expl, since: float) -> int:
        """The lifts a chain leaves unexplained that were put back before its first move
        began (its piece lifted, or a drop's landing): a touch before the reply, which
        says nothing of a hover at the chain's end (see ``_hovered``). A knock while that
        move's piece is in the air does (x0.3 ``--extra``, game 4 of seed 42932: gote's
        horse took 3g, sente touched 4g 0.75 s later, then R*7a, and gote's tokin lifted
        and held over 2c: in that story an error was shown, in 4f4g's, 3g knocked, the
        hover was read, and the false move 4f4g was taken for its fewer errors)."""
        if not c.chain:
            return 0
        first = c.chain[0]
        start = first.t
        origin = first.variants[0].from_square
        if origin is not None:
            lift = self._hist.last_lift(origin, since, first.t)
            start = lift if lift is not None else start
        return sum(1 for r in c.score[4] if r < start)

    def _past_premise(self, ended: bool = False, finish: bool = False) -> bool:
        """This story of a capture never seen (see ``_keep_unseen``) went on past its
        moves (or two moves past the capture, its chain's own moves), the squares their
        attackers left still empty. Not before: a piece lifted, then set down where it may
        not go (a move out of turn, say) until the player puts it right, reads the same
        (the built-in simulator's game 1: 3.5 s); nor if a piece
        came back there: the attacker's square refilled is the piece put back, not the
        capture and a drop there (motorgen x0.5: 3h knocked during 2f4h and put back,
        read as 3h taking 4h and S*3h). ``ended``: the log ends with this story's game
        over (its last move mates): nothing can come after, and none is needed.
        ``finish``: the log ends with its moves made, the tracker's own story unresolved:
        nothing more can come to prove it, and a log ends on the board the game left,
        not on a piece set where it cannot go (100 Hz x0.4 --rich, game 17 of seed
        42872: 9h took 8i unseen, then gote's G*4b, the game's last moves, read as the
        bishop set on 4b, the log unresolved)."""
        assert self._premise is not None
        n, left, _unkept = self._premise
        past = len(self._history) > n or ended or (finish and len(self._history) >= n)
        return past and self._still_empty(left)

    def _still_empty(self, left: frozenset[int]) -> bool:
        """Do the squares the attackers of captures never seen left still read empty? One
        refilled is the piece put back, not the capture and a drop there."""
        cells = self._cells
        assert cells is not None
        return all(cells[sq] == EMPTY for sq in left)

    def _keep_dropped_unseen(self, move: Move, answered: bool = False) -> None:
        """A quiet move just read, its piece lifted from X and the square D it went to
        filled: it may be X taking a piece whose square never read empty (see
        ``_keep_unseen``), then the opponent's drop on D. The board shows the two alike,
        but the side to move differs: the next move tells them apart. Keep those stories
        (100 Hz x0.4 --rich, game 24 of seed 46216: gote's 3c took 3d unseen, then
        sente's B*2b, read as 3c2b; gote's P*3c then read as B*3c, and the rest of the
        game lost). ``answered``: the move was made by the answer to its promotion
        question; only a capture's other targets are kept then, their stories taking the
        same answer (100 Hz x0.4 --rich, game 5 of seed 51723: sente's dragon on 5c took
        6c unseen, 5d knocked 0.13 s, read as 5c5d+ asking "promote?"; no story kept,
        and the gold it would have taken then read dropped for the silver, "S" pressed:
        two false moves)."""
        fr = move.from_square
        cells = self._cells
        if fr is None or self._is_fork or not self._keeps_stories() or cells is None:
            return
        ctx = self._context()
        prev = ctx.prev
        if ctx.virtual or prev is None or cells != ctx.cur.exp:
            return
        to = move.to_square
        taken = bool(prev.codes[to])
        if answered and not taken:
            return
        if not taken and not any(prev.board.pieces_in_hand[1 - prev.turn].values()):
            return  # (no piece the opponent could drop)
        lift = self._hist.last_lift(fr, ctx.w_prev)
        if lift is None or not self._could_take_unseen(prev, fr, lift):
            return
        if taken:
            self._keep_knocked_unseen(prev, fr, to, lift, ctx.w_prev, move if answered else None)
            return

        def dropped(c: _Expl) -> bool:
            # (only the capture in place of the open move, then a drop on its square)
            return len(c.chain) == 1 and c.chain[0].correcting and _drop_on(c.moves, to)

        self._keep_unseen(ctx, dropped, "dropped")

    def _other_targets(
        self, base: PosInfo, cells: str, origin: int, to: int, lift: float, since: float
    ) -> list[tuple[Move, ...]]:
        """The captures (with their variants) the attacker of a capture read, lifted from
        ``origin`` at ``lift`` to take ``to``, could have made instead, their targets never
        read empty (see ``_unseen_from``): none unless ``to`` was lifted after the
        attacker, as a piece the moving hand knocks is (a target lifted first is the
        player's own hand taking it; see ``_keep_knocked_unseen``)."""
        taken = self._hist.last_lift(to, since)
        if taken is None or taken <= lift:
            return []
        return [
            ms for ms in self._unseen_from(base, cells, [origin], since) if ms[0].to_square != to
        ]

    def _keep_knocked_in_chain(self, ctx: _Ctx, expl: _Expl) -> None:
        """Before a chain is made whose first move is a capture read, or a correction of the
        open move to one (see ``_keep_knocked_unseen``): keep the stories of that chain
        with its attacker taking another piece never seen instead, the rest of the chain
        legal after it (100 Hz x0.4 --rich, game 17 of seed 45823: 2d took 2e unseen, 1d
        lifted 0.4 s and put back, read as 2d1d with 1h1g after it, a false move; game 17
        of 46237, 7f8e read as 7f7e. A correction since session 43: game 7 of seed 49112,
        the rook from 4c took 4d unseen, held over 3b on its way, and 3d knocked: read as
        4c3b corrected to 4c3d, with 1b1e and 7h6h, a false move)."""
        if self._is_fork or not self._keeps_stories() or ctx.virtual:
            return
        cells: str | None = self._cells
        if expl.kind == TWO:
            first = expl.chain[0]
            moves, correcting, cells = first.variants, first.correcting, first.cells
            rest = [p.variants for p in expl.chain[1:]] + ([expl.moves] if expl.moves else [])
            # (its attacker's lift before its landing: a piece held over that square later,
            # in the chain's next move, is no lift of it; 100 Hz x0.4 --rich, game 7 of seed
            # 50637, gote's king on 7b taking 6b unseen, 8c knocked, then 7b filled 0.22 s
            # while sente moved: read as 7b8c, its story never kept, and the game lost)
            until = first.t
        else:
            moves, correcting, rest, until = expl.moves, True, [], _INF
        base, since = (ctx.prev, ctx.w_prev) if correcting else (ctx.cur, ctx.w_cur)
        move = moves[0]
        fr, to = move.from_square, move.to_square
        if base is None or cells is None or fr is None or not base.codes[to]:
            return
        lift = self._hist.last_lift(fr, since, until)
        if lift is None or not self._could_take_unseen(base, fr, lift):
            return
        if expl.kind != TWO:
            # (a correction alone: the new move's hook, on the position before it)
            self._keep_knocked_unseen(base, fr, to, lift, since)
            return
        for ms in self._other_targets(base, cells, fr, to, lift, since):
            info = self._cache.after(base, ms[0])
            legal = True
            for variants in rest:
                if variants[0] not in info.legal:
                    legal = False
                    break
                info = self._cache.after(info, variants[0])
            if legal:
                chain = (replace(expl.chain[0], variants=ms), *expl.chain[1:])
                self._keep_knocked(replace(expl, chain=chain))

    def _keep_moved_onto(self, ctx: _Ctx, expl: _Expl) -> None:
        """Before a capture is made whose target is the open move's piece, on the square
        that quiet move went to, lifted before the attacker: that piece may instead have
        gone on to take a piece whose square never read empty (see ``_keep_unseen``),
        leaving the square empty for this move, a quiet one. The board and the side to
        move are the same; only the game tells them apart. Keep those stories, as
        ``_keep_knocked_unseen`` does (since session 43: 100 Hz x0.4 --rich, game 2 of
        seed 49416, 9b taking 9a unseen, the piece held over 8b on its way, read as 9b8b;
        gote's 8a8b then read as taking it, a false move)."""
        om = ctx.open_move
        prev = ctx.prev
        move = expl.moves[0]
        fr, to = move.from_square, move.to_square
        if (
            self._is_fork
            or not self._keeps_stories()
            or ctx.virtual
            or om is None
            or prev is None
            or om.from_square is None
            or fr is None
            or to != om.to_square
            or prev.codes[to]
        ):
            return
        taken = self._hist.last_lift(to, ctx.w_cur)
        lift = self._hist.last_lift(fr, ctx.w_cur)
        if taken is None or lift is None or taken >= lift:
            return
        origin = om.from_square
        olift = self._hist.last_lift(origin, ctx.w_prev)
        shown = self._shown_at(taken)
        if olift is None or shown is None or not self._could_take_unseen(prev, origin, olift):
            return
        for ms in self._unseen_from(prev, shown, [origin], ctx.w_prev):
            if ms[0].to_square == to:
                continue
            info = self._cache.after(prev, ms[0])
            moves = tuple(m for m in expl.moves if m in info.legal)
            if moves:
                ply = _Ply(ms, True, taken, shown, False)
                self._keep_knocked(_Expl(TWO, moves=moves, chain=(ply,)))

    def _keep_knocked(self, expl: _Expl) -> None:
        """Keep ``expl``, a capture's other target, as a story kept while nothing was
        wrong (see ``_keep_knocked_unseen``), proven past its own moves."""
        alt = self._fork(expl)
        if alt is not None:
            alt._premise = (len(alt._history), frozenset(), False)
            alt._unerring = "knocked"

    def _keep_knocked_unseen(
        self,
        prev: PosInfo,
        origin: int,
        to: int,
        lift: float,
        since: float,
        answered: Move | None = None,
    ) -> None:
        """A capture just read, its target lifted and put back under the attacker: it may
        be the attacker taking another piece whose square never read empty (see
        ``_keep_unseen``), the target knocked or touched. The board shows the two alike,
        and the same side to move; only the game tells them apart. Keep those stories,
        as ``_keep_dropped_unseen`` does (100 Hz x0.4 --rich, game 3 of seed 46208, 4c4b
        read as 4c3c, 3c lifted 0.17 s). Only when the target was lifted after the
        attacker, as a piece the moving hand knocks is, and for ``_KNOCKED_PLIES``; one
        that shows an error while the tracker's own story shows none goes (the game told
        them apart). Each costs its feeding while it is kept: bench/replay.py lost a
        quarter of its events per second when they were kept for every capture, until
        ``_FORK_PLIES``. ``answered``: the capture read, made by the answer to its
        promotion question: each other story takes the same answer."""
        cells = self._cells
        assert cells is not None
        for ms in self._other_targets(prev, cells, origin, to, lift, since):
            if answered is not None:
                ms = tuple(m for m in ms if m.promotion == answered.promotion) or ms
            self._keep_knocked(_Expl(CORRECT, moves=ms))

    def _keep_touched_unseen(self, ctx: _Ctx | None = None, shown: str | None = None) -> None:
        """The board came back to the position after a piece of the side to move was
        lifted from X and X refilled (read as a touch): it may be X taking a piece whose
        square never read empty (see ``_keep_unseen``), then the opponent's drop on X. The
        board shows the two alike, and the same side to move; only the game tells them
        apart. Keep those stories, as ``_keep_dropped_unseen`` does (100 Hz x0.4 --rich,
        game 1 of seed 46216: 9h9i unseen and gote's P*9h read as 9h touched). Looked at
        when the board comes back to the position (``ctx``), and when a move is made on a
        board already showing the position after it (``shown``, that move's state), the
        touches since the board's first showing of it: the touch came while the move
        waited out its capture, and was read with it (game 17 of seed 44275: 1d1e, then
        8e9d unseen and N*8e, 1d1e made at the last showing of its state, after them)."""
        cells = self._cells
        if (
            # (another story's tracker only if the tracker's own kept it for a capture
            # never seen: its piece touched may have taken one too, the opponent then
            # dropping on its square; 100 Hz x0.4 --rich, game 17 of seed 50826: 7h8i
            # unseen, then 1f1e unseen and N*1f, "N" pressed; 7h8i kept, reading 1f
            # touched, and the rest of the game, 219 plies, lost)
            (self._is_fork and (self._nested or self._premise is None))
            or not self._keeps_stories()
            or cells is None
        ):
            return
        if ctx is None:
            ctx = self._context()
        if ctx.virtual:
            return
        if shown is not None:
            since = self._first_shown(shown, self._w_prev)
            if since < ctx.w_cur:
                ctx = replace(ctx, w_cur=since)
        cur = ctx.cur
        if cells != cur.exp:
            return
        if not any(cur.board.pieces_in_hand[1 - cur.turn].values()):
            return  # (no piece the opponent could drop)
        wait = self._reaction()
        for sq, lifts in self._touches(ctx.w_cur).items():
            piece = cur.board.piece_at(sq)
            if piece is None or piece.color != cur.turn or lifts[-1][1] == _INF:
                continue
            # (its longest lift: the drop's landing may bounce after it, 100 Hz x0.4
            # --rich, game 17 of seed 46900, 8e off 1.25 s, then 20 ms)
            start, end = max(lifts, key=lambda lift: lift[1] - lift[0])
            if end - start < wait:
                continue
            if not self._could_take_unseen(cur, sq, start):
                continue

            def touched(c: _Expl, sq: int = sq) -> bool:
                # (only a capture from the square touched, then a drop on it)
                first = c.chain[0] if len(c.chain) == 1 else None
                return (
                    first is not None
                    and not first.correcting
                    and first.variants[0].from_square == sq
                    and _drop_on(c.moves, sq)
                )

            self._keep_unseen(ctx, touched, "touched")

    def _could_take_unseen(self, base: PosInfo, origin: int, lift: float) -> bool:
        """Could the piece on ``origin`` in ``base``, lifted at ``lift``, have taken a piece
        whose square never read empty since (see ``_keep_unseen``)? Not in a set-up with a
        king left in its reach: its capture is no story."""
        targets = [m.to_square for m in base.moves_from(origin) if base.codes[m.to_square]]
        if any(
            (p := base.board.piece_at(sq)) is not None and p.piece_type == KING for sq in targets
        ):
            return False
        return any(self._never_empty(origin, sq, lift, _INF) for sq in targets)

    def _keep_unseen(
        self, ctx: _Ctx, only: Callable[[_Expl], bool] | None = None, unerring: str = ""
    ) -> None:
        """Nothing explains the board: keep the story of a chain whose moves may be
        captures whose target never read empty, the attacker lifted and the target's
        square occupied all along (a captured piece pushed off by the piece taking it, so
        the sensor under it never opened; a swap quicker than the scan: x0.3 at 200 Hz,
        9d lifted to take 9e unseen, then the opponent's drop, and the rest of the game
        lost). It is taken as kept stories are (see ``_revisable``): the state is shown
        as the error it is first, since a piece lifted, then a move out of turn or a drop
        where none may go, reads the same until the player puts it right. A later move
        proves such a capture complete: alone, its state is a piece lifted (in progress).
        Captures the board shows alike are all kept (a few), none guessed: see
        ``_revisable``."""
        self._unseen_for = self._state_id
        found = self._unseen_stories(ctx, short=unerring == "dropped")
        if only is not None:
            # (a story kept while nothing is wrong: see _keep_dropped_unseen)
            found = [f for f in found if only(f[0])]
        if not found:
            return
        found.sort(key=lambda f: f[0].score)
        # (captures the board shows alike are all kept, none guessed: one is taken only
        # when no other explains the board, see _revisable; x0.3 at 200 Hz, 7c lifted to
        # take 6b unseen, where 8b and 8c fit as well, and the rest of the game lost)
        alike = [f for f in found if f[0].score[:4] == found[0][0].score[:4]]
        tied = alike[:_UNSEEN_TIED]
        # (five since session 40: 100 Hz x0.4 --rich, game 8 of seed 43572, a horse's
        # four captures alike, three kept, 2b1c the game's not among them, and 2b3a taken
        # once the two others failed: a false move; game 11 of 45608, five alike, lost
        # with four kept. Six since session 46: game 17 of seed 51511, 2c2b unseen and
        # 1e1c, with 2c2d alike, and four stories of two captures and a drop; the two of
        # one capture kept, 2c2d failed 15 plies later, and 2c2b, the game's, never taken
        # for the sixth left unkept, the rest of the game lost. More than that: none is
        # ever taken as the last that fits, since one not kept may be the game)
        unkept = len({_chain_key(f[0]) for f in alike}) > len({_chain_key(f[0]) for f in tied})
        fresh: list[Tracker] = []  # (the stories kept here, at this state)
        for best, left, k, empty, cut in reversed(tied):
            if self._unseen_kept(best, empty, fresh, cut):
                continue
            alt = self._fork(best)
            if alt is not None:
                fresh.append(alt)
                # (past its moves, or two moves past its one capture never seen: the
                # chain's own later moves prove it complete as well; 100 Hz x0.4 --rich,
                # game 17 of seed 35873: 8f8i unseen, 9h8i and G*4b, the game's last
                # moves, never taken. Not a chain with two such captures, nor one in
                # place of the open move: x2.0 --rich --extra, game 10 of seed 36742,
                # 9h8g read, then 8h lifted and held over 1a for 4.7 s, taken as 9h8i
                # unseen, 8h8i unseen and B*1a, three false moves)
                n = len(alt._history)
                if len(left) == 1 and not best.chain[0].correcting:
                    n = min(n, len(self._history) + k + 2)
                if unerring:
                    # (the tracker's own story reads the piece that left that square, and
                    # what came back there: the story is taken only once that fails)
                    empty = frozenset()
                alt._premise = (n, empty, unkept)
                alt._unerring = unerring
                if unkept and k < len(best.chain):
                    alt._unseen_to = _ply_of(alt._history, best.chain[k].variants[0])

    def _unseen_stories(
        self, ctx: _Ctx, short: bool = False
    ) -> list[tuple[_Expl, frozenset[int], int, frozenset[int], bool]]:
        """The chains with captures never seen that explain the state now (see
        ``_keep_unseen``), each with the squares their attackers left and the index of
        its first such capture and those of its squares that must stay empty (see
        ``_unseen_left``), and whether the search that found it stopped at its depth with
        states left (a longer chain may be the game's): read in the window now and, with an
        open move, from the position before it, the chain replacing that move (the
        capture's position may have been shown before the open move landed: 100 Hz x0.4
        --rich, game 14 of seed 36537, 5g taking 5h unseen, then gote's P*5f, read as
        5g5f, the rest of the game lost). ``short``: a capture not waited out but shown
        as long as a lenient one (``_origin_drop_wait``) is no short story when the
        opponent's drop follows on any square, for a capture and the opponent's drop on
        the square the tracker's story has its piece go to (see
        ``_keep_dropped_unseen``): that drop is where the held attacker would land, so
        the capture is never waited out when the opponent is quick, and the story is only
        kept, not taken, until the game tells the two apart (100 Hz x0.4 --rich, game 14
        of seed 52208: gote's 7h took 7g unseen, sente's P*7i 0.68 s later, under the
        chain wait: read as 7h7i, no story kept, and the rest of the game lost). Not one
        shown for less: every quiet move would keep such a story, and the 100-move bench
        game took 159 ms for 92 when each did."""
        bases = [(ctx, False)]
        om = ctx.open_move
        if om is not None and ctx.prev is not None and not ctx.virtual:
            # (read as if the open move had not been made: its window, the position
            # before it)
            before = _Ctx(ctx.prev, None, None, ctx.w_prev, self._ref_prev, _NEG_INF, False)
            bases.append((before, True))
        out: list[tuple[_Expl, frozenset[int], int, frozenset[int], bool]] = []
        for base, replacing in bases:
            chains = self._unseen_chains(base)
            cut = self._cut
            for c in chains:
                # (each move shown long enough, and the capture's state standing until a
                # change its piece held could not have made: a piece moved out of turn,
                # set down 0.13 s after its lift and lifted again 3.5 s later, is no
                # capture and reply; the built-in simulator's game 1. Or proven as a
                # chain's short plies are, see _shorts: 200 Hz x0.3 --extra, game 22 of
                # seed 38304, 2b3b, then 3a lifted 0.19 s after its landing to take 3b
                # unseen, and 2g2b+; no story kept, and the game lost)
                if _shorts(c.chain, c.moves, short) or (replacing and om in c.chain[0].variants):
                    continue
                read = self._unseen_left(base, c.chain, c.moves)
                if read is None:
                    continue
                chain = read.chain
                if replacing:
                    chain = (replace(chain[0], correcting=True), *chain[1:])
                out.append(
                    (
                        replace(c, chain=chain, moves=read.last),
                        read.left,
                        read.first,
                        read.empty,
                        cut,
                    )
                )
        return out

    def _unseen_chains(self, ctx: _Ctx) -> list[_Expl]:
        """The chains that explain the state now, their captures' targets allowed never to
        have read empty (see ``_keep_unseen``), scored."""
        assert self._cells is not None
        self._unseen = True
        try:
            return self._scored_chains(ctx, self._cells)
        finally:
            self._unseen = False

    def _unseen_kept(
        self, c: _Expl, empty: frozenset[int], fresh: list[Tracker], cut: bool = False
    ) -> bool:
        """Is a story of the same capture never seen (``c``'s first move, at the same
        ply) kept already? It goes on with the game as it is fed: the longer chains found
        at each later state are that story again, and would crowd the others out. Only one
        with the tracker's moves before it, and, if it needs squares left empty that ``c``
        does not (``empty``: further captures never seen), whose moves after it are
        ``c``'s so far (a draft that asked it of all made false moves in 100 Hz x0.4
        --rich, game 24 of seed 42778 and game 11 of 45608); of those kept at this same
        state (``fresh``), only one whose later moves are ``c``'s too, the one its
        question waits on as well: the others are other stories of that capture (100 Hz
        x0.4 --rich, game 7 of seed 44670: 8a8b unseen, then 9b8c asking promotion, and
        8a8b, 9b6e+ unseen and N*8c alike; only the second was kept, and taken at the
        "promote" pressed for 9b8c: a false move)."""
        at = len(self._history) - int(c.chain[0].correcting)
        plies = _plies(c)

        def same(f: _Fork, since: int) -> bool:
            alt = f.alt
            if alt._history[since:at] != self._history[since:at]:
                # (another story's moves before it: not this capture's story; 100 Hz
                # x0.4 --rich, game 9 of seed 49906: 9b8c read, 9b9c and 7d7e unseen
                # kept, then 7d7e unseen after 9b8c never kept, and the game lost)
                return False
            # (its moves so far, and the one its question waits on)
            made: list[tuple[Move, ...]] = [(m,) for m in alt._history[at:]]
            if alt._pending is not None and alt._pending.kind == "move":
                made.append(alt._pending.cands)

            def agree(n: int) -> bool:
                return all(any(m in ms for m in cands) for cands, ms in zip(made[:n], plies))

            if not any(alt is a for a in fresh):
                if len(alt._history) <= at or alt._history[at] not in plies[0]:
                    return False
                # (not one that read the moves after it otherwise, with more captures
                # never seen: 100 Hz x0.4 --rich, game 11 of seed 49931, 6f6e unseen,
                # then 6g held over 4e, set back and moved to 5g; the story kept read
                # 6g7g unseen too and N*4e, and 6f6e, 6g5g was never kept)
                # (nor one whose question waits on another move than the chain's: 100 Hz
                # x0.4 --rich, game 3 of seed 50822, 9h8h unseen, then sente's rook
                # lifted from 7c and held over 1c, kept as 7c taking 7a unseen, asking
                # "promote?"; the rook set back, then moved to 8c: 7c8c never kept, and
                # "nonpromote" read as 7c7a and gote's S*8c, two false moves)
                premise = alt._premise
                if premise is None or agree(len(made)):
                    return True
                # (nor, needing no more empty squares, one that read the move after it
                # otherwise and explains the board so: 100 Hz x0.4 --rich, game 9 of
                # seed 50614, 3h4h unseen, then the horse on 5e lifted, 4e knocked, and
                # the horse set on 4f 0.3 s after 4e's piece was put back; 5e4e kept,
                # 4f read as sente's drop, 5e4f never kept, and 5e4e's story written.
                # One showing an error may yet read it so itself: game 8 of 50029)
                # (nor, ``cut``, when the search that found ``c`` stopped at its depth:
                # the story kept may be the longer chain it could not reach; 100 Hz x0.4
                # --rich, game 15 of seed 53436, 9d9e unseen and P*9i kept, then the
                # game went on through P*9h and 9i9h with the tracker in error, and
                # 9d9e, P*9h, 3c4d, 1b2a and 5a4b kept, six lifts left over; the two
                # alike, neither was taken, and the rest of the game was lost)
                return premise[1] <= empty and (
                    agree(2) or cut or f.settled(self._t_now)._illegal is not None
                )
            return bool(made) and agree(len(made))

        # (the moves before a story's own, from the ply before it was kept on, are the
        # tracker's: looked at from there)
        return any(f.alt._premise is not None and same(f, max(0, f.at - 1)) for f in self._forks)

    def _unseen_left(
        self, ctx: _Ctx, chain: tuple[_Ply, ...], last: tuple[Move, ...] = ()
    ) -> _UnseenRead | None:
        """The squares a chain's captures never seen left (see ``_keep_unseen``), the
        chain, a capture's promotion read from the player's answer (see below), the
        index of its first capture never seen, those squares that must still read empty
        (see ``_past_premise``), and its last move read again (see ``moved`` below). The
        squares that must stay empty: all but one a later move of the chain fills after
        another has moved from or to that capture's target, the capture proven by a move
        seen (100 Hz x0.4 --rich, game 1 of seed 43577: gote's S*5b, sente's 4b taking 4a
        unseen, gote's 5b4a taking it back and sente's P*4b; the story kept, never taken
        with 4b refilled, and the rest of the game lost); None if the square of one of them was
        lifted after it: that is the capture seen, its attacker lifted first (motorgen
        x0.5: 2f lifted, 4h lifted 0.2 s later and refilled, 3h knocked; read as 2f taking
        4h unseen and 3h taking it back). Unless the player answered the promotion
        question only that capture asks before that lift, and a later move of the chain
        (or its last, ``last``) moves from or to its square: the lift is that move's
        target, or the attacker moving on (x0.3 at 200 Hz: 8e lifted to take 6c unseen,
        "nonpromote" pressed, 6c taken back 2.2 s later, and the rest of the game lost).
        Nor when that lift came while a later move's piece was off the board: a knock in
        that move (x0.3 --extra at 200 Hz, game 21 of seed 36507: 3c taking 4e in 5 ms,
        unseen, then 4g lifted, and 4e knocked 0.29 s later before 4g4f landed)."""
        left: set[int] = set()
        empty: set[int] = set()
        read = list(chain)
        first = len(chain)
        since, base = ctx.w_cur, ctx.cur
        if chain[0].correcting:
            # (a chain that begins by correcting the open move begins before it, as the
            # chain search has it: on the current position that move may take a king)
            assert ctx.prev is not None
            since, base = ctx.w_prev, ctx.prev
        # (squares whose piece an answer read otherwise than the chain search had it: its
        # later moves are read again, their promotion too; 100 Hz x0.4 --rich, game 1 of
        # seed 45623: 4c4b, "nonpromote", where the search had the silver promoted, then
        # P*9f and 4b5a, "promote", read as 4b5a, the promoted silver's, a false move)
        moved: set[int] = set()
        for k, p in enumerate(chain):
            p = read[k] = replace(p, variants=_moves_again(base, p.variants, moved, p.cells))
            answer = self._answered_unseen(p, since, chain[k + 1].t if k + 1 < len(chain) else _INF)
            if answer is not None:
                read[k] = replace(p, variants=answer[1])
            m = read[k].variants[0]
            legal = _legal_like(base, m)
            if m not in legal:
                # (its piece read otherwise by an answer: a promotion the piece promoted
                # already cannot make; x2.0 --rich --extra, game 17 of seed 50144, target
                # first: 6g5h+ with "promote", then 5h4g+ pushed, and the tracker crashed)
                if m.from_square is None:
                    return None  # (nor a drop of a kind not in hand: no story)
                again = tuple(x for x in legal if x.to_square == m.to_square)
                if not again:
                    return None
                read[k] = replace(read[k], variants=again)
                m = again[0]
            to = m.to_square
            if m.from_square in moved:
                moved.discard(m.from_square)
                moved.add(to)
            elif m.from_square is not None and m.promotion != chain[k].variants[0].promotion:
                moved.add(to)
            if (
                m.from_square is not None
                and base.codes[to]
                and self._never_empty(m.from_square, to, since, p.t)
            ):
                after = [q.variants[0] for q in chain[k + 1 :]] + list(last[:1])
                lifted = self._hist.lifts(to, p.t, _INF)
                if lifted:
                    lift = lifted[0][0]
                    answered = (
                        answer is not None
                        and answer[0] < lift
                        and any(to in (n.from_square, n.to_square) for n in after)
                    )
                    # (or lifted while a later move's piece was off the board: a knock in
                    # that move, the capture long done)
                    busy = any(
                        n.from_square is not None and self._hist.empty_at(n.from_square, lift)
                        for n in after
                    )
                    if not (answered or busy):
                        return None
                if not left:
                    first = k
                left.add(m.from_square)
                if not _refilled_after(m.from_square, to, after):
                    empty.add(m.from_square)
            since, base = p.t, self._cache.after(base, m)
        cells = self._cells
        assert cells is not None
        again = _moves_again(base, last, moved, cells) if last else last
        return _UnseenRead(frozenset(left), tuple(read), first, frozenset(empty), again)

    def _answered_unseen(
        self, p: _Ply, since: float, until: float
    ) -> tuple[float, tuple[Move, ...]] | None:
        """The variant of a chain's move ``p`` (with or without promotion, or a drop's
        kind) that the player's answer given with no question waiting, after the move
        before it (at ``since``) and before the next (at ``until``), chose, and the
        answer's time; None if there was no such answer or the move asks no such
        question. (Not only while the board showed ``p``'s position: the chain reads it
        from its last showing, and the answer may come before a touch in between: 100 Hz
        x0.4 --rich, game 17 of seed 35873, 8f8i, "nonpromote", then 9h lifted and put
        back before taking 8i. A drop's kind since session 40: 100 Hz x0.4 --rich, game
        12 of seed 43573, 6g taking 7f unseen, 6g7h alike, gote's pawn on 6h and "P"
        pressed, then 7f8f and a silver on 4f, "S" pressed: the story kept read the "S"
        as 6h's answer, S*6h, and G*4f, two false moves.)"""
        if len(p.variants) < 2:
            return None
        drop = p.variants[0].from_square is None
        for t, value in self._loose_answers:
            if not since < t < until or (value in DROP_INPUTS) != drop:
                continue
            if drop:
                kind = piece_type_from_symbol(value)
                chosen = tuple(m for m in p.variants if m.drop_piece_type == kind)
            else:
                promote = value == INPUT_PROMOTE
                chosen = tuple(m for m in p.variants if m.promotion == promote)
            return (t, chosen) if len(chosen) == 1 else None
        return None

    def _two_ply(
        self,
        ctx: _Ctx,
        obs: str,
        held: bool = False,
        depth: int = _DEPTH,
        dead: list[tuple[_Ply, ...]] | None = None,
    ) -> list[_Expl]:
        """Moves whose positions the board showed (briefly) since the window began, then
        the move (complete or in progress) that explains the state now. ``held``: the
        first may also be the held attacker's move replacing the open capture (see
        ``_held_open``), for the other story only. ``dead``: if given, the chains tried
        that no move from their last position ends are added to it (see _keep_illegal)."""
        out: list[_Expl] = []
        done: set[tuple[object, ...]] = set()
        budget = [_MAX_STATES, 0]  # states left to look at, chains cut at the depth
        expected = None if ctx.virtual else self._expected
        self._chain(ctx, obs, ctx.w_cur, (), (), depth, expected, out, done, budget, held, dead)
        self._cut = budget[1] > 0
        return out

    def _chain(
        self,
        ctx: _Ctx,
        obs: str,
        since: float,
        prefix: tuple[_Ply, ...],
        base_windows: tuple[tuple[int, float, float], ...],
        depth: int,
        expected: Move | None,
        out: list[_Expl],
        done: set[tuple[object, ...]],
        budget: list[int],
        held: bool = False,
        dead: list[tuple[_Ply, ...]] | None = None,
    ) -> None:
        cur = ctx.cur
        states = self._states
        # cells -> the index of the showing last looked at; the state now is one too
        seen: dict[str, int] = {obs: len(states) - 1}
        gaps: dict[str, _Gap] = {}  # what _moved_between found between them, see there
        om = ctx.open_move
        # how long the board showed each state since ``since``, all its times together: a
        # touch or a knock in the middle of a position splits it, a hover shows it once
        total: dict[str, float] = {}
        showings: dict[str, list[int]] = {}  # ... and where each began, latest first
        for i in range(len(states) - 2, -1, -1):
            t0, cells = states[i]
            if t0 < since:
                break
            total[cells] = total.get(cells, 0.0) + states[i + 1][0] - t0
            showings.setdefault(cells, []).append(i)
        for i in range(len(states) - 2, -1, -1):
            t0, cells = states[i]
            if t0 < since:
                break
            t1, nxt = states[i + 1]
            if t1 - t0 < self.params.min_reply:
                continue
            # a position shown again after moves in between (see _moved_between) is
            # looked at from each showing: the moves after it may have begun at the first;
            # so is the state now, shown before: the moves since may have come back to it
            # (a capture, two drops, and the second drop's capture in progress show the
            # first capture's position again)
            later = seen.get(cells)
            if later is not None and not self._moved_between(i, later, cells, depth >= 3, gaps):
                continue
            seen[cells] = i
            budget[0] -= 1
            if budget[0] < 0:
                return
            firsts: list[tuple[tuple[Move, ...], bool, bool, PosInfo, bool]] = []
            hasty = False
            d1 = diff(cells, cur.exp)
            if d1:
                for ms, cap in self._complete(
                    cur, cells, d1, since, None, until=t1, unseen=self._unseen
                ):
                    if expected is not None and not prefix:
                        ms = tuple(m for m in ms if m == expected)
                        if not ms:
                            continue
                    firsts.append((ms, cap, False, cur, False))
            if not prefix and ctx.prev is not None and om is not None:
                d0 = diff(cells, ctx.prev.exp)
                if d0 and self._src_ok(om, cells, since, t1):
                    for ms, cap in self._corrections(ctx, cells, d0, until=t1):
                        firsts.append((ms, cap, True, ctx.prev, False))
                elif d0 and held and self._held_open(ctx, t0):
                    # (the held piece's story is the less likely one, unless the open
                    # capture's target rocked back: see _rocked_back)
                    doubted = not self._rocked_back(om, ctx.w_prev, t1)
                    for ms, cap in self._corrections(ctx, cells, d0, t1, held=True):
                        firsts.append((ms, cap, True, ctx.prev, doubted))
                        # (and a reply showing this position too was set down too soon
                        # for the opponent, as _candidates has it: the sixth generator,
                        # polarity, game 2 of seed 39: sente's king lifted, gote's silver
                        # beside it knocked 24 ms, the king set on 5f 0.33 s later and the
                        # sleeve on 2h at once; read as the king taking 3h, then R*5f)
                        after = self._set_down_after(ctx, ms[0], t1)
                        hasty = hasty or (
                            not doubted and after is not None and after < _QUICK_STEPS
                        )
            for ms, cap, correcting, base, held_ply in firsts:
                # a capture seen only in the history needs capture_settle to be believed
                # (or swapped out so fast a knocked piece could have wobbled back), unless
                # what came next could not have been the capturing piece still held
                shown = max(total[cells], self._stayed(base, ms[0], i))
                since_base = ctx.w_prev if correcting else since
                # (a correction that only turns the open move's piece over, read from its
                # face: a deliberate act, however soon the reply comes; the sixth
                # generator, polarity x0.4 noise x2, game 7 of seed 83: 6e7c turned over
                # after 0.8 s and taken 0.17 s later, read as 6e7c)
                turned = (
                    correcting
                    and om is not None
                    and (ms[0].from_square, ms[0].to_square) == (om.from_square, om.to_square)
                    and ms[0].promotion != om.promotion
                )
                brief = (
                    (shown < self._short() and not self._stays(base, ms[0], obs) and not turned)
                    # a correction whose piece was lifted before the wrong one left
                    or (correcting and self._lifted_first(ctx, ms[0], t1))
                )
                # (the longest any showing of it stood: a drop set down elsewhere first and
                # moved on shows the capture's position twice; x0.4 --only
                # drop_correction, game 1 of seed 39240: 9h9i, sente's pawn set on 9e
                # 0.9 s after the landing, then moved to 9h, the position's second
                # showing, 0.16 s, read as the capture not waited out: the dragon held
                # and put back, and the two plies lost)
                held_for = (
                    max(
                        self._held_for(base, ms[0], j, since)
                        for j in self._showings_after(ms[0], showings.get(cells, []), i, since)
                    )
                    if not brief and (cap or self._wobbled(base, ms[0], since_base, t1))
                    else _INF
                )
                unwaited = held_for < self._chain_wait()
                then = None
                if unwaited and not brief:
                    left = diff(cells, nxt)
                    if len(left) == 1 and nxt[left[0]] == EMPTY:
                        then = left[0]
                take = _taking(base, ms[0], since, t0) if cap and not correcting else None
                ply = _Ply(
                    ms,
                    correcting,
                    t0,
                    cells,
                    brief or unwaited,
                    held_ply,
                    take,
                    landing=_landing(base, ms[0], since_base, t0, take),
                    lenient=unwaited and not brief and held_for >= self._origin_drop_wait(),
                    then=then,
                    doubtful=cap and (brief or unwaited or correcting),
                    shown=total[cells],
                    # (a piece in the air after the chain's wait: the next player's hand,
                    # a drop set down and moved on between two showings of this position)
                    aired=cap
                    and not correcting
                    and self._aired(base, ms[0], since, t1, cells, self._chain_wait()),
                    unheld=0 if correcting else self._unheld_fill(base, ms[0], since, t1),
                    hasty=hasty and not correcting,
                )
                chain = (*prefix, ply)
                for m1 in ms:
                    p1 = self._cache.after(base, m1)
                    if correcting:
                        assert om is not None and ctx.prev is not None
                        ply_deps = _dep_correct(ctx.prev, om, m1, {})
                    else:
                        ply_deps = _dep_move(base, m1, {})
                    # this move explains the lifts of its own time: after the previous
                    # position was shown, until its own was
                    ply_windows = base_windows + _windows(ply_deps, since, t0)
                    d2 = diff(obs, p1.exp)
                    finals: list[tuple[tuple[Move, ...], tuple[int, ...], bool]] = []
                    hovered: tuple[int, ...] = ()  # (a final in progress with a hover)
                    if d2:  # (else the board is back at p1: only moves after it end here)
                        for ms2, cap2 in self._complete(p1, obs, d2, t0, None):
                            finals.append((ms2, (), cap2))
                        lifted = self._lifted(p1, obs, d2)
                        if lifted is not None:
                            finals.append(((), lifted, False))
                        if not finals and dead is not None:
                            dead.append(chain)  # no legal move from here ends it
                        if not finals:
                            hovered = self._hovered(p1, obs, d2)
                        if hovered:
                            finals.append(((), hovered, False))
                    for ms2, lifted2, cap2 in finals:
                        key = (
                            tuple((_squares(p.variants[0]), p.correcting) for p in chain),
                            _squares(ms2[0]) if ms2 else None,
                            lifted2,
                        )
                        if key in done:
                            continue
                        done.add(key)
                        if ms2:
                            deps = _dep_move(p1, ms2[0], {})
                        else:
                            deps = _dep_lifted(lifted2, {})
                        windows = ply_windows + _windows(deps, t0, _INF)
                        last_take = _taking(p1, ms2[0], t0, _INF) if cap2 else None
                        last_landing = _landing(p1, ms2[0], t0, _INF, last_take) if ms2 else None
                        out.append(
                            _Expl(
                                TWO,
                                moves=ms2,
                                chain=chain,
                                lifted=lifted2,
                                hovered=bool(hovered),
                                windows=windows,
                                # (its last ply's capture waits only while unproven;
                                # the earlier ones' waits are their plies' own: short)
                                capture=cap2 or not _stands(chain, ms2, len(chain) - 1),
                                takes=tuple(p.take for p in chain if p.take is not None)
                                + ((last_take,) if last_take is not None else ()),
                                landings=tuple(p.landing for p in chain if p.landing is not None)
                                + ((last_landing,) if last_landing is not None else ()),
                                # a chain ending with a piece merely lifted is weak evidence
                                penalty=2 * _shorts(chain, ms2)
                                + 2 * self._dropped_on_origin_soon(chain, ms2)
                                + (not ms2)
                                + bool(hovered)  # (the held piece's hover: a lift)
                                + held_ply
                                + sum(p.aired + p.unheld + p.hasty for p in chain)
                                + (cap2 and self._aired(p1, ms2[0], t0, _INF, obs))
                                + (self._unheld_fill(p1, ms2[0], t0, _INF) if ms2 else 0),
                            )
                        )
                    if depth <= 1:
                        budget[1] += 1  # (cut here: moves after it are not looked at)
                    else:
                        sub = _Ctx(p1, base, m1, t0, cells, since, ctx.virtual)
                        self._chain(
                            sub,
                            obs,
                            t0,
                            chain,
                            ply_windows,
                            depth - 1,
                            None,
                            out,
                            done,
                            budget,
                            dead=dead,
                        )

    def _moved_between(
        self, i: int, j: int, cells: str, captures: bool, gaps: dict[str, _Gap]
    ) -> bool:
        """Could moves have been made between ``self._states[i]`` and ``[j]``, both showing
        ``cells``? Yes if a state shown at least ``min_reply`` in between had a piece where
        ``cells`` has none (not only lifts: touches, knocks; a drop, then its square lifted
        by the next capture, target first). With ``captures`` (a chain with room for two
        more moves), also if the board showed a capture made from ``cells``: two of its
        pieces lifted, then the second set down (shown at least ``min_reply``) while the
        first stayed off. On an occupancy board a capture, then the opponent's drop on the
        square its attacker left, shows the same position again.

        ``gaps`` (one per chain search, asked with ``i`` falling for each ``j``): what the
        states from an earlier ``i`` to ``j`` were found to hold, so that only the states
        before it are looked at again. A board left in a state nothing explains, its
        pieces touched and put back, shows that state again and again: looking at every
        state between each showing and the last cost the square of their number at every
        frame (60 s of it: 0.14 s a frame, some 1.4 s on a Raspberry Pi Zero 2 W)."""
        known = gaps.get(cells)
        if known is not None and (known.j != j or known.lo <= i):
            known = None
        seen = self._gap(i + 1, j if known is None else known.lo, cells, captures)
        if seen is None:
            return True
        singles, lifted = seen
        if known is not None:
            if lifted is None:
                singles |= known.singles
            elif lifted & known.singles:
                return True
        gaps[cells] = _Gap(j, i + 1, singles)
        return False

    def _gap(
        self, lo: int, hi: int, cells: str, captures: bool
    ) -> tuple[frozenset[int], frozenset[int] | None] | None:
        """The states ``lo`` to ``hi`` (excluded) as ``_moved_between`` sees them: None if
        they show a move made from ``cells``; else the squares of the single pieces
        lifted (and shown) before the first state with two lifted, with ``captures``,
        and the last such two (None if there was none)."""
        states = self._states
        lifted: frozenset[int] | None = None
        singles: frozenset[int] = frozenset()
        for k in range(lo, hi):
            d = diff(states[k][1], cells)
            shown = states[k + 1][0] - states[k][0] >= self.params.min_reply
            if any(cells[sq] == EMPTY for sq in d):
                if shown:
                    return None
            elif len(d) == 2:
                lifted = frozenset(d)
            elif captures and shown and len(d) == 1:
                if lifted is None:
                    singles |= {d[0]}
                elif d[0] in lifted:
                    return None
        return singles, lifted

    def _stayed(self, base: PosInfo, move: Move, i: int) -> float:
        """How long the piece ``move`` set down on an empty square stayed there from its
        position's showing ``self._states[i]`` on, whatever else changed meanwhile: a drop
        that stayed while the reply was made is no hover, however soon the reply began.
        0 for a capture (its square was never empty)."""
        to = move.to_square
        if base.exp[to] != EMPTY:
            return 0.0
        states = self._states
        t0, cell = states[i][0], states[i][1][to]
        for j in range(i + 1, len(states)):
            if states[j][1][to] != cell:
                return states[j][0] - t0
        return self._t_now - t0

    @staticmethod
    def _stays(base: PosInfo, move: Move, obs: str) -> bool:
        """Whether the board still shows every square ``move`` changed as it left them: a
        position shown only briefly is a likely hover, unless what it changed stayed (a
        drop answered at once by a move elsewhere)."""
        return all(obs[sq] == cell for sq, cell in base.changes(move).items())

    def _stood(
        self, ctx: _Ctx
    ) -> tuple[tuple[Move, ...], float, str, list[tuple[Move, ...]]] | None:
        """The latest capture the board showed for the settle time since the position was
        on the board, waiting out the capture wait, that the state now shows was no
        attacker still held (the opponent's hand came next): its moves, when, the cells,
        and the other captures that state shows as well (a tie: the capture, then the
        opponent's hand on a piece the attacker could also take)."""
        obs = self._cells
        assert obs is not None
        states = self._states
        cur = ctx.cur
        # a past state's captures depend on the window, the position and what the history
        # knew before the next state: worked out once (a board left in a state no story
        # explains, as the game goes on, would otherwise cost more at every frame)
        key = (ctx.w_cur, cur, self._expected, self._hist.epoch)
        memo = self._stood_memo
        if memo is None or memo[0] != key:  # (a PosInfo equals only itself)
            memo = self._stood_memo = (key, {})
        known = memo[1]
        for i in range(len(states) - 2, -1, -1):
            t0, cells = states[i]
            if t0 < ctx.w_cur:
                break
            t1, after = states[i + 1]
            caps = known.get(t0)
            if caps is None:
                d1 = diff(cells, cur.exp)
                caps = known[t0] = (
                    [
                        (ms, doubtful)
                        for ms, doubtful in self._complete(
                            cur, cells, d1, ctx.w_cur, None, until=t1
                        )
                        if self._expected is None or self._expected in ms
                    ]
                    if d1 and t1 - t0 >= self.params.settle
                    else []
                )
            # (nor what came right after it: the held piece set down, then the opponent)
            stood = [
                ms
                for ms, doubtful in caps
                if doubtful
                and not self._held_could_explain(cur, ms[0], cells, obs)
                and not self._held_could_explain(cur, ms[0], cells, after)
            ]
            if stood:
                # a capture by the same piece, the first change after it a lift of one of
                # those targets (its held piece moving on to take it, or the opponent's
                # hand on it): the same tie, the attacker landed on one target or the
                # other, left to the score (motorgen x0.5 polarity, game 8 of seed 317:
                # 4h took 2h, 8h touched 0.37 s after the landing, then gote's illegal
                # move from 8h: 4h8h stood, its square lifted again, and was made)
                if {ms[0].to_square for ms in stood}.issuperset(diff(cells, after)):
                    origins = {ms[0].from_square for ms in stood}
                    stood += [
                        ms
                        for ms, doubtful in caps
                        if doubtful and ms not in stood and ms[0].from_square in origins
                    ]
                # the likeliest of the captures the board showed, scored as _candidates
                # does but without the position's cells (so without the hands' rules for
                # a capture not in doubt); its rivals are any move that state shows as
                # well (a capture whose target was swapped out too fast to wait, with a
                # knock read as the other)
                touches = self._touches(ctx.w_cur, t1)
                scores = {
                    ms: self._score(
                        _Expl(MOVE, moves=ms, involved=_dep_move(cur, ms[0], {})), touches
                    )
                    for ms, _doubtful in caps
                }
                best = min(stood, key=scores.__getitem__)
                rivals = [ms for ms, _d in caps if ms != best and scores[ms][0] <= scores[best][0]]
                return best, t0, cells, rivals
        return None

    def _turned_on_square(
        self, ctx: _Ctx, capture: Move, until: float
    ) -> tuple[Move, float, str] | None:
        """A capture of the open move's piece (``capture``, standing at ``until``) on a
        board that reads faces: if that piece showed, when the capture's target was lifted,
        the face of the open move with the other promotion, the mover had turned it over
        on the square, a correction shown too briefly to be read alone before the reply
        began: that move, and when and how the board first showed it so. The capture is
        legal from both (the sixth generator, polarity x0.4 noise x2, game 20 of seed 40:
        gote's 6f6g set down unpromoted, turned over 0.42 s later and shown promoted for
        0.22 s, then taken by sente's 6h6g: read as 6f6g, a false move)."""
        om, prev = ctx.open_move, ctx.prev
        to = capture.to_square
        if self.sensing == "occupancy" or om is None or prev is None or om.to_square != to:
            return None
        if om.from_square is None or capture.from_square is None:
            return None
        twins = [m for m in prev.moves_from(om.from_square) if m.to_square == to and m != om]
        if not twins or prev.face_after(twins[0]) == prev.face_after(om):
            return None
        face = prev.face_after(twins[0])
        # (the target's lift its landing closed: the state standing from ``until`` on
        # begins with that landing's last bounce, seen only if ``until`` counts)
        end = math.nextafter(until, _INF)
        lift = self._target_first_lift(to, capture.from_square, ctx.w_cur, end)
        if lift is None:
            off = self._last_off(to, ctx.w_cur, end)
            if off is None:
                return None
            lift = off[0]
        shown = [(t, cells) for t, cells in self._states if ctx.w_cur <= t < lift]
        if not shown or shown[-1][1][to] != face:
            return None
        t_face, cells_face = shown[-1]
        for t, cells in reversed(shown):
            if cells[to] != face:
                break
            t_face, cells_face = t, cells
        after = self._cache.after(prev, twins[0])
        if capture not in after.moves_from(capture.from_square):
            return None
        return twins[0], t_face, cells_face

    def _target_first_lift(self, to: int, origin: int, since: float, until: float) -> float | None:
        """When a capture's target was lifted, if that was before its attacker (on
        ``origin``) was: the lift of ``to`` still open as the attacker was lifted. What was
        set on ``to`` after that was the attacker, held over it (the sixth generator,
        polarity x0.4 noise x2, game 18 of seed 46: gote's 9h taking sente's 8h+ target
        first, the silver touching down on 8h three times before it landed; its last
        touch-down's lift read as the target's, showing the unpromoted face, and 8g8h+
        was corrected to 8g8h, a false move). None: the attacker was lifted first."""
        attacker = self._hist.last_lift(origin, since, until)
        if attacker is None:
            return None
        open_then = [
            a
            for a, b in self._hist.lifts(to, since, until)
            if a < attacker and (b is None or b > attacker)
        ]
        return open_then[-1] if open_then else None

    def _held(self, ctx: _Ctx, expl: _Expl, quiet: float) -> float:
        """How long the state of a capture that may be a held attacker has stood (see
        ``_held_for``); for a chain, how long the board has been quiet."""
        read = _read_from(ctx, expl)
        if read is None:
            return quiet
        return self._held_for(read[0], expl.moves[0], len(self._states) - 1, read[1])

    def _showings_after(self, move: Move, showings: list[int], i: int, since: float) -> list[int]:
        """Of the showings of a move's position (``showings``, indices into
        ``self._states``), ``i`` and those before it that came after its square last read
        empty since ``since`` (a capture's target lifted): before that, the same cells
        were the attacker merely lifted."""
        states = self._states
        to = move.to_square
        for k in range(i - 1, -1, -1):
            if states[k][0] < since:
                return [i]
            if states[k][1][to] == EMPTY:
                return [j for j in showings if k < j <= i] or [i]
        return [i]

    def _held_for(self, base: PosInfo, capture: Move, i: int, since: float) -> float:
        """How long a capture's state (``self._states[i]``) stood as its piece could not
        have been held: from its first showing until a change the held piece could have
        made (see ``_held_could_explain``), or now. Other squares touched and put back in
        between (the opponent's hand) do not end it; a change the held piece could not
        have made and that stays proves the capture (inf)."""
        states = self._states
        t0, cells = states[i]
        to = capture.to_square
        start = t0
        for j in range(i - 1, -1, -1):
            tj, c = states[j]
            if tj < since:
                break
            if c == cells:
                start = tj
            elif c[to] != cells[to] or self._held_could_explain(base, capture, cells, c):
                break
        for j in range(i + 1, len(states)):
            tj, c = states[j]
            if c != cells and self._held_could_explain(base, capture, cells, c):
                if self._pushed_onto(base, capture, j):
                    return _INF
                return tj - start
        if states[-1][1] != cells:
            return _INF
        return self._t_now - start

    def _pushed_onto(self, base: PosInfo, capture: Move, j: int) -> bool:
        """Is ``self._states[j]`` a square filled that a piece of the capture's opponent,
        lifted within ``overlap`` after, could move to: the opponent's reply pushed onto it,
        not the held piece set down (a hand does not reply within tens of milliseconds)?
        """
        states = self._states
        if j + 1 >= len(states):
            return False
        (_tp, prev), (tj, c), (tk, nxt) = states[j - 1], states[j], states[j + 1]
        filled, lifted = diff(prev, c), diff(c, nxt)
        if len(filled) != 1 or len(lifted) != 1 or tk - tj > self.params.overlap:
            return False
        to, fr = filled[0], lifted[0]
        if prev[to] != EMPTY or nxt[fr] != EMPTY:
            return False
        after = self._cache.after(base, capture)
        return any(m.to_square == to for m in after.moves_from(fr))

    def _held_could_explain(self, base: PosInfo, capture: Move, before: str, after: str) -> bool:
        """A capture's position was shown, then ``after``: could that change be the
        capturing piece, in fact still held, moving on (to another target, or a square)?
        Not if a piece it could not take was lifted, a square it could not reach was
        filled where the opponent may drop, or the captured square itself was lifted again
        (a recapture). A square where no drop of the opponent's is legal, filled, is the
        held piece over it more likely than an illegal drop (the built-in simulator's game
        3 of seed 160: 3d lifted to take 4c, 4d knocked and put back, then the piece held
        over 5b 0.84 s, read as gote's P*5b, two pawns on a file, so 3d4d stood)."""
        fr = capture.from_square
        if fr is None:
            return False
        reach = {m.to_square for m in base.moves_from(fr)}
        for sq in diff(before, after):
            if sq == capture.to_square:
                return False
            if after[sq] == EMPTY:
                if before[sq] != EMPTY and (sq not in reach or not base.theirs(sq)):
                    return False
            elif (
                before[sq] == EMPTY
                and sq not in reach
                and sq != fr
                # a square it cannot reach filled: the opponent's drop, if it has a piece
                # to drop (else the held piece set down on a wrong square, or a piece
                # from nowhere) that it may drop there
                and base.opponent_holds()
                and self._cache.after(base, capture).drops_to(sq)
            ):
                return False
        return True

    # --- the other story of a capture ---------------------------------------------------

    def _keep_stories(self, event: SensorEvent) -> None:
        """Before ``event`` is taken in: if it interrupts a capture's wait (the tracker
        then reads the attacker as still held), keep the story where the capture stood;
        if it interrupts a held attacker's move waiting to be believed, keep that story,
        and the stories that rival it, as if it had been believed (x0.3 --rich, game 18 of
        seed 40632: 3e3f, P*3e, then 3b2a waiting out its capture, read with 3e touched
        and 3f knocked; kept and taken, with the chain never kept, and the game lost)."""
        waiting, self._waiting = self._waiting, None
        if (
            waiting is not None
            and waiting[:2] == (self._state_id, self._gen)  # nothing was decided since
            and isinstance(event, SensorFrame)
            and self._phase == "play"
            # (while a question waits: a capture that replaces the move asked about)
            and (self._pending is None or _corrects(waiting[2]))
            and event.cells.translate(self._norm) != self._cells
        ):
            expl = waiting[2]
            self._keep_rivals(self._context(), expl)
            if self._fork(expl) is None and not expl.hovered:
                # kept already, at an earlier change: the newest again, as the tracker's
                # own reading is preferred to its rivals (200 Hz x0.3 --extra, game 3 of
                # seed 40809: 7d8d kept, then 7d7e as its rival once 7e was touched, and
                # taken over it)
                plies, at = self._fork_key(expl)
                self._forks.sort(key=lambda f: f.tells(plies, at, False))
        made = self._history
        calm = self._illegal is None  # (the tracker's own story shows no error)
        self._forks = [
            f
            for f in self._forks
            if len(made) <= f.at + (_KNOCKED_PLIES if f.alt._unerring == "knocked" else _FORK_PLIES)
            and len(f.events) < _FORK_EVENTS
            and not self._came_to(f)
            # nor a story of a capture never seen that came to the tracker's moves by
            # correcting its own (its plies no longer what it tells; 100 Hz x0.4 --rich,
            # game 1 of seed 43577: 8a8f unseen and R*1h, corrected to R*2c, kept through
            # 35 plies alike, and a later answer read as no story of its own)
            and not (
                f.alt._premise is not None
                and not f.alt._unerring
                and len(f.alt._history) >= f.at + len(f.plies)
                and f.alt._history[f.at :] == made[f.at : len(f.alt._history)]
            )
            and not self._stuck(f)
            and not (calm and self._errs_alone(f))
            and not self._met(f)
        ]
        for f in self._forks:
            f.events.append(event)
            if len(f.events) - f.fed > _FORK_LAG:
                f.alt.feed(f.events[f.fed])
                f.fed += 1
                f.note(len(made))

    def _met(self, f: _Fork) -> bool:
        """Has the other story come, by other moves, to the tracker's position (board,
        hands, side to move) at the same ply, with the same last move (none at ply 0: a
        story kept before the game's first move)? From there no event can tell the two
        apart, and the tracker's own reading stands (100 Hz x0.4 --rich, game 8 of seed
        50612: 1h8h, corrected to 1h6h, kept; 6h1h and 8h1h came to the same position, and
        55 plies on an error only a later story explained found two stories alike, and
        took back the game from 1h6h on). Compared once per ply of the story."""
        alt = f.alt
        n = len(alt._history)
        if n == f.met:
            return False
        f.met = n
        made = self._history
        return (
            f.at + len(f.plies) <= n <= len(made)
            and (n == 0 or alt._history[n - 1] == made[n - 1])
            and alt._illegal is None
            and alt._pending is None
            # (not while the tracker asks a question or shows an error: a correction
            # asked about is not made yet)
            and self._illegal is None
            and self._pending is None
            and self._game.history_keys()[n] == alt._game.position_key()
        )

    def _errs_alone(self, f: _Fork) -> bool:
        """Is ``f`` a capture's other target kept while nothing was wrong (see
        _keep_knocked_unseen) that shows an error, the tracker's story showing none? The
        game told the two apart. Only once the story was fed past the moment the tracker's
        own last error went: one fed lazily may still show an error the board has put
        right in both (100 Hz x0.4 --rich, game 7 of seed 49619: 2f3e unseen, 3g knocked,
        read as 2f3g; both stories erred as the rook was held over 8i, and the board put
        right dropped the kept one). Not caught up to be judged: that cost a sixth of
        bench/replay.py's events per second (p99 1.69 to 1.84 ms)."""
        alt = f.alt
        return (
            alt._unerring == "knocked" and alt._illegal is not None and alt._t_now >= self._calm_at
        )

    def _stuck(self, f: _Fork) -> bool:
        """Has the other story shown an error, and not explained the board since, while the
        game went on (then it can hardly explain the board again)? Looked at with the
        other story fed up to now, every few plies of the game."""
        n = len(self._history)
        if n < f.seen + _FORK_STUCK or self._illegal is not None:
            return False
        f.settled(self._t_now)
        f.note(n)
        return f.stuck is not None and n >= f.stuck + _FORK_STUCK

    def _fork(self, expl: _Expl) -> Tracker | None:
        """Keep the other story of a doubtful capture (a move, a correction of the open
        move, or a chain ending with one): the tracker had it stood. Returns its tracker
        if a new one was kept."""
        if expl.hovered:
            return None  # (a piece in the air: no story of its own, see _hovered)
        plies, at = self._fork_key(expl)
        pending = self._pending
        if self._kept(plies, at, False):
            return None
        alt = self._copy()
        # (another story's from the start: the stories a move made keeps are the tracker's
        # own, not its copy's; a chain's kept in a copy kept again, without end)
        alt._is_fork = True
        if pending is not None:
            alt._apply_pending(alt._context(), expl)
        else:
            alt._apply(alt._context(), expl)
        if not self._explains(alt):
            return None  # not a story from this position after all (a guard)
        alt._settled = True
        self._keep(_Fork(alt, [], plies, at))
        self._answer_kept(alt)
        return alt

    def _answer_kept(self, alt: Tracker) -> None:
        """A story kept at the very instant an answer came that this story had no question
        for (a loose answer, see ``_input``): if ``alt`` asks one it fits, it takes it, as
        the stories kept while the answer is read do. It was fed to this story before
        ``alt`` was kept, and would never reach it (100 Hz x0.4 --rich, game 10 of seed
        51534: 8g9h+ with 8g9f+ and 8g7f+ alike, then 4b4a, 8e8f unseen and S*8c, "S"
        pressed; each story kept 8e8f as the tracker looked at it on that input, its
        question "S or P?" never answered, and the rest of the game, 127 plies, lost)."""
        if not self._loose_answers:
            return
        t, value = self._loose_answers[-1]
        p = alt._pending
        if t == self._t_now and p is not None and value in p.question.options:
            alt._input(t, value)

    def _fork_key(self, expl: _Expl) -> tuple[tuple[tuple[Move, ...], ...], int]:
        """The plies of the story ``expl`` tells and the ply they begin at (see _Fork)."""
        if expl.kind == TWO:
            plies = tuple(_plies(expl))
            correcting = expl.chain[0].correcting
        else:
            plies, correcting = (expl.moves,), expl.kind == CORRECT
        # (while a question waits, the move asked about is the one corrected: the open
        # move only if the question was about a correction of it)
        pending = self._pending
        at = len(self._history) - int(correcting and (pending is None or pending.kind != "move"))
        return plies, at

    def _keep_stood(
        self, ctx: _Ctx, moves: tuple[Move, ...], t0: float, cells: str, now: float
    ) -> None:
        """A waiting capture stands (see ``_stood``): keep the story where another capture
        the same state showed stood instead, taken if the tracker's own later fails."""
        if not self._keeps_stories():
            return
        plies, at = (moves,), len(self._history)
        if self._kept(plies, at, False):
            return
        alt = self._copy()
        alt._new_move(ctx.cur, moves, t0, t0, cells)
        alt._decide(now, force=False)
        self._keep(_Fork(alt, [], plies, at))

    def _keep_reread(self, ctx: _Ctx, now: float) -> None:
        """Nothing explains the board, which shows exactly the position before the last
        two moves with another move of the first one's piece made instead (the reply
        taken back and that move changed, or both misread: a knock read as the reply,
        the piece turned over on its square after): keep that story, taken as kept
        stories are (see ``_revisable``). The sixth generator, polarity x0.4 noise x2,
        game 3 of seed 40: 2e3c+ set down after a hover over 3c, 4b knocked 32 ms after
        the landing for 1.1 s and the knight turned over 0.5 s after; read as 2e3c and
        gote's 4b slid onto 3c, its target lifted first (the hover's end), the turn-over
        then an error to the log's end; and game 16 of seed 36: 6b5c+ with 7c and 4b
        knocked, read as 6b7c+ and 4b5c."""
        self._reread_for = self._state_id
        obs = self._cells
        history = self._history
        if (
            obs is None
            or self._pending is not None
            or len(history) < 2
            or len(history) - 2 < self._fixed
        ):
            return
        first = history[-2]
        origin = first.from_square
        if origin is None:
            return
        game = self._game.copy()
        game.pop()
        if self._stood_for(self._cache.get(game).exp, self._w_prev) >= self._story_wait():
            # (the first move stood: the board showed it as long as a story waits. The
            # sixth generator, noise x2, game 8 of seed 43: 8b7c stood 6.7 s, then gote's
            # P*7d moved on to 7b with 7c knocked for 1.1 s, the board showing 8b7b alone
            # for that time; kept, it was taken nine plies later at an illegal drop of
            # the players' own, two false moves)
            return
        game.pop()
        base = self._cache.get(game)
        found = tuple(
            m
            for m in base.moves_from(origin)
            if m != first and self._cache.after(base, m).exp == obs
        )
        if not found or len({m.to_square for m in found}) > 1:
            return
        plies, at = (found,), len(history) - 2
        if self._kept(plies, at, False):
            return
        alt = self._copy()
        alt._is_fork = True
        t = self._t_change
        alt._take_back(2, t, obs)
        alt._new_move(base, found, t, t, obs)
        alt._decide(now, force=False)
        if self._explains(alt):
            self._keep(_Fork(alt, [], plies, at))

    def _stood_for(self, cells: str, since: float) -> float:
        """The longest the board showed ``cells`` at a stretch since ``since``."""
        longest = 0.0
        states = self._states
        for i, (t, shown) in enumerate(states):
            if t >= since and shown == cells:
                end = states[i + 1][0] if i + 1 < len(states) else self._t_now
                longest = max(longest, end - t)
        return longest

    def _keep_in_progress(self, back: int, slow: bool) -> None:
        """A take-back is believed: keep the story where it was a move in progress after
        all, taken if the tracker's own later fails. ``slow``: believed only because the
        board stayed so (``takeback_settle``: the opponent's hand lifted the piece it
        takes, then took long to lift its own), and then also taken if it reads the next
        move's board as that move completed (see ``_completes_in_progress``). Else believed
        at once (the opponent's piece, held, passed over a square the take-back refills)."""
        k = max(1, back)
        plies = tuple((m,) for m in self._history[-k:])
        at = len(self._history) - k
        if self._kept(plies, at, slow):
            return
        alt = self._copy()
        alt._no_later = self._state_id
        if slow:
            # (the story is that a move was in progress: not a take-back either as the
            # board goes on with its attacker lifted too, until a move is made, see
            # _completes_in_progress)
            alt._no_later_at = len(alt._history)
        self._keep(_Fork(alt, [], plies, at, in_progress=slow))

    def _completes_in_progress(self, now: float) -> Tracker | None:
        """The first move after a take-back believed because the board stayed so: the story
        where a move was in progress instead, if it reads the same board as that move
        completed (a capture whose attacker was held long after its target was lifted).
        One move is the simpler story than moves taken back and another made. Also after
        take-backs one after the other, each believed so, the story kept at the first
        (a capture's target lifted, the opponent's move before it read taken back, then
        its attacker lifted long after, the mover's own move before read taken back too:
        the seventh generator, x2, game 15 of seed 29: P*9i, P*9h, then 9i9h with 9h off
        2.1 s before 9i and 9i held 2.6 s, read as both drops taken back and P*9h made)."""
        made = len(self._history)
        steps = {f.at for f in self._forks if f.in_progress}
        for f in self._forks:
            if not f.in_progress or made > f.at:
                continue
            if any(at not in steps for at in range(made, f.at)):
                continue  # (a take-back between believed otherwise: a story of its own)
            alt = f.caught_up()._copy()
            alt.tick(now)
            if alt._cells is not None and not alt._settled:
                alt._decide(now, force=True)
            if self._explains(alt) and len(alt._history) == f.at + len(f.plies) + 1:
                return alt
        return None

    def _copy(self) -> Tracker:
        """A copy of the tracker for another story: what it mutates is copied (the game,
        the histories, a question waiting); the rest is shared (positions, moves and
        settings are never mutated); worked-out caches and the other stories are not the
        copy's."""
        alt = object.__new__(Tracker)
        state = dict(self.__dict__)
        state.update(
            _game=self._game.copy(),
            _history=list(self._history),
            _times=list(self._times),
            _hist=self._hist.copy(),
            _states=list(self._states),
            _gaps=list(self._gaps),
            _pending=None if self._pending is None else replace(self._pending),
            _forks=[],
            _premise=None,
            _unseen_to=None,
            _unerring="",
            _eval=None,
            _eval_key=None,
            _intents=None,
            _stood_memo=None,
        )
        alt.__dict__.update(state)
        return alt

    def _kept(
        self, plies: tuple[tuple[Move, ...], ...], at: int, in_progress: bool, kind: str = ""
    ) -> bool:
        """Is that story kept already (the board changed again while it waited, say)?
        Asked before a copy is made for it."""
        return any(f.tells(plies, at, in_progress, kind) for f in self._forks)

    def _keep(self, kept: _Fork) -> None:
        """Keep another story; with ``_FORKS`` kept already, one goes: first one the
        tracker came to after all, then one that came to another's moves (two kept stories
        that read on alike), then one showing an error, then the oldest (100 Hz x0.4
        --rich, game 4 of seed 50800: 2g taking 2f unseen, 3f knocked, read as 2g3f, its
        story kept; then gote's horse took 3g, 4f3g, with five other targets kept, and the
        oldest went, 2g2f among them: a false move. Game 5 of seed 54609: 6b6a kept twice,
        6b7b's story having read it too, and both went for two new ones; the tracker's
        6b7b failed 38 plies later, and the rest of the game was lost)."""
        kept.seen = len(self._history)
        kept.born = self._t_now
        kept.alt._is_fork = True
        kept.alt._nested = self._is_fork
        forks = self._forks
        if len(forks) >= _FORKS:
            told: set[tuple[tuple[Move, ...], tuple[Move, ...]]] = set()
            twins: list[bool] = []
            for f in forks:
                pending = f.alt._pending
                key = (tuple(f.alt._history), () if pending is None else pending.cands)
                twins.append(key in told)
                told.add(key)
            order = sorted(
                range(len(forks)),
                key=lambda i: (
                    not self._came_to(forks[i]),
                    not twins[i],
                    forks[i].alt._illegal is None,
                    i,
                ),
            )
            gone = set(order[: len(forks) - _FORKS + 1])
            forks = [f for i, f in enumerate(forks) if i not in gone]
        self._forks = [*forks, kept]

    def _came_to(self, f: _Fork) -> bool:
        """Has the tracker come to the other story's moves after all? Nothing else to keep
        (not while it asks a question: a correction asked about is not made yet; nor a
        story in which nothing was made, see ``_keep_erring``)."""
        made = self._history
        return (
            bool(f.plies)
            and self._pending is None
            and all(len(made) > f.at + i and made[f.at + i] in ms for i, ms in enumerate(f.plies))
        )

    def _keep_held(self, ctx: _Ctx) -> None:
        """A clean explanation beats the held attacker's move (the opponent's reply, say):
        keep that move as the other story, taken if the tracker's own later fails."""
        assert self._cells is not None
        held = [c for c in self._candidates(ctx, self._cells, _INF) if c.held and c.moves]
        if not held:
            # the held piece set down, then the opponent's reply begun or made
            chains = self._scored_chains(ctx, self._cells, held=True)
            held = [c for c in chains if c.chain[0].held]
        if held:
            self._fork(min(held, key=lambda c: c.score))
        elif ctx.prev is not None and not ctx.virtual:
            self._keep_held_before(ctx, ctx.prev)

    def _keep_held_before(self, ctx: _Ctx, prev: PosInfo) -> None:
        """No story of the held attacker explains the board now, and the board showed one
        a moment ago, too briefly to be read (a chain's ply waits ``min_reply``): its
        piece set down where it was going, then a neighbour knocked as the hand left.
        Keep that story, the held piece's move made then and the board now read after it
        (the sixth generator, noise x2, game 10 of seed 92: gote's gold lifted from 4b,
        4a knocked 0.24 s as it went, read as the gold taking 4a; set on 3c 1.5 s later
        and 3d knocked 9 ms after, read as sente's 3d3c asking "promote?", never
        answered, and the rest of the game lost)."""
        states = self._states
        for i in range(len(states) - 2, -1, -1):
            t0, cells = states[i]
            if t0 < ctx.w_cur or states[i + 1][0] - t0 >= self.params.min_reply:
                return
            cands = [
                c
                for c in self._candidates(ctx, cells, states[i + 1][0])
                if c.kind == CORRECT and c.held and c.moves and len(c.moves) == 1
            ]
            if not cands:
                continue
            best = min(cands, key=lambda c: c.score)
            plies, at = (best.moves,), len(self._history) - 1
            if self._kept(plies, at, False):
                return
            alt = self._copy()
            alt._correct(prev, best.moves, t0, cells)
            alt._settled = False  # (the board now, read after it)
            self._keep(_Fork(alt, [], plies, at))
            return

    def _keep_others(self, ctx: _Ctx, expl: _Expl) -> None:
        """Before a move or a correction is applied: keep the other stories that explain
        the board as well (a tie), or in which a corrected move stood. Before pieces are
        read as touched and put back (two lifts left over): keep the chain that explains
        them nearly as well (a capture, then the opponent's drop on the square its
        attacker left, shows the same occupancy again)."""
        if not self._keeps_stories():
            return
        obs = self._cells
        assert obs is not None
        if (expl.kind in (MOVE, CORRECT) and expl.moves) or expl.kind == TWO:
            asking, dead, cands = self._keep_rivals(ctx, expl)
            self._keep_unmade(ctx, expl)
            if asking:
                self._keep_asking(expl, cands)
            if (expl.kind == TWO and (_shorts(expl.chain, expl.moves) or expl.score[0] > 0)) or (
                expl.kind == MOVE and asking
            ):
                self._keep_illegal(expl, dead)
        elif expl.kind == IDLE and expl.score[0] >= 2:
            self._keep_rival(expl, self._scored_chains(ctx, obs))
        if expl.kind == MOVE and expl.moves:
            self._keep_correcting(ctx, expl.moves[0])
        if expl.kind in (MOVE, TWO):
            self._keep_corrected(expl)
            self._keep_moved_once(expl)
            self._keep_moved_there(expl)
            self._keep_held_over(ctx, obs)
        if expl.kind in (MOVE, TWO, CORRECT, RETRACT):
            self._keep_dropped(ctx, expl, obs)
        if expl.kind in (MOVE, CORRECT, TWO):
            self._keep_dropped_beside(ctx, expl, obs)
        if expl.kind == CORRECT:
            self._keep_knock_held(ctx, expl)
        if _corrects(expl) or (expl.kind == RETRACT and expl.held):
            # (the held attacker put back: or the open capture stood, and the opponent
            # set a piece on the square it left, an illegal drop it takes back)
            self._keep_uncorrected()

    def _keep_correcting(self, ctx: _Ctx, reply: Move) -> None:
        """The opponent's reply, a capture, is believed from a square the open move's
        piece could have taken from where it stood: keep the story where no reply began,
        the mover taking that piece first to move its own on onto the square (a
        correction), taken if the tracker's own later fails. The target's lift reads as
        the reply's, and a knock or a touch the hand makes then as the reply's landing:
        on the neighbour, a capture (the sixth generator, game 12 of seed 13: 7d set on 8e, 6e taken 2.4 s
        later, 6d knocked 78 ms, read as 6e taking 6d, and 8e moved on to 6e an error
        for the rest of the game), or on the piece set down, lifted and put back, its
        recapture (game 2 of seed 14: 1e set on 2f, 3g taken, 2f lifted and set down
        again, read as 3g taking 2f)."""
        om, prev = ctx.open_move, ctx.prev
        origin = reply.from_square
        if not self._keeps_stories():
            return
        if om is None or prev is None or om.from_square is None or origin is None:
            return
        # (a capture: its landing a knock or a touch; checked first, the legal moves of
        # the position before the open move cost a tenth of bench/replay.py's events/s)
        if not ctx.cur.codes[reply.to_square] or not prev.codes[origin]:
            return
        if not any(m.to_square == origin for m in prev.moves_from(om.from_square)):
            return
        at = len(self._history)
        if self._kept(_NONE_MADE, at, False):
            return
        alt = self._copy()
        alt._settled = True  # (the board now is the target lifted: nothing to read)
        alt._fixed = at  # (nor moves taken back: a story of its own, see _keep_uncorrected)
        self._keep(_Fork(alt, [], _NONE_MADE, at))

    def _keep_corrected(self, expl: _Expl) -> None:
        """The opponent's capture from a square the piece of the move before could have
        taken from where it stood is believed, then that piece moved on onto that square
        (a chain of the two, or the second move after the first): keep the story where
        the mover took that piece first and moved its own on there, a correction of its
        move, with a knock as the target was lifted read as the capture's landing; taken
        if the tracker's own later fails. ``_keep_correcting`` keeps the story where no
        reply began, which reads the board on by itself; but where the board shows the
        mover's piece on the square before the reply is believed, or at once after, that
        story reads the reply again (the sixth generator, noise x2, game 14 of seed 48:
        8f set on 8e, 7e taken 0.84 s later with 7d knocked 146 ms, and 8e moved on to 7e;
        read as gote's 7e taking 7d and 8e7e, the game lost twelve plies on; game 17 of
        seed 43: 8i set on 8h, 9h taken 2.3 s later with 9g knocked 1 s, and 8h moved on
        to 9h; read as 9h9g and 8h9h, and the game lost)."""
        made = self._last_three(expl)
        if made is None:
            return
        first, reply, on, back = made
        origin = reply.from_square
        if (
            origin is None
            or first.from_square is None
            or on.from_square != first.to_square
            or on.to_square != origin
            or reply.to_square in (first.from_square, first.to_square)
        ):
            return
        before = self._position_back(back)
        if not before.codes[origin] or not before.codes[reply.to_square]:
            return
        variants = [m for m in before.moves_from(first.from_square) if m.to_square == origin]
        if len(variants) == 1:  # (else a question in that story: none kept)
            self._keep_instead(variants[0], back)

    def _keep_moved_once(self, expl: _Expl) -> None:
        """A drop is believed on the square the opponent's move before it left, and the
        board is then one move of the piece moved before that from where it stood (the
        three plies' squares are that one move's, with two pieces put back): keep that
        one move as the story, taken if the tracker's own later fails. A hand moving a
        piece may knock one piece as it lifts it, which reads as a capture swapped out,
        and another as it lands, which reads as the opponent's move onto the landing
        square, put back as a drop there (the sixth generator at x2, game 7 of seed 46:
        4c5b, 4d knocked 31 ms after 4c's lift for 54 ms, 6a knocked 33 ms after 5b
        filled for 0.76 s; read as 4c4d, 6a5b and G*6a, and the game lost)."""
        made = self._last_three(expl)
        if made is None:
            return
        first, reply, drop, back = made
        if (
            drop.from_square is not None
            or reply.from_square is None
            or drop.to_square != reply.from_square
            or first.from_square is None
        ):
            return
        obs = self._cells
        assert obs is not None
        base = self._position_back(back)
        filled = [sq for sq in diff(obs, base.exp) if obs[sq] != EMPTY]
        if len(filled) != 1:
            return
        variants = [m for m in base.moves_from(first.from_square) if m.to_square == filled[0]]
        if len(variants) != 1 or variants[0] == first:
            return  # (a question in that story: none kept)
        if not diff(obs, self._cache.after(base, variants[0]).exp):
            self._keep_instead(variants[0], back)

    def _keep_held_over(self, ctx: _Ctx, obs: str) -> None:
        """Moves are believed where the board also reads as a capture in progress, its
        target lifted first and its attacker held over an empty square on its way (a
        hover, see ``_held_over``): keep the story where nothing was made, the attacker
        still in the air, taken if the tracker's own later fails (the sixth generator,
        game 12 of seed 94: the gold on 4f touched and put back, set on 5f for 0.19 s on
        the way; 5e taken 1.1 s later, the gold lifted and held over 5f: read as 4f5f
        and gote's 5e taking it, and the rest of the game lost)."""
        if not _held_over(ctx.cur, obs, diff(obs, ctx.cur.exp)):
            return
        at = len(self._history)
        if self._kept(_NONE_MADE, at, False, "held"):
            return
        alt = self._copy()
        alt._settled = True  # (the board now: the attacker in the air)
        alt._fixed = at  # (nor moves taken back: a story of its own)
        self._keep(_Fork(alt, [], _NONE_MADE, at, kind="held"))

    def _keep_moved_there(self, expl: _Expl) -> None:
        """A drop is believed just after the opponent's move, and the board is then one
        move of that move's piece to the drop's square (a capture's target knocked and
        put back, its attacker carried on): keep that one move as the story, taken if
        the tracker's own later fails (the sixth generator at 100 Hz, game 12 of seed
        94: gote's 6e5f, 6d knocked 40 ms after 6e's lift for 70 ms, 4f as the gold
        landed; read as 6e taking 6d and sente's drop on 5f, asking "N or P?", and the
        rest of the game lost)."""
        last = self._last_plies(expl, 2)
        if last is None:
            return
        (first, drop), back = last
        if first.from_square is None or drop.from_square is not None:
            return
        before = self._position_back(back)
        variants = [
            m for m in before.moves_from(first.from_square) if m.to_square == drop.to_square
        ]
        if len(variants) != 1:
            return  # (a question in that story, or no such move: none kept)
        obs = self._cells
        assert obs is not None
        if not diff(obs, self._cache.after(before, variants[0]).exp):
            self._keep_instead(variants[0], back)

    def _last_three(self, expl: _Expl) -> tuple[Move, Move, Move, int] | None:
        """The last three plies with ``expl``'s made (see ``_last_plies``), and how many
        of them are the tracker's own."""
        last = self._last_plies(expl, 3)
        if last is None:
            return None
        (first, reply, third), back = last
        return first, reply, third, back

    def _last_plies(self, expl: _Expl, k: int) -> tuple[list[Move], int] | None:
        """The last ``k`` plies with ``expl``'s made, one move or a chain of two (not one
        correcting the open move), each the first of its variants, and how many of them
        are the tracker's own (made already); None if there are fewer, or ``expl`` is
        another kind."""
        if expl.kind == TWO and not expl.chain[0].correcting:
            new = [ms[0] for ms in _plies(expl)]
        elif expl.kind == MOVE and expl.moves:
            new = [expl.moves[0]]
        else:
            return None
        made = [*self._history, *new]
        if len(new) > 2 or len(made) < k:
            return None
        return made[-k:], k - len(new)

    def _position_back(self, back: int) -> PosInfo:
        """The position before the tracker's last ``back`` moves."""
        game = self._game.copy()
        for _ in range(back):
            game.pop()
        return self._cache.get(game)

    def _keep_instead(self, move: Move, back: int) -> None:
        """Keep the story in which ``move`` was made in place of the tracker's last
        ``back`` moves and the state's explanation, taken if the tracker's own later
        fails."""
        at = len(self._history) - back
        plies = ((move,),)
        if self._kept(plies, at, False):
            return
        obs = self._cells
        assert obs is not None
        alt = self._copy()
        alt._is_fork = True  # (its move made below keeps no stories of its own)
        while len(alt._history) > at:
            alt._pop()
        t = self._t_change
        alt._make(move, t, t, obs)
        alt._establish(t, obs)
        alt._settled = True
        alt._fixed = at  # (nor moves taken back, see _keep_correcting)
        self._keep(_Fork(alt, [], plies, at))

    def _keep_unmade(self, ctx: _Ctx, expl: _Expl) -> None:
        """A drop is believed on the square a capture just left (the open move, or the
        first move of a chain before it): the board is back at the occupancy before that
        capture. Keep the story where neither was made (the capture's attacker knocked as
        the move before landed, and put back; the hover over that move's square before its
        landing read as the target's lift), with the moves after them, taken if the
        tracker's own later fails: the game tells them apart once a piece on either square
        moves (the sixth generator, identity noise x2, game 11 of seed 18: 1e1d, 1c knocked
        38 ms after the landing for 0.76 s, read as 1c taking 1d and sente's P*1c, and eight
        plies on nothing explained the board; x0.4, game 8 of seed 14: 5d5c, 5b knocked 39
        ms after for 0.72 s, read as 5b taking 5c and P*5b, and gote's 5b6c next an error
        for the rest of the game)."""
        if expl.kind == TWO:
            if expl.chain[0].correcting:
                return
            plies = _plies(expl)
        elif expl.kind == MOVE:
            plies = [expl.moves]
        else:
            return
        om, first = ctx.open_move, plies[0][0]
        if om is not None and ctx.prev is not None and first.from_square is None:
            capture, drop, before, back, rest = om, first, ctx.prev, 1, plies[1:]
        elif len(plies) >= 2 and plies[1][0].from_square is None:
            capture, drop, before, back, rest = first, plies[1][0], ctx.cur, 0, plies[2:]
        else:
            return
        if capture.from_square != drop.to_square or not before.codes[capture.to_square]:
            return
        if any(len(ms) > 1 for ms in rest):
            return  # (a question in that story: none kept)
        at = len(self._history) - back
        if self._kept(_NEITHER_MADE, at, False):
            return
        obs = self._cells
        assert obs is not None
        alt = self._copy()
        alt._is_fork = True  # (its moves made below keep no stories of their own)
        if back:
            alt._pop()
            alt._open = False  # (the move before it stays as made)
        t = self._t_change
        for (move,) in rest:
            if move not in alt._info().legal:
                return
            alt._make(move, t, t, obs)
        alt._establish(t, obs)  # (what the hands did is no move of its story)
        alt._settled = True
        alt._fixed = at  # (nor moves taken back, see _keep_correcting)
        self._keep(_Fork(alt, [], _NEITHER_MADE, at))

    def _keep_rivals(
        self, ctx: _Ctx, expl: _Expl
    ) -> tuple[bool, list[tuple[_Ply, ...]], list[_Expl]]:
        """Keep the stories that explain the board about as well as ``expl``, a move, a
        correction or a chain (see ``_keep_rival``). Returns whether ``expl`` leaves a
        lift over and asks nothing, the chains tried that no move ends (see
        ``_keep_illegal``), and the candidates weighed."""
        obs = self._cells
        assert obs is not None
        cands = self._candidates(ctx, obs, _INF)
        asking = expl.score[0] > 0 and not self._asks(expl, None)
        dead: list[tuple[_Ply, ...]] = []
        # (a move that asks, with lifts left over, too: the sixth generator, polarity x0.4
        # noise x2, game 22 of seed 27, blitz hands: 9g9f swapped in 66 ms and gote's P*9g
        # 0.29 s after, shorter than a chain's wait, read as touches, then sente's P*2b
        # read as gote's, asking its kind; the chain never kept, 21 plies lost)
        chains = (
            self._scored_chains(ctx, obs, dead=dead)
            if expl.kind == TWO or expl.score[0] > 0
            else []
        )
        self._keep_rival(expl, cands + chains)
        return asking, dead, cands + chains

    def _keep_dropped(self, ctx: _Ctx, expl: _Expl, obs: str) -> None:
        """A quiet move onto the next square is believed (alone, or a chain's last) whose
        square filled before its origin opened (within ``overlap``: a piece slid): keep
        the story where the mover dropped a piece there and then touched the piece beside
        it, taken if the tracker's own later fails (motorgen: gote's N*2f, then 2e touched
        79 ms after the landing, read as 2e2f, and 2e put back read as nifu for good). Or
        whose origin opened only a moment before the square filled (within ``overlap``):
        the hand reaching down to drop there knocked it (the sixth generator, noise x2,
        game 12 of seed 1: B*3f, 2e off from 8 ms before 3f closed for 0.57 s, read as
        2e3f, and 2e put back as gote's P*2e, the rest of the game lost; game 17 of seed
        3: P*8d, 8c off 14 ms after, read as 8c8d in a chain after the move before it).
        Or a correction's move: a drop held over a square long enough to be read as set
        down there, then set on the next one as a neighbour was knocked (game 10 of seed
        4: P*1g after 1f was hovered 0.45 s, 1h off as 1g closed for 0.77 s, read as P*1f
        corrected to 1h1g, and 1h put back as gote's P*1h). Or the open move taken back,
        its piece slid home: the opponent may have dropped a piece on the square it left
        and knocked it (the sixth generator, defaults, game 2 of seed 9: 6h5i, then G*6h
        and 5i off 26 ms after for 0.6 s, read as 6h5i taken back, and the rest of the
        game lost)."""
        om = ctx.open_move
        if expl.kind == RETRACT:
            move = (
                None if om is None or om.from_square is None else Move(om.to_square, om.from_square)
            )
        else:
            move = None if not expl.moves or expl.capture else expl.moves[0]
        if move is None or move.from_square is None:
            return
        origin, to = move.from_square, move.to_square
        fill = self._hist.last_fill(to)
        cells = None if fill is None else self._shown_at(fill)
        if fill is None or cells is None:
            return
        if cells[origin] == EMPTY:
            # the origin opened first: the piece moved, unless only a moment before, next
            # to the square (a knock)
            since = fill - self.params.overlap
            if (
                square_distance(origin, to) > 1
                or self._hist.last_lift(origin, since, math.nextafter(fill, _INF)) is None
            ):
                return
        base = ctx.prev if expl.kind == CORRECT else ctx.cur
        if base is None:
            return
        for ply in expl.chain:
            if ply.correcting:
                return
            base = self._cache.after(base, ply.variants[0])
        if base.codes[to]:
            return  # (a capture, unproven: a drop cannot go there)
        cells = cells[:origin] + base.exp[origin] + cells[origin + 1 :]
        drops = tuple(m for m in base.drops_to(to) if base.face_after(m) == obs[to])
        if not drops:
            return
        if expl.kind not in (MOVE, RETRACT):
            self._fork(replace(expl, moves=drops))
            return
        plies, at = (drops,), len(self._history)
        if self._kept(plies, at, False):
            return
        alt = self._copy()
        alt._new_move(base, drops, fill, fill, cells)
        alt._settled = True  # (its board now, the origin lifted, is read at the next change)
        self._keep(_Fork(alt, [], plies, at))

    def _keep_dropped_beside(self, ctx: _Ctx, expl: _Expl, obs: str) -> None:
        """A move is believed onto a square B whose neighbour A showed the mover's piece
        set down just before, A opening only as B filled (within ``overlap``): read as
        that piece slid on from A (a correction of the open move on A, or a piece held
        over A on its way). Keep the story where the piece stood on A and the opponent
        dropped a piece on B, knocking it, taken if the tracker's own later fails (the
        sixth generator x0.4, game 14 of seed 107: sente's S*3e shown 0.3 s, gote's
        L*4f with 3e knocked 0.84 s; read as S*4f and gote's L*3e, then sente's 3e4f,
        its target lifted first, as a touch and L*3e taken back: two plies lost)."""
        chain = expl.chain if expl.kind == TWO else ()
        if (
            self._is_fork
            or not self._keeps_stories()
            or ctx.virtual
            or not expl.moves
            or (expl.capture and not chain)
            or any(ply.correcting for ply in chain)
        ):
            return
        correcting = expl.kind == CORRECT
        move = expl.moves[0]
        to = move.to_square
        cur = ctx.cur
        for ply in chain:
            cur = self._cache.after(cur, ply.variants[0])
        if cur.codes[to]:
            return  # (a capture: no drop could go there)
        om = ctx.open_move
        if correcting:
            if om is None or ctx.prev is None:
                return
            # (the open move's own piece moved on, from the next square)
            if not _same_piece(move, om) or square_distance(om.to_square, to) != 1:
                return
            sides = [om.to_square]
        else:
            # (a chain's last move: the knocked piece may be back already, the chain read
            # as the board settled)
            sides = [
                sq
                for sq in _AROUND[to]
                if sq != to and (chain or obs[sq] == EMPTY) and cur.exp[sq] == EMPTY
            ]
        overlap = self.params.overlap
        hist = self._hist
        since = chain[-1].t if chain else ctx.w_cur if expl.kind == MOVE else ctx.w_prev
        fills = hist.fills(to, since, _INF)
        if not fills:
            return
        filled = fills[0]
        for side in sides:
            down = hist.last_fill(side, filled)
            opened = None if down is None else hist.emptied_after(side, down)
            if down is None or opened is None or not -overlap <= opened - filled <= overlap:
                continue
            shown = self._shown_at(down)
            if shown is None:
                continue
            if correcting:
                first: tuple[Move, ...] = ()
                base = cur
            else:
                first = tuple(
                    m
                    for m in cur.legal
                    if m.to_square == side
                    and _same_piece(m, move)
                    and cur.face_after(m) == shown[side]
                )
                if len(first) != 1:
                    continue  # (a question in that story: none kept)
                base = self._cache.after(cur, first[0])
            drops = tuple(m for m in base.drops_to(to) if base.face_after(m) == obs[to])
            if not drops:
                continue
            if chain:
                held = _Ply(first, False, down, shown, False)
                self._fork(replace(expl, chain=(*chain, held), moves=drops))
                continue
            plies, at = ((first, drops) if first else (drops,)), len(self._history)
            if self._kept(plies, at, False):
                continue
            alt = self._copy()
            if first:
                alt._new_move(cur, first, down, down, shown)
            cells = obs[:side] + base.exp[side] + obs[side + 1 :]
            alt._new_move(base, drops, filled, filled, cells)
            alt._settled = True  # (its board now, the piece on A knocked, is read next)
            self._keep(_Fork(alt, [], plies, at))

    def _put_back_alike(self, sq: int, start: float, end: float) -> bool:
        """Did the piece lifted from ``sq`` at ``start`` come back at ``end`` as it was (the
        same face up, the same kind)? A touch puts it back so; one that comes back turned
        over is no touch (the sixth generator, polarity, game 12 of seed 11: gote's knight
        took 7g and was turned over on the square 0.75 s after; sente's gold then took
        it, knocking 6e. Read as 8e7g unpromoted, the gold taking 6e, and the promoted
        knight lifted and put back unpromoted as the opponent's touch: a false move).
        Always on an occupancy board."""
        if self.sensing == "occupancy":
            return True
        before = next((c for ts, c in reversed(self._states) if ts < start), None)
        after = self._shown_at(end)
        return before is None or after is None or before[sq] == after[sq]

    def _shown_at(self, t: float) -> str | None:
        """The state the board showed at ``t`` (None: before the states kept)."""
        return next((cells for ts, cells in reversed(self._states) if ts <= t), None)

    def _keep_illegal(self, expl: _Expl, dead: list[tuple[_Ply, ...]]) -> None:
        """A chain with a short story or a lift left over, or a move with a lift left over
        that asks nothing (whose chains ``_keep_others`` searched), is believed: keep the
        story where the moves the board showed long enough were made, then a piece set
        where it may not go (the state now an illegal one, which the chain or move
        explains legally: G*3i, 9f9e, then the gold set on 9f, reads as
        G*9e with three lifts left over, x0.3 polarity --rich, seed 33610; 4b4c
        with 5c knocked, then the opponent's knight dropped on 4b, reads as 4b taking 5c,
        N*4c, B*4b; 9d set on 7f and moved on to 8e, 7e7f, then the bishop set on 1b, as
        9d7f, 7e taking 7f, P*1b, with 8e a piece from nowhere), taken if the tracker's
        own later fails. Its illegal state is its premise: not counted
        against it when stories are compared (its count of errors shown is the tracker's
        own, see ``_explains``). ``dead``: the chains the state's chain search tried that
        no legal move from their last position ends (see ``_two_ply``)."""
        mine = [p.variants for p in expl.chain]
        sure = [
            c
            for c in dead
            if not any(p.short or p.correcting for p in c)
            and [p.variants for p in c] != mine[: len(c)]
        ]
        if not sure:
            self._keep_erring()
            return
        chain = min(sure, key=lambda c: (len(c), -c[-1].t))
        plies, at = tuple(p.variants for p in chain), len(self._history)
        if self._kept(plies, at, False):
            return
        alt = self._copy()
        alt._is_fork = True
        for ply in chain:
            variants = alt._choose(ply.variants)
            if len(variants) > 1 or alt._phase != "play":
                return  # (a question: no story to keep)
            alt._make(variants[0], ply.t, ply.t, ply.cells)
        alt._settled = False
        # (or the piece set where it may not go, held: a hover the tracker's own search
        # weighed as a lift, see _hovered)
        held = alt._evaluate()[0]
        alt._decide(self._t_now, force=True)
        if alt._illegal is None and not (held is not None and held.hovered):
            return  # (a story the tracker's own search weighed already)
        self._keep_premised(alt, plies, at)

    def _keep_erring(self) -> None:
        """A chain with a short story or a lift left over is believed, and no moves the
        board showed long enough come before the state now: keep the story where nothing
        was made, and the state now is a move of the side to move that it may not make
        (its piece set where it cannot go, a pawn dropped on a file that has one), shown
        red and taken back. Its illegal state is its premise (see ``_keep_illegal``).
        The cases: the fourth generator, noise x2, game 11 of seed 19 (sente's gold set
        on 3e, 4c rocked as it was lifted: read as 5d4c and gote's G*3e before
        ``_rocked`` ruled that capture out), and the sixth generator, polarity x0.4 noise
        x2, game 4 of seed 8 (gote's 6f touched for 1.0 s, 6g crossed for 0.12 s on the
        way, then gote's nifu P*6g: read as 6f6g and sente's P*6f, the rest of the game
        lost)."""
        at = len(self._history)
        if self._kept((), at, False):
            return
        ctx = self._context()
        ill = self._analyse_illegal(ctx)
        if ill.offender != ctx.cur.turn or ill.reason == IllegalReason.WRONG_SIDE.value:
            return
        alt = self._copy()
        alt._is_fork = True
        alt._show_illegal(ill, alt._t_change)
        alt._settled = True
        self._keep_premised(alt, (), at)

    def _keep_premised(self, alt: Tracker, plies: tuple[tuple[Move, ...], ...], at: int) -> None:
        """Keep ``alt``, a story whose illegal state now is its premise, not counted
        against it when stories are compared (see ``_keep_illegal``, ``_keep_erring``),
        unless a story kept already shows the same move (``_forbidden_alike``)."""
        if self._forbidden_alike(alt):
            return
        alt._shown_times = self._shown_times
        self._keep(_Fork(alt, [], plies, at))

    def _forbidden_alike(self, alt: Tracker) -> bool:
        """Is ``alt``'s error a move of its side to move the rules forbid, with a story kept
        already that stands on the same squares (so shows the same move)? Then it is no
        premise of a story of its own: players make such moves, see red and take them
        back, and the kept story explains it as well, counting it (200 Hz x0.3 --extra
        --overlap, game 24 of seed 38439: 5c set on 6c, moved on to take 4c, read as 5c6c
        with 4c knocked, 5c4c kept; gote's 6a6c, then sente's pawn set on 5a and taken
        back; 5c6c, 6a6c kept with the pawn as its premise, and taken for it)."""
        ill, cur = alt._illegal, alt._context().cur
        if ill is None or not _forbidden(ill, cur.turn):
            return False
        for f in self._forks:
            other = f.caught_up()
            if other._phase == "play" and other._context().cur.exp == cur.exp:
                return True
        return False

    def _keep_knock_held(self, ctx: _Ctx, expl: _Expl) -> None:
        """A correction of the open move to a capture is believed, its target lifted and
        put back after the open move's piece was lifted from where it was set: the hand
        carrying that piece may have knocked the target, the piece still in the air. Keep
        that story, the open move standing and the target's lift read as never made,
        taken if the tracker's own later fails (the sixth generator, noise x2, game 19 of
        seed 84: 1b set on 1c, lifted, 2c knocked 0.12 s, the piece held 1.7 s and set on
        1a; read as 1b1c corrected to take 2c, then gote's L*1a, the rest of the game
        lost)."""
        om, prev, cells = ctx.open_move, ctx.prev, self._cells
        new = expl.moves[0] if expl.moves else None
        if (
            om is None
            or prev is None
            or cells is None
            or new is None
            or new.from_square != om.from_square
            or not prev.codes[new.to_square]  # (a capture)
            or cells[new.to_square] == EMPTY
        ):
            return
        target = new.to_square
        lifted = self._hist.last_lift(om.to_square, ctx.w_cur)
        knocked = self._hist.last_lift(target, ctx.w_cur)
        if lifted is None or knocked is None or knocked <= lifted:
            return
        plies, at = ((om,),), len(self._history) - 1
        if self._kept(plies, at, False, "knock"):
            return
        alt = self._copy()
        alt._hist.forget(target, knocked)
        face = cells[target]
        states: list[tuple[float, str]] = []
        for t, shown in alt._states:
            if t >= knocked:
                shown = shown[:target] + face + shown[target + 1 :]
            if not states or states[-1][1] != shown:
                states.append((t, shown))
        alt._states = states
        alt._settled = False  # (the board now read again: the piece in the air)
        self._keep(_Fork(alt, [], plies, at, kind="knock"))

    def _keep_uncorrected(self) -> None:
        """A correction of the open move is believed: keep the story where that move stood
        and the opponent's hand began the reply (its target lifted first, a neighbour
        knocked on the way, read as the mover's piece moving on to take it), taken if
        the tracker's own later fails."""
        plies, at = ((self._history[-1],),), len(self._history) - 1
        if self._kept(plies, at, False):
            return
        alt = self._copy()
        alt._close()
        alt._settled = False  # the board now, read with the move closed
        alt._fixed = len(self._history)  # nor taken back: that is the correction again
        self._keep(_Fork(alt, [], plies, at))

    def _keep_rival(self, expl: _Expl, cands: list[_Expl]) -> None:
        """Other moves (``cands``, the state's explanations and chains) explain the board
        as well (a capture, then the opponent's hand on a piece the attacker could also
        take: which was taken?), or with one lift more left over (a piece set down on a
        wrong square, then moved on to take, read as left there and taken by the
        opponent's reply, target first, with the first target knocked): keep the best of
        them as the other story, taken if the tracker's own later fails. A chain's short
        plies (a capture not waited out) do not count here: their doubt is the other
        capture itself (x0.3 ``--rich``, game 22 of seed 37832: 2b3b short, as 3a, which
        the tokin could also take, wobbled just after; 2b3a believed and 2b3b not kept,
        the rest of the game lost)."""
        mine = _story(expl)
        rivals = [
            c
            for c in cands
            if ((c.kind in (MOVE, CORRECT) and c.moves) or (c.kind == TWO and c.chain))
            and c.score[0] <= expl.score[0] + 1 + 2 * _shorts(c.chain, c.moves)
            and _story(c) != mine
        ]
        # (the two best: three captures by one attacker, each target lifted and put back,
        # leave two other stories; the best kept last, the newer taken first)
        best: dict[object, _Expl] = {}
        for c in sorted(rivals, key=lambda c: c.score):
            best.setdefault(_story(c), c)
        for c in reversed(list(best.values())[:2]):
            self._fork(c)

    def _keep_asking(self, expl: _Expl, cands: list[_Expl]) -> None:
        """A move that asks nothing, read with a lift left over (a knock): keep the best
        story (of ``cands``, the state's explanations and chains) that explains the board
        nearly as well and asks a question (a capture, then the opponent's drop, asking
        which piece), taken if the player answers it (see ``_answered_elsewhere``)."""
        mine = _story(expl)
        asking = [
            c
            for c in cands
            if c.score[0] <= expl.score[0] + _ANSWERED and _story(c) != mine and self._asks(c, None)
        ]
        if asking:
            self._fork(min(asking, key=lambda c: c.score))

    def _answered_elsewhere(
        self, t: float, value: str, kept: set[int], seen: tuple[float, float, int]
    ) -> list[TrackerOutput]:
        """An answer came with no question waiting: a kept story in which it answered one
        (see ``_keep_asking``) is what the player saw, if it explains the board: take it.
        Only stories kept before the answer (``kept``) are looked at: one kept as it was
        read asked nothing it fits, and each would read it again without end. Not a story
        whose question was asked before the player last answered the tracker's own: the
        board showed that one, and this input is a stray one (altgen: a drop asked G or
        P, answered G, then a stray P, read as the other story's P*7h). Nor one whose
        question was asked before the move before the last was made here: the player
        saw the board go on past it, with no question shown (altgen: 6d5d, 6d7d kept,
        whose G*7h asked "G or P?"; a stray G four plies and 15 s later took it).
        ``seen``: the windows of the tracker's last two moves and its story's length as
        the player pressed, before the answer's own decision read a move (the board the
        player saw: the sixth generator, noise x2, game 18 of seed 90, gote's P*5e with 6e
        knocked 10 ms after its landing for 0.78 s, read as 6e5e; "P" pressed 0.2 s after
        6e was back, read then as N*6e, which made the kept P*5e's question one asked
        before the move before the last)."""
        answered = _NEG_INF if self._answered_at is None else self._answered_at
        w_prev, w_cur, n_seen = seen
        fits: list[Tracker] = []
        touched: list[Tracker] = []
        shown = self._shows_answer(value)
        for f in reversed(self._forks):
            if id(f) not in kept:
                continue
            alt = f.caught_up()  # (this input was the last event it was fed)
            if shown and alt._unerring == "knocked":
                # (nor a capture's other target, kept while nothing was wrong, when the
                # tracker's own last move shows the answer given: the player pressed
                # what they did, unasked, and the capture the board saw stands; the
                # fourth generator, game 14 of seed 1: gote's 9h took 8h, swapped out in
                # 42 ms, 9h9g kept, and two plies later "G" pressed for G*5g, the only
                # kind gote could drop there, asked only in 9h9g's story: taken, and the
                # capture rewritten)
                continue
            if alt._unerring == "touched":
                # (nor a story of a capture never seen kept while nothing was wrong, its
                # attacker's square refilled, see _keep_touched_unseen: an answer alone is
                # no sign of it, the piece may have been touched; the second
                # generator, raised, game 3 of seed 43403: 8c touched, then a stray
                # "nonpromote", taken as 8c3c unseen, asking it, and S*8c. Yet one that
                # took it is as alike as the others, none guessed between: 100 Hz x0.4
                # --rich, game 14 of seed 51809, 8d8c, 8d7c kept for 7c knocked, and
                # 1b1c unseen and P*1b kept as 1b touched 37 plies later; "promote" for
                # 7d8b+, taken by both, and 8d7c's story taken, a false move)
                if alt._answered_at == t and self._explains(alt):
                    touched.append(alt)
                continue
            asked = alt._asked_at
            if asked is not None and (asked <= answered or asked < w_prev):
                continue
            if asked is not None and asked < w_cur and alt._answered_ply < n_seen:
                # (nor one asked about a move the tracker's story has since seen the
                # opponent reply to, the question never shown: 100 Hz x0.4 --rich, game
                # 21 of seed 49135, 5e4d read, 5e taking 7c unseen kept, asking
                # "promote?"; gote's 3b3c, then sente's 4d taking 3c unseen with
                # "promote", read as 5e7c+, a false move)
                continue
            if alt._answered_at == t and self._explains(alt):
                fits.append(alt)
        # (the stories kept as the answer was read, that took it: alike, none guessed
        # between; 100 Hz x0.4 --rich, game 3 of seed 51508, 9h8h unseen and 7c7a kept,
        # asking "promote?", then the rook moved to 8c, 9h8h and 7c8c kept as
        # "nonpromote" came: 7c7a taken, and S*8c read, two false moves)
        fresh = [
            a
            for f in self._forks
            if id(f) not in kept and (a := f.caught_up())._answered_at == t and self._explains(a)
        ]
        if not fits or _guesses(
            fits[0], fits + fresh + touched + self._answered_below(t, fits), t, self._story_wait()
        ):
            return []
        return self._adopt(fits[0], t)

    def _shows_answer(self, value: str) -> bool:
        """Does the tracker's own last move show ``value``, an answer nobody asked for: a
        drop of the kind pressed, or a move from the board promoted as pressed (or not)?"""
        if not self._history:
            return False
        move = self._history[-1]
        if value in DROP_INPUTS:
            return move.drop_piece_type == piece_type_from_symbol(value)
        return move.from_square is not None and move.promotion == (value == INPUT_PROMOTE)

    def _answered_below(self, t: float, fits: list[Tracker]) -> list[Tracker]:
        """The stories kept by kept stories of captures never seen (other than ``fits``)
        that took the answer given at ``t`` and explain the board (see ``_alive_below``)."""
        return [
            sub
            for f in self._forks
            if not any(f.alt is a for a in fits)
            for sub in self._alive_below(f)
            if sub._answered_at == t
        ]

    def _alive_below(self, f: _Fork) -> list[Tracker]:
        """A kept story of a capture never seen that shows an error, while stories it keeps
        explain the board, alike, none of them taken: those, as alive as it is (100 Hz
        x0.4 --rich, game 5 of seed 50709: gote's dragon taking 2e unseen, 6b and 6f alike,
        then N*4a or G*4a, and 3b4a asking "promote?"; in 6e2e's story 3f4g and 3f2e
        unseen took "nonpromote" alike, in 6e6f's only 3f4g: 6e6f taken, a false move)."""
        alt = f.alt
        if alt._premise is None or alt._illegal is None:
            return []
        return [sub for g in alt._forks if alt._explains(sub := g.caught_up())]

    def _answered_unseen_open(self, t: float, value: str) -> list[TrackerOutput]:
        """An answer came with no question waiting, and no kept story took it: if a
        capture never seen (see ``_unseen_stories``: after the open move, or in its
        place), then a move asking that question, or such a capture alone, its piece
        lifted, asking it, is the one story that explains the board, take it, the answer
        answering it (x0.3 --rich at 200 Hz, game 18 of seed 36346: 5f lifted to take 5g
        unseen, then sente's P*5e, read as 5f5e; "P" pressed, and the rest of the game
        lost). The open move asks nothing the player could have answered."""
        ctx = self._context()
        if (
            not self._keeps_stories()
            or self._is_fork  # (another story's answers are its own: see _answered_elsewhere)
            or ctx.virtual
            or self._cells is None
            # (stories of such captures kept already are told apart by the game, none
            # guessed: see _revisable; x0.3 --extra at 200 Hz, game 2 of seed 35502, three
            # kept, and "promote" pressed for a later move only one asks first)
            or any(f.alt._premise is not None and not f.alt._unerring for f in self._forks)
        ):
            return []
        cells, cur = self._cells, ctx.cur
        fits = [
            (c, empty)
            for c, left, _k, empty, _cut in self._unseen_stories(ctx)
            # (one capture never seen: a story of two is no answer's reading; the built-in
            # simulator, game 18 of seed 326, 1d1c taken back and made again, its
            # "nonpromote" read as 1c1b and 1d2f both unseen, and P*1c. Its attacker's
            # square still empty, as _past_premise asks: the second generator, raised,
            # game 3 of seed 43403, 8c touched, and a stray "nonpromote" read as 8c3c
            # unseen and S*8c, two false moves)
            if c.moves and len(left) == 1 and self._still_empty(empty) and self._asks(c, value)
        ]
        # a piece lifted, and the answer: the capture itself, its target never seen
        # (100 Hz x0.4 --rich, game 3 of seed 36644: 5d lifted to take 5c unseen,
        # "nonpromote", then gote's P*5d on the square it left, which showed the position
        # before it: two plies lost); or the open move's piece, set down and lifted again
        # to go on, in place of it (since session 43: game 19 of seed 49178, 7d set on 6d,
        # then taking 7c unseen with "promote", read as 7d6d, a false move)
        bases = [(cur, ctx.w_cur, MOVE)]
        # (not when the open move's own question was answered: the player saw it, and
        # this one is a stray input; the second generator, game 23 of seed 47723, 8e7c+
        # answered "promote", then a stray "nonpromote" read as 8e9c)
        if (
            ctx.open_move is not None
            and ctx.prev is not None
            and self._answered_ply != len(self._history)
        ):
            bases.append((ctx.prev, ctx.w_prev, CORRECT))
        for base, since, kind in bases:
            lifted = diff(cells, base.exp)
            if len(lifted) != 1 or cells[lifted[0]] != EMPTY:
                continue
            fits += [
                (c, frozenset(lifted))
                for ms in self._unseen_from(base, cells, lifted, since)
                if self._asks(c := _Expl(kind, moves=ms), value)
            ]
        fits = self._along_path(fits)
        n = len({_story(c) for c, _empty in fits})
        if n == 1:
            alt = self._answered_story(fits[0][0], t, value)
            if alt is None:
                return []
            took = [
                f.alt
                for f in self._forks
                if f.alt is not alt
                and f.alt._premise is not None
                and f.alt._answered_at == t
                and self._explains(f.alt)
            ]
            if any(a._history != alt._history for a in took):
                # (stories of captures never seen kept before took this answer too, and
                # went on otherwise: _answered_elsewhere left them to the game, alike, and
                # this one is theirs again; 100 Hz x0.4 --rich, game 8 of seed 50029, 2d1c
                # unseen, 2d1e alike, both kept "answered"; "nonpromote" for 4b4h, then,
                # read as 2d1e's chain, a false move); kept as they are, unless one of
                # them is this story
                if any(a._history == alt._history for a in took):
                    self._forks = [f for f in self._forks if f.alt is not alt]
                else:
                    _answered_alike(alt, fits[0][1])
                return []
            return self._adopt(alt, t)
        if 1 < n <= _UNSEEN_TIED:
            # several such captures ask it: each is kept, none guessed, and the game tells
            # them apart, as with captures never seen the board shows alike (see
            # _keep_unseen). A move the tracker's story then reads in their place asks
            # nothing the player answered (100 Hz x0.4 --rich, game 8 of seed 49131:
            # gote's 3f lifted to take 3g unseen, 4g alike, "promote" pressed, then 2e
            # knocked, read as 3f2e, a false move)
            for c, empty in fits:
                alt = self._answered_story(c, t, value)
                if alt is not None:
                    _answered_alike(alt, empty)
        return []

    def _along_path(
        self, fits: list[tuple[_Expl, frozenset[int]]]
    ) -> list[tuple[_Expl, frozenset[int]]]:
        """Of captures never seen by one attacker that fit alike (one move each, see
        ``_answered_unseen_open``), those whose path the attacker was seen crossing: a
        square between its origin and its target filled and emptied again after its lift,
        before any other square changed (a sliding piece carried over it on its way). If
        some were and others not, the others are no such story; else all are kept (100 Hz
        x0.4 --rich, game 8 of seed 59572: gote's rook lifted from 4h, 3h crossed 10 ms
        later for 20 ms, "nonpromote" for 4h2h taking the silver unseen; 4h2h, 4h8h and
        4h4d kept alike, none ever taken, and the rest of the game, 21 plies, lost)."""
        moves = [c.moves[0] if c.moves and not c.chain else None for c, _empty in fits]
        origins = {m.from_square if m is not None else None for m in moves}
        if len(fits) < 2 or len(origins) != 1:
            return fits
        origin = origins.pop()
        if origin is None:
            return fits
        hist = self._hist
        lift = hist.last_lift(origin, _NEG_INF)
        if lift is None:
            return fits
        along = []
        for f, m in zip(fits, moves):
            assert m is not None
            path = BETWEEN[origin][m.to_square]
            until = hist.first_change(lift, path | {origin})
            if any(hist.crossed(sq, lift, until) for sq in path):
                along.append(f)
        return along if along and len(along) < len(fits) else fits

    def _answered_story(self, c: _Expl, t: float, value: str) -> Tracker | None:
        """The story ``c`` kept, its question answered by ``value`` at ``t``, if it then
        explains the board; else None (and not kept)."""
        alt = self._fork(c)
        if alt is None:
            return None
        if alt._answered_at != t:
            alt._input(t, value)
        if alt._answered_at != t or not self._explains(alt):
            self._forks = [f for f in self._forks if f.alt is not alt]  # (not kept, unseen)
            return None
        return alt

    def _answers_own(self) -> bool:
        """Is the answer being given (if one is) one the question waiting takes?"""
        answer, pending = self._answering, self._pending
        return answer is not None and pending is not None and answer in pending.question.options

    def _asks_answer(self, alt: Tracker, now: float) -> bool:
        """Whether the other story ``alt`` asked the answer being given (if one is): only
        then does the answer make its story final at once. A stray input is no reason to
        take a story kept for many moves on a passing state (altgen: 8f9f or 8f7f kept 19
        moves, then a knock of sente's piece on 9f, no error in the other story, and a
        stray input while it was off the board: the other story taken, a false move)."""
        answer = self._answering
        if answer is None or alt._answered_at == now:
            return True
        pending = alt._pending
        return pending is not None and answer in pending.question.options

    def _keeps_stories(self) -> bool:
        """Other stories may be kept: revisions are on (not online), and no engine move is
        expected (the engine's move is the truth)."""
        return self._revise and self._expected is None

    def _drop_stories(self) -> None:
        self._waiting = None
        self._forks = []

    def _revisable(
        self, now: float, finish: bool = False, ended: bool = False, unseen: bool = False
    ) -> Tracker | None:
        """The board is in a state the tracker's story cannot explain: the other story of
        a capture it did not believe, had it stood, if that explains everything since (to
        be taken with ``_adopt`` once the board has stayed so). ``finish``: the log ends
        here, and the other story must leave nothing unresolved; ``ended``: and its game
        must have ended (with no error shown more than the tracker's own); ``unseen``: a
        story of a capture never seen may be taken (see ``_keep_unseen``): only when
        nothing explains the board in the tracker's own."""
        best: tuple[_Key, Tracker] | None = None
        cands: list[tuple[_Key, Tracker]] = []  # (all that explain it)
        unseen_ones: list[Tracker] = []  # the stories of captures never seen that fit
        forbidding = False  # another story shows only a forbidden move, made just now
        for i, f in enumerate(reversed(self._forks)):
            alt = f.caught_up()
            if finish:
                alt.finish(now)
            else:
                alt.tick(now)
            if not self._is_fork:  # (another story's own stories are not looked into)
                alt._deeper(now, finish)
            if not self._explains(alt, "over" if ended else "play"):
                if not ended:
                    unseen_ones += self._alive_below(f)
                    forbidding = forbidding or self._forbidding_briefly(alt, now)
                if (
                    not finish
                    and alt._premise is not None
                    and unseen
                    and alt._still_empty(alt._premise[1])
                    and (self._forbidden_only(alt) or self._erring_briefly(alt, now))
                ):
                    # (alike; not once the log ends with the move left on the board. Nor
                    # need it have gone on past its capture: the move it forbids may be
                    # the one that takes another past, see _forbidden_only)
                    unseen_ones.append(alt)
                continue  # the other story cannot explain it either (or its game ended)
            if alt._misasked():
                continue
            if alt._premise is not None:
                unseen_ones.append(alt)  # (alike, past its moves or not)
            if alt._premise is not None and not (unseen and alt._past_premise(ended, finish)):
                continue
            if finish and alt.unresolved() is not None:
                continue
            # of those that do: one where the player's input answered the question over
            # one still asking (a drop's kind only the other story asks), then one that
            # took the answer being given (if one is) over one that did not, then the one
            # that showed fewer errors, then the newest; a story of a capture never seen
            # only if no other explains the board (it is the last resort)
            key = (
                alt._premise is not None,
                alt._pending is not None,
                not self._asks_answer(alt, now),
                alt._n_illegal,
                alt._unmade(),
                i,
            )
            cands.append((key, alt))
            if best is None or key < best[0]:
                best = (key, alt)
        if best is not None and best[1]._premise is not None:
            if forbidding:
                return None
            best = self._own_older(best, cands)
        if best is None or _guesses(best[1], unseen_ones, now, self._story_wait(), self._history):
            return None
        return best[1]

    def _forbidding_briefly(self, alt: Tracker, now: float) -> bool:
        """Is another story, no story of a capture never seen, showing for less than the
        story wait only a move its side to move made that the rules forbid (see
        ``_forbidden_only``), with no more errors than the tracker's own, that one counted?
        Players take such moves back once the lights show red; a story of a capture
        never seen, the last resort, is not taken in that moment because the move is
        legal in it (the sixth generator, x0.4, game 15 of seed 91: gote's P*6h, 6g
        knocked, read as 6g6h and sente's P*6g, P*6h kept; sente's nifu P*7f, on the
        board 0.55 s, read as L*7f in the story of 5h taking 5i never seen, a lance in
        sente's hand: taken as the pawn was lifted, and the rest of the game lost)."""
        since = alt._err_since
        return (
            alt._premise is None
            and self._forbidden_only(alt)
            and since is not None
            and now - since < self._story_wait()
            and alt._n_illegal <= self._n_illegal
        )

    def _own_older(
        self, best: tuple[_Key, Tracker], cands: list[tuple[_Key, Tracker]]
    ) -> tuple[_Key, Tracker]:
        """``best``, a story of a capture never seen, or the story that reads as it does
        from the last ply it shares with the tracker's own on, and as the tracker's own
        before (``cands``: the stories that explain the board): ``best`` differs from it
        only in an older capture never seen that the board still shows alike, kept
        before, and the tracker's reading of that stands (see ``_guesses``)."""
        own = self._history
        k_best = _agreed(own, best[1]._history)
        found = [
            (-k, key, alt)
            for key, alt in cands
            if alt._premise is not None
            and (k := _agreed(own, alt._history)) > k_best
            and alt._history[k:] == best[1]._history[k:]
        ]
        if not found:
            return best
        _k, key, alt = min(found, key=lambda f: (f[0], f[1]))
        return key, alt

    def _moved_on(self) -> bool:
        """Has the piece of this story's capture never seen (see _keep_unseen) moved on
        from the square it took on, in a move of its side, nothing set there since? On
        the board, a piece left that square on that side's turn: where the square still
        held the piece taken (another capture of the same piece, never seen), that lift
        was the opponent's piece moving out of turn. Such a story is no guess between
        captures left unkept (see _guesses): they went on, the rest of the game is not
        lost (100 Hz x0.4 --rich, game 7 of seed 49901: gote's horse took 2i unseen,
        six captures alike, five kept; the others failed, 2h2i moved on to 4g, and it
        was never taken)."""
        at = self._unseen_to
        if at is None:
            return False
        i, square = at
        for j in range(i + 1, len(self._history)):
            m = self._history[j]
            if m.to_square == square:
                return False
            if m.from_square == square:
                return (j - i) % 2 == 0
        return False

    def _misasked(self) -> bool:
        """Is this story still asking a drop's kind that the player answered with a kind
        it does not offer? The player answered another story's question, the board's:
        this one is no story to take (the independent generator, x1.5 --extra --rich
        --polarity, corpus game 1 of seed 57460: G*7h asked "G or P?" and answered "G";
        a story kept with 3b3a for 3b2c asked "B or P?" there, and was taken 11 s later,
        as gote's rook stood on 6a, an error in both: four plies rewritten, a false
        move)."""
        return self._pending is not None and self._pending is self._misanswered

    def _unmade(self) -> int:
        """How many squares of the board this story has not yet read as moves made (a
        piece lifted, a square filled: a move in progress, or a touch; a move waiting on a
        question counts as not made)."""
        cells = self._cells
        return 0 if cells is None else len(diff(cells, self._info().exp))

    def _forbidden_only(self, alt: Tracker) -> bool:
        """Is another story in play showing only that the board is a move of its side to
        move the rules forbid (see ``_ruled_out``)? Players make such moves, see the red
        lights and take them back: it is as alive as a story where the move is legal.
        Stories of captures never seen the board shows alike are told apart by the game
        going on, not by a move that one of them forbids (200 Hz x0.3 --extra, game 5 of
        seed 38403: 6b taking 6a unseen, 6b7b kept alike; 19 s later sente's P*7i, nifu
        with the pawn left on 7b, set down 0.7 s: 6b7b, where it was legal, taken, and
        the rest of the game lost). Nor is one that has not gone on past its capture
        yet, the move it forbids the first after it (x0.5 --only illegal_drop, game 7 of
        seed 40060: 4c4d read as the dragon set on 3b, gote's nifu pawn there; 4c4a,
        4c3d and 4c4d with no capture seen kept alike; sente's P*3i, nifu in all but
        4c4a, where a bishop taken made it B*3i: 4c4a taken, a false move)."""
        ill = alt._illegal
        return alt._phase == "play" and ill is not None and _forbidden(ill, alt._context().cur.turn)

    def _erring_briefly(self, alt: Tracker, now: float) -> bool:
        """Has another story in play shown, for less than the story wait (see
        ``_story_wait``), only a piece of the side to move set where it cannot go? A piece
        held over a square out of its reach reads so for most of a second: stories of
        captures never seen the board shows alike are not told apart by such a moment, in
        which one of them, waiting on a question nobody was asked, reads nothing wrong
        (``--scan 100`` x0.4 ``--rich``, game 10 of seed 41174: 2h1h, 2h1g and 2h2g with
        no target seen kept alike; 2h1g, where sente had taken a lance, asked P or L for a
        pawn dropped later, and left the moves after it unread while its question waited;
        gote's tokin on 2g then held 0.65 s over 1c, and 2h1g was taken: a false move).
        A piece of the other side lifted is no such moment: that story is dead."""
        ill, since = alt._illegal, alt._err_since
        return (
            alt._phase == "play"
            and ill is not None
            and ill.reason == IllegalReason.NOT_A_MOVE_OF_THAT_PIECE.value
            and since is not None
            and now - since < self._story_wait()
        )

    def _deeper(self, now: float, force: bool) -> None:
        """Another story looked at to be taken (see ``_revisable``), showing an error now:
        read the board as deep as the tracker's own story does when nothing explains it
        (``_DEPTH_STUCK``), once a state, and decide on what that finds. Else the quickest
        hands' seven moves with no pause, after a capture read as pieces touched, fit no
        chain in either story, and the game is lost (x0.3 ``--polarity --rich``)."""
        if self._illegal is None or self._cells is None or self._deep_for == self._state_id:
            return
        self._deep_for = self._state_id
        ctx = self._context()
        self._deep = True
        try:
            best, later = self._explain(ctx, self._cells)
        finally:
            self._deep = False
        if best is not None:
            self._eval, self._eval_key = (best, later, ctx), (self._state_id, self._gen)
            self._settled = False
            self._decide(now, force)
        elif (
            (self._premise is None or self._unerring not in ("", "knocked"))
            and not ctx.virtual
            and self._keeps_stories()
            and self._unseen_for != self._state_id
        ):
            # (a story kept with no capture never seen, or while nothing was wrong, looks
            # for none of its own, see _decide; but one the tracker's own story errs
            # beside may be the game, and its error one: 100 Hz x0.4 --rich, game 2 of
            # seed 49419, 3g3f read as 3g3h with 3f knocked; the story of the capture,
            # 3g3f and P*3h, met 9b9a unseen, and the rest of the game was lost. Not a
            # capture's other target kept, see _keep_knocked_unseen: a knock and a
            # capture never seen against a capture seen, where both then need one more
            # at the log's end, is no tie to doubt the game for; game 17 of 42872,
            # 2f1e seen, 2f3e unseen with 1e knocked, and 9h8i unseen)
            self._keep_unseen(ctx)

    def _ruled_out(self, ctx: _Ctx) -> bool:
        """Is the board a move of the side to move that the rules forbid (its king left in
        check, a second pawn on a file, a pawn drop that mates, a piece with no further
        move)? Players make such moves, see the red lights, and take them back: no sign
        that another story is the true one. (The built-in simulator, game 15 of seed 311:
        7c6a+, then gote's king moved into the tokin's reach and back 3.6 s later, read as
        7c8a+, the story kept with a knock more, and 5a6b; the game lost.)"""
        return _forbidden(self._analyse_illegal(ctx), ctx.cur.turn)

    def _left_error_by_a_move(self, ctx: _Ctx, now: float, expl: _Expl) -> Tracker | None:
        """The board leaves an error of the tracker's story by a move (or by its open move
        taken back), never put back to the story's position since the error was shown: a
        kept story that explains the board and showed fewer errors is the better one.
        (Motorgen x0.3: gote's 2d2e, sente's P*2f 0.78 s later, before the capture's wait
        ran out, then gote's 2e takes 2f target first: read as 2d2e with 2f a hover, 2e2f
        an error, and sente's P*2e then as P*2f, two plies lost. The built-in simulator,
        game 18 of seed 74: 6h6i undone and made again, read as 6h5h and 6i6h, the redo as
        6i6h taken back.) An error put right, then a move, is no sign against the story (a
        piece touched, shown as an error, put back at once); nor is one whose stray pieces
        are gone again (a piece carried over a square it may not stop on, then set down
        where it may: x0.7, 8e7f hovering over 7b); nor for a kept story that showed an
        error too since this one began (the same state read alike: x0.7, 6f held while 6g
        was knocked, shown in both, then 6f5f took a story kept seven plies back for an
        older error it had not shown)."""
        shown = self._shown
        exp = ctx.cur.exp
        if shown is None or any(ts >= shown.t and c == exp for ts, c in self._states):
            return None
        cells = self._cells
        assert cells is not None
        if (
            shown.clear
            and all(cells[sq] == exp[sq] for sq in shown.clear)
            and not self._stood_through(shown, expl)
        ):
            # the pieces shown astray are gone again: one carried over a square it may not
            # stop on (a hover), then set down where it may, is the move, not an error left
            return None
        left = {m.from_square for m in expl.moves} | {p.variants[0].from_square for p in expl.chain}
        if (
            shown.fill
            and all(cells[sq] == exp[sq] or sq in left for sq in shown.fill)
            and (not shown.clear or self._knocked_as_landed(ctx, expl, shown, left))
        ):
            # the squares shown empty are filled again but those the move read left: a
            # piece knocked while the mover's was lifted, put back, and the move made
            # (x0.7 --extra --overlap, target first, game 12 of seed 54878: 6f knocked
            # for 0.4 s while 8e was lifted, shown as an error; 8e7f then took a story
            # kept from two plies back, P*7f, and two plies were lost); or as it landed
            # (see _knocked_as_landed)
            return None
        alt = self._revisable(now)
        if alt is None or alt._n_illegal >= self._n_illegal:
            return None
        if not self._spared(alt):
            return None  # (it saw this error too: leaving it is no sign for it)
        return alt

    def _stood_through(self, shown: IllegalState, expl: _Expl) -> bool:
        """Did the pieces ``shown`` astray stand while a ply of the chain ``expl`` was made
        (landed after the error run began, before they went)? No hover lasts through a
        move of the other hand: they were the board's, a knocked piece put back that the
        tracker's story read as a drop where none may go (the sixth generator x0.4, game
        19 of seed 118: sente's L*1f with 2g knocked 35 ms after its landing for 0.86 s,
        read as 2g1f and 2g's return as a nifu drop; gote's 7b8c, then 2g2f with 1f
        knocked, read as the chain 7b8c and L*2f, the stray on 2g a hover)."""
        # (from the first error of the run: the board may have shown others since)
        since = shown.t if self._err_since is None else min(shown.t, self._err_since)
        gone = max((self._hist.last_lift(sq, since) or _INF for sq in shown.clear), default=_INF)
        for p in expl.chain:
            # (its landing: the board shows its position only once every square is right)
            landed = self._hist.last_fill(p.variants[0].to_square, math.nextafter(p.t, _INF))
            if landed is not None and since <= landed < gone:
                return True
        return False

    def _left_error_in_progress(self, ctx: _Ctx, now: float, expl: _Expl) -> Tracker | None:
        """The board leaves an error of the tracker's story for a move in progress with
        more than one lift its story leaves unexplained (``expl``): as when it leaves it
        by a move (``_left_error_by_a_move``), a kept story that explains the board and
        showed fewer errors is the better one (the sixth generator x0.4, game 20 of seed
        114: sente's P*4b, gote's king lifted from 4a with 4b knocked 4 ms later for 76
        ms, held 1.9 s and set on 3a; read as the king taking 4b, then 4b4a+ and the
        king's capture of the tokin, made as 3a was touched, as errors for 3.5 s, and the
        board then read as 4a4b being moved on: the held king's story, kept all along,
        never taken, and a round of four plies lost)."""
        if (
            expl.kind not in (INPROG, INPROG0)
            # (more than one: a piece knocked while the mover's is lifted, red until it is
            # put back, is no sign against the story; the sixth generator, polarity, game
            # 12 of seed 123: 7f lifted, 8e knocked 0.69 s, and a story kept two plies
            # back taken, the game lost)
            or expl.score[0] < 2
            or self._illegal is None
            or not self._forks
            or ctx.virtual
        ):
            return None
        return self._left_error_by_a_move(ctx, now, expl)

    def _knocked_as_landed(
        self, ctx: _Ctx, expl: _Expl, shown: IllegalState, left: set[int | None]
    ) -> bool:
        """An error shown (``shown``) that was ``expl``'s move itself with a knock as it
        landed: every square it asked to clear is the move's landing, never lifted since
        the move before the open one, and every square it asked to fill but those the
        move left was occupied just before the move landed (a piece knocked then, put back
        now).
        The sixth generator, game 12 of seed 44: 8e7f slid, the bishop on 8g knocked 3 ms
        after 7f filled, off 0.4 s; the next move then took a story kept at 8d8e, and
        8d8e, P*8d and 8e7f were recorded as P*7f, a false move, two plies lost. Or knocked
        as the hand reached for the move's piece, up to ``_KNOCK_LEAD`` before its lift
        (x0.4, game 12 of seed 90, the same plies, 8g knocked 6 ms before 8e's lift). Not a
        square whose piece was lifted and another set there (a third generator at x0.3,
        game 15 of seed 147: sente's P*2f read as a hover, then gote's 2e taking it target
        first, an error), nor one empty as the move landed and filled since by another
        piece (two captures never seen at 100 Hz, games 10 of seeds 49160 and 49825)."""
        came = {m.to_square for m in expl.moves} | {p.variants[0].to_square for p in expl.chain}
        hist = self._hist
        om = ctx.open_move
        # (the open move's own origin was lifted by that move: only a lift since it landed
        # counts there; the sixth generator, noise x2, game 12 of seed 57, blitz hands:
        # 8d8e slid, gote's P*8d with 9c knocked 18 ms after, shown as an error, then 8e7f
        # slid, and a story kept of P*8e taken for it, two plies lost)
        if not all(
            sq in came
            and not hist.lifts(
                sq, ctx.w_cur if om is not None and sq == om.from_square else ctx.w_prev
            )
            for sq in shown.clear
        ):
            return False
        fills = [hist.last_fill(sq) for sq in shown.clear]
        landed = max((f for f in fills if f is not None), default=None)
        if landed is None:
            return False
        # (or just before the hand reached for the move's piece: the sixth generator, x0.4,
        # game 12 of seed 90, 8e7f slid, 8g knocked 6 ms before 8e's lift for 1.1 s)
        for sq in left:
            if sq is not None and (lift := hist.last_lift(sq, ctx.w_cur)) is not None:
                landed = min(landed, lift - _KNOCK_LEAD)
        # (the board just before it landed: a scan may show the knock in the same frame)
        board = self._shown_at(math.nextafter(landed, _NEG_INF))
        return board is not None and all(sq in left or board[sq] != EMPTY for sq in shown.fill)

    def _played_through(self, alt: Tracker, now: float, wait: float) -> bool:
        """Has the board gone on through an error of the tracker's story for the story's
        wait, the other story showing none since it began? The players did not stop to
        put anything back: they saw no error of theirs (x0.4 polarity ``--extra
        --overlap``: 4a3a read as the king taking 4b, the king set down on 3a read as
        nothing; then 4b4a+, and moves made and taken back, five seconds of errors the
        held king's story explained; the board came back to the tracker's story by
        chance, and four plies were lost). Or none for the whole wait, its own errors
        since put right by its own later reading (100 Hz x0.4 --rich, game 14 of seed
        51316: 8d8c and 8d7c alike for 60 plies, errors in both read as captures never
        seen; 8d7c then failed, and 8d8c went on through five moves with no pause of the
        wait's length until the log ended, the game lost from 8d8c on). Or none now, and
        fewer since the tracker's own error began than the tracker's story showed."""
        since = self._err_since
        if since is None or now - since < wait:
            return False
        # (calm since it was kept, at least: a story copies the tracker's past)
        kept = next((f.born for f in self._forks if f.alt is alt), _NEG_INF)
        calm = max(alt._calm_at, kept)
        if self._spared(alt) or (alt._illegal is None and calm <= now - wait):
            return True
        # (or showing none now, and fewer than the tracker's own since its error began:
        # errors both stories showed, an illegal drop seen and taken back, say, do not
        # make the other story wait a whole wait more; the sixth generator, polarity x0.4
        # noise x2, game 19 of seed 86: gote's L*1f with 2g knocked 20 ms after its
        # landing for 0.97 s, read as 2g1f slid, its return an error for 4.6 s through
        # sente's nifu drop taken back and gote's 7b8c; L*1f's story showed that drop
        # alone, calm 3 s less 0.6 ms when sente touched 2g, read as L*2g)
        mine = sum(t >= since for t in self._shown_times)
        theirs = sum(t >= since for t in alt._shown_times)
        return alt._illegal is None and theirs < mine

    def _putting_back(self, ctx: _Ctx) -> bool:
        """Is the board now wrong only by pieces of the side not to move off their squares
        (``_knocked_only``), a piece shown astray picked up again? The players are putting
        a shoved piece back: the board is not going on through the error (see
        ``_played_through``; the sixth
        generator at x2, game 8 of seed 146: a sleeve shoved 8h onto 8g for 2.1 s, then
        8g cleared 1 s before 8h was refilled, the error's run past the story's wait, and
        a story of a capture never seen 17 plies back taken for it, a false move)."""
        # (a stray piece picked up again: the error shown had a piece astray, its square
        # now as the story has it; a piece merely lifted may be the other side's move,
        # the tracker's story a ply out: the sixth generator, noise x2, game 19 of seed 84)
        shown = self._shown
        cells = self._cells
        if shown is None or not shown.clear or cells is None:
            return False
        if any(cells[sq] != ctx.cur.exp[sq] for sq in shown.clear):
            return False
        return self._knocked_only(self._analyse_illegal(ctx))

    def _gone_round(
        self, now: float, n: int, since: float | None = None, taken_back: bool = False
    ) -> Tracker | None:
        """The board is back at the position after errors of the tracker's story: a kept
        story that explained every state since those errors began, showing none (or fewer
        errors than the tracker's), and made three moves or more past the tracker's in that
        time (two, if it is no story of a capture never seen), came round to the same
        squares filled (a position repeated: 100 Hz x0.4 --rich, game 20 of seed 45832, gote's
        king taking the tokin on 4a unseen, then P*4b, 4a3a and 4b4a+ again, read as a
        king in check and a piece taking its own, put right; four plies lost). Players
        putting an error right do not play legal moves while they do it. Three moves or
        more: see below. None when such stories differ (see ``_guesses``). ``n``: the
        game's length in the tracker's reading of the board (moves taken back). ``since``:
        the error went as a piece in the air with lifts left unexplained (see _restored),
        when it began; the board is read again now, back at the position (game 20 of seed
        51320, the same repetition: the king held over 2d in 4a3a, and the story kept
        afresh at the state before 4b4a+; read as the tokin lifted again, then the
        position: four plies lost). A story kept since that error began showed its errors
        only as the tracker's own story's, copied, if it showed none since."""
        fitting: list[Tracker] = []
        for f in self._forks:
            alt = f.settled(now)
            # (or one that showed no error since the tracker's began, kept a moment
            # before it: the sixth generator at x2, game 15 of seed 55, the story kept at
            # the refill the tracker's error was shown for, 7 ms before it settled)
            fresh = since is not None and (
                alt._err_last < since or (f.born >= since and alt._err_last <= f.born)
            )
            if (
                self._explains(alt)
                # (or that showed fewer errors: a piece held over a square on its way, game
                # 20 of seed 48527, the king over 3h in 4a3a)
                and (self._spared(alt) or alt._n_illegal < self._n_illegal or fresh)
                and alt._pending is None
                # (three plies on at least for a story of a capture never seen: such a
                # capture and the opponent's drop on the square it left read as a touch
                # is two, and the game tells those apart, see _keep_touched_unseen; the
                # second generator's game 8, seed 1, 6g6f unseen and S*6g taken so at a
                # piece put back, a false move. Nor after moves read as taken back: the
                # independent generator x0.7 --extra --overlap, game 14 of seed 33213, a
                # move and its reply taken back, and a story two plies longer kept since
                # 7h6i taken, three false moves. Two for another story, since session 57:
                # the sixth generator x0.4, game 15 of seed 57, sente's P*9i, gote's P*9h
                # with 9i knocked as it landed, read as P*9i moved on, 9i put back an
                # illegal drop, and sente's 9i9h, 9h swapped out, putting it right: two
                # plies lost, and the hands in hand wrong to the game's end)
                and len(alt._history) >= n + (2 if self._went_on(alt, taken_back) else 3)
                and not alt._unerring
                and (alt._premise is None or len(alt._history) >= alt._premise[0])
            ):
                fitting.append(alt)
        if len({tuple(a._history) for a in fitting}) != 1:
            return None
        return fitting[0]

    def _fits_too(self, f: _Fork) -> bool:
        """Does the kept story ``f``, fed up to now (as ``_revisable`` feeds the stories it
        weighs), also explain the board as another is taken (see ``_adopt``)? It stays
        kept: the one taken was preferred for showing fewer errors, and one of those may
        have been a knock of a piece of the side not to move, while the game tells the two
        apart a move later (the sixth generator, noise x2, game 2 of seed 42: 6c held 3.5 s
        with 7d knocked 18 ms after its lift, read as 6c7d and B*3c; 6c3c and B*4h kept,
        with sente's sleeve on gote's 5b for 1.1 s an error in it; 6c7d, B*3c and N*4h
        taken as sente's 5g5f began, and 6c3c's story dropped: the rest of the game
        lost)."""
        return (
            f.fed == len(f.events)
            and f.alt._premise is None
            and not f.alt._unerring
            and self._explains(f.alt)
        )

    def _went_on(self, alt: Tracker, taken_back: bool) -> bool:
        """May the kept story ``alt`` come round to the tracker's squares two plies past
        it (see ``_gone_round``), not three? Only a story of no capture never seen, with
        no moves read as taken back, whose last move is a capture by a piece on the board:
        the error put right by a move the board showed, not by a piece lifted again (the
        independent generator x0.7 ``--extra --overlap``, game 14 of seed 33213: 7h6i
        with 7i knocked, the story of 7h7i, P*6i and P*8b kept, its drops put back as
        the error went; taken, three false moves)."""
        if alt._premise is not None or taken_back or not alt._history:
            return False
        last = alt._history[-1]
        return last.from_square is not None and alt._game.captured_piece_type() is not None

    def _spared(self, alt: Tracker) -> bool:
        """Has another story shown no error since the tracker's own present one began?
        False if the tracker's story shows none."""
        since = self._err_since
        return since is not None and alt._err_last < since

    def _explains(self, alt: Tracker, phase: str = "play") -> bool:
        """Does another story explain the board: in play (or its game over, ``phase``), in
        no illegal state, and with no more illegal states shown than the tracker's own?"""
        return alt._phase == phase and alt._illegal is None and alt._n_illegal <= self._n_illegal

    def _show_for_now(self, ctx: _Ctx) -> list[TrackerOutput]:
        """Show the state as the error it is in the tracker's story, once, and decide again
        as time passes (another story may explain it if the board stays so)."""
        if self._shown_for_now == self._state_id:
            return []
        self._shown_for_now = self._state_id
        return self._show_illegal(self._analyse_illegal(ctx), self._t_change)

    def _story_wait(self, steps: float = 3.0) -> float:
        """How long a state only another story explains must stay before it is taken:
        ``held_settle``, or three steps of a slow hand (``steps``: another number of
        them), up to ``takeback_settle_max``."""
        p = self.params
        return self._paced(p.held_settle, steps, max(p.held_settle, p.takeback_settle_max))

    def _end_wait(self) -> float:
        """How long a game-ending move stands before the game ends: as long as another
        story waits (``held_settle``), or for slow hands ``_END_STEPS`` of their pace, up
        to ``takeback_settle_max``: the mover may set the piece down, think, and move it
        on (the sixth generator at x2, game 17 of seed 49: 6b6a set on 5a first, a mate,
        and moved on 4.6 s later at a step of 0.5 s; the game ended as checkmate after
        3 s, a false move and a false result)."""
        return self._story_wait(_END_STEPS)

    def _adopt(self, alt: Tracker, now: float) -> list[TrackerOutput]:
        mine, theirs = self._history, alt._history
        k = _agreed(mine, theirs)
        start = self._game.ply - len(mine)  # the SFEN move number of the first move
        outs: list[TrackerOutput] = self._restored(now)
        if self._pending is not None:
            outs.append(QuestionCancelled(now))
        outs += [TakeBack(mine[i], now, start + i) for i in range(len(mine) - 1, k - 1, -1)]
        outs += [MoveMade(theirs[i], now, start + i) for i in range(k, len(theirs))]
        if alt._pending is not None:
            outs.append(alt._pending.question)
        if alt._phase == "over" and alt._outcome is not None:
            outs.append(GameEnded(alt._outcome, now))
        # the story given up is kept in turn, taken back if the one taken fails (by the
        # tracker itself: another story's own stories are not multiplied)
        is_fork, premise, unerring = self._is_fork, self._premise, self._unerring
        given_up = None
        if k < len(mine) and not is_fork:
            given_up = _Fork(self._copy(), [], tuple((m,) for m in mine[k:]), k)
        elif k < len(theirs) and not is_fork:
            # (also one that made none of the other story's moves: the board showed an
            # error in it, now a move it reads too; the sixth generator, polarity x0.4
            # noise x2, game 11 of seed 3111: 1e1d with 1c knocked 1.1 s, then 7g knocked
            # 1.1 s as gote dropped P*7f, shown as errors, and 1c1d and P*1c kept, taken
            # for fewer errors: the rest of the game lost)
            given_up = _Fork(self._copy(), [], _NONE_MADE, k)
        # the stories kept that part from the tracker's before the one taken does, and
        # keep its move as a story of their own, stay kept: each is fed the events as the
        # tracker is, and may take that move in turn (the independent generator, x0.4
        # --overlap --rich, corpus game 4 of seed 57253: sente's 7g6g read as 7g9g, gote's
        # touch of 9g its capture's, 7g6g kept; gote's 7b6c, read as 7b6b, kept in both,
        # and taken in the tracker's: 7g6g's story went with it, a false move). Only
        # those: any other older story kept on cost a quarter more time an event while
        # the board was wrong (bench/stuck.py)
        taken = theirs[k:]
        older = (
            []
            if is_fork
            else [
                f
                for f in self._forks
                if f.alt is not alt and f.at < k and (_keeps(f.alt, k, taken) or self._fits_too(f))
            ]
        )
        # (the other story is in play and explains the board: see _revisable)
        self.__dict__.update(alt.__dict__)
        self._fixed = 0  # (the other story's premise: it is the tracker's story now)
        self._no_later_at = -1
        self._premise = premise if is_fork else None
        self._unerring = unerring if is_fork else ""
        if is_fork and premise is None and alt._premise is not None:
            # (a story kept with no capture never seen that took one of its own (see
            # _deeper) is such a story now, taken only as such: 100 Hz x0.4 --rich, game
            # 2 of seed 50227, the story of 2b2a taken with 1d1f unseen over the
            # tracker's 2b3b, fifteen plies rewritten, two false moves)
            self._premise, self._unerring = alt._premise, alt._unerring
        self._is_fork = is_fork
        if given_up is not None and self._keeps_stories():
            self._forks = [f for f in self._forks if f.alt is not alt]
            self._keep(given_up)
        if older and self._keeps_stories():
            self._forks = (older + self._forks)[-_FORKS:]
        self._changed()
        return outs

    # --- acting on an explanation ----------------------------------------------------

    def _apply(self, ctx: _Ctx, expl: _Expl) -> list[TrackerOutput]:
        t = self._t_change
        obs = self._cells
        assert obs is not None
        kind = expl.kind
        if self._end_pending is not None and (
            kind == MOVE or (kind == TWO and not expl.chain[0].correcting)
        ):
            # a move after the game's end: the end stands, the move is not recorded
            outcome, t_end = self._end_pending
            return self._restored(t) + self._end(outcome, t_end)
        expected = self._expected
        if kind == MOVE and expected is not None and expected not in expl.moves:
            return self._show_illegal(self._unexpected(ctx, obs), t)
        if kind == CORRECT and self._open_engine:
            return self._show_illegal(self._unexpected(ctx, obs), t)
        if kind in (INPROG, INPROG0) and self._hover_left(expl, obs):
            self._shown_times = self._shown_times[: -self._n_shown_now]
            self._n_shown_now = 0
        # (a piece in the air with lifts left unexplained, or the tracker's last move
        # corrected: no proof the error was a slip, see _restored)
        outs = self._restored(
            t, (kind in (INPROG, INPROG0) and expl.score[0] > 0) or kind == CORRECT
        )
        if kind == IDLE:
            if expl.score[0] == 0 or self._erred:
                # a clean return to the position starts a new window; after unexplained
                # lifts (a knock, or a reply already begun) the history is kept, unless
                # they were an error the player has just put right (an illegal move
                # taken back: what its hand did then explains nothing that follows)
                self._establish(t, obs)
            else:
                self._keep_touched_unseen(ctx)
            self._set_display(None)
        elif kind in (INPROG, INPROG0):
            info = ctx.cur if kind == INPROG else ctx.prev
            assert info is not None
            self._set_display(self._display_for(info, expl.lifted))
        elif kind == MOVE:
            self._keep_moved_onto(ctx, expl)
            landed = self._landed(ctx.cur, expl.moves[0], obs, ctx.w_cur)
            outs += self._new_move(ctx.cur, expl.moves, t, landed, obs)
        elif kind == CORRECT:
            assert ctx.prev is not None
            self._keep_knocked_in_chain(ctx, expl)
            outs += self._correct(ctx.prev, expl.moves, t, obs)
        elif kind == RETRACT and self._open and not ctx.virtual:
            # (the open move taken back, its piece set down where it stood: a touch as
            # the board reads it, see _keep_touched_unseen; 100 Hz x0.4 --rich, game 17
            # of seed 49910: 1f held over 1g, read as 1f1g, then 1f refilled, taken back;
            # it was 1f1e unseen and gote's N*1f, "N" pressed)
            since = ctx.w_prev
            outs += self._take_back(1, t, obs, prune=False)
            self._keep_touched_unseen(replace(self._context(), w_cur=since))
            self._prune()
        elif kind in (RETRACT, BACK):
            outs += self._take_back(max(1, expl.back), t, obs)
        elif kind == TWO:
            self._keep_knocked_in_chain(ctx, expl)
            outs += self._two(ctx, expl, t, obs)
        return outs

    def _landed(self, base: PosInfo, move: Move, obs: str, since: float) -> float:
        """When the window after ``move``, made on the state ``obs``, begins: at the move's
        landing, when the board first showed ``obs`` since ``since``, not at its return
        to it. The opponent's touches, and a drop lifted at once by the next capture
        (target first), in between are the moves after it. A capture's begins at its
        state's last showing: its attacker may have been held while a knocked piece went
        back (see _held_open). Not a showing before the move's origin was filled again: the
        piece was lifted and put back (a touch, a hover over the square it went to next),
        and moved only after (the sixth generator, polarity x0.4 noise x2, game 12 of seed
        34: sente's 9d touched, the hand over 9c meanwhile, then 9d9c slid with 9b knocked
        1.2 s; timed from the touch, gote's 9b lift came a reply's time after, and a chain
        read it as 9b taking 9c unseen and sente's P*9b: two false moves, no error)."""
        if base.codes[move.to_square]:
            return self._t_change
        t = self._t_change
        origin, to = move.from_square, move.to_square
        for ts, cells in reversed(self._states):
            if ts < since or (origin is not None and cells[origin] != obs[origin]):
                break
            if cells[to] == EMPTY:
                break
            if cells == obs:
                t = ts
        return t

    def _apply_pending(self, ctx: _Ctx, expl: _Expl, held: float = _INF) -> list[TrackerOutput]:
        """A question is waiting: keep it unless the mover changed the move (``held``: how
        long the new move's capture stood, see _held)."""
        t = self._t_change
        kind = expl.kind
        if kind in (CORRECT, RETRACT) or (kind == TWO and expl.chain[0].correcting):
            was_pending = self._pending
            outs = self._restored(t) + self._cancel_question(t)
            expl2, _later, ctx2 = self._evaluate()
            if expl2 is None:
                return outs + self._show_illegal(self._analyse_illegal(ctx2), t)
            self._keep_others(ctx2, expl2)
            outs += self._apply(ctx2, expl2)
            self._note_in_the_air(ctx2, expl2, held, was_pending)
            return outs
        outs = self._restored(t)
        if kind in (INPROG, INPROG0):
            info = ctx.cur if kind == INPROG else ctx.prev
            assert info is not None
            self._set_display(self._display_for(info, expl.lifted))
        else:
            self._set_display(None)
        return outs

    def _restored(self, t: float, loose: bool = False) -> list[TrackerOutput]:
        """The error shown is gone. A story of a capture never seen is one of that error,
        gone with it (not one kept before it, see _keep_dropped_unseen); unless the board
        is now read only as a piece in the air with lifts left unexplained, or as a
        correction of the tracker's last move, its story changed rather than the board
        put back (``loose``): stories that explained every move since may still be the
        game (100 Hz x0.4 --rich, game 3 of seed 48125: 8e9c+ unseen, 8e7c+ alike, then
        5b4a, 5h5i, 4b5b and 5i5h, the board then read as 4a4b taken back, 8e lifted and
        five lifts left over; both stories went, and the rest of the game was lost; game 1
        of seed 48836, 8a8f unseen, R*2c and N*8a, read as 8a8d corrected to N*2c). Nor
        one of this error two moves or more past the tracker's that explains the board:
        it read the board put right as its game going on; nor one move past it with a
        question waiting (_asks_past): the player sees that question, not the board put
        right, and may answer it (100 Hz x0.4 --rich, game 10 of seed 49825, 3e2e unseen,
        5d4d and P*4e read as 3e4e and 5d4d, "P" pressed for the drop, and the rest of
        the game lost)."""
        if self._illegal is None:
            return []
        self._round_from = self._err_since if loose else None
        # (the kept story's move that put the error right may still be in the air: the
        # sixth generator at x2, game 15 of seed 55, as game 15 of seed 57 at x0.4 in
        # _gone_round, but 9i9h's target lifted 0.58 s after 9i, once the board showed
        # the tracker's squares)
        self._put_right = self._err_since
        self._illegal = None
        self._shown = None
        self._err_since = None
        self._calm_at = self._t_now
        self._intents = None
        if not loose:
            n = len(self._history) + 2
            self._forks = [
                f
                for f in self._forks
                if f.alt._premise is None
                or f.alt._unerring
                # (nor one that read the board put right as its game going on, two moves
                # past the tracker's: the piece held while the opponent moved, then set
                # down where it was, reads as that piece taking one never seen and a drop
                # where it had been set: 100 Hz x0.4 --rich, game 10 of seed 49160, 8h set
                # on 7i, then taking 8g unseen, P*3c and S*7i, read as 8h7i and P*3c)
                or (
                    len(f.alt._history) >= n
                    and f.alt._premise[0] >= n - 2  # (a capture of this error's)
                    and self._explains(f.alt)
                )
                or self._asks_past(f, n - 1)
            ]
        return [StateRestored(t)]

    def _asks_past(self, f: _Fork, n: int) -> bool:
        """Is ``f`` a story of this error's capture never seen (see _restored) that, fed
        all it was given, is one move past the tracker's, the board put right, with a
        question waiting that the tracker's story does not ask? The player sees the
        question not shown, and may answer it (see _answered_elsewhere)."""
        premise = f.alt._premise
        if premise is None or premise[0] < n - 1 or self._pending is not None:
            return False
        alt = f.caught_up()
        return alt._pending is not None and len(alt._history) >= n and self._explains(alt)

    def _establish(self, t: float, obs: str) -> None:
        """The board shows the current position since ``t``."""
        self._w_cur = t
        self._ref_cur = obs
        self._prune()

    def _prune(self) -> None:
        """The windows moved on: forget what came before them."""
        self._erred = False
        oldest = min(self._w_prev, self._w_cur) if self._open else self._w_cur
        if oldest == _NEG_INF:
            return
        self._hist.prune(oldest)
        states = self._states
        i = 0
        while i < len(states) - 1 and states[i][0] < oldest:
            i += 1
        if i:
            del states[:i]

    def _choose(self, moves: tuple[Move, ...]) -> tuple[Move, ...]:
        if self._expected is not None and self._expected in moves:
            return (self._expected,)
        return moves

    def _new_move(
        self, base: PosInfo, moves: tuple[Move, ...], t: float, t_est: float, ref: str
    ) -> list[TrackerOutput]:
        moves = self._choose(moves)
        if len(moves) == 1:
            return self._make(moves[0], t, t_est, ref)
        return self._ask("move", base, moves, t, t_est, ref)

    def _answered_before(self, since: float) -> tuple[float, str] | None:
        """The last answer given, with no question waiting, since a new move's piece first
        landed (``since``, and since the last question answered): the answer to that
        move's question, pressed before the board showed the move settled."""
        if self._answered_at is not None:
            since = max(since, self._answered_at)
        late = [(ta, value) for ta, value in self._loose_answers if ta > since]
        return late[-1] if late else None

    def _make(self, move: Move, t: float, t_est: float, ref: str) -> list[TrackerOutput]:
        self._asked_about = None
        self._put_right = None
        outs: list[TrackerOutput] = []
        game = self._game
        if self._open and game.peek() is not None:
            last = game.peek()
            assert last is not None
            outs.append(MoveClosed(last, t, game.ply - 1))
        self._p0 = self._info()
        ply = game.ply
        self._push(move, t)
        outs.append(MoveMade(move, t, ply))
        self._open = True
        self._open_engine = self._expected is not None and move == self._expected
        self._expected = None
        self._hint = None
        if move.from_square is not None:
            self._note_step(move.from_square, t_est)
        self._w_prev, self._ref_prev = self._w_cur, self._ref_cur
        self._w_cur, self._ref_cur = t_est, ref
        self._prune()
        self._set_display(None)
        self._changed()
        self._keep_dropped_unseen(move)
        # (a touch that came while the move waited out its capture, read with it: the
        # board already shows the position after it, since the capture's landing)
        self._keep_touched_unseen(shown=ref)
        return outs + self._check_end(t)

    def _first_shown(self, cells: str, since: float) -> float:
        """When the board first showed ``cells`` since ``since`` (``_INF`` if it never
        did in the states kept)."""
        return next((ts for ts, c in self._states if ts >= since and c == cells), _INF)

    def _note_step(self, origin: int, landed: float) -> None:
        """Keep the hands' pace: the upper quartile of the last moves' last steps (from the
        hand's previous change on the board to the landing), from the third move on."""
        lift = self._hist.last_lift(origin, self._w_cur, landed)
        gap = None if lift is None else self._hist.last_gap(lift, landed, _CHATTER)
        if gap is None:
            return
        self._gaps = [*self._gaps[1 - _GAPS :], gap]
        if len(self._gaps) >= 3:
            self._pace = sorted(self._gaps)[(3 * len(self._gaps)) // 4]

    def _paced(self, wait: float, steps: float, most: float) -> float:
        """``wait``, or for slow hands ``steps`` times their pace, at most ``most``."""
        if self._pace is None:
            return wait
        return min(max(wait, steps * self._pace), max(wait, most))

    def _held_most(self) -> float:
        """How long a piece may be held over the board while its player thinks:
        ``_HELD_MOST``, or for slow hands ``_HELD_STEPS`` of their pace (the sixth
        generator at x2, game 1 of seed 39: 8i held 7.7 s after 9i knocked, then set on 9h
        8.1 s after the knock was back; read as 8i9i and gote's P*9h, the rest lost; game
        11 of seed 47, 8e set on 9e 10.5 s after 8f was back, a step of 0.75 s)."""
        return self._paced(_HELD_MOST, _HELD_STEPS, _HELD_LONGEST)

    def _reaction(self) -> float:
        """How long after a capture's landing a piece lifted and put back is read as the
        touch after the capture rather than a knock in it (see ``_score``): 0.6 steps of
        the hands' pace (``_REACTION``), at least ``_REACTION_MIN``; until the pace is
        known, never. docs/tracker.md has the waits measured on both sides."""
        return _INF if self._pace is None else max(_REACTION_MIN, _REACTION * self._pace)

    def _short(self) -> float:
        """How long a position a chain holds must have been shown not to be a hover:
        ``_SHORT``, or for quick hands ``_SHORT_STEPS`` of their pace."""
        if self._pace is None:
            return _SHORT
        return min(_SHORT, _SHORT_STEPS * self._pace)

    def _touch_min(self) -> float:
        """How long a piece must be off its square to be a touch on purpose, not a wobble
        or a target swapped out: ``_TOUCH_STEPS`` of the hands' pace, from ``_TOUCH_FLOOR``
        up to ``_TOUCH_MIN`` (x1.0: a target swapped in 54 ms; x0.5: a touch of 72 ms;
        x2.0, a step of 1.6 s: a target swapped in 0.13 s; x0.3, a step of 0.18 s: a touch
        of 42 ms, under the floor of 50 ms it had until session 19). Until the pace is
        known, ``_SWAP``."""
        if self._pace is None:
            return _SWAP
        return min(_TOUCH_MIN, max(_TOUCH_FLOOR, _TOUCH_STEPS * self._pace))

    def _capture_wait(self) -> float:
        """How long a capture that may be a held attacker waits: 1.4 steps of a slow hand
        (a knocked piece put back, then the held piece set down, takes it longer)."""
        p = self.params
        return self._paced(p.capture_settle, 1.4, p.capture_settle_max)

    def _chain_wait(self, steps: float = _CHAIN_STEPS) -> float:
        """How long a capture seen only in the history (a chain's first move) must have
        stood to be believed: the capture wait, but for quick hands 2.5 steps of their
        pace (at least half a second): they reply that fast (a capture, and the opponent's
        pawn dropped on the square the attacker left 0.71 s later, at a step of 0.27 s).
        With two steps, a held piece set down 0.62 s after a knock (a step of 0.31 s)
        read as a capture and the opponent's drop. (``steps``: another number of them.)"""
        wait = self._capture_wait()
        if self._pace is None:
            return wait
        return min(wait, max(_CHAIN_WAIT_MIN, steps * self._pace))

    def _dropped_on_origin_soon(self, chain: tuple[_Ply, ...], last: tuple[Move, ...]) -> bool:
        """Does a chain hold (or end with) the opponent's drop on the square the move before
        it left, landing less than ``_ORIGIN_SOON`` after that square opened (or a step of
        quick hands' pace)? The mover's hand was still there: a neighbour it knocked as it
        set its piece down beside it (or dropped one there), put back. Measured on every
        generator's drops on the square the move before left: 0.32 s at the least, at
        x0.4 (the sixth generator, game 17 of seed 5: G*4g, 3g off 12 ms after 4g closed
        for 0.25 s, read as 3g4g and gote's P*3g, a false move to the log's end)."""
        nexts = [p.variants for p in chain[1:]] + ([last] if last else [])
        return any(
            self._dropped_soon_after(ply, moves) for ply, moves in zip(chain, nexts, strict=False)
        )

    def _dropped_soon_after(self, ply: _Ply, moves: tuple[Move, ...]) -> bool:
        """Is ``moves`` (the move after a chain's ``ply``) the opponent's drop on the square
        ``ply``'s piece left, landing too soon after it opened (see
        ``_dropped_on_origin_soon``)? Also in the middle of a chain (the sixth generator,
        x0.4, game 8 of seed 8: gote's 3a2b, 1c knocked 32 ms after the landing for 0.16
        s, read as 1c taking 2b, slid, gote's N*1c and sente's 2h1h, and the rest of the
        game lost)."""
        move = ply.variants[0]
        origin = move.from_square
        if ply.correcting:
            # (a correction moving the open move's piece on: the square it left is the one
            # that move was set down on; the sixth generator, noise x2, game 5 of seed 129:
            # gote's P*6h, then sente's L*6g 7.3 s later with 6h knocked 24 ms after for
            # 0.13 s, read as P*6h slid on to 6g and sente's L*6h, the game lost)
            om = self._game.peek() if self._open else None
            if om is None or not _same_piece(move, om):
                return False
            origin = om.to_square
        if origin is None:
            return False
        return _drop_on(moves, origin) and self._refilled_soon(origin, ply.t)

    def _refilled_soon(self, sq: int, until: float) -> bool:
        """Was ``sq`` refilled, after its last opening up to ``until``, too soon for a
        piece fetched from a stand: less than ``_ORIGIN_SOON`` (or a step of quick hands'
        pace) after it opened? Its lift and refill are real ones, past the chatter of the
        lift itself."""
        off = [(a, b) for a, b in self._hist.lifts(sq, _NEG_INF) if a <= until]
        if not off or off[-1][1] is None:
            return False
        lift, refill = off[-1]
        assert refill is not None
        soon = _ORIGIN_SOON if self._pace is None else min(_ORIGIN_SOON, self._pace)
        return refill - lift < soon

    def _redropped_soon(self, om: Move, move: Move, until: float) -> bool:
        """Is ``move``, correcting the open move ``om``, a drop on the square ``om``'s piece
        was set down on, landing too soon after that square opened for a piece fetched from
        the stand (see ``_refilled_soon``)? The hand sliding the piece back could not have
        dropped another there so soon: the piece was knocked as the opponent's drop
        landed on the square it left (the sixth generator, x0.4, game 12 of seed 20:
        8d8e, gote's P*8d 0.8 s later with 8e knocked for 89 ms, read as 8d8e corrected
        to P*8e, and the rest of the game lost)."""
        return _drop_on((move,), om.to_square) and self._refilled_soon(om.to_square, until)

    def _rekinded(self, om: Move, moves: tuple[Move, ...], since: float, until: float) -> int:
        """The cost of ``moves`` correcting the open drop ``om`` with drops of other kinds
        only: the piece dropped, moved on, keeps its kind; another kind is fetched from the
        stand, the first put back there. Two lifts if the new square filled before the old
        one opened (the same piece pushed on: the kinds cannot differ), one if less than
        ``_ORIGIN_SOON`` after (no hand fetches a piece that fast; the sixth generator,
        noise x2, game 17 of seed 30: gote's L*2h, then sente's G*3i with 2h knocked 16 ms
        after the landing for 1.2 s, read as L*2h corrected to R*3i, a lance may not stand
        on 3i, and sente's G*2h: two false moves). So is a chain's first ply, a
        correction; and a correction costing two is not believed at once (``held``): the
        board may yet show the knocked piece put back."""
        kind = om.drop_piece_type
        if kind is None or any(m.drop_piece_type in (None, kind) for m in moves):
            return 0
        lift = self._hist.last_lift(om.to_square, since, until)
        fills = self._hist.fills(moves[0].to_square, since, until)
        if lift is None or not fills:
            return 0
        return 2 if fills[0] <= lift else int(fills[0] - lift < _ORIGIN_SOON)

    def _origin_drop_wait(self) -> float:
        """The chain wait when the opponent's drop on the square the attacker left comes
        next: ``_ORIGIN_STEPS`` of the hands' pace (at least half a second). The other
        story then has the attacker held, its target knocked, and the attacker put back
        where it stood: a capture begun and given up, rarer than a knock on the way to
        another square (x0.4: 5e6f, P*5e 0.62 s later, two steps; x0.3: 9g9f, P*9g 0.56
        s later, 2.4 steps: both read as the attacker put back and the target touched,
        the game lost)."""
        return self._chain_wait(_ORIGIN_STEPS)

    def _takeback_wait(self) -> float:
        """How long a take-back that could be a move in progress waits: three steps of a
        slow hand (the opponent may lift the piece it will capture, think, then lift its
        own)."""
        p = self.params
        return self._paced(p.takeback_settle, 3.0, p.takeback_settle_max)

    def _correct(
        self, base: PosInfo, moves: tuple[Move, ...], t: float, obs: str
    ) -> list[TrackerOutput]:
        last = self._game.peek()
        if (
            len(moves) > 1
            and last is not None
            and last.from_square is None
            and self._answered_ply == len(self._history)
        ):
            # a drop answered, moved on to another square, is the same piece: its kind
            # stands (not one read from the square alone: the kind only one fits there; the
            # fourth generator, --regret 0.03, game 10 of seed 12: N*7f read with "N"
            # pressed as the knight, set on 7g, was nudged over 7f; moved back to 7g, "G or
            # N?" asked again, never answered, and the rest of the game lost)
            same = tuple(m for m in moves if m.drop_piece_type == last.drop_piece_type)
            moves = same or moves
        if len(moves) > 1:
            return self._ask("correct", base, moves, t, t, obs)
        game = self._game
        old = self._pop()
        self._push(moves[0], t)
        self._w_cur, self._ref_cur = t, obs
        self._prune()
        self._expected = None
        self._hint = None
        self._set_display(None)
        self._changed()
        # (a correction to a quiet move may be a capture never seen and the opponent's
        # drop as well: 100 Hz x0.4 --rich, game 24 of seed 52225, gote's 3c took 3d
        # unseen, the silver held over 4b, then sente's B*2b, read as 3c4b corrected to
        # 3c2b; gote's P*3c then read as B*3c, "P" pressed, and the rest lost)
        self._keep_dropped_unseen(moves[0])
        return [MoveCorrected(old, moves[0], t, game.ply - 1), *self._check_end(t)]

    def _take_back(self, k: int, t: float, obs: str, prune: bool = True) -> list[TrackerOutput]:
        outs: list[TrackerOutput] = []
        game = self._game
        for i in range(k):
            if game.peek() is None:
                break
            m = self._pop()
            if i == 0 and self._open:
                outs.append(MoveRetracted(m, t, game.ply))
            else:
                outs.append(TakeBack(m, t, game.ply))
        self._open = False
        self._open_engine = False
        self._p0 = None
        self._end_pending = None
        self._expected = None
        self._hint = None
        self._w_cur = self._w_prev = t
        self._ref_cur = self._ref_prev = obs
        if prune:
            self._prune()
        self._set_display(None)
        self._changed()
        return outs

    def _two(self, ctx: _Ctx, expl: _Expl, t: float, obs: str) -> list[TrackerOutput]:
        """Make the earlier moves of a chain (each at the time the board showed it), then
        the last one; a question on an earlier move stops there (the rest follows later).
        A move whose piece an earlier one moved is read again from the position made (see
        ``_moves_again``): the variant chosen there (promoted or not, by an answer given)
        may not be the one the chain was read with, and a move of the other one may not be
        legal (x0.7 ``--extra --overlap``, game 18 of seed 52575: 4f5g+ made, then 5g4f+
        asked of the promoted silver, and the tracker crashed). None legal: the chain
        stops there, and the board is read again."""
        outs: list[TrackerOutput] = []
        moved: set[int] = set()
        for ply in expl.chain:
            variants = ply.variants
            if not ply.correcting:
                again = _legal_again(self._info(), variants, moved, ply.cells)
                if again is None:
                    return outs
                variants = again
            moved.add(variants[0].to_square)
            if ply.correcting:
                prev = self._p0
                assert prev is not None
                if self._open_engine:
                    return outs + self._show_illegal(self._unexpected(ctx, obs), t)
                if len(variants) > 1:
                    return outs + self._ask("correct", prev, variants, t, ply.t, ply.cells)
                outs += self._correct(prev, variants, ply.t, ply.cells)
            else:
                variants = self._choose(variants)
                if len(variants) > 1:
                    return outs + self._ask("move", self._info(), variants, t, ply.t, ply.cells)
                outs += self._make(variants[0], ply.t, ply.t, ply.cells)
            if self._phase != "play":
                return outs
        if expl.moves:
            info = self._info()
            moves = _legal_again(info, expl.moves, moved, obs)
            if moves is None:
                return outs
            landed = self._landed(info, moves[0], obs, self._w_cur)
            outs += self._new_move(info, moves, t, landed, obs)
        elif expl.lifted:
            self._set_display(self._display_for(self._info(), expl.lifted))
        return outs

    def _ask(
        self,
        kind: str,
        base: PosInfo,
        moves: tuple[Move, ...],
        t: float,
        t_est: float,
        ref: str,
    ) -> list[TrackerOutput]:
        to = moves[0].to_square
        began = self._w_cur
        fills = self._hist.fills(to, began, math.nextafter(t_est, _INF))
        first = landed = fills[0] if fills else t_est  # (its piece's first fill here)
        if kind == "correct":
            # (the open move's own piece moved on: since that move landed)
            landed = min(landed, began)
        src = moves[0].from_square
        if self._asked_about is not None and self._asked_about[0] == src:
            # (the same piece asked about again since no move was made: it landed first
            # where the earlier question was asked)
            landed = min(landed, self._asked_about[1])
        self._asked_about = (src, landed)
        if moves[0].from_square is None:
            kinds = {m.drop_piece_type for m in moves}
            options = tuple(piece_type_symbol(pt) for pt in HAND_PIECE_TYPES if pt in kinds)
            q = QuestionAsked("drop", options, to, t)
        else:
            q = QuestionAsked("promote", (INPUT_PROMOTE, INPUT_NONPROMOTE), to, t)
        saved = saved_cur = None
        if kind == "move":
            saved = (self._w_prev, self._ref_prev)
            self._w_prev, self._ref_prev = self._w_cur, self._ref_cur
        else:
            saved_cur = (self._w_cur, self._ref_cur)
        self._w_cur, self._ref_cur = t_est, ref
        self._pending = _Pending(kind, base, moves, q, saved, saved_cur)
        self._set_display(None)
        self._changed()
        # (or pressed as the hand set the piece down, a moment before it landed: the
        # fifth generator, game 2 of seed 1: "nonpromote" 94 ms before 4c3d's landing,
        # the question never answered and the rest of the game lost)
        early = self._answered_before(max(landed - _ANSWER_LEAD, began))
        # (or the open move's question answered with its piece lifted again to move on,
        # just before it landed here: pressed for this square; the fifth generator, noise
        # x2, game 4 of seed 3: gote's silver set on 9h, asked about, lifted, "nonpromote"
        # pressed 31 ms before it landed on 7h; taken for 8i9h, and 8i7h asked again,
        # never answered, the rest of the game lost)
        astray, self._astray = self._astray, None
        if (
            early is None
            and kind == "correct"
            and astray is not None
            and first - astray[0] <= _ANSWER_LEAD
        ):
            early = astray
        if early is not None and early[1] in q.options:
            # (the player answered as the piece landed, before the board showed the move
            # alone, or while it was nudged: the fourth generator, x0.4 with its noise
            # doubled, game 18 of seed 1: "nonpromote" pressed 0.25 s after 3f3g landed,
            # 4g knocked and put back 28 ms later; the question, asked then, was never
            # answered, and the rest of the game lost. Its game 14 of seed 12 with its
            # noise doubled: P*4e asked "R or P?", the pawn pushed over 5e, read as R*5e
            # (no pawn may go there), and "P" pressed meanwhile; back on 4e, asked again,
            # and never answered)
            return [q, *self._answer(*early)]
        return [q]

    def _unasked(self) -> list[TrackerOutput] | None:
        """A question about a new move waits, and nothing explains the board from that
        move: if the board read from before the question (the window of the position
        asked from) shows a move or moves, the question was about another hand's piece (an
        illegal move put back, say): it is withdrawn, and the board read so. So too a
        question about the open move's piece moved on, if the board read from the open
        move shows it moved on elsewhere: the square asked about was a knock, and the
        piece was still held (the independent generator, x1.0, game 4 of seed 57906:
        gote's rook set on 3e, lifted, 3h knocked 0.13 s, asked "promote?" as 3h's
        pawn was taken, and the rook set on 3g 0.66 s later: read as sente's P*3g with
        its king in check, "promote" given to 3d3h, and the rest of the game lost).
        Else None."""
        p = self._pending
        if p is None or (p.saved_prev is None and p.saved_cur is None):
            return None
        alt = self._copy()
        alt._withdraw(alt._t_change)
        expl, _later, _ctx = alt._evaluate()
        kinds = (MOVE, TWO) if p.kind == "move" else (CORRECT,)
        if expl is None or expl.kind not in kinds or not expl.moves:
            return None
        return self._restored(self._t_change) + self._withdraw(self._t_change)

    def _withdraw(self, t: float) -> list[TrackerOutput]:
        """Withdraw the question about a new move (or the open move moved on), the windows
        back where they were before it was asked (the board then read from the position
        it was asked from)."""
        p = self._pending
        if p is not None and p.saved_cur is not None:
            self._w_cur, self._ref_cur = p.saved_cur
        else:
            self._w_cur, self._ref_cur = self._w_prev, self._ref_prev
        return self._cancel_question(t)

    def _cancel_question(self, t: float) -> list[TrackerOutput]:
        p = self._pending
        if p is None:
            return []
        self._pending = None
        if p.saved_prev is not None:
            self._w_prev, self._ref_prev = p.saved_prev
        self._changed()
        return [QuestionCancelled(t)]

    def _answer(self, t: float, value: str) -> list[TrackerOutput]:
        p = self._pending
        assert p is not None
        if p.question.kind == "drop":
            pt = piece_type_from_symbol(value)
            move = next(m for m in p.cands if m.drop_piece_type == pt)
        else:
            promote = value == INPUT_PROMOTE
            move = next(m for m in p.cands if m.promotion == promote)
        self._pending = None
        self._answered_at, self._asked_at = t, p.question.t
        # (its piece off the square asked about: it may be moving on, see _ask)
        cells = self._cells
        astray = cells is not None and cells[move.to_square] == EMPTY
        self._astray = (t, value) if astray else None
        game = self._game
        outs: list[TrackerOutput] = []
        if p.kind == "move":
            if self._open and game.peek() is not None:
                last = game.peek()
                assert last is not None
                outs.append(MoveClosed(last, t, game.ply - 1))
            self._p0 = p.base
            ply = game.ply
            self._push(move, t)
            outs.append(MoveMade(move, t, ply))
            self._open = True
            self._open_engine = False
        else:
            old = self._pop()
            self._push(move, t)
            outs.append(MoveCorrected(old, move, t, game.ply - 1))
        self._answered_ply = len(self._history)
        self._expected = None
        self._hint = None
        self._prune()
        self._changed()
        if p.kind == "move":
            self._keep_dropped_unseen(move, answered=True)
        outs += self._check_end(t)
        if self._phase == "play" and self._cells is not None and self._settled:
            # the board may have moved on while the question waited (the reply began)
            self._settled = False
            outs += self._decide(t, force=True)
        return outs

    def _check_end(self, t: float, at_once: bool = False) -> list[TrackerOutput]:
        """The position's own end (mate, sennichite, ...). It stands once the last move can
        no longer be a misread: the board stayed so for ``held_settle``, the clock was
        pressed, or the log ended (a hover over a mating square must not end the game)."""
        outcome = self._game.outcome(self.ruleset)
        self._end_pending = None
        if outcome is None:
            return []
        if at_once:
            return self._end(outcome, t)
        self._end_pending = (outcome, t)
        return []

    def _confirm_end(self, now: float, force: bool) -> list[TrackerOutput]:
        pending = self._end_pending
        if pending is None or self._phase != "play" or self._pending is not None:
            return []
        if self._illegal is not None or not self._settled:
            return []
        last = self._history[-1] if self._history else None
        if not force and last is not None and self._cells and self._cells[last.to_square] == EMPTY:
            # the ending move's piece lifted again: a hover read as that move, or its
            # correction begun (x1.0: the rook hovered 0.45 s over 3h, a mate, then went on
            # to 6f; the game ended while it was in the air)
            return []
        # as long as another story waits: a piece dropped where it may not go reads the
        # same as a legal mating drop of another kind, and is taken back on seeing red
        wait = self._end_wait()
        if self._drop_kind_unseen():
            # ... and then no red shows it: the player who dropped a pawn where it may not
            # go sees a mate, not an error, and is slower to take it back (x2.0: the
            # pawn on 3h, read as the mating G*3h, lifted 5.1 s later; G*5g then)
            wait *= 2
        if self._open_held:
            # ... nor while the mating capture's attacker may still be held, a knocked piece
            # put back, and its own move to come (the sixth generator, identity noise x2,
            # game 11 of seed 64: 3g lifted, 4h knocked 13 ms after for 68 ms, the gold
            # held 3.4 s and set on 3h; read as the mate 3g4h, ended 3 s after)
            wait = max(wait, self._held_window())
        still = now - max(self._t_change, pending[1])
        if not force and still < wait:
            return []
        if not force and still < _END_DOUBT and self._goes_on_elsewhere(now):
            # (a kept story explains the board with the game going on: the mate may be a
            # misread, and the next move tells; the sixth generator, x0.4, game 17 of seed
            # 9: G*4g with 3g knocked 0.7 s read as 3g4g and P*3g, gote's P*6i then as
            # sente's mating G*6i, confirmed as the next player thought 6.9 s, and the
            # rest of the game ignored)
            return []
        return self._end(pending[0], pending[1])

    def _goes_on_elsewhere(self, now: float) -> bool:
        """Does a kept story explain the board as well, its game going on (no end pending,
        nothing asked)?"""
        for f in self._forks:
            alt = f.settled(now)
            if self._explains(alt) and alt._end_pending is None and alt._pending is None:
                return True
        return False

    def _dropped_astray(self, ctx: _Ctx, alt: Tracker) -> bool:
        """Does the board differ from the tracker's story by one piece set on an empty
        square, where the player to move has pieces in hand, and the other story explains
        it as a drop there (whose kind the board does not see)? A piece dropped where it may
        not go reads the same (nifu, in a story where the other has a gold in hand), and
        the player takes it back only on seeing red: slow hands may take longer than
        the story's wait (x2.0 --extra: a pawn on 1h for 4.7 s, read as the old story's
        G*1h, five plies rewritten)."""
        cells = self._cells
        assert cells is not None
        cur = ctx.cur
        d = diff(cells, cur.exp)
        if len(d) != 1 or cur.exp[d[0]] != EMPTY:
            return False
        if not any(cur.board.pieces_in_hand[cur.turn].values()):
            return False
        # (the other story's open move a drop there, of a kind the board cannot see: of
        # any kind, whether or not that story had others in hand; the built-in simulator,
        # game 4 of seed 180: sente's pawn set on 4f, nifu, lifted 3.03 s later and
        # dropped on 6d, read as a story kept four plies back with only a rook in hand)
        if not alt._open or self.sensing == "identity":
            return False
        move = alt._history[-1]
        return move.from_square is None and move.to_square == d[0]

    def _drop_kind_unseen(self) -> bool:
        """Whether the open move is a drop whose kind the board did not see: it was
        inferred (the only kind in hand legal there), and other kinds were in hand."""
        p0 = self._p0
        if not self._open or p0 is None or self.sensing == "identity":
            return False
        move = self._history[-1]
        if move.from_square is not None:
            return False
        # (another kind legal there was asked about: the answer said which)
        legal = {m.drop_piece_type for m in p0.drops_to(move.to_square)}
        hand = p0.board.pieces_in_hand[p0.turn]
        return legal == {move.drop_piece_type} and any(
            n and pt not in legal for pt, n in hand.items()
        )

    def _end(self, outcome: Outcome, t: float) -> list[TrackerOutput]:
        self._end_pending = None
        self._phase = "over"
        self._outcome = outcome
        self._pending = None
        self._illegal = None
        self._shown = None
        self._err_since = None
        self._set_display(None)
        self._changed()
        return [GameEnded(outcome, t)]

    # --- illegal states ------------------------------------------------------------

    def _show_illegal(self, ill: _Illegal, t: float) -> list[TrackerOutput]:
        if self._illegal is None:
            self._err_since = t
            self._n_shown_now = 0
        if not self._knocked_only(ill):
            self._n_shown_now += 1
            self._shown_times += (t,)
        self._err_last = t
        self._erred = True
        self._illegal = ill
        self._set_display(None)
        self._intents = None
        out = IllegalState(ill.reason, ill.clear, ill.fill, t)
        shown = self._shown
        if (
            shown is not None
            and shown.reason == out.reason
            and shown.clear == out.clear
            and shown.fill == out.fill
        ):
            return []
        self._shown = out
        return [out]

    def _hover_left(self, expl: _Expl, obs: str) -> bool:
        """Does the board, now read as pieces in the air (``expl``), leave the error shown
        as a hover: squares the position holds empty, filled while those pieces were in
        the air, and empty again with the pieces still up, one error shown for no longer
        than a step of the hands' pace? The hand touched down on its way (a piece carried
        over squares, see ARCHITECTURE.md): shown, for the player to
        see where it may not go, but not counted against the story (``_n_illegal``), as
        the same touch-down is none in a story where the piece may go there (the
        independent generator, x2.0 ``--rich --extra``, game 9 of seed 59748: gote's horse
        set on 4f, then carried back to 5e over 9d for 0.39 s; the tracker's story read
        the horse taking 4e and sente's S*4f, and 9d as a drop on its way, so the horse's
        story, the game's, showed one error more and was never taken)."""
        ill = self._illegal
        if ill is None or not ill.clear or not ill.fill or self._err_since is None:
            return False
        # (one touch-down, as brief as a hand's step: a piece set on one wrong square
        # after another, or left there, is the player's error, and counts; 100 Hz x0.4
        # --rich, game 20 of seed 51320, gote's king set on 4b three times in 3.5 s)
        brief = max(_HOVER_MIN, _HOVER_STEPS * (self._pace or 0.0))
        if self._n_shown_now != 1 or self._t_change - self._err_since > brief:
            return False
        return all(obs[sq] == EMPTY for sq in ill.clear) and ill.fill <= set(expl.lifted)

    def _knocked_only(self, ill: _Illegal) -> bool:
        """Is the error only pieces of the side not to move off their squares? Shown, for
        the player to put them back, but not counted against the story (``_n_illegal``):
        a sleeve or a hand knocks the waiting player's pieces as often as the mover's,
        and the story in which the piece was the mover's own, touched, is no likelier
        for it (the sixth generator, noise x2, game 17 of seed 43: 8i set on 8h and moved
        on to take 9h, read as 9h9g and 8h9h; the right story kept, and gote's sleeve
        then on sente's 9h for 0.94 s an error in it alone, so never taken while the
        tracker's own asked a question nobody saw)."""
        if ill.clear or not ill.fill:
            return False
        cur = self._context().cur
        obs = self._cells
        if obs is None:
            return False
        for sq in ill.fill:
            piece = cur.board.piece_at(sq)
            if piece is None or piece.color == cur.turn or obs[sq] != EMPTY:
                return False
        return True

    def _unexpected(self, ctx: _Ctx, obs: str) -> _Illegal:
        """A legal move that is not the engine's: guide back to the position."""
        exp = ctx.cur.exp
        d = diff(obs, exp)
        clear = frozenset(s for s in d if exp[s] == EMPTY)
        fill = frozenset(s for s in d if exp[s] != EMPTY)
        return _Illegal("unexpected", clear, fill, clear or fill, None)

    def _analyse_illegal(self, ctx: _Ctx) -> _Illegal:
        """The most plausible intended move, why it is illegal, and how to get back."""
        obs = self._cells
        assert obs is not None
        cur = ctx.cur
        exp = cur.exp
        d = diff(obs, exp)
        emptied = [s for s in d if obs[s] == EMPTY]
        filled = [s for s in d if obs[s] != EMPTY and exp[s] == EMPTY]
        faces = [s for s in d if obs[s] != EMPTY and exp[s] != EMPTY]
        clear = frozenset(filled)
        fill = frozenset(emptied) | frozenset(faces)
        board = cur.board
        unknown = frozenset(s for s in d if obs[s] == UNKNOWN_TAG)
        if unknown:  # identity boards: a tag nobody registered; never guessed
            return _Illegal("unknown-tag", clear, fill, unknown, None)
        if faces and not emptied and not filled:
            return _Illegal(self._face_reason(cur, obs, faces), clear, fill, frozenset(faces), None)
        if len(emptied) == 1 and len(filled) <= 1 and not faces:
            a = emptied[0]
            c: int | None = filled[0] if filled else None
            weak = c is None
            if c is None:
                c = self._likely_target(a, ctx.w_cur, obs)
            if c is not None:
                if cur.own(a):
                    r = self._move_reason(board, a, c, obs[c])
                    if r is not None:
                        offender = None if weak else cur.turn
                        return _Illegal(r.value, clear, fill, frozenset((c,)), offender)
                elif cur.theirs(a):
                    om = ctx.open_move
                    if (
                        ctx.prev is not None
                        and om is not None
                        and om.from_square is not None
                        and a == om.to_square
                    ):
                        r = self._move_reason(ctx.prev.board, om.from_square, c, obs[c])
                        if r is not None:
                            return _Illegal(r.value, clear, fill, frozenset((c,)), None)
                    reason = IllegalReason.WRONG_SIDE.value
                    offender = None if weak else cur.turn ^ 1
                    return _Illegal(reason, clear, fill, frozenset((c,)), offender)
        if not emptied and len(filled) == 1 and not faces:
            c = filled[0]
            hand = board.pieces_in_hand[cur.turn]
            if not hand:
                return _Illegal(IllegalReason.NOT_IN_HAND.value, clear, fill, clear, None)
            reasons: dict[str, int] = {}
            for pt in HAND_PIECE_TYPES:
                if pt in hand:
                    r = board.illegal_reason(Move(None, c, drop_piece_type=pt))
                    if r is not None:
                        reasons[r.value] = reasons.get(r.value, 0) + 1
            if reasons:
                reason = max(reasons, key=lambda k: reasons[k])
                return _Illegal(reason, clear, fill, clear, cur.turn)
        return _Illegal("unknown", clear, fill, clear | fill, None)

    def _likely_target(self, origin: int, since: float, obs: str) -> int | None:
        """For a lifted piece: the square emptied and refilled last after it was lifted."""
        hist = self._hist
        lift = hist.last_lift(origin, since)
        best: tuple[float, int] | None = None
        for sq in hist.changed_since(since):
            if sq == origin or obs[sq] == EMPTY:
                continue
            r = hist.last_refill(sq, since)
            if r is not None and (lift is None or r > lift) and (best is None or r > best[0]):
                best = (r, sq)
        return best[1] if best is not None else None

    def _turned_over(self, piece_type: int, cell: str) -> bool:
        """Whether ``cell`` shows an unpromoted ``piece_type`` turned over: its promoted
        face on an identity board, any piece's "p" on a polarity board (a gold turned over
        too: it cannot promote), never on an occupancy board."""
        if piece_type > KING or self.sensing == "occupancy":
            return False
        if self.sensing == "polarity":
            return cell == PROMOTED
        promoted = piece_type + PROMOTION_OFFSET
        return piece_type in PROMOTABLE and cell == cell_of_type(promoted, self.sensing)

    def _face_reason(self, cur: PosInfo, obs: str, faces: list[int]) -> str:
        """Why pieces that stand where the game has pieces show the wrong face or kind."""
        if any(self._turned_over(cur.codes[s] & 15, obs[s]) for s in faces):
            return IllegalReason.CANNOT_PROMOTE.value  # turned over where it stands
        return "wrong-piece" if self.sensing == "identity" else "unknown"

    def _move_reason(self, board: Board, a: int, c: int, face: str) -> IllegalReason | None:
        piece = board.piece_at(a)
        if self.sensing != "occupancy" and piece is not None:
            # the sensors show the face (polarity) or the kind and face (identity) that landed
            pt = piece.piece_type
            if face == cell_of_type(pt, self.sensing):
                promo = False
            elif self._turned_over(pt, face):
                promo = True
            else:
                return IllegalReason.NOT_A_MOVE_OF_THAT_PIECE
            return board.illegal_reason(Move(a, c, promo))
        r = board.illegal_reason(Move(a, c, False))
        if r is IllegalReason.DEAD_PIECE:
            r2 = board.illegal_reason(Move(a, c, True))
            return r2 if r2 is not None else r
        return r

    # --- set-up and resync ---------------------------------------------------------

    def _decide_setup(self) -> list[TrackerOutput]:
        self._settled = True
        obs = self._cells
        assert obs is not None
        info = self._info()
        d = diff(obs, info.exp)
        t = self._t_change
        if not d:
            self._phase = "play"
            self._setup_last = None
            self._w_cur = self._w_prev = t
            self._ref_cur = self._ref_prev = obs
            self._hist.prune(t)
            self._states = self._states[-1:]
            self._changed()
            return [SetupComplete(t)]
        clear = frozenset(s for s in d if info.exp[s] == EMPTY)
        fill = frozenset(s for s in d if info.exp[s] != EMPTY)
        if (clear, fill) == self._setup_last:
            return []
        self._setup_last = (clear, fill)
        self._intents = None
        return [SetupProgress(clear, fill, t)]

    def _decide_resync(self) -> list[TrackerOutput]:
        self._resync = False
        self._settled = True
        obs = self._cells
        assert obs is not None
        t = self._t_change
        outs = self._cancel_question(t)
        self._w_cur = t
        self._ref_cur = obs
        cur = self._info()
        d = diff(obs, cur.exp)
        if not d:
            return outs + self._restored(t) + [Resynced((), t)]
        lifted = self._lifted(cur, obs, d)
        if lifted is not None:
            self._set_display(self._display_for(cur, lifted))
            return outs + self._restored(t) + [Resynced((), t)]
        if self._open and self._p0 is not None and obs == self._p0.exp:
            return outs + self._restored(t) + self._take_back(1, t, obs) + [Resynced((), t)]
        ones = self._complete(cur, obs, d, t, None, relaxed=True)
        if len(ones) == 1:
            made = self._new_move(cur, ones[0][0], t, t, obs)
            moves = tuple(o.move for o in made if isinstance(o, MoveMade))
            return outs + self._restored(t) + made + [Resynced(moves, t)]
        if not ones:
            twos = self._resync_two(cur, obs, d)
            if len(twos) == 1:
                firsts, seconds = twos[0]
                if len(firsts) == 1:
                    made = self._make(firsts[0], t, t, obs)
                    if self._phase == "play":
                        made += self._new_move(self._info(), seconds, t, t, obs)
                    moves = tuple(o.move for o in made if isinstance(o, MoveMade))
                    return outs + self._restored(t) + made + [Resynced(moves, t)]
        exp = cur.exp
        clear = frozenset(s for s in d if exp[s] == EMPTY)
        fill = frozenset(s for s in d if exp[s] != EMPTY)
        return outs + self._show_illegal(_Illegal("unknown", clear, fill, clear | fill, None), t)

    def _resync_two(
        self, cur: PosInfo, obs: str, d: Sequence[int]
    ) -> list[tuple[tuple[Move, ...], tuple[Move, ...]]]:
        """Two-ply sequences from ``cur`` that show ``obs`` (captures taken on trust)."""
        dset = set(d)
        found: dict[tuple[frozenset[int], frozenset[int]], tuple[list[Move], tuple[Move, ...]]] = {}
        for m1 in cur.legal:
            if obs[m1.to_square] == EMPTY:
                continue
            d1 = set(dset)
            for sq, cell in cur.changes(m1).items():
                if obs[sq] == cell:
                    d1.discard(sq)
                else:
                    d1.add(sq)
            if not 1 <= len(d1) <= 2:
                continue
            p1 = self._cache.after(cur, m1)
            d2 = diff(obs, p1.exp)
            for ms2, _cap in self._complete(p1, obs, d2, self._t_change, None, relaxed=True):
                key = (_squares(m1), _squares(ms2[0]))
                if key in found:
                    found[key][0].append(m1)
                else:
                    found[key] = ([m1], ms2)
        return [(tuple(firsts), seconds) for firsts, seconds in found.values()]

    # --- display ---------------------------------------------------------------------

    def _preview(self) -> None:
        """Show a lifted piece (and its targets) as soon as the bounce is over."""
        self._preview_id = self._state_id
        if self._phase != "play" or self._cells is None or self._resync:
            return
        ctx = self._context()
        obs = self._cells
        d = diff(obs, ctx.cur.exp)
        if not d:
            self._set_display(None)
            return
        lifted = self._lifted(ctx.cur, obs, d)
        if lifted is not None:
            self._set_display(self._display_for(ctx.cur, lifted))
            return
        if ctx.prev is not None:
            d0 = diff(obs, ctx.prev.exp)
            lifted0 = self._lifted(ctx.prev, obs, d0)
            if lifted0 is not None:
                self._set_display(self._display_for(ctx.prev, lifted0))

    @staticmethod
    def _display_for(info: PosInfo, lifted: tuple[int, ...]) -> _Display:
        targets: set[int] = set()
        for sq in lifted:
            if info.own(sq):
                targets.update(m.to_square for m in info.moves_from(sq))
        own = tuple(sq for sq in lifted if info.own(sq)) or lifted
        return _Display(own, frozenset(targets))

    def _set_display(self, display: _Display | None) -> None:
        if display != self._display:
            self._display = display
            self._intents = None

    def _build_intents(self) -> LedIntents:
        game = self._game
        layers: list[dict[int, Mark]] = []
        question = reason = engine_move = engine_drop = game_over = None
        if self._phase == "setup":
            if self._setup_last is not None:
                clear, fill = self._setup_last
                layers.append({sq: Mark.CLEAR for sq in clear})
                layers.append({sq: Mark.FILL for sq in fill})
            return LedIntents(merge_marks(*layers))
        last = game.peek()
        if last is not None:
            layers.append({sq: Mark.LAST_MOVE for sq in _squares(last)})
        if self._phase == "over" and self._outcome is not None:
            outcome = self._outcome
            game_over = str(outcome)
            king = game.king_square(outcome.winner ^ 1) if outcome.winner is not None else None
            if king is not None:
                layers.append({king: Mark.GAME_OVER})
            else:
                layers.append(dict.fromkeys(range(81), Mark.GAME_OVER))
            return LedIntents(merge_marks(*layers), game_over=game_over)
        if game.is_check():
            king = game.king_square(game.turn)
            if king is not None:
                layers.append({king: Mark.CHECK})
        if self._hint is not None:
            layers.append({sq: Mark.HINT for sq in _squares(self._hint)})
        exp = self._expected
        if exp is not None:
            engine_move = exp.usi()
            if exp.from_square is None:
                assert exp.drop_piece_type is not None
                engine_drop = piece_type_symbol(exp.drop_piece_type)
            else:
                layers.append({exp.from_square: Mark.ENGINE_FROM})
            layers.append({exp.to_square: Mark.ENGINE_TO})
        if self._display is not None:
            layers.append({sq: Mark.TARGET for sq in self._display.targets})
            layers.append({sq: Mark.LIFTED for sq in self._display.lifted})
        if self._pending is not None:
            q = self._pending.question
            question = "promote" if q.kind == "promote" else "drop:" + "".join(q.options)
            layers.append({q.square: Mark.QUESTION})
        if self._illegal is not None:
            ill = self._illegal
            reason = ill.reason
            layers.append({sq: Mark.FILL for sq in ill.fill})
            layers.append({sq: Mark.CLEAR for sq in ill.clear})
            layers.append({sq: Mark.ERROR for sq in ill.error})
        return LedIntents(
            merge_marks(*layers),
            question=question,
            reason=reason,
            engine_move=engine_move,
            engine_drop=engine_drop,
        )

    def __repr__(self) -> str:
        return (
            f"Tracker({self._game.sfen()!r}, phase={self._phase!r}, open={self._open}, "
            f"pending={self.pending_question!r})"
        )


def _normaliser(sensing: str) -> dict[int, str]:
    """A ``str.translate`` table that reads any board's cells as ``sensing`` sees them:
    an identity board replayed as occupancy, a plain reed switch on a polarity board, ..."""
    if sensing == "occupancy":
        return str.maketrans(
            {c: OCCUPIED for c in (UNPROMOTED, PROMOTED, UNKNOWN_TAG, *IDENTITY_CELLS)}
        )
    if sensing == "polarity":
        faces = {c: (UNPROMOTED if c.isupper() else PROMOTED) for c in IDENTITY_CELLS}
        return str.maketrans({OCCUPIED: UNPROMOTED, UNKNOWN_TAG: UNPROMOTED, **faces})
    return str.maketrans({c: UNKNOWN_TAG for c in (OCCUPIED, UNPROMOTED, PROMOTED)})


def _guidance(ill: _Illegal) -> str:
    parts = []
    if ill.clear:
        parts.append("clear " + " ".join(square_name(s) for s in sorted(ill.clear)))
    if ill.fill:
        parts.append("fill " + " ".join(square_name(s) for s in sorted(ill.fill)))
    return ": " + ", ".join(parts) if parts else ""


def replay(
    events: list[SensorEvent],
    sfen: str = STARTING_SFEN,
    *,
    sensing: str = "occupancy",
    mode: str = "casual",
    params: TrackerParams | None = None,
    setup: bool = True,
) -> tuple[Tracker, list[TrackerOutput]]:
    """Feed a whole log to a new tracker and finish it; returns the tracker and outputs."""
    tracker = Tracker(sfen, sensing=sensing, mode=mode, params=params, setup=setup)
    outs: list[TrackerOutput] = []
    t = 0.0
    for event in events:
        outs += tracker.feed(event)
        t = event.t
    outs += tracker.finish(t)
    return tracker, outs
