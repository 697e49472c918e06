"""CSA protocol parsing: Game_Summary fields, Time blocks, Position blocks, moves, game ends."""

from __future__ import annotations

import pytest

from board_bridge.online.csa_protocol import (
    CsaParseError,
    TimeRule,
    end_outcome,
    format_summary,
    initial_remaining,
    move_from_csa,
    move_to_csa,
    parse_game_summary,
    parse_position,
    parse_time_unit,
    position_lines,
)
from board_bridge.shogi import BLACK, STARTING_SFEN, WHITE, Board, Move, Termination, parse_square
from tests.conftest import corpus_games

SUMMARY = """\
BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:20150505-CSA25-3-5-7
Name+:TANUKI
Name-:KITSUNE
Your_Turn:-
Rematch_On_Draw:YES
To_Move:-
Max_Moves:256
Floodgate_Extra:kept
BEGIN Time+
Time_Unit:1sec
Total_Time:600
Byoyomi:10
Least_Time_Per_Move:1
Time_Roundup:NO
END Time+
BEGIN Time-
Time_Unit:500msec
Total_Time:300
Byoyomi:0
Increment:5
Delay:2
Least_Time_Per_Move:0
Time_Roundup:YES
END Time-
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA *
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  *
P5 *  *  *  *  *  *  *  *  *
P6 *  *  *  *  *  *  *  *  *
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI *
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
P+
P-
+
+2726FU,T12
-3334FU,T6
+7776FU,T3
END Position
END Game_Summary
"""


def test_game_summary_every_field() -> None:
    s = parse_game_summary(SUMMARY.splitlines())
    assert s.protocol_version == "1.2"
    assert s.protocol_mode == "Server"
    assert s.format == "Shogi 1.0"
    assert s.declaration == "Jishogi 1.1"
    assert s.game_id == "20150505-CSA25-3-5-7"
    assert s.names == ("TANUKI", "KITSUNE")
    assert s.your_turn == WHITE
    assert s.to_move == WHITE
    assert s.rematch_on_draw is True
    assert s.max_moves == 256
    assert ("Floodgate_Extra", "kept") in s.extra
    black, white = s.times
    assert black == TimeRule("1sec", 1.0, 600, 10, 0, 0, 1, False)
    assert white == TimeRule("500msec", 0.5, 300, 0, 5, 2, 0, True)
    assert s.position.start_sfen == STARTING_SFEN
    assert [pm.token for pm in s.position.moves] == ["+2726FU", "-3334FU", "+7776FU"]
    assert [pm.move.usi() for pm in s.position.moves] == ["2g2f", "3c3d", "7g7f"]
    assert [pm.time for pm in s.position.moves] == [12, 6, 3]
    assert s.position.board().turn == WHITE
    # the earlier moves' times are charged: black 600-12-3, white 300+5-6
    assert initial_remaining(s) == (585, 299)


def test_common_time_block_applies_to_both_sides_and_round_trips() -> None:
    text = SUMMARY.replace("BEGIN Time+", "BEGIN Time").replace("END Time+", "END Time")
    start = text.index("BEGIN Time-")
    end = text.index("END Time-") + len("END Time-\n")
    s = parse_game_summary((text[:start] + text[end:]).splitlines())
    assert s.times[0] == s.times[1] == TimeRule("1sec", 1.0, 600, 10, 0, 0, 1, False)
    again = parse_game_summary(format_summary(s, s.your_turn))
    assert again.times == s.times
    assert again.position == s.position
    assert again.game_id == s.game_id and again.names == s.names


def test_time_units_and_charges() -> None:
    assert parse_time_unit("1sec") == 1.0
    assert parse_time_unit("1min") == 60.0
    assert parse_time_unit("1msec") == 0.001
    assert parse_time_unit("10msec") == pytest.approx(0.01)
    with pytest.raises(CsaParseError):
        parse_time_unit("1hour")
    truncate = TimeRule(total_time=60, least_time_per_move=1)
    assert truncate.charge(0.2) == 1  # Least_Time_Per_Move
    assert truncate.charge(2.9) == 2
    roundup = TimeRule(total_time=60, time_roundup=True)
    assert roundup.charge(2.1) == 3
    assert roundup.charge(0.0) == 0
    assert TimeRule(total_time=60, delay=2).charge(3.5) == 1
    fischer = TimeRule(total_time=10, increment=5)
    assert fischer.after_move(10, 12) == 3
    assert fischer.after_move(2, 30) == 0
    assert fischer.available(10) == 15
    assert TimeRule().available(None) is None


