"""CSA server protocol 1.2.1 values and parsing: Game_Summary, Time blocks, Position, moves, ends.

Pure: no I/O. The asyncio client is :mod:`board_bridge.online.csa`; the test server in
tests/online uses the same parsing for the records it writes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from board_bridge.records.csa_moves import move_from_csa as _records_move_from_csa
from board_bridge.records.csa_moves import move_to_csa as _records_move_to_csa
from board_bridge.shogi import (
    BLACK,
    STARTING_SFEN,
    WHITE,
    Board,
    Color,
    IllegalMoveError,
    InvalidSfenError,
    Move,
    Outcome,
    Termination,
    piece_type_from_symbol,
    square,
)

#: CSA piece names and their SFEN symbols.
CSA_PIECES: Final = {
    "FU": "P", "KY": "L", "KE": "N", "GI": "S", "KI": "G", "KA": "B", "HI": "R", "OU": "K",
    "TO": "+P", "NY": "+L", "NK": "+N", "NG": "+S", "UM": "+B", "RY": "+R",
}  # fmt: skip
CSA_NAMES: Final = {piece_type_from_symbol(s): name for name, s in CSA_PIECES.items()}

MOVE_RE: Final = re.compile(
    r"([+-])([0-9]{2})([1-9]{2})(FU|KY|KE|GI|KI|KA|HI|OU|TO|NY|NK|NG|UM|RY)"
)
#: A move line from the server: ``+7776FU,T12`` (a comment may follow: ``,'* 30 ...``).
MOVE_LINE_RE: Final = re.compile(r"(?P<move>[+-][0-9]{4}[A-Z]{2})(?:,T(?P<time>[0-9]+))?(?:,'.*)?")
SPECIAL_LINE_RE: Final = re.compile(r"(?P<special>%[A-Z_]+)(?:,T(?P<time>[0-9]+))?")

#: The reason lines that come before the result line.
END_REASONS: Final = (
    "#RESIGN",
    "#TIME_UP",
    "#ILLEGAL_MOVE",
    "#SENNICHITE",
    "#OUTE_SENNICHITE",
    "#JISHOGI",
    "#MAX_MOVES",
    "#ILLEGAL_ACTION",
)
#: The result lines that end a game (#CHUDAN also ends it, alone).
END_RESULTS: Final = ("#WIN", "#LOSE", "#DRAW", "#CENSORED", "#CHUDAN")


class CsaParseError(ValueError):
    """A Game_Summary, Position block or move token that cannot be read."""


# --------------------------------------------------------------------------- moves


def move_from_csa(board: Board, token: str) -> Move:
    """``+7776FU`` -> the Move in ``board`` (syntax, side and piece checked; not legality).
    Raises CsaParseError. The conversion is the records layer's."""
    try:
        return _records_move_from_csa(board, token)
    except ValueError as exc:
        raise CsaParseError(str(exc)) from None


def move_to_csa(board: Board, move: Move) -> str:
    """The Move in ``board`` -> ``+7776FU`` (the piece named is the one that arrives)."""
    try:
        return _records_move_to_csa(board, move)
    except ValueError as exc:
        raise CsaParseError(str(exc)) from None


# --------------------------------------------------------------------------- Time blocks

_UNIT_RE: Final = re.compile(r"([0-9]*\.?[0-9]+)?\s*(sec|min|msec|s|m|ms)")
_UNIT_SECONDS: Final = {"sec": 1.0, "s": 1.0, "min": 60.0, "m": 60.0, "msec": 0.001, "ms": 0.001}


def parse_time_unit(text: str) -> float:
    """``1sec`` -> 1.0, ``1min`` -> 60.0, ``1msec`` -> 0.001 (the unit's length in seconds)."""
    m = _UNIT_RE.fullmatch(text.strip())
    if m is None:
        raise CsaParseError(f"not a Time_Unit: {text!r}")
    n = float(m.group(1)) if m.group(1) else 1.0
    if n <= 0:
        raise CsaParseError(f"Time_Unit must be positive: {text!r}")
    return n * _UNIT_SECONDS[m.group(2)]


