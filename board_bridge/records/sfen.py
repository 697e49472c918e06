"""SFEN and USI position lines: ``sfen <pos> moves ...`` / ``position startpos moves ...``."""

from __future__ import annotations

from board_bridge.records.model import (
    GameRecord,
    ParseProblem,
    RecordedMove,
    RecordParseError,
    reconcile,
)
from board_bridge.shogi import (
    STARTING_SFEN,
    Board,
    InvalidMoveError,
    InvalidSfenError,
    Move,
    Outcome,
    Ruleset,
    Termination,
)


def parse_usi(text: str, ruleset: Ruleset | None = None) -> GameRecord:
    """Read ``position startpos moves 7g7f ...``, ``startpos moves ...``,
    ``sfen <sfen> moves ...`` or a bare SFEN (first non-empty, non-# line). The rules core
    checks every move; the position decides the result (mate, repetition), if any."""
    line_no = 0
    content = ""
    for n, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        s = raw.strip()
        if s and not s.startswith("#"):
            line_no, content = n, s
            break
    if not content:
        raise RecordParseError("no position line", 1)
    tokens = content.split()
    if tokens[0] == "position":
        tokens = tokens[1:]
    if not tokens:
        raise RecordParseError("position with nothing after it", line_no)
    if tokens[0] == "startpos":
        sfen, rest = STARTING_SFEN, tokens[1:]
    else:
        if tokens[0] == "sfen":
            tokens = tokens[1:]
        if "moves" in tokens:
            i = tokens.index("moves")
            sfen_tokens, rest = tokens[:i], tokens[i:]
        else:
            sfen_tokens, rest = tokens, []
        if len(sfen_tokens) == 3:
            sfen_tokens.append("1")
        sfen = " ".join(sfen_tokens)
    try:
        board = Board(sfen)
    except InvalidSfenError as exc:
        raise RecordParseError(str(exc), line_no) from None
    sfen = board.sfen()
    if rest and rest[0] == "moves":
        rest = rest[1:]
    elif rest:
        raise RecordParseError(f"expected 'moves', found {rest[0]!r}", line_no)
    moves: list[RecordedMove] = []
    for i, usi in enumerate(rest):
        try:
            move = Move.from_usi(usi)
        except InvalidMoveError as exc:
            partial = GameRecord(start_sfen=sfen, moves=tuple(moves))
            raise RecordParseError(f"move {i + 1}: {exc}", line_no, partial) from None
        reason = board.illegal_reason(move)
        if reason is not None:
            partial = GameRecord(start_sfen=sfen, moves=tuple(moves))
            if i == len(rest) - 1:
                outcome = Outcome(
                    Termination.ILLEGAL_MOVE, board.turn ^ 1, f"{usi}: {reason.description}"
                )
                return partial.replace(
                    outcome=outcome,
                    illegal_move=move,
                    problems=(ParseProblem(line_no, f"illegal last move {usi}"),),
                )
            msg = f"move {i + 1} {usi} is illegal: {reason.description}"
            raise RecordParseError(msg, line_no, partial) from None
        board.push(move)
        moves.append(RecordedMove(move))
    final, _ = reconcile(None, board, ruleset)
    return GameRecord(start_sfen=sfen, moves=tuple(moves), outcome=final)


parse_sfen = parse_usi


def write_usi(record: GameRecord) -> str:
    """``position startpos moves ...`` (or ``position sfen ... moves ...``)."""
    return "position " + record.usi_position() + "\n"


def write_sfen(record: GameRecord) -> str:
    """``sfen <start> moves ...``: the start position always spelled out."""
    board = Board(record.start_sfen)
    moves = " ".join(record.usi_moves())
    return f"sfen {board.sfen()}" + (f" moves {moves}" if moves else "") + "\n"
