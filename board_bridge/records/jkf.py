"""JKF (JSON Kifu Format, as Kifu for JS and ShogiHome use it): read and write, forks kept."""

from __future__ import annotations

import json
from typing import Any, Final

from board_bridge.records.csa_moves import CSA_PIECE_NAMES, CSA_PIECE_TYPES
from board_bridge.records.kif import _header_fields
from board_bridge.records.model import (
    CSA_SPECIAL,
    GameRecord,
    ParseProblem,
    RecordedMove,
    RecordParseError,
    Variation,
    outcome_to_special,
    reconcile,
    special_outcome,
)
from board_bridge.shogi import (
    BLACK,
    HAND_PIECE_TYPES,
    PROMOTABLE,
    STARTING_SFEN,
    WHITE,
    Board,
    InvalidSfenError,
    Move,
    Outcome,
    Ruleset,
    Termination,
    piece_type_symbol,
    square,
    square_file,
    square_rank,
)

#: JKF ``initial.preset`` names -> 手合割 names.
PRESETS: Final = {
    "HIRATE": "平手", "KY": "香落ち", "KY_R": "右香落ち", "KA": "角落ち", "HI": "飛車落ち",
    "HIKY": "飛香落ち", "2": "二枚落ち", "3": "三枚落ち", "4": "四枚落ち", "5": "五枚落ち",
    "5_L": "左五枚落ち", "6": "六枚落ち", "8": "八枚落ち", "10": "十枚落ち",
}  # fmt: skip
PRESET_BY_NAME: Final = {v: k for k, v in PRESETS.items()}


class _JkfError(Exception):
    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.message = message
        self.index = index


def _time(entry: dict[str, Any]) -> float | None:
    now = (entry.get("time") or {}).get("now")
    if not isinstance(now, dict):
        return None
    return float(now.get("h", 0)) * 3600 + float(now.get("m", 0)) * 60 + float(now.get("s", 0))


def _comment(entry: dict[str, Any]) -> str:
    comments = entry.get("comments")
    return "\n".join(str(c) for c in comments) if isinstance(comments, list) else ""


def _jkf_move(board: Board, mv: dict[str, Any], last_to: int | None) -> Move:
    to_data = mv.get("to")
    if to_data is None:
        if mv.get("same") and last_to is not None:
            to = last_to
        else:
            raise ValueError("a move without 'to'")
    else:
        to = square(int(to_data["x"]), int(to_data["y"]))
    piece = mv.get("piece")
    if piece not in CSA_PIECE_TYPES:
        raise ValueError(f"unknown piece {piece!r}")
    pt = CSA_PIECE_TYPES[piece]
    color = mv.get("color")
    if color is not None and int(color) != board.turn:
        raise ValueError("the move's color is not the side to move")
    fr_data = mv.get("from")
    if fr_data is None:
        return Move(None, to, drop_piece_type=pt)
    fr = square(int(fr_data["x"]), int(fr_data["y"]))
    promote = bool(mv.get("promote"))
    on = board.piece_at(fr)
    if on is not None and on.piece_type != pt:
        raise ValueError(f"the piece on {fr_data['x']}{fr_data['y']} is not {piece}")
    return Move(fr, to, promotion=promote)


def _initial_sfen(initial: dict[str, Any] | None) -> tuple[str, str | None]:
    from board_bridge.records.model import HANDICAPS

    if not initial:
        return STARTING_SFEN, None
    preset = initial.get("preset", "HIRATE")
    if preset != "OTHER":
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}")
        return HANDICAPS[PRESETS[preset]], PRESETS[preset]
    data = initial.get("data") or {}
    board = data.get("board")
    if not isinstance(board, list) or len(board) != 9:
        raise ValueError("initial.data.board must be 9 files of 9 squares")
    rows = []
    for y in range(9):
        row, empty = "", 0
        for x in range(8, -1, -1):  # file 9 first
            cell = board[x][y] if len(board[x]) == 9 else None
            if cell is None:
                raise ValueError("initial.data.board must be 9 files of 9 squares")
            if not cell:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            sym = piece_type_symbol(CSA_PIECE_TYPES[cell["kind"]])
            row += sym if int(cell["color"]) == BLACK else sym.lower()
        rows.append(row + (str(empty) if empty else ""))
    hands = ""
    for color, hand in enumerate(data.get("hands") or [{}, {}]):
        for pt in HAND_PIECE_TYPES:
            n = int(hand.get(CSA_PIECE_NAMES[pt], 0))
            if n:
                sym = piece_type_symbol(pt)
                hands += (str(n) if n > 1 else "") + (sym if color == BLACK else sym.lower())
    turn = "w" if int(data.get("color", 0)) == WHITE else "b"
    sfen = f"{'/'.join(rows)} {turn} {hands or '-'} 1"
    Board(sfen)
    return sfen, None


