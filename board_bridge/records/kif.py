"""KIF (.kif Shift_JIS, .kifu UTF-8): read with headers, BOD start positions, times,
comments, endings and 変化 variations; write in the standard column layout."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from board_bridge.records.japanese import (
    BOD_NAMES,
    HAND_ORDER,
    KANJI_DIGITS,
    PIECE_NAME_RE,
    PIECE_NAMES,
    SAME_RE,
    SQUARE_RE,
    NotationError,
    hand_text,
    parse_hand_text,
    parse_square_jp,
    piece_type_jp,
    square_jp,
)
from board_bridge.records.model import (
    HANDICAPS,
    GameRecord,
    ParseProblem,
    RecordedMove,
    RecordParseError,
    TimeControl,
    Variation,
    reconcile,
)
from board_bridge.shogi import (
    BLACK,
    PROMOTABLE,
    STARTING_SFEN,
    WHITE,
    Board,
    Color,
    InvalidSfenError,
    Move,
    Outcome,
    Ruleset,
    Square,
    Termination,
    piece_type_symbol,
    square,
)
from board_bridge.shogi.core import PROMOTION_OFFSET

#: KIF ending words -> (termination, who wins: "mover" = the side whose turn the line is,
#: "other" = its opponent, None = nobody).
KIF_ENDINGS: Final = {
    "投了": (Termination.RESIGNATION, "other"),
    "中断": (Termination.ABORT, None),
    "千日手": (Termination.SENNICHITE, None),
    "持将棋": (Termination.IMPASSE, None),
    "詰み": (Termination.CHECKMATE, "other"),
    "不詰": (Termination.ABORT, None),
    "切れ負け": (Termination.TIMEOUT, "other"),
    "反則勝ち": (Termination.ILLEGAL_MOVE, "mover"),
    "反則負け": (Termination.ILLEGAL_MOVE, "other"),
    "入玉勝ち": (Termination.DECLARATION, "mover"),
    "引き分け": (Termination.MAX_MOVES, None),
    "トライ": (Termination.TRY, "mover"),
    "不戦勝": (Termination.ABORT, "mover"),
    "不戦敗": (Termination.ABORT, "other"),
}

HEADER_SENTE: Final = ("先手", "下手")
HEADER_GOTE: Final = ("後手", "上手")
TIME_RE: Final = re.compile(
    r"\(\s*(?P<m>\d+):(?P<s>\d+)(?:\.\d+)?\s*(?:/\s*(?P<th>\d+):(?P<tm>\d+):(?P<ts>\d+)(?:\.\d+)?)?\s*\)"
)
MOVE_LINE_RE: Final = re.compile(r"^\s*(?P<n>\d+)\s*[:：]?\s*(?P<body>\S.*?)?\s*$")
MOVE_RE: Final = re.compile(
    rf"^[▲△☗☖]?(?P<to>{SQUARE_RE}|{SAME_RE})(?P<piece>{PIECE_NAME_RE})"
    r"(?P<promo>不成|生|成)?(?P<drop>打)?(?:\(\s*(?P<from>\d\d)\s*\))?"
)
RESULT_LINE_RE: Final = re.compile(r"^\s*まで、?\s*(?P<n>\d+)\s*手")
VARIATION_RE: Final = re.compile(r"^\s*変化\s*[：:]\s*(?P<n>\d+)\s*手")
BOD_ROW_RE: Final = re.compile(r"^\s*\|(?P<cells>.*)\|\s*(?P<rank>[一二三四五六七八九])?\s*$")
DATE_FORMATS: Final = (
    "%Y/%m/%d %H:%M:%S",
    "%Y/%m/%d %H:%M",
    "%Y/%m/%d",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d",
)


def parse_datetime(text: str) -> datetime | None:
    """KIF and CSA dates (``2018/01/14 14:00``, ``2018年01月14日(日) 14:00``), or None."""
    t = text.strip().strip("\u3000")
    t = re.sub(r"\([^)]*\)|（[^）]*）", " ", t)
    t = re.sub(r"(\d+)年(\d+)月(\d+)日", r"\1/\2/\3", t)
    t = " ".join(t.split())
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(t, fmt)
        except ValueError:
            continue
    return None


def format_datetime(value: datetime) -> str:
    if value.hour == value.minute == value.second == 0:
        return value.strftime("%Y/%m/%d")
    return value.strftime("%Y/%m/%d %H:%M:%S")


def parse_duration_jp(text: str) -> float | None:
    """``各40分`` -> 2400, ``1時間30分`` -> 5400, ``60秒`` -> 60; None if no amount."""
    t = unicodedata.normalize("NFKC", text)
    total = 0.0
    found = False
    for amount, unit in re.findall(r"(\d+(?:\.\d+)?)\s*(時間|分|秒)", t):
        found = True
        total += float(amount) * {"時間": 3600, "分": 60, "秒": 1}[unit]
    return total if found else None


def format_duration_jp(seconds: float) -> str:
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    out = ""
    if h:
        out += f"{h}時間"
    if m:
        out += f"{m}分"
    if sec or not out:
        out += f"{sec}秒"
    return out


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "FW" else 1 for c in text)


# --- reading ----------------------------------------------------------------------------


@dataclass
class _Line:
    """A line of play being read: the main line or a variation."""

    start_ply: int  # move number of its first move
    board: Board
    moves: list[RecordedMove] = field(default_factory=list)
    parent: int | None = None  # index into variations, None = main line
    outcome: Outcome | None = None
    illegal: Move | None = None
    ended: bool = False
    ending_line: int = 0
    illegal_line: int = 0
    ignored: bool = False


class _KifReader:
    def __init__(self, text: str, ruleset: Ruleset | None, ki2: bool = False) -> None:
        self.text = text
        self.ruleset = ruleset
        self.ki2 = ki2
        self.problems: list[ParseProblem] = []
        self.headers: list[tuple[str, str]] = []
        self.header_comment: list[str] = []
        self.end_comment: list[str] = []
        self.bod_rows: list[str] = []
        self.bod_hands: dict[Color, str] = {}
        self.bod_turn: Color | None = None
        self.lines: list[_Line] = []  # 0 = main line, then variations
        self.current: _Line | None = None
        self.result: Outcome | None = None  # from the まで line
        self.sfen_handicap: tuple[str, str | None] | None = None
        self.comment_target: list[str] | None = None
        self.move_comments: dict[tuple[int, int], list[str]] = {}
        self.lineno = 0

    # -- helpers
    def warn(self, message: str, line: int | None = None) -> None:
        self.problems.append(ParseProblem(self.lineno if line is None else line, message))

    def fail(self, message: str) -> RecordParseError:
        self.problems.append(ParseProblem(self.lineno, message))
        return RecordParseError(message, self.lineno, self.build(partial=True), self.problems)

    def start_sfen(self) -> tuple[str, str | None]:
        handicap = None
        sfen = STARTING_SFEN
        for key, value in self.headers:
            if key == "手合割":
                name = value.strip().strip("\u3000").strip()
                if name in HANDICAPS:
                    handicap = name
                    sfen = HANDICAPS[name]
                elif name not in ("その他", ""):
                    self.warn(f"unknown handicap {name!r}; the normal start position is used", 0)
        if self.bod_rows:
            sfen = self.bod_sfen()
            handicap = None
        return sfen, handicap

    def bod_sfen(self) -> str:
        if len(self.bod_rows) != 9:
            raise self.fail(f"a board diagram has 9 rows, this one {len(self.bod_rows)}")
        rows = []
        for r, cells in enumerate(self.bod_rows):
            row = ""
            empty = 0
            i = 0
            col = 0
            text = cells
            while i < len(text) and col < 9:
                mark, name = text[i], text[i + 1 : i + 2]
                if name in ("・", "") or mark == "・":
                    empty += 1
                    i += 2 if mark != "・" else 1
                    col += 1
                    continue
                try:
                    pt = piece_type_jp(name)
                except NotationError:
                    raise self.fail(f"board diagram row {r + 1}: unknown piece {name!r}") from None
                if empty:
                    row += str(empty)
                    empty = 0
                sym = piece_type_symbol(pt)
                row += sym.lower() if mark in "vV" else sym
                i += 2
                col += 1
            if col != 9:
                raise self.fail(f"board diagram row {r + 1} does not have 9 squares")
            if empty:
                row += str(empty)
            rows.append(row)
        hands = ""
        for color in (BLACK, WHITE):
            try:
                hand = parse_hand_text(self.bod_hands.get(color, ""))
            except NotationError as exc:
                raise self.fail(f"pieces in hand: {exc}") from None
            for pt in HAND_ORDER:
                n = hand.get(pt, 0)
                if n:
                    sym = piece_type_symbol(pt)
                    hands += (str(n) if n > 1 else "") + (sym if color == BLACK else sym.lower())
        turn = "w" if self.bod_turn == WHITE else "b"
        sfen = f"{'/'.join(rows)} {turn} {hands or '-'} 1"
        try:
            Board(sfen)
        except InvalidSfenError as exc:
            raise self.fail(f"board diagram: {exc}") from None
        return sfen

    def begin_moves(self) -> None:
        if self.lines:
            return
        self.sfen_handicap = self.start_sfen()
        self.lines.append(_Line(1, Board(self.sfen_handicap[0])))
        self.current = self.lines[0]

    # -- the main loop
    def read(self) -> GameRecord:
        text = self.text.lstrip("\ufeff")
        for raw in re.split(r"\r\n|\r|\n", text):
            self.lineno += 1
            line = raw.rstrip()
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith("*"):
                self.add_comment(stripped[1:])
                continue
            if stripped.startswith("#") or stripped.startswith("&"):
                continue
            m = VARIATION_RE.match(line)
            if m:
                self.begin_variation(int(m.group("n")))
                continue
            if stripped.startswith("手数") and ("指手" in stripped or "----" in stripped):
                self.begin_moves()
                continue
            if stripped.startswith("手数＝") or stripped.startswith("手数="):
                continue  # a BOD diagram's last-move line
            m = RESULT_LINE_RE.match(line)
            if m:
                self.read_result(stripped)
                continue
            if stripped.startswith("+--") or re.match(r"^[\s９８７６５４３２１1-9]+$", stripped):
                continue
            m = BOD_ROW_RE.match(line)
            if m and not self.lines:
                self.bod_rows.append(m.group("cells"))
                continue
            if stripped in ("先手番", "下手番"):
                self.bod_turn = BLACK
                continue
            if stripped in ("後手番", "上手番"):
                self.bod_turn = WHITE
                continue
            if self.ki2 is False:
                m = MOVE_LINE_RE.match(line)
                if m and m.group("body"):
                    self.read_move_line(int(m.group("n")), m.group("body"))
                    continue
            if "：" in stripped or (":" in stripped and not self.lines):
                sep = "：" if "：" in stripped else ":"
                key, value = stripped.split(sep, 1)
                self.read_header(key.strip(), value.strip())
                continue
            if self.ki2 and stripped[0] in "▲△☗☖":
                self.read_ki2_moves(stripped)
                continue
            self.warn(f"line not understood, skipped: {stripped[:40]!r}")
        return self.build(partial=False)

    def read_header(self, key: str, value: str) -> None:
        if key in ("先手の持駒", "下手の持駒"):
            self.bod_hands[BLACK] = value
        elif key in ("後手の持駒", "上手の持駒"):
            self.bod_hands[WHITE] = value
        elif self.lines:
            self.warn(f"header item {key!r} after the moves began, kept")
            self.headers.append((key, value))
        else:
            self.headers.append((key, value))

    def add_comment(self, text: str) -> None:
        if self.current is None:
            self.header_comment.append(text)
        elif self.current.ended:
            if self.current is self.lines[0]:
                self.end_comment.append(text)
        elif self.current.moves:
            idx = (self.lines.index(self.current), len(self.current.moves) - 1)
            self.move_comments.setdefault(idx, []).append(text)
        elif self.current is self.lines[0]:
            self.header_comment.append(text)

    def begin_variation(self, ply: int) -> None:
        if not self.lines:
            self.warn("a variation before any move, skipped")
            return
        # The branch is the latest line that contains move number ``ply``.
        for idx in range(len(self.lines) - 1, -1, -1):
            line = self.lines[idx]
            if line.ignored:
                continue
            last = line.start_ply + len(line.moves) - 1
            if line.start_ply <= ply <= last + (1 if line.ended else 0):
                board = Board(line.board.root_sfen)
                for rm in self.line_prefix(idx, ply):
                    board.push(rm.move)
                if idx and line.start_ply == ply:
                    # An alternative to that variation's first move: its sibling.
                    idx = 0 if line.parent is None else line.parent
                var = _Line(ply, board, parent=None if idx == 0 else idx)
                self.lines.append(var)
                self.current = var
                return
        self.warn(f"variation at move {ply} matches no line, skipped")
        self.current = _Line(ply, Board(), ended=True, ignored=True)  # swallow its moves

    def line_prefix(self, idx: int, ply: int) -> list[RecordedMove]:
        """The moves before move number ``ply`` on line ``idx`` (through its parents)."""
        line = self.lines[idx]
        own = line.moves[: ply - line.start_ply]
        if idx == 0:
            return own
        parent = 0 if line.parent is None else line.parent
        return self.line_prefix(parent, line.start_ply) + own

    def read_result(self, text: str) -> None:
        if self.lines and self.current is not self.lines[0]:
            return
        self.result = parse_result_phrase(text)
        if self.result is None:
            self.warn(f"result line not understood: {text[:40]!r}")

    def read_move_line(self, number: int, body: str) -> None:
        self.begin_moves()
        line = self.current
        assert line is not None
        if line.ended:
            if not line.ignored:
                self.warn(f"move {number} after the end of its line, skipped")
            return
        expected = line.start_ply + len(line.moves)
        if line.illegal is not None:
            expected += 1
        if number != expected:
            raise self.fail(f"move number {number} where {expected} was expected")
        time_used = None
        body_move = body
        tm = TIME_RE.search(body)
        if tm:
            time_used = float(int(tm.group("m")) * 60 + int(tm.group("s")))
            body_move = body[: tm.start()].strip()
        word = body_move.split()[0] if body_move.split() else ""
        word = word.lstrip("▲△☗☖")
        if word in KIF_ENDINGS:
            self.end_line(line, word)
            return
        if line.illegal is not None:
            assert line.outcome is not None
            self.lineno = line.illegal_line
            raise self.fail(
                f"move {number - 1} is illegal ({line.outcome.detail}) and moves follow it"
            )
        m = MOVE_RE.match(body_move)
        if not m:
            raise self.fail(f"not a move: {body_move[:30]!r}")
        move = self.kif_move(line, m)
        reason = line.board.illegal_reason(move)
        if reason is not None:
            # An illegal move ends the game: its mover loses (反則負け).
            line.illegal = move
            line.illegal_line = self.lineno
            mover = line.board.turn
            line.outcome = Outcome(
                Termination.ILLEGAL_MOVE, mover ^ 1, f"{move.usi()}: {reason.description}"
            )
            self.warn(f"illegal move {number} {move.usi()} ({reason.description}) ends the game")
            return
        line.board.push(move)
        line.moves.append(RecordedMove(move, time_used))

    def kif_move(self, line: _Line, m: re.Match[str]) -> Move:
        board = line.board
        to_text = m.group("to")
        if to_text.startswith("同"):
            last = board.peek()
            if last is None:
                raise self.fail("同 with no previous move")
            to: Square = last.to_square
        else:
            to = parse_square_jp(to_text)
        try:
            pt = piece_type_jp(m.group("piece"))
        except NotationError as exc:
            raise self.fail(str(exc)) from None
        fr_text = m.group("from")
        if m.group("drop") or fr_text == "00":
            if pt not in HAND_ORDER:
                raise self.fail(f"{m.group('piece')} cannot be dropped")
            return Move(None, to, drop_piece_type=pt)
        if fr_text is None:
            raise self.fail("a KIF move needs its from-square, as in ７六歩(77)")
        try:
            fr = square(int(fr_text[0]), int(fr_text[1]))
        except ValueError:
            raise self.fail(f"bad from-square ({fr_text})") from None
        promo = m.group("promo") == "成"
        piece = board.piece_at(fr)
        if piece is not None and piece.color == board.turn and piece.piece_type != pt:
            if piece.piece_type in PROMOTABLE and piece.piece_type + PROMOTION_OFFSET == pt:
                promo = True  # written with the promoted name: ３二成銀(41)
            else:
                raise self.fail(
                    f"the piece on {fr_text} is {PIECE_NAMES[piece.piece_type]}, "
                    f"not {m.group('piece')}"
                )
        if promo and piece is not None and piece.piece_type not in PROMOTABLE:
            raise self.fail(f"{m.group('piece')} cannot promote")
        return Move(fr, to, promotion=promo)

    def end_line(self, line: _Line, word: str) -> None:
        line.ended = True
        line.ending_line = self.lineno
        if line.illegal is not None:
            return  # the illegal move decided the game; its ending word adds nothing
        term, who = KIF_ENDINGS[word]
        mover = line.board.turn
        winner: Color | None = None
        if who == "mover":
            winner = mover
        elif who == "other":
            winner = mover ^ 1
        line.outcome = Outcome(term, winner)
        line.ending_line = self.lineno

    def read_ki2_moves(self, text: str) -> None:
        from board_bridge.records.ki2 import read_ki2_line

        self.begin_moves()
        line = self.current
        assert line is not None
        try:
            read_ki2_line(self, line, text)
        except NotationError as exc:
            raise self.fail(str(exc)) from None

    # -- the record
    def build(self, partial: bool) -> GameRecord:
        sfen, handicap = STARTING_SFEN, None
        if self.sfen_handicap is not None:
            sfen, handicap = self.sfen_handicap
        elif not partial:
            sfen, handicap = self.start_sfen()
        fields = _header_fields(self.headers, self.problems)
        main = self.lines[0] if self.lines else _Line(1, Board(sfen))
        moves = self.with_comments(0, main.moves)
        outcome = main.outcome
        if not partial:
            outcome = self.final_outcome(main)
        variations = []
        if not partial:
            for idx, var in enumerate(self.lines[1:], start=1):
                variations.append(
                    Variation(
                        var.start_ply,
                        tuple(self.with_comments(idx, var.moves)),
                        None if var.parent is None else var.parent - 1,
                        var.outcome,
                    )
                )
        return GameRecord(
            start_sfen=sfen,
            handicap=handicap,
            moves=tuple(moves),
            outcome=outcome,
            comment="\n".join(self.header_comment),
            end_comment="\n".join(self.end_comment),
            variations=tuple(variations),
            illegal_move=main.illegal,
            problems=tuple(self.problems),
            **fields,  # type: ignore[arg-type]
        )

    def with_comments(self, idx: int, moves: list[RecordedMove]) -> list[RecordedMove]:
        out = []
        for i, rm in enumerate(moves):
            lines = self.move_comments.get((idx, i))
            out.append(RecordedMove(rm.move, rm.time_used, "\n".join(lines)) if lines else rm)
        return out

    def final_outcome(self, main: _Line) -> Outcome | None:
        stated = main.outcome
        if main.illegal is not None:
            return stated
        result = self.result
        if result is not None:
            if stated is None:
                stated = result  # KI2, or a KIF without its ending word
            elif result.winner is not None and stated.winner != result.winner:
                stated = Outcome(stated.termination, result.winner, stated.detail)
        outcome, note = reconcile(stated, main.board, self.ruleset)
        if note:
            self.warn(note, main.ending_line)
        return outcome


#: Phrases of the まで line, most specific first -> termination.
_RESULT_WORDS: Final = (
    ("連続王手の千日手", Termination.PERPETUAL_CHECK),
    ("時間切れ", Termination.TIMEOUT),
    ("切れ負け", Termination.TIMEOUT),
    ("反則", Termination.ILLEGAL_MOVE),
    ("入玉", Termination.DECLARATION),
    ("千日手", Termination.SENNICHITE),
    ("持将棋", Termination.IMPASSE),
    ("詰み", Termination.CHECKMATE),
    ("トライ", Termination.TRY),
    ("引き分け", Termination.MAX_MOVES),
    ("中断", Termination.ABORT),
    ("勝ち", Termination.RESIGNATION),
)


def parse_result_phrase(text: str) -> Outcome | None:
    """The outcome a ``まで64手で後手の勝ち`` line states, or None if not understood."""
    m = re.search(r"(先手|下手|後手|上手)の(反則負け|[^、。\s]*?勝ち)", text)
    winner: Color | None = None
    if m:
        side = BLACK if m.group(1) in HEADER_SENTE else WHITE
        winner = side ^ 1 if m.group(2) == "反則負け" else side
    for word, term in _RESULT_WORDS:
        if word in text:
            if term is Termination.RESIGNATION and winner is None:
                return None
            if term is Termination.PERPETUAL_CHECK and winner is None:
                continue
            return Outcome(term, winner)
    return None


def result_phrase(outcome: Outcome, plies: int, rich: bool = False) -> str:
    """The まで line. ``rich`` (KI2, which has no ending words) names the termination;
    the plain form is the one KIF readers (cshogi's too) understand."""
    t = outcome.termination
    w = outcome.winner
    head = f"まで{plies}手で"
    if t is Termination.ABORT:
        return head + "中断"
    if w is None:
        word = {Termination.IMPASSE: "持将棋", Termination.DECLARATION: "持将棋",
                Termination.MAX_MOVES: "引き分け"}.get(t, "千日手")  # fmt: skip
        return head + word
    side = "先手" if w == BLACK else "後手"
    if t is Termination.ILLEGAL_MOVE:
        return f"{head}{side}の反則勝ち"
    if t is Termination.DECLARATION:
        return f"{head}{side}の入玉勝ち"
    if rich:
        why = {
            Termination.TIMEOUT: "時間切れにより",
            Termination.PERPETUAL_CHECK: "連続王手の千日手により",
            Termination.CHECKMATE: "詰みにより",
            Termination.NO_LEGAL_MOVES: "詰みにより",
            Termination.TRY: "トライにより",
            Termination.IMPASSE: "持将棋により",
            Termination.MAX_MOVES: "引き分け",
        }.get(t, "")
        if t is not Termination.MAX_MOVES:
            return f"{head}{why}{side}の勝ち"
    return f"{head}{side}の勝ち"


def _header_fields(
    headers: list[tuple[str, str]], problems: list[ParseProblem]
) -> dict[str, object]:
    sente = gote = event = ""
    started = finished = None
    total = byoyomi = increment = None
    extra: list[tuple[str, str]] = []
    for key, value in headers:
        v = value.strip().strip("\u3000").strip()
        if key in HEADER_SENTE:
            sente = v
        elif key in HEADER_GOTE:
            gote = v
        elif key == "棋戦":
            event = v
        elif key == "手合割":
            continue
        elif key in ("開始日時", "終了日時"):
            when = parse_datetime(v)
            if when is None:
                extra.append((key, value))
            elif key == "開始日時":
                started = when
            else:
                finished = when
        elif key == "持ち時間" and total is None:
            t = _parse_time_limit(v)
            if t is None:
                extra.append((key, value))
            else:
                total, inc = t
                increment = inc if inc is not None else increment
        elif key == "秒読み" and byoyomi is None and parse_duration_jp(v) is not None:
            byoyomi = parse_duration_jp(v)
        elif key == "加算" and increment is None and parse_duration_jp(v) is not None:
            increment = parse_duration_jp(v)
        else:
            extra.append((key, value))
    return {
        "sente": sente,
        "gote": gote,
        "event": event,
        "started": started,
        "finished": finished,
        "time_control": TimeControl(total, byoyomi, increment),
        "extra": tuple(extra),
    }


def _parse_time_limit(value: str) -> tuple[float, float | None] | None:
    """``各40分`` -> (2400, None); ``10分+10秒`` -> (600, 10). None if not a time."""
    t = unicodedata.normalize("NFKC", value)
    if "+" in t:
        main, _, inc = t.partition("+")
        total = parse_duration_jp(main)
        incs = parse_duration_jp(inc)
        if total is not None and incs is not None and re.fullmatch(r"各?[\d時間分秒.]+", main):
            return total, incs
        return None
    if re.fullmatch(r"各?\s*[\d時間分秒.\s]+", t):
        total = parse_duration_jp(t)
        if total is not None:
            return total, None
    return None


def parse_kif(text: str, ruleset: Ruleset | None = None) -> GameRecord:
    """Read a KIF record from text (decode it first; see :func:`read_file`).

    Raises RecordParseError, with the line number and the partial record, when the file
    cannot be read as a whole."""
    return _KifReader(text, ruleset).read()


# --- writing ----------------------------------------------------------------------------


def _bod(sfen: str) -> list[str]:
    board = Board(sfen)
    hands = board.pieces_in_hand
    lines = [f"後手の持駒：{hand_text(hands[WHITE])}"]
    lines.append("  ９ ８ ７ ６ ５ ４ ３ ２ １")
    lines.append("+---------------------------+")
    for r in range(9):
        row = "|"
        for c in range(9):
            piece = board.piece_at(r * 9 + c)
            if piece is None:
                row += " ・"
            else:
                row += ("v" if piece.color == WHITE else " ") + BOD_NAMES[piece.piece_type]
        lines.append(row + "|" + KANJI_DIGITS[r + 1])
    lines.append("+---------------------------+")
    lines.append(f"先手の持駒：{hand_text(hands[BLACK])}")
    if board.turn == WHITE:
        lines.append("後手番")
    return lines


def kif_move_text(
    board: Board, move: Move, last_to: Square | None, explicit_nonpromotion: bool = False
) -> str:
    """``７六歩(77)``, ``同　歩(77)``, ``３二銀成(41)``, ``７三歩打``."""
    to = "同\u3000" if last_to == move.to_square else square_jp(move.to_square)
    if move.drop_piece_type is not None:
        return f"{to}{PIECE_NAMES[move.drop_piece_type]}打"
    fr = move.from_square
    assert fr is not None
    piece = board.piece_at(fr)
    assert piece is not None
    name = PIECE_NAMES[piece.piece_type]
    mark = "成" if move.promotion else ""
    if (
        not move.promotion
        and explicit_nonpromotion
        and piece.piece_type in PROMOTABLE
        and board.is_legal(Move(fr, move.to_square, True))
    ):
        mark = "不成"
    return f"{to}{name}{mark}({9 - fr % 9}{fr // 9 + 1})"


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600:02}:{s // 60 % 60:02}:{s % 60:02}"


def _move_time(time_used: float | None, total: float) -> str:
    t = int(time_used or 0)
    return f"({t // 60:>2}:{t % 60:02}/{_clock(total)})"


def kif_ending(outcome: Outcome, to_move: Color) -> str:
    """The KIF word for an ending, the side to move being ``to_move``."""
    t = outcome.termination
    w = outcome.winner
    if t is Termination.RESIGNATION:
        return "投了"
    if t in (Termination.CHECKMATE, Termination.NO_LEGAL_MOVES):
        return "詰み"
    if t in (Termination.SENNICHITE, Termination.PERPETUAL_CHECK):
        return "千日手"
    if t is Termination.IMPASSE:
        return "持将棋"
    if t is Termination.DECLARATION:
        return "持将棋" if w is None else "入玉勝ち"
    if t is Termination.TIMEOUT:
        return "切れ負け"
    if t is Termination.ILLEGAL_MOVE:
        return "反則勝ち" if w == to_move else "反則負け"
    if t is Termination.MAX_MOVES:
        return "引き分け"
    if t is Termination.TRY:
        return "トライ"
    return "中断"


def _comment_lines(text: str) -> list[str]:
    return ["*" + line for line in text.split("\n")] if text else []


def write_kif(
    record: GameRecord, encoding: str = "UTF-8", explicit_nonpromotion: bool = False
) -> str:
    """The record as KIF text; ``encoding`` is only named on the ``#KIF`` line (encode the
    text yourself, or use :func:`write_file`: .kifu is UTF-8, .kif Shift_JIS)."""
    out = [f"#KIF version=2.0 encoding={encoding}", "# ---- board-bridge 棋譜ファイル ----"]
    if record.started is not None:
        out.append(f"開始日時：{format_datetime(record.started)}")
    if record.finished is not None:
        out.append(f"終了日時：{format_datetime(record.finished)}")
    if record.event:
        out.append(f"棋戦：{record.event}")
    tc = record.time_control
    if tc.total is not None:
        text = "各" + format_duration_jp(tc.total)
        if tc.increment is not None:
            text += "+" + format_duration_jp(tc.increment)
        out.append(f"持ち時間：{text}")
    elif tc.increment is not None:
        out.append(f"加算：{format_duration_jp(tc.increment)}")
    if tc.byoyomi is not None:
        out.append(f"秒読み：{format_duration_jp(tc.byoyomi)}")
    for key, value in record.extra:
        out.append(f"{key}：{value}")
    handicapped = record.handicap not in (None, "平手")
    if record.handicap is not None:
        out.append(f"手合割：{record.handicap}")
    else:
        out.extend(_bod(record.start_sfen))
    out.append(f"{'下手' if handicapped else '先手'}：{record.sente}")
    out.append(f"{'上手' if handicapped else '後手'}：{record.gote}")
    out.append("手数----指手---------消費時間--")
    out.extend(_comment_lines(record.comment))
    board = Board(record.start_sfen)
    _write_kif_line(out, board, record.moves, 1, [0.0, 0.0], explicit_nonpromotion)
    n = len(record.moves)
    to_move = board.turn
    totals = [0.0, 0.0]
    for i, rm in enumerate(record.moves):
        totals[record.mover(i)] += int(rm.time_used or 0)
    timed = any(rm.time_used is not None for rm in record.moves)
    if record.illegal_move is not None:
        last = board.peek()
        text = kif_move_text(board, record.illegal_move, last.to_square if last else None)
        out.append(_layout(n + 1, text, _move_time(0, totals[to_move]) if timed else ""))
        n += 1
        to_move ^= 1
    if record.outcome is not None:
        word = kif_ending(record.outcome, to_move)
        out.append(_layout(n + 1, word, _move_time(0, totals[to_move]) if timed else ""))
        out.extend(_comment_lines(record.end_comment))
        plies = len(record.moves) + (1 if record.illegal_move is not None else 0)
        out.append(result_phrase(record.outcome, plies))
    else:
        out.extend(_comment_lines(record.end_comment))
    for var in _kif_order(record):
        out.append("")
        out.append(f"変化：{var.ply}手")
        vboard = _variation_board(record, var)
        totals_v = [0.0, 0.0]
        _write_kif_line(out, vboard, var.moves, var.ply, totals_v, explicit_nonpromotion)
        if var.outcome is not None:
            out.append(_layout(var.ply + len(var.moves), kif_ending(var.outcome, vboard.turn), ""))
    return "\n".join(out) + "\n"


def _kif_order(record: GameRecord) -> list[Variation]:
    """Variations in the order KIF readers place them: depth first, and on each line the
    later branch points first (a ``変化：N手`` belongs to the latest line with move N)."""
    out: list[Variation] = []

    def emit(parent: int | None) -> None:
        children = [i for i, v in enumerate(record.variations) if v.parent == parent]
        plies = sorted({record.variations[i].ply for i in children}, reverse=True)
        for ply in plies:
            for i in children:
                if record.variations[i].ply == ply:
                    out.append(record.variations[i])
                    emit(i)

    emit(None)
    return out


def _variation_board(record: GameRecord, var: Variation) -> Board:
    chain = []
    v: Variation | None = var
    while v is not None:
        chain.append(v)
        v = record.variations[v.parent] if v.parent is not None else None
    chain.reverse()
    moves = [rm.move for rm in record.moves]
    for link in chain:
        moves = moves[: link.ply - 1] + [rm.move for rm in link.moves]
    board = Board(record.start_sfen)
    for mv in moves[: var.ply - 1]:
        board.push(mv)
    return board


def _layout(number: int, text: str, time: str) -> str:
    pad = max(1, 13 - _width(text))
    line = f"{number:>4} {text}"
    return f"{line}{' ' * pad}{time}" if time else line


def _write_kif_line(
    out: list[str],
    board: Board,
    moves: tuple[RecordedMove, ...],
    first: int,
    totals: list[float],
    explicit_nonpromotion: bool,
) -> None:
    for i, rm in enumerate(moves):
        last = board.peek()
        text = kif_move_text(
            board, rm.move, last.to_square if last else None, explicit_nonpromotion
        )
        mover = board.turn
        totals[mover] += int(rm.time_used or 0)
        time = _move_time(rm.time_used, totals[mover]) if rm.time_used is not None else ""
        out.append(_layout(first + i, text, time))
        out.extend(_comment_lines(rm.comment))
        board.push(rm.move)