@dataclass(frozen=True)
class TimeRule:
    """One side's CSA Time block. Times are counts of ``time_unit`` (seconds per unit);
    ``total_time`` None means no limit."""

    time_unit: str = "1sec"
    unit_seconds: float = 1.0
    total_time: int | None = None
    byoyomi: int = 0
    increment: int = 0
    delay: int = 0
    least_time_per_move: int = 0
    time_roundup: bool = False

    @property
    def unlimited(self) -> bool:
        return self.total_time is None and not self.byoyomi and not self.increment

    def charge(self, elapsed: float) -> int:
        """The units a move that took ``elapsed`` seconds is charged: truncated (or rounded
        up with Time_Roundup), at least Least_Time_Per_Move, less the Delay."""
        units = elapsed / self.unit_seconds
        t = math.ceil(units - 1e-9) if self.time_roundup else math.floor(units + 1e-9)
        t = max(t - self.delay, 0)
        return max(t, self.least_time_per_move)

    def available(self, remaining: int | None) -> float | None:
        """Seconds a side with ``remaining`` units may think before it loses on time."""
        if remaining is None and not self.byoyomi and not self.increment:
            return None
        units = (remaining or 0) + self.byoyomi + self.increment + self.delay
        return units * self.unit_seconds

    def after_move(self, remaining: int | None, charged: int) -> int | None:
        """Remaining units after a move charged ``charged`` units (increment added; the
        byoyomi does not carry over, so never below zero)."""
        if remaining is None:
            return None
        return max(0, remaining + self.increment - charged)


# --------------------------------------------------------------------------- Position


@dataclass(frozen=True)
class PositionMove:
    """A move of a Position block or a record: the CSA token, the Move, and its T value."""

    token: str
    move: Move
    color: Color
    time: int | None


@dataclass(frozen=True)
class CsaPosition:
    """A Position block: the start position (SFEN) and the moves played from it."""

    start_sfen: str
    moves: tuple[PositionMove, ...] = ()
    specials: tuple[str, ...] = ()  # %TORYO and friends found after the moves (records)

    def board(self) -> Board:
        board = Board(self.start_sfen)
        for pm in self.moves:
            board.push(pm.move)
        return board


_HAND_ORDER: Final = "RBGSNLP"
_ALL_PIECES: Final = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2, "K": 2}


