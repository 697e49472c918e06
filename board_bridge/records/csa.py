"""CSA standard record files, V2.2 and V3.0: names, ``$`` items, PI / P1-P9 / P+ / P-
start positions, moves with T times, the % special moves and comments."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from board_bridge.records.csa_moves import (
    CSA_PIECE_NAMES,
    CsaMoveError,
    csa_piece_type,
    move_from_csa,
    move_to_csa,
)
from board_bridge.records.kif import format_datetime, parse_datetime
from board_bridge.records.model import (
    CSA_SPECIAL,
    GameRecord,
    ParseProblem,
    RecordedMove,
    RecordParseError,
    TimeControl,
    outcome_to_special,
    reconcile,
    special_outcome,
)
from board_bridge.shogi import (
    BLACK,
    HAND_PIECE_TYPES,
    KING,
    STARTING_SFEN,
    WHITE,
    Board,
    Color,
    InvalidSfenError,
    Move,
    Outcome,
    Ruleset,
    Termination,
    piece_type_symbol,
    square,
    unpromoted,
)

#: shogi-server's ``'summary:`` reasons -> termination.
SUMMARY_REASONS: Final = {
    "toryo": Termination.RESIGNATION,
    "time up": Termination.TIMEOUT,
    "sennichite": Termination.SENNICHITE,
    "oute_sennichite": Termination.PERPETUAL_CHECK,
    "illegal move": Termination.ILLEGAL_MOVE,
    "uchifuzume": Termination.ILLEGAL_MOVE,
    "oute_kaihimore": Termination.ILLEGAL_MOVE,
    "illegal kachi": Termination.DECLARATION,
    "kachi": Termination.DECLARATION,
    "max_moves": Termination.MAX_MOVES,
    "abnormal": Termination.ABORT,
}
#: Header items of KIF and CSA that mean the same thing.
KIF_TO_CSA_KEYS: Final = {"場所": "SITE", "戦型": "OPENING", "備考": "NOTE"}
CSA_TO_KIF_KEYS: Final = {v: k for k, v in KIF_TO_CSA_KEYS.items()}
#: A complete set of pieces: what ``P+00AL`` / ``P-00AL`` hands out from.
FULL_SET: Final = {1: 18, 2: 4, 3: 4, 4: 4, 5: 2, 6: 2, 7: 4, 8: 2}
#: The Floodgate rules: the CSA 27-point declaration and a 256-move limit.
FLOODGATE_RULESET: Final = Ruleset(declaration="csa27", max_moves=256)
HIRATE_ROWS: Final = (
    "-KY-KE-GI-KI-OU-KI-GI-KE-KY",
    " * -HI *  *  *  *  * -KA * ",
    "-FU-FU-FU-FU-FU-FU-FU-FU-FU",
    " *  *  *  *  *  *  *  *  * ",
    " *  *  *  *  *  *  *  *  * ",
    " *  *  *  *  *  *  *  *  * ",
    "+FU+FU+FU+FU+FU+FU+FU+FU+FU",
    " * +KA *  *  *  *  * +HI * ",
    "+KY+KE+GI+KI+OU+KI+GI+KE+KY",
)
MOVE_RE: Final = re.compile(r"^[+-]\d{4}[A-Z]{2}$")
TIME_RE: Final = re.compile(r"^T(\d+(?:\.\d*)?)$")


@dataclass
class _Position:
    cells: list[tuple[Color, int] | None] = field(default_factory=lambda: [None] * 81)
    hands: list[dict[int, int]] = field(default_factory=lambda: [{}, {}])
    given: bool = False
    alls: list[Color] = field(default_factory=list)


class _CsaReader:
    def __init__(self, text: str, ruleset: Ruleset | None) -> None:
        self.text = text
        self.ruleset = ruleset
        self.problems: list[ParseProblem] = []
        self.lineno = 0
        self.names = ["", ""]
        self.items: list[tuple[str, str]] = []
        self.pos = _Position()
        self.turn: Color | None = None
        self.board: Board | None = None
        self.moves: list[RecordedMove] = []
        self.comments: dict[int, list[str]] = {}
        self.header_comment: list[str] = []
        self.end_comment: list[str] = []
        self.special: str | None = None
        self.special_line = 0
        self.summary: str | None = None
        self.end_time: str | None = None
        self.illegal: Move | None = None
        self.illegal_outcome: Outcome | None = None
        self.illegal_line = 0
        self.version = ""

    def warn(self, message: str) -> None:
        self.problems.append(ParseProblem(self.lineno, message))

    def fail(self, message: str) -> RecordParseError:
        self.problems.append(ParseProblem(self.lineno, message))
        return RecordParseError(message, self.lineno, self.build(partial=True), self.problems)

    def statements(self) -> list[tuple[int, str]]:
        out = []
        text = self.text.lstrip("\ufeff")
        for n, raw in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
            line = raw.rstrip()
            if not line:
                continue
            if line.startswith("'"):
                out.append((n, line))
                continue
            for part in line.split(","):
                if part.strip():
                    out.append((n, part.strip() if not part.startswith("P") else part))
        return out

    def read(self) -> GameRecord:
        for n, st in self.statements():
            self.lineno = n
            if st == "/":
                self.warn("more than one game in the file: only the first is read")
                break
            c = st[0]
            if c == "'":
                self.read_comment(st[1:])
            elif c == "V":
                self.version = st
            elif c == "N" and len(st) >= 2 and st[1] in "+-":
                self.names[0 if st[1] == "+" else 1] = st[2:]
            elif c == "$":
                key, sep, value = st[1:].partition(":")
                if not sep:
                    self.warn(f"a $ item without ':' kept as it is: {st[:40]!r}")
                self.items.append((key, value))
            elif c == "P" and self.board is None:
                self.read_position(st)
            elif st in ("+", "-") and self.board is None:
                self.turn = BLACK if st == "+" else WHITE
                self.start_board()
            elif c in "+-":
                self.read_move(st)
            elif c == "T":
                self.read_time(st)
            elif c == "%":
                self.read_special(st)
            else:
                self.warn(f"line not understood, skipped: {st[:40]!r}")
        if self.board is None:
            if not self.pos.given and self.turn is None and not self.moves:
                raise self.fail("no start position and no moves: not a CSA record")
            self.turn = BLACK if self.turn is None else self.turn
            self.start_board()
        return self.build(partial=False)

    def read_comment(self, text: str) -> None:
        if text.startswith("summary:"):
            self.summary = text[len("summary:") :]
        if text.startswith("$END_TIME:"):
            self.end_time = text[len("$END_TIME:") :]
            return
        if text.startswith("CSA encoding="):
            return
        if text.startswith("illegal move: ") and self.special and self.board and not self.illegal:
            try:
                move = move_from_csa(self.board, text[len("illegal move: ") :].strip())
            except CsaMoveError:
                pass
            else:
                reason = self.board.illegal_reason(move)
                if reason is not None:
                    self.illegal = move
                    self.illegal_outcome = Outcome(
                        Termination.ILLEGAL_MOVE,
                        self.board.turn ^ 1,
                        f"{move.usi()}: {reason.description}",
                    )
                    return
        body = text[1:] if text.startswith("*") else text
        if self.special is not None or self.illegal is not None:
            self.end_comment.append(body)
        elif self.moves:
            self.comments.setdefault(len(self.moves) - 1, []).append(body)
        else:
            self.header_comment.append(body)

    # -- start position
    def read_position(self, st: str) -> None:
        pos = self.pos
        pos.given = True
        if st.startswith("PI"):
            for r, row in enumerate(HIRATE_ROWS):
                self.set_row(r, row)
            rest = st[2:].strip()
            for i in range(0, len(rest) - 3, 4):
                sq_text, name = rest[i : i + 2], rest[i + 2 : i + 4]
                try:
                    sq = square(int(sq_text[0]), int(sq_text[1]))
                    pt = csa_piece_type(name)
                except (ValueError, CsaMoveError):
                    raise self.fail(f"bad handicap item {rest[i : i + 4]!r}") from None
                cell = pos.cells[sq]
                if cell is None or cell[1] != pt:
                    raise self.fail(f"PI removes {name} from {sq_text}, where there is none")
                pos.cells[sq] = None
        elif len(st) >= 2 and st[1] in "123456789":
            self.set_row(int(st[1]) - 1, st[2:])
        elif len(st) >= 2 and st[1] in "+-":
            color = BLACK if st[1] == "+" else WHITE
            rest = st[2:].strip()
            if len(rest) % 4:
                raise self.fail(f"a P{st[1]} line is made of 4-character items: {st!r}")
            for i in range(0, len(rest), 4):
                sq_text, name = rest[i : i + 2], rest[i + 2 : i + 4]
                if sq_text == "00" and name == "AL":
                    pos.alls.append(color)
                    continue
                try:
                    pt = csa_piece_type(name)
                except CsaMoveError as exc:
                    raise self.fail(str(exc)) from None
                if sq_text == "00":
                    if pt not in HAND_PIECE_TYPES:
                        raise self.fail(f"{name} cannot be in hand")
                    pos.hands[color][pt] = pos.hands[color].get(pt, 0) + 1
                    continue
                try:
                    sq = square(int(sq_text[0]), int(sq_text[1]))
                except ValueError:
                    raise self.fail(f"bad square {sq_text!r}") from None
                pos.cells[sq] = (color, pt)
        else:
            raise self.fail(f"not a position line: {st[:40]!r}")

    def set_row(self, r: int, text: str) -> None:
        text = text.ljust(27)
        for c in range(9):
            cell = text[c * 3 : c * 3 + 3]
            if cell.strip() in ("*", ""):
                self.pos.cells[r * 9 + c] = None
                continue
            if cell[0] not in "+-":
                raise self.fail(f"P{r + 1}: bad square {cell!r}")
            try:
                pt = csa_piece_type(cell[1:])
            except CsaMoveError as exc:
                raise self.fail(f"P{r + 1}: {exc}") from None
            self.pos.cells[r * 9 + c] = (BLACK if cell[0] == "+" else WHITE, pt)

    def start_board(self) -> None:
        pos = self.pos
        if not pos.given:
            sfen = STARTING_SFEN if self.turn != WHITE else STARTING_SFEN.replace(" b ", " w ")
            self.board = Board(sfen)
            return
        for color in pos.alls:
            left = dict(FULL_SET)
            for cell in pos.cells:
                if cell is not None:
                    left[unpromoted(cell[1])] -= 1
            for hand in pos.hands:
                for pt, n in hand.items():
                    left[pt] -= n
            for pt, n in left.items():
                if pt != KING and n > 0:
                    pos.hands[color][pt] = pos.hands[color].get(pt, 0) + n
        rows = []
        for r in range(9):
            row, empty = "", 0
            for c in range(9):
                cell = pos.cells[r * 9 + c]
                if cell is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                sym = piece_type_symbol(cell[1])
                row += sym if cell[0] == BLACK else sym.lower()
            rows.append(row + (str(empty) if empty else ""))
        hands = ""
        for color in (BLACK, WHITE):
            for pt in HAND_PIECE_TYPES:
                n = pos.hands[color].get(pt, 0)
                if n:
                    sym = piece_type_symbol(pt)
                    hands += (str(n) if n > 1 else "") + (sym if color == BLACK else sym.lower())
        sfen = f"{'/'.join(rows)} {'w' if self.turn == WHITE else 'b'} {hands or '-'} 1"
        try:
            self.board = Board(sfen)
        except InvalidSfenError as exc:
            raise self.fail(f"start position: {exc}") from None

    # -- moves
    def read_move(self, st: str) -> None:
        if self.board is None:
            self.turn = BLACK if st[0] == "+" else WHITE
            self.start_board()
        assert self.board is not None
        if self.special is not None:
            raise self.fail(f"a move after %{self.special}")
        if self.illegal is not None:
            self.lineno = self.illegal_line
            detail = self.illegal_outcome.detail if self.illegal_outcome else ""
            raise self.fail(f"an illegal move ({detail}) is followed by more moves")
        if not MOVE_RE.match(st):
            raise self.fail(f"not a CSA move: {st[:40]!r}")
        try:
            move = move_from_csa(self.board, st)
        except CsaMoveError as exc:
            raise self.fail(str(exc)) from None
        reason = self.board.illegal_reason(move)
        if reason is not None:
            self.illegal = move
            self.illegal_line = self.lineno
            self.illegal_outcome = Outcome(
                Termination.ILLEGAL_MOVE, self.board.turn ^ 1, f"{move.usi()}: {reason.description}"
            )
            self.warn(f"illegal move {st} ({reason.description}) ends the game")
            return
        self.board.push(move)
        self.moves.append(RecordedMove(move))

    def read_time(self, st: str) -> None:
        m = TIME_RE.match(st)
        if not m:
            raise self.fail(f"not a time: {st[:20]!r}")
        if self.special is not None or self.illegal is not None:
            return  # the time of the special move
        if not self.moves:
            self.warn("a time before any move, skipped")
            return
        last = self.moves[-1]
        if last.time_used is not None:
            self.warn("a second time for one move, skipped")
            return
        self.moves[-1] = RecordedMove(last.move, float(m.group(1)), last.comment)

    def read_special(self, st: str) -> None:
        name = st[1:].split()[0] if st[1:].split() else ""
        if name not in CSA_SPECIAL and name != "MATTA":
            raise self.fail(f"unknown special move {st[:30]!r}")
        if name == "MATTA":
            self.warn("%MATTA (take back) ignored")
            return
        if self.board is None:
            self.turn = BLACK if self.turn is None else self.turn
            self.start_board()
        if self.special is None:
            self.special = name
            self.special_line = self.lineno

    # -- the record
    def rules(self) -> Ruleset:
        if self.ruleset is not None:
            return self.ruleset
        max_moves = None
        declaration = "csa27"
        for key, value in self.items:
            if key == "MAX_MOVES" and value.strip().isdigit() and int(value) > 0:
                max_moves = int(value)
            if key == "JISHOGI" and value.strip() == "24":
                declaration = "jsa"
        return Ruleset(declaration=declaration, max_moves=max_moves)  # type: ignore[arg-type]

    def build(self, partial: bool) -> GameRecord:
        board = self.board
        sfen = board.root_sfen if board is not None else STARTING_SFEN
        moves = [
            RecordedMove(rm.move, rm.time_used, "\n".join(self.comments[i]))
            if i in self.comments
            else rm
            for i, rm in enumerate(self.moves)
        ]
        event = ""
        started = finished = None
        total = byoyomi = increment = None
        extra: list[tuple[str, str]] = []
        for key, value in self.items:
            if key == "EVENT":
                event = value
            elif key in ("START_TIME", "END_TIME") and parse_datetime(value) is not None:
                if key == "START_TIME":
                    started = parse_datetime(value)
                else:
                    finished = parse_datetime(value)
            elif key == "TIME_LIMIT" and _time_limit(value) is not None:
                total, byoyomi = _time_limit(value)  # type: ignore[misc]
            elif key == "TIME" and _time_v3(value) is not None:
                total, byoyomi, increment = _time_v3(value)  # type: ignore[misc]
            else:
                extra.append((key, value))
        if finished is None and self.end_time is not None:
            finished = parse_datetime(self.end_time)
        outcome = None if partial or board is None else self.outcome(board)
        return GameRecord(
            start_sfen=sfen,
            moves=tuple(moves),
            outcome=outcome,
            sente=self.names[0],
            gote=self.names[1],
            event=event,
            started=started,
            finished=finished,
            time_control=TimeControl(total, byoyomi, increment),
            comment="\n".join(self.header_comment),
            end_comment="\n".join(self.end_comment),
            extra=tuple(extra),
            illegal_move=self.illegal,
            problems=tuple(self.problems),
        )

    def outcome(self, board: Board) -> Outcome | None:
        rules = self.rules()
        if self.illegal is not None:
            return self.illegal_outcome
        if self.special is not None:
            stated = special_outcome(self.special, board, rules)
            outcome, note = reconcile(stated, board, rules)
            if note:
                self.problems.append(ParseProblem(self.special_line, note))
            return outcome
        decided = board.outcome(rules)
        if decided is not None:
            return decided
        if self.summary is not None:
            return self.summary_outcome(board)
        return None

    def summary_outcome(self, board: Board) -> Outcome | None:
        """shogi-server's ``'summary:REASON:NAME RESULT:NAME RESULT`` comment."""
        assert self.summary is not None
        parts = self.summary.split(":")
        reason = parts[0].strip()
        term = SUMMARY_REASONS.get(reason)
        if term is None:
            self.problems.append(ParseProblem(0, f"summary reason {reason!r} not understood"))
            return None
        if term in (Termination.SENNICHITE, Termination.PERPETUAL_CHECK):
            self.problems.append(
                ParseProblem(0, f"the summary says {reason}, the position shows no repetition")
            )
            return None
        winner: Color | None = None
        for item in parts[1:]:
            name, _, result = item.strip().rpartition(" ")
            if result == "win":
                winner = (
                    BLACK if name == self.names[0] else WHITE if name == self.names[1] else None
                )
            elif result == "lose" and winner is None:
                if name == self.names[0]:
                    winner = WHITE
                elif name == self.names[1]:
                    winner = BLACK
        return Outcome(term, winner, reason)


def _time_limit(value: str) -> tuple[float, float] | None:
    """``$TIME_LIMIT:00:25+00`` (V2.2: hours:minutes + byoyomi seconds)."""
    m = re.fullmatch(r"\s*(\d+):(\d+)\+(\d+)\s*", value)
    if not m:
        return None
    return float(int(m.group(1)) * 3600 + int(m.group(2)) * 60), float(m.group(3))


def _time_v3(value: str) -> tuple[float, float, float] | None:
    """``$TIME:600+10+0`` (V3.0: main time, byoyomi, increment, all in seconds)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?\s*", value)
    if not m:
        return None
    return float(m.group(1)), float(m.group(2)), float(m.group(3) or 0)