def parse_jkf(text: str, ruleset: Ruleset | None = None) -> GameRecord:
    """Read a JKF record (JSON text). Errors name the JSON line for syntax errors and the
    move index for bad moves (``line`` is then the move number)."""
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        raise RecordParseError(f"not JSON: {exc.msg}", exc.lineno) from None
    if not isinstance(data, dict) or not isinstance(data.get("moves", []), list):
        raise RecordParseError("a JKF record is a JSON object with a 'moves' list", 1)
    problems: list[ParseProblem] = []
    header = data.get("header") or {}
    headers = [(str(k), str(v)) for k, v in header.items()]
    fields = _header_fields(headers, problems)
    try:
        sfen, handicap = _initial_sfen(data.get("initial"))
    except (ValueError, KeyError, TypeError, InvalidSfenError) as exc:
        raise RecordParseError(f"initial position: {exc}", 0) from None
    entries = data.get("moves") or [{}]
    comment = _comment(entries[0]) if entries and "move" not in entries[0] else ""
    if entries and "move" not in entries[0] and "special" not in entries[0]:
        entries = entries[1:]
    variations: list[Variation] = []

    def read_line(
        board: Board, items: list[Any], first_ply: int, parent: int | None
    ) -> tuple[list[RecordedMove], Outcome | None, Move | None]:
        moves: list[RecordedMove] = []
        outcome = None
        illegal = None
        pending_forks: list[tuple[int, list[Any]]] = []
        for i, entry in enumerate(items):
            ply = first_ply + i
            if not isinstance(entry, dict):
                raise _JkfError("a move entry must be an object", ply)
            if "special" in entry:
                special = str(entry["special"]).lstrip("%")
                if special not in CSA_SPECIAL:
                    raise _JkfError(f"unknown special {special!r}", ply)
                outcome = special_outcome(special, board, ruleset)
                break
            if "move" not in entry:
                continue
            last = board.peek()
            try:
                move = _jkf_move(board, entry["move"], last.to_square if last else None)
            except (ValueError, KeyError, TypeError) as exc:
                raise _JkfError(f"move {ply}: {exc}", ply) from None
            reason = board.illegal_reason(move)
            if reason is not None:
                if i != len(items) - 1 and "special" not in items[i + 1]:
                    raise _JkfError(
                        f"move {ply} {move.usi()} is illegal: {reason.description}", ply
                    )
                illegal = move
                outcome = Outcome(
                    Termination.ILLEGAL_MOVE, board.turn ^ 1, f"{move.usi()}: {reason.description}"
                )
                break
            for fork in entry.get("forks") or []:
                pending_forks.append((len(moves), fork))
            board.push(move)
            moves.append(RecordedMove(move, _time(entry), _comment(entry)))
        for index, fork in pending_forks:
            fb = board.copy()
            for _ in range(len(moves) - index):
                fb.pop()
            slot = len(variations)
            variations.append(Variation(first_ply + index, ()))
            fmoves, foutcome, _ = read_line(fb, fork, first_ply + index, slot)
            variations[slot] = Variation(first_ply + index, tuple(fmoves), parent, foutcome)
        return moves, outcome, illegal

    board = Board(sfen)
    try:
        moves, stated, illegal = read_line(board, entries, 1, None)
    except _JkfError as exc:
        raise RecordParseError(exc.message, exc.index) from None
    outcome = stated
    if illegal is None:
        outcome, note = reconcile(stated, board, ruleset)
        if note:
            problems.append(ParseProblem(0, note))
    return GameRecord(
        start_sfen=sfen,
        handicap=handicap,
        moves=tuple(moves),
        outcome=outcome,
        comment=comment,
        variations=tuple(variations),
        illegal_move=illegal,
        problems=tuple(problems),
        **fields,  # type: ignore[arg-type]
    )