def parse_position(lines: Iterable[str]) -> CsaPosition:
    """Read a CSA position (``PI``, ``P1``..``P9``, ``P+``/``P-``, the side to move) and the
    moves after it (``+7776FU,T12`` or ``+7776FU`` then ``T12``). Comments (``'``),
    ``N+``/``$`` header lines and ``V2.2`` are skipped. Moves are checked for legality."""
    cells: list[str | None] = [None] * 81
    hands: list[dict[str, int]] = [{}, {}]
    seen_board = False
    turn: Color | None = None
    board: Board | None = None
    moves: list[PositionMove] = []
    specials: list[str] = []
    all_to: list[Color] = []
    for raw in lines:
        line = raw.rstrip("\r\n")
        if not line.strip() or line.startswith(("'", "V", "N+", "N-", "$")):
            continue
        if board is None and line.startswith("PI"):
            cells = _hirate_cells()
            rest = line[2:]
            for i in range(0, len(rest) - 3, 4):
                sq = _square_of(rest[i : i + 2])
                cells[sq] = None
            seen_board = True
            continue
        if board is None and len(line) >= 2 and line[0] == "P" and line[1] in "123456789":
            rank = int(line[1])
            body = line[2:].ljust(27)
            for col in range(9):
                cell = body[col * 3 : col * 3 + 3]
                sq = (rank - 1) * 9 + col
                if cell.strip() in ("*", ""):
                    cells[sq] = None
                elif cell[0] in "+-" and cell[1:] in CSA_PIECES:
                    sym = CSA_PIECES[cell[1:]]
                    cells[sq] = sym if cell[0] == "+" else sym.lower()
                else:
                    raise CsaParseError(f"bad square {cell!r} in {line!r}")
            seen_board = True
            continue
        if board is None and line.startswith(("P+", "P-")):
            color = BLACK if line[1] == "+" else WHITE
            rest = line[2:]
            for i in range(0, len(rest), 4):
                item = rest[i : i + 4]
                if len(item) != 4:
                    raise CsaParseError(f"bad piece {item!r} in {line!r}")
                if item == "00AL":
                    all_to.append(color)
                    continue
                if item[2:] not in CSA_PIECES:
                    raise CsaParseError(f"bad piece {item!r} in {line!r}")
                sym = CSA_PIECES[item[2:]]
                if item[:2] == "00":
                    if sym.startswith("+") or sym == "K":
                        raise CsaParseError(f"{item!r} cannot be in hand")
                    hands[color][sym] = hands[color].get(sym, 0) + 1
                else:
                    cells[_square_of(item[:2])] = sym if color == BLACK else sym.lower()
            seen_board = True
            continue
        if board is None and line in ("+", "-"):
            turn = BLACK if line == "+" else WHITE
            board = Board(_make_sfen(cells if seen_board else _hirate_cells(), hands, all_to, turn))
            continue
        for part in line.split(","):
            part = part.strip()
            if not part or part.startswith("'"):
                continue
            if part[0] in "+-" and len(part) == 7:
                if board is None:
                    turn = BLACK if part[0] == "+" else WHITE
                    board = Board(
                        _make_sfen(cells if seen_board else _hirate_cells(), hands, all_to, turn)
                    )
                move = move_from_csa(board, part)
                try:
                    board.check_legal(move)
                except IllegalMoveError as exc:
                    raise CsaParseError(f"{part}: {exc}") from None
                moves.append(PositionMove(part, move, board.turn, None))
                board.push(move)
            elif part[0] == "T" and part[1:].isdigit():
                if specials:  # the time of %TORYO and friends
                    specials[-1] = f"{specials[-1].split(',')[0]},{part}"
                    continue
                if not moves:
                    raise CsaParseError(f"a time {part!r} before any move")
                last = moves[-1]
                moves[-1] = PositionMove(last.token, last.move, last.color, int(part[1:]))
            elif part[0] == "%":
                specials.append(part)
            else:
                raise CsaParseError(f"cannot read {part!r} in a CSA position")
    if board is None:
        if not seen_board:
            raise CsaParseError("no position and no side to move")
        board = Board(_make_sfen(cells, hands, all_to, BLACK))
    return CsaPosition(board.root_sfen, tuple(moves), tuple(specials))


def _square_of(text: str) -> int:
    if len(text) != 2 or not text.isdigit() or "0" in text:
        raise CsaParseError(f"not a square: {text!r}")
    return square(int(text[0]), int(text[1]))


def _hirate_cells() -> list[str | None]:
    cells: list[str | None] = [None] * 81
    board = Board(STARTING_SFEN)
    for sq in range(81):
        piece = board.piece_at(sq)
        cells[sq] = piece.symbol() if piece else None
    return cells


def _make_sfen(
    cells: Sequence[str | None], hands: list[dict[str, int]], all_to: list[Color], turn: Color
) -> str:
    if all_to:
        counts = dict(_ALL_PIECES)
        for cell in cells:
            if cell:
                counts[cell.lstrip("+").upper()] -= 1
        for color in (BLACK, WHITE):
            for sym, n in hands[color].items():
                counts[sym] -= n
        for sym, n in counts.items():
            if sym != "K" and n > 0:
                hands[all_to[-1]][sym] = hands[all_to[-1]].get(sym, 0) + n
    rows = []
    for r in range(9):
        row, empty = "", 0
        for c in range(9):
            cell = cells[r * 9 + c]
            if cell is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += cell
        rows.append(row + (str(empty) if empty else ""))
    hand = ""
    for color in (BLACK, WHITE):
        for sym in _HAND_ORDER:
            n = hands[color].get(sym, 0)
            if n:
                hand += (str(n) if n > 1 else "") + (sym if color == BLACK else sym.lower())
    sfen = f"{'/'.join(rows)} {'bw'[turn]} {hand or '-'} 1"
    try:
        Board(sfen)
    except InvalidSfenError as exc:
        raise CsaParseError(f"the position is not valid: {exc}") from None
    return sfen