def parse_csa(text: str, ruleset: Ruleset | None = None) -> GameRecord:
    """Read a CSA record (V2, V2.1, V2.2, V3.0) from text.

    The ending comes from the % special move (a %KACHI is judged by ``ruleset``, by
    default the CSA 27-point rule and the file's ``$MAX_MOVES``), else from the final
    position (mate, repetition, move limit), else from shogi-server's ``'summary:``
    comment. Raises RecordParseError with the line number and the partial record."""
    return _CsaReader(text, ruleset).read()


# --- writing ----------------------------------------------------------------------------


def _position_lines(sfen: str) -> list[str]:
    if sfen.split()[:3] == STARTING_SFEN.split()[:3]:
        return ["PI", "+"]
    board = Board(sfen)
    lines = []
    for r in range(9):
        row = f"P{r + 1}"
        for c in range(9):
            piece = board.piece_at(r * 9 + c)
            if piece is None:
                row += " * "
            else:
                row += ("+" if piece.color == BLACK else "-") + CSA_PIECE_NAMES[piece.piece_type]
        lines.append(row)
    hands = board.pieces_in_hand
    for color, sign in ((BLACK, "+"), (WHITE, "-")):
        items = "".join(f"00{CSA_PIECE_NAMES[pt]}" * n for pt, n in hands[color].items())
        if items:
            lines.append(f"P{sign}{items}")
    lines.append("+" if board.turn == BLACK else "-")
    return lines