def _move_entry(board: Board, rm: RecordedMove) -> dict[str, Any]:
    move = rm.move
    last = board.peek()
    mv: dict[str, Any] = {"color": board.turn}
    to = move.to_square
    mv["to"] = {"x": square_file(to), "y": square_rank(to)}
    if last is not None and last.to_square == to:
        mv["same"] = True
    if move.drop_piece_type is not None:
        mv["piece"] = CSA_PIECE_NAMES[move.drop_piece_type]
    else:
        fr = move.from_square
        assert fr is not None
        piece = board.piece_at(fr)
        assert piece is not None
        mv["from"] = {"x": square_file(fr), "y": square_rank(fr)}
        mv["piece"] = CSA_PIECE_NAMES[piece.piece_type]
        captured = board.piece_at(to)
        if captured is not None:
            mv["capture"] = CSA_PIECE_NAMES[captured.piece_type]
        if move.promotion:
            mv["promote"] = True
        elif piece.piece_type in PROMOTABLE and board.is_legal(Move(fr, to, True)):
            mv["promote"] = False
    entry: dict[str, Any] = {"move": mv}
    if rm.time_used is not None:
        t = rm.time_used
        now = {"m": int(t // 60), "s": t - int(t // 60) * 60}
        if float(now["s"]).is_integer():
            now["s"] = int(now["s"])
        entry["time"] = {"now": now}
    if rm.comment:
        entry["comments"] = rm.comment.split("\n")
    return entry


def _with_totals(entries: list[dict[str, Any]], start_turn: int) -> None:
    totals = [0.0, 0.0]
    for i, e in enumerate(entries):
        if "time" not in e:
            continue
        now = e["time"]["now"]
        side = (start_turn + i) % 2
        totals[side] += now["m"] * 60 + now["s"]
        t = int(totals[side])
        e["time"]["total"] = {"h": t // 3600, "m": t // 60 % 60, "s": t % 60}


def write_jkf(record: GameRecord, indent: int | None = 2) -> str:
    """The record as JKF (JSON text); variations become ``forks``."""
    header: dict[str, str] = {}
    if record.started is not None:
        header["開始日時"] = record.started.strftime("%Y/%m/%d %H:%M:%S")
    if record.finished is not None:
        header["終了日時"] = record.finished.strftime("%Y/%m/%d %H:%M:%S")
    if record.event:
        header["棋戦"] = record.event
    tc = record.time_control
    if tc.total is not None:
        from board_bridge.records.kif import format_duration_jp

        header["持ち時間"] = (
            "各"
            + format_duration_jp(tc.total)
            + ("+" + format_duration_jp(tc.increment) if tc.increment is not None else "")
        )
    if tc.byoyomi is not None:
        from board_bridge.records.kif import format_duration_jp

        header["秒読み"] = format_duration_jp(tc.byoyomi)
    for k, v in record.extra:
        header[k] = v
    header["先手"] = record.sente
    header["後手"] = record.gote
    data: dict[str, Any] = {"header": header}
    if record.handicap is not None:
        data["initial"] = {"preset": PRESET_BY_NAME[record.handicap]}
    else:
        board = Board(record.start_sfen)
        cols = []
        for x in range(1, 10):
            col = []
            for y in range(1, 10):
                p = board.piece_at(square(x, y))
                col.append(
                    {} if p is None else {"color": p.color, "kind": CSA_PIECE_NAMES[p.piece_type]}
                )
            cols.append(col)
        hands = [
            {
                CSA_PIECE_NAMES[pt]: board.pieces_in_hand[c].get(pt, 0)
                for pt in reversed(HAND_PIECE_TYPES)
            }
            for c in (BLACK, WHITE)
        ]
        data["initial"] = {
            "preset": "OTHER",
            "data": {"board": cols, "color": board.turn, "hands": hands},
        }

    def line_entries(
        board: Board,
        moves: tuple[RecordedMove, ...],
        outcome: Outcome | None,
        first_ply: int,
        parent: int | None,
    ) -> list[dict[str, Any]]:
        entries = []
        for rm in moves:
            entries.append(_move_entry(board, rm))
            board.push(rm.move)
        if parent is None and first_ply == 1 and record.illegal_move is not None:
            entries.append(_move_entry(board, RecordedMove(record.illegal_move)))
        if outcome is not None:
            entries.append({"special": outcome_to_special(outcome, board.turn)})
        _with_totals(
            [e for e in entries if "move" in e],
            Board(record.start_sfen).turn ^ ((first_ply - 1) & 1),
        )
        for slot, var in enumerate(record.variations):
            if var.parent != parent:
                continue
            index = var.ply - first_ply
            if not 0 <= index < len(entries):
                continue
            vb = board.copy()
            for _ in range(len(moves) - index):
                vb.pop()
            fork = line_entries(vb, var.moves, var.outcome, var.ply, slot)
            entries[index].setdefault("forks", []).append(fork)
        return entries

    first: dict[str, Any] = {}
    if record.comment:
        first["comments"] = record.comment.split("\n")
    data["moves"] = [
        first,
        *line_entries(Board(record.start_sfen), record.moves, record.outcome, 1, None),
    ]
    return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"