def position_lines(sfen: str) -> list[str]:
    """A start position as CSA lines: ``PI`` and the side for the standard start, else
    ``P1``..``P9``, ``P+``/``P-`` hands and the side to move."""
    board = Board(sfen)
    if board.sfen(move_number=False) == Board(STARTING_SFEN).sfen(move_number=False):
        return ["PI", "+" if board.turn == BLACK else "-"]
    lines = []
    for r in range(9):
        row = ""
        for c in range(9):
            piece = board.piece_at(r * 9 + c)
            if piece is None:
                row += " * "
            else:
                row += ("+" if piece.color == BLACK else "-") + CSA_NAMES[piece.piece_type]
        lines.append(f"P{r + 1}{row}")
    for color, sign in ((BLACK, "+"), (WHITE, "-")):
        hand = board.pieces_in_hand[color]
        if hand:
            items = "".join(
                f"00{CSA_NAMES[pt]}" * n for pt, n in sorted(hand.items(), reverse=True)
            )
            lines.append(f"P{sign}{items}")
    lines.append("+" if board.turn == BLACK else "-")
    return lines


# --------------------------------------------------------------------------- Game_Summary


@dataclass(frozen=True)
class GameSummary:
    """A CSA ``BEGIN Game_Summary`` block, every field. ``times`` is (black, white): the
    common ``Time`` block for both, or the per-side ``Time+`` / ``Time-`` blocks."""

    protocol_version: str = ""
    protocol_mode: str = ""
    format: str = ""
    declaration: str = ""
    game_id: str = ""
    name_black: str = ""
    name_white: str = ""
    your_turn: Color = BLACK
    to_move: Color = BLACK
    rematch_on_draw: bool = False
    max_moves: int | None = None
    times: tuple[TimeRule, TimeRule] = (TimeRule(), TimeRule())
    position: CsaPosition = field(default_factory=lambda: CsaPosition(STARTING_SFEN))
    extra: tuple[tuple[str, str], ...] = ()

    @property
    def names(self) -> tuple[str, str]:
        return (self.name_black, self.name_white)


_TIME_KEYS: Final = {
    "Time_Unit",
    "Total_Time",
    "Byoyomi",
    "Increment",
    "Delay",
    "Least_Time_Per_Move",
    "Time_Roundup",
}


def _time_rule(values: dict[str, str]) -> TimeRule:
    def number(key: str, default: int | None) -> int | None:
        text = values.get(key)
        if text is None or text == "":
            return default
        try:
            return int(text)
        except ValueError:
            raise CsaParseError(f"{key} is not a number: {text!r}") from None

    unit = values.get("Time_Unit", "1sec")
    roundup = values.get("Time_Roundup", "NO")
    if roundup not in ("YES", "NO"):
        raise CsaParseError(f"Time_Roundup is YES or NO: {roundup!r}")
    return TimeRule(
        time_unit=unit,
        unit_seconds=parse_time_unit(unit),
        total_time=number("Total_Time", None),
        byoyomi=number("Byoyomi", 0) or 0,
        increment=number("Increment", 0) or 0,
        delay=number("Delay", 0) or 0,
        least_time_per_move=number("Least_Time_Per_Move", 0) or 0,
        time_roundup=roundup == "YES",
    )


def _color_of(text: str, key: str) -> Color:
    if text == "+":
        return BLACK
    if text == "-":
        return WHITE
    raise CsaParseError(f"{key} is + or -: {text!r}")