def _format_seconds(t: float, version3: bool) -> str:
    if not version3:
        return str(int(t))
    text = f"{t:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def _comment(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.split("\n")] if text else []


def write_csa(record: GameRecord, version: str = "2.2", encoding: str = "UTF-8") -> str:
    """The record as CSA text: V2.2 (whole-second times) by default, or ``version="3.0"``
    (fractional times, ``$TIME``, the encoding line). Comments of moves are written as
    ``'*`` lines; header items without a CSA key as ``'key：value`` comments."""
    v3 = version.startswith("3")
    out = []
    if v3:
        out.append(f"'CSA encoding={encoding.upper().replace('CP932', 'SHIFT_JIS')}")
    out.append("V3.0" if v3 else "V2.2")
    out.append(f"N+{record.sente}")
    out.append(f"N-{record.gote}")
    if record.event:
        out.append(f"$EVENT:{record.event}")
    if record.started is not None:
        out.append(f"$START_TIME:{format_datetime(record.started)}")
    if record.finished is not None:
        out.append(f"$END_TIME:{format_datetime(record.finished)}")
    tc = record.time_control
    if v3 and not tc.is_empty():
        parts = [tc.total or 0, tc.byoyomi or 0, tc.increment or 0]
        out.append("$TIME:" + "+".join(_format_seconds(p, True) for p in parts))
    elif tc.total is not None or tc.byoyomi is not None:
        total = int(tc.total or 0)
        out.append(
            f"$TIME_LIMIT:{total // 3600:02}:{total // 60 % 60:02}+{int(tc.byoyomi or 0):02}"
        )
    comments = []
    for key, value in record.extra:
        csa_key = KIF_TO_CSA_KEYS.get(key, key)
        if re.fullmatch(r"[A-Z][A-Z0-9_+-]*", csa_key):
            out.append(f"${csa_key}:{value}")
        else:
            comments.append(f"'{key}：{value}")
    if not v3 and tc.increment is not None:
        comments.append(f"'increment：{_format_seconds(tc.increment, False)}")
    out.extend(comments)
    out.extend(_comment(record.comment, "'"))
    out.extend(_position_lines(record.start_sfen))
    board = Board(record.start_sfen)
    for rm in record.moves:
        out.append(move_to_csa(board, rm.move))
        if rm.time_used is not None:
            out.append("T" + _format_seconds(rm.time_used, v3))
        out.extend(_comment(rm.comment, "'*"))
        board.push(rm.move)
    if record.outcome is not None:
        out.append("%" + outcome_to_special(record.outcome, board.turn, v3))
        if record.illegal_move is not None:
            out.append(f"'illegal move: {move_to_csa(board, record.illegal_move)}")
    out.extend(_comment(record.end_comment, "'"))
    return "\n".join(out) + "\n"