def test_position_with_p_lines_hands_and_all_remaining_pieces() -> None:
    lines = [
        "P1 *  *  *  *  *  *  *  * -OU",
        "P2 *  *  *  *  *  *  *  *  * ",
        "P3 *  *  *  *  *  *  *  *  * ",
        "P4 *  *  *  *  *  *  *  *  * ",
        "P5 *  *  *  *  *  *  *  *  * ",
        "P6 *  *  *  *  *  *  *  *  * ",
        "P7 *  *  *  *  *  *  *  *  * ",
        "P8 *  *  *  *  *  *  *  *  * ",
        "P9+OU *  *  *  *  *  * +HI * ",
        "P+00KI00KI",
        "P-00AL",
        "+",
        "+2919HI",
        "T1",
    ]
    pos = parse_position(lines)
    board = Board(pos.start_sfen)
    assert board.king_square(WHITE) == parse_square("1a")
    assert board.hand_count(BLACK, 7) == 2  # two golds
    assert board.hand_count(WHITE, 7) == 2 and board.hand_count(WHITE, 1) == 18
    assert board.hand_count(WHITE, 6) == 1  # the other rook
    assert [(pm.move.usi(), pm.time) for pm in pos.moves] == [("2i1i", 1)]


def test_handicap_pi_and_written_positions_read_back() -> None:
    pos = parse_position(["PI82HI22KA", "-", "-5142OU"])
    board = Board(pos.start_sfen)
    assert board.turn == WHITE  # the handicap giver (white) moves first
    assert board.piece_at(parse_square("8b")) is None
    assert board.piece_at(parse_square("2b")) is None
    assert board.pieces_in_hand == ({}, {})
    assert pos.moves[0].move.usi() == "5a4b"
    again = parse_position(position_lines(pos.start_sfen))
    assert again.start_sfen == pos.start_sfen


@pytest.mark.parametrize(
    "lines",
    [
        ["PI", "+", "+7775FU"],  # a pawn cannot move two squares
        ["PI", "+", "-3334FU"],  # the wrong side
        ["PI", "+", "+7776KI"],  # the piece named is not there
        ["PI", "+", "T3"],  # a time before any move
        ["P1 * ?"],
        ["PI", "+", "hello"],
    ],
)
def test_bad_positions_are_refused(lines: list[str]) -> None:
    with pytest.raises(CsaParseError):
        parse_position(lines)


@pytest.mark.parametrize(
    "text",
    [
        SUMMARY.replace("Your_Turn:-\n", ""),
        SUMMARY.replace("END Time-\n", ""),
        SUMMARY.replace("Max_Moves:256", "Max_Moves:many"),
        SUMMARY.replace("Time_Roundup:YES", "Time_Roundup:maybe"),
        SUMMARY.replace("Your_Turn:-", "Your_Turn:?"),
    ],
)
def test_bad_summaries_are_refused(text: str) -> None:
    with pytest.raises(CsaParseError):
        parse_game_summary(text.splitlines())


def test_moves_round_trip_over_the_corpus() -> None:
    games = corpus_games()
    assert games, "the shared corpus is missing"
    for game in games:
        board = Board(game["sfen"])
        for usi in game["moves"]:
            move = Move.from_usi(usi)
            token = move_to_csa(board, move)
            assert move_from_csa(board, token) == move, (game["source"], usi, token)
            board.push(move)


@pytest.mark.parametrize(
    ("reason", "result", "special", "termination", "winner"),
    [
        ("#RESIGN", "#WIN", "%TORYO", Termination.RESIGNATION, BLACK),
        ("#RESIGN", "#LOSE", "%TORYO", Termination.RESIGNATION, WHITE),
        ("#TIME_UP", "#LOSE", None, Termination.TIMEOUT, WHITE),
        ("#ILLEGAL_MOVE", "#WIN", None, Termination.ILLEGAL_MOVE, BLACK),
        ("#ILLEGAL_MOVE", "#LOSE", "%KACHI", Termination.DECLARATION, WHITE),
        ("#SENNICHITE", "#DRAW", None, Termination.SENNICHITE, None),
        ("#OUTE_SENNICHITE", "#LOSE", None, Termination.PERPETUAL_CHECK, WHITE),
        ("#JISHOGI", "#WIN", "%KACHI", Termination.DECLARATION, BLACK),
        ("#MAX_MOVES", "#CENSORED", None, Termination.MAX_MOVES, None),
        (None, "#CHUDAN", None, Termination.ABORT, None),
    ],
)
def test_end_messages(
    reason: str | None,
    result: str,
    special: str | None,
    termination: Termination,
    winner: int | None,
) -> None:
    outcome = end_outcome(BLACK, reason, result, special)
    assert outcome.termination is termination
    assert outcome.winner == winner
    if result == "#CHUDAN":
        assert outcome.result() == "aborted"


def test_unknown_result_is_an_error() -> None:
    with pytest.raises(CsaParseError):
        end_outcome(BLACK, "#RESIGN", "#MAYBE")