def parse_game_summary(lines: Sequence[str]) -> GameSummary:
    """Parse the lines of a Game_Summary block (with or without its BEGIN/END lines)."""
    top: dict[str, str] = {}
    extra: list[tuple[str, str]] = []
    blocks: dict[str, dict[str, str]] = {}
    position_lines_: list[str] = []
    stack: list[str] = []
    saw_position = False
    for raw in lines:
        line = raw.rstrip("\r\n")
        if line.startswith("BEGIN "):
            name = line[6:].strip()
            stack.append(name)
            if name == "Position":
                saw_position = True
            elif name != "Game_Summary":
                blocks.setdefault(name, {})
            continue
        if line.startswith("END "):
            name = line[4:].strip()
            if not stack or stack[-1] != name:
                raise CsaParseError(f"{line!r} does not close {stack[-1] if stack else 'a block'}")
            stack.pop()
            continue
        current = stack[-1] if stack else "Game_Summary"
        if current == "Position":
            position_lines_.append(line)
            continue
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise CsaParseError(f"not a key:value line: {line!r}")
        if current == "Game_Summary":
            if key in top:
                raise CsaParseError(f"{key} given twice")
            top[key] = value
        else:
            blocks[current][key] = value
    if stack:
        raise CsaParseError(f"block {stack[-1]} is not closed")
    known = {
        "Protocol_Version", "Protocol_Mode", "Format", "Declaration", "Game_ID", "Name+",
        "Name-", "Your_Turn", "To_Move", "Rematch_On_Draw", "Max_Moves",
    }  # fmt: skip
    for key, value in top.items():
        if key not in known:
            extra.append((key, value))
    for name, values in blocks.items():
        if name not in ("Time", "Time+", "Time-"):
            extra.extend((f"{name}.{k}", v) for k, v in values.items())
            continue
        for key in values:
            if key not in _TIME_KEYS:
                extra.append((f"{name}.{key}", values[key]))
    common = blocks.get("Time", {})
    black = _time_rule({**common, **blocks.get("Time+", {})})
    white = _time_rule({**common, **blocks.get("Time-", {})})
    for key in ("Game_ID", "Your_Turn"):
        if key not in top:
            raise CsaParseError(f"the Game_Summary has no {key}")
    position = parse_position(position_lines_) if saw_position else CsaPosition(STARTING_SFEN)
    # To_Move is the side to move after the Position block's moves (shogi-server); the
    # Position block itself is what the board is built from.
    to_move = _color_of(top.get("To_Move", "+"), "To_Move")
    max_moves_text = top.get("Max_Moves")
    try:
        max_moves = int(max_moves_text) if max_moves_text else None
    except ValueError:
        raise CsaParseError(f"Max_Moves is not a number: {max_moves_text!r}") from None
    rematch = top.get("Rematch_On_Draw", "NO")
    return GameSummary(
        protocol_version=top.get("Protocol_Version", ""),
        protocol_mode=top.get("Protocol_Mode", ""),
        format=top.get("Format", ""),
        declaration=top.get("Declaration", ""),
        game_id=top["Game_ID"],
        name_black=top.get("Name+", ""),
        name_white=top.get("Name-", ""),
        your_turn=_color_of(top["Your_Turn"], "Your_Turn"),
        to_move=to_move,
        rematch_on_draw=rematch == "YES",
        max_moves=max_moves if max_moves else None,
        times=(black, white),
        position=position,
        extra=tuple(extra),
    )


def initial_remaining(summary: GameSummary) -> tuple[int | None, int | None]:
    """Each side's remaining units at the start: Total_Time less what the Position block's
    moves were charged (each with its increment), as a resumed game's clock."""
    remaining: list[int | None] = [summary.times[0].total_time, summary.times[1].total_time]
    for pm in summary.position.moves:
        rule = summary.times[pm.color]
        remaining[pm.color] = rule.after_move(remaining[pm.color], pm.time or 0)
    return remaining[0], remaining[1]


# --------------------------------------------------------------------------- game end

_REASON_TERMINATION: Final = {
    "#RESIGN": Termination.RESIGNATION,
    "#TIME_UP": Termination.TIMEOUT,
    "#ILLEGAL_MOVE": Termination.ILLEGAL_MOVE,
    "#ILLEGAL_ACTION": Termination.ILLEGAL_MOVE,
    "#SENNICHITE": Termination.SENNICHITE,
    "#OUTE_SENNICHITE": Termination.PERPETUAL_CHECK,
    "#JISHOGI": Termination.DECLARATION,
    "#MAX_MOVES": Termination.MAX_MOVES,
}
_SPECIAL_TERMINATION: Final = {
    "%TORYO": Termination.RESIGNATION,
    "%KACHI": Termination.DECLARATION,
    "%CHUDAN": Termination.ABORT,
}


