"""The game record value types shared by every format: GameRecord, RecordedMove, errors."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from board_bridge.shogi import (
    BLACK,
    STARTING_SFEN,
    WHITE,
    Board,
    Color,
    Move,
    Outcome,
    Ruleset,
    Termination,
)
from board_bridge.shogi.rules import declare

#: The standard handicaps (手合割) and their start positions. The handicap giver
#: (上手, the white pieces) moves first, so every handicap SFEN has white to move.
HANDICAPS: Final = {
    "平手": STARTING_SFEN,
    "香落ち": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "右香落ち": "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "角落ち": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛車落ち": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛香落ち": "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "二枚落ち": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "三枚落ち": "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "四枚落ち": "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "五枚落ち": "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "左五枚落ち": "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "六枚落ち": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "八枚落ち": "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "十枚落ち": "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}


def _position_part(sfen: str) -> str:
    """An SFEN without its move number (``sfen`` prefix dropped)."""
    parts = sfen.split()
    if parts and parts[0] == "sfen":
        parts = parts[1:]
    return " ".join(parts[:3])


def handicap_name(sfen: str) -> str | None:
    """The 手合割 name of a start position, or None when it is not a standard one."""
    key = _position_part(sfen)
    for name, hsfen in HANDICAPS.items():
        if _position_part(hsfen) == key:
            return name
    return None


@dataclass(frozen=True)
class TimeControl:
    """A game's clock: each side's main time, byoyomi and Fischer increment, in seconds."""

    total: float | None = None
    byoyomi: float | None = None
    increment: float | None = None

    def is_empty(self) -> bool:
        return self.total is None and self.byoyomi is None and self.increment is None


@dataclass(frozen=True)
class RecordedMove:
    """One move of a record: the move, the seconds it took (None: unknown), a comment."""

    move: Move
    time_used: float | None = None
    comment: str = ""


@dataclass(frozen=True)
class Variation:
    """An alternative line (KIF 変化, JKF fork): its moves replace move number ``ply``
    (1-based, counted from the record's start) and those after it, of the main line when
    ``parent`` is None, else of ``variations[parent]``."""

    ply: int
    moves: tuple[RecordedMove, ...]
    parent: int | None = None
    outcome: Outcome | None = None


@dataclass(frozen=True)
class ParseProblem:
    """Something a reader noticed: the line (1-based; 0 when not tied to a line) and what."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True)
class GameRecord:
    """A game: start position, players and clock, the moves with their times and comments,
    and how it ended. Every format reads into and writes from this one value.

    - ``start_sfen``: the position before the first move; ``handicap`` its 手合割 name
      when it is a standard one (平手 for the normal start).
    - ``moves``: the main line, every move legal under the rules core.
    - ``outcome``: None while the game goes on (or when the record does not say).
    - ``illegal_move``: the illegal move that ended the game, when the record has it
      (its mover lost: ``outcome.termination`` is ILLEGAL_MOVE).
    - ``extra``: header items that have no field of their own, as (key, value) pairs in
      the source format's own words (KIF 表題, CSA ``$SITE`` -> ``SITE``), kept so that a
      round trip loses nothing.
    - ``comment``: the comment before the first move; ``end_comment`` after the ending.
    - ``problems``: what the reader noticed but could live with (line numbers included).
    """

    start_sfen: str = STARTING_SFEN
    moves: tuple[RecordedMove, ...] = ()
    outcome: Outcome | None = None
    sente: str = ""
    gote: str = ""
    event: str = ""
    started: datetime | None = None
    finished: datetime | None = None
    time_control: TimeControl = field(default_factory=TimeControl)
    handicap: str | None = None
    comment: str = ""
    end_comment: str = ""
    extra: tuple[tuple[str, str], ...] = ()
    variations: tuple[Variation, ...] = ()
    illegal_move: Move | None = None
    problems: tuple[ParseProblem, ...] = ()

    def __post_init__(self) -> None:
        if self.handicap is None:
            name = handicap_name(self.start_sfen)
            if name is not None:
                object.__setattr__(self, "handicap", name)

    # --- views ------------------------------------------------------------------

    def board(self, ply: int | None = None) -> Board:
        """The position after ``ply`` moves of the main line (all of them by default), with
        those moves on its stack. Moves are trusted (readers checked them)."""
        board = Board(self.start_sfen)
        for rm in self.moves[: len(self.moves) if ply is None else ply]:
            board.push(rm.move)
        return board

    def usi_moves(self) -> list[str]:
        return [rm.move.usi() for rm in self.moves]

    def usi_position(self) -> str:
        """The USI ``position`` command argument for the end of the main line."""
        return self.board().to_usi_position()

    @property
    def start_color(self) -> Color:
        parts = _position_part(self.start_sfen).split()
        return WHITE if len(parts) > 1 and parts[1] == "w" else BLACK

    def mover(self, index: int) -> Color:
        """Who plays ``moves[index]``."""
        return self.start_color ^ (index & 1)

    def header_items(self) -> dict[str, str]:
        return dict(self.extra)

    def extra_value(self, key: str) -> str | None:
        for k, v in self.extra:
            if k == key:
                return v
        return None

    def total_times(self) -> tuple[float, float]:
        """Seconds used by (black, white) over the main line (unknown times count 0)."""
        totals = [0.0, 0.0]
        for i, rm in enumerate(self.moves):
            totals[self.mover(i)] += rm.time_used or 0.0
        return totals[0], totals[1]

    def replace(self, **changes: object) -> GameRecord:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


class RecordParseError(ValueError):
    """A record that cannot be read as a whole. ``line`` is the 1-based line of the first
    fatal problem (0 when unknown), ``problems`` everything noticed, and ``partial`` the
    record as far as it could be read (its moves are all legal), so nothing is lost."""

    def __init__(
        self,
        message: str,
        line: int = 0,
        partial: GameRecord | None = None,
        problems: Sequence[ParseProblem] = (),
        path: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.partial = partial
        self.problems = tuple(problems)
        self.path = path
        where = f"{path}:" if path else ""
        where += f"{line}: " if line else (": " if path else "")
        super().__init__(f"{where}{message}")

    def with_path(self, path: str) -> RecordParseError:
        return RecordParseError(self.message, self.line, self.partial, self.problems, path)


class RecordWriteError(ValueError):
    """A record that cannot be written in the format asked for."""


# --- endings shared by the formats ---------------------------------------------------

#: CSA special moves (also JKF's ``special`` without the ``%``) -> termination.
CSA_SPECIAL: Final = {
    "TORYO": Termination.RESIGNATION,
    "CHUDAN": Termination.ABORT,
    "SENNICHITE": Termination.SENNICHITE,
    "OUTE_SENNICHITE": Termination.PERPETUAL_CHECK,
    "TIME_UP": Termination.TIMEOUT,
    "ILLEGAL_MOVE": Termination.ILLEGAL_MOVE,
    "+ILLEGAL_ACTION": Termination.ILLEGAL_MOVE,
    "-ILLEGAL_ACTION": Termination.ILLEGAL_MOVE,
    "JISHOGI": Termination.IMPASSE,
    "KACHI": Termination.DECLARATION,
    "HIKIWAKE": Termination.DECLARATION,
    "MAX_MOVES": Termination.MAX_MOVES,
    "TSUMI": Termination.CHECKMATE,
    "FUZUMI": Termination.ABORT,
    "ERROR": Termination.ABORT,
}


def special_outcome(
    special: str, board: Board, ruleset: Ruleset | None = None, detail: str = ""
) -> Outcome:
    """The outcome of a CSA/JKF special move (without ``%``) played when ``board`` is the
    position: the side to move resigns, runs out of time, declares, ... Declarations are
    judged by ``ruleset`` (the CSA 27-point rule by default)."""
    to_move = board.turn
    term = CSA_SPECIAL[special]
    rules = ruleset or Ruleset(declaration="csa27")
    if special == "KACHI":
        return declare(board, rules)
    if special == "HIKIWAKE":
        return Outcome(Termination.DECLARATION, None, detail or "draw declared")
    if special == "+ILLEGAL_ACTION":
        return Outcome(term, WHITE, detail)
    if special == "-ILLEGAL_ACTION":
        return Outcome(term, BLACK, detail)
    if special in ("TORYO", "TIME_UP", "ILLEGAL_MOVE", "TSUMI"):
        return Outcome(term, to_move ^ 1, detail)
    if special == "OUTE_SENNICHITE":
        rep = board.outcome(rules)
        if rep is not None and rep.termination is Termination.PERPETUAL_CHECK:
            return rep
        # The checking side is the one that just moved into the repetition.
        return Outcome(term, to_move, detail or "perpetual check")
    if special in ("FUZUMI", "ERROR"):
        return Outcome(term, None, detail or special.lower())
    return Outcome(term, None, detail)


def outcome_to_special(outcome: Outcome, to_move: Color, version3: bool = True) -> str:
    """The CSA special move (without ``%``) for ``outcome``, the side to move being
    ``to_move``. Every termination has one; see docs/records.md for the lossy ones."""
    t = outcome.termination
    if t is Termination.RESIGNATION:
        return "TORYO"
    if t in (Termination.CHECKMATE, Termination.NO_LEGAL_MOVES):
        return "TSUMI"
    if t in (Termination.SENNICHITE, Termination.PERPETUAL_CHECK):
        return "SENNICHITE"
    if t is Termination.IMPASSE:
        return "JISHOGI"
    if t is Termination.DECLARATION:
        return "HIKIWAKE" if outcome.winner is None else "KACHI"
    if t is Termination.TIMEOUT:
        return "TIME_UP"
    if t is Termination.ILLEGAL_MOVE:
        if outcome.winner == to_move ^ 1:
            return "ILLEGAL_MOVE"
        return "+ILLEGAL_ACTION" if outcome.winner == WHITE else "-ILLEGAL_ACTION"
    if t is Termination.MAX_MOVES:
        return "MAX_MOVES"
    if t is Termination.TRY:
        return "KACHI"
    return "CHUDAN"


def reconcile(
    stated: Outcome | None, board: Board, ruleset: Ruleset | None = None
) -> tuple[Outcome | None, str | None]:
    """Check a record's stated ending against the rules core at the final position.

    The position decides mate, sennichite and perpetual check: where it does, and the
    record says nothing, a draw by repetition, mate, or an illegal-move loss, the rules
    core's outcome is used. Returns the outcome and a note when the two disagree."""
    decided = board.outcome(ruleset)
    if decided is None:
        if (
            stated is not None
            and stated.termination
            in (
                Termination.SENNICHITE,
                Termination.PERPETUAL_CHECK,
            )
            and board.repetitions() < 4
        ):
            return stated, "the record claims a repetition the position does not show"
        return stated, None
    if stated is None:
        return decided, None
    positional = {
        Termination.CHECKMATE,
        Termination.NO_LEGAL_MOVES,
        Termination.SENNICHITE,
        Termination.PERPETUAL_CHECK,
        Termination.ILLEGAL_MOVE,
    }
    if stated.termination in positional and decided.termination in (
        Termination.CHECKMATE,
        Termination.NO_LEGAL_MOVES,
        Termination.SENNICHITE,
        Termination.PERPETUAL_CHECK,
    ):
        if (stated.termination, stated.winner) == (decided.termination, decided.winner):
            return stated, None
        if stated.winner == decided.winner:
            # e.g. a KIF 千日手 or 反則 ending for a perpetual check: the rules core's word.
            return decided, None
        return decided, f"the record says {stated}, the rules say {decided}"
    return stated, None


def same_outcome(a: Outcome | None, b: Outcome | None) -> bool:
    """Equal termination and winner (the detail text aside)."""
    if a is None or b is None:
        return a is b
    return a.termination is b.termination and a.winner == b.winner


def joined(lines: Iterable[str]) -> str:
    return "\n".join(lines)