def end_outcome(
    my_color: Color, reason: str | None, result: str, special: str | None = None
) -> Outcome:
    """The Outcome of a CSA game end: ``reason`` (``#RESIGN``...), ``result`` (``#WIN``,
    ``#LOSE``, ``#DRAW``, ``#CENSORED``, ``#CHUDAN``) and the special move seen (``%KACHI``)."""
    if result == "#CHUDAN":
        return Outcome(Termination.ABORT, None, "the server interrupted the game (#CHUDAN)")
    if reason is not None:
        termination = _REASON_TERMINATION.get(reason, Termination.ABORT)
    elif special is not None:
        termination = _SPECIAL_TERMINATION.get(special, Termination.ABORT)
    else:
        termination = Termination.ABORT
    if reason == "#ILLEGAL_MOVE" and special == "%KACHI":
        termination = Termination.DECLARATION  # a declaration that did not hold
    words = " ".join(w for w in (special, reason, result) if w)
    if result == "#WIN":
        return Outcome(termination, my_color, words)
    if result == "#LOSE":
        return Outcome(termination, my_color ^ 1, words)
    if result in ("#DRAW", "#CENSORED"):
        if termination is Termination.ABORT:
            termination = Termination.MAX_MOVES if result == "#CENSORED" else Termination.SENNICHITE
        return Outcome(termination, None, words)
    raise CsaParseError(f"not a CSA game result: {result!r}")


#: Termination -> the CSA record's special line, for writing records.
TERMINATION_SPECIAL: Final = {
    Termination.RESIGNATION: "%TORYO",
    Termination.TIMEOUT: "%TIME_UP",
    Termination.ILLEGAL_MOVE: "%ILLEGAL_MOVE",
    Termination.SENNICHITE: "%SENNICHITE",
    Termination.PERPETUAL_CHECK: "%OUTE_SENNICHITE",
    Termination.DECLARATION: "%KACHI",
    Termination.MAX_MOVES: "%MAX_MOVES",
    Termination.ABORT: "%CHUDAN",
    Termination.CHECKMATE: "%TSUMI",
}


def format_summary(summary: GameSummary, your_turn: Color) -> list[str]:
    """Write a Game_Summary block (what a server sends), for ``your_turn``."""
    sign = "+-"
    lines = [
        "BEGIN Game_Summary",
        f"Protocol_Version:{summary.protocol_version or '1.2'}",
        f"Protocol_Mode:{summary.protocol_mode or 'Server'}",
        f"Format:{summary.format or 'Shogi 1.0'}",
    ]
    if summary.declaration:
        lines.append(f"Declaration:{summary.declaration}")
    lines += [
        f"Game_ID:{summary.game_id}",
        f"Name+:{summary.name_black}",
        f"Name-:{summary.name_white}",
        f"Your_Turn:{sign[your_turn]}",
        f"Rematch_On_Draw:{'YES' if summary.rematch_on_draw else 'NO'}",
        f"To_Move:{sign[summary.to_move]}",
    ]
    if summary.max_moves:
        lines.append(f"Max_Moves:{summary.max_moves}")
    black, white = summary.times
    blocks = [("Time", black)] if black == white else [("Time+", black), ("Time-", white)]
    for name, rule in blocks:
        lines.append(f"BEGIN {name}")
        lines.append(f"Time_Unit:{rule.time_unit}")
        if rule.total_time is not None:
            lines.append(f"Total_Time:{rule.total_time}")
        lines.append(f"Byoyomi:{rule.byoyomi}")
        if rule.increment:
            lines.append(f"Increment:{rule.increment}")
        if rule.delay:
            lines.append(f"Delay:{rule.delay}")
        lines.append(f"Least_Time_Per_Move:{rule.least_time_per_move}")
        lines.append(f"Time_Roundup:{'YES' if rule.time_roundup else 'NO'}")
        lines.append(f"END {name}")
    lines.append("BEGIN Position")
    lines += position_lines(summary.position.start_sfen)
    for pm in summary.position.moves:
        lines.append(f"{pm.token},T{pm.time or 0}")
    lines += ["END Position", "END Game_Summary"]
    return lines
