"""The JSA rules: illegal-move reasons, game end, and the rules-edge CSA games."""

from __future__ import annotations

import pytest

from board_bridge.shogi import (
    BISHOP,
    BLACK,
    PAWN,
    STARTING_SFEN,
    WHITE,
    Board,
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    InvalidSfenError,
    Move,
    Ruleset,
    Termination,
    parse_square,
    square_distance,
)
from board_bridge.shogi.rules import declaration_points, impasse_24
from tests.conftest import shared_path
from tests.shogi.csa_moves import csa_move_tokens, csa_to_move


def replay_csa(name: str) -> Board:
    board = Board()
    for token in csa_move_tokens(shared_path("records", "csa", name)):
        board.push_legal(csa_to_move(board, token))
    return board


# --- the rules-edge games of shogi-server's test suite ------------------------------


def test_pawn_drop_mate_is_rejected() -> None:
    board = replay_csa("uchifuzume.csa")
    assert board.turn == WHITE
    move = Move.from_usi("P*6d")  # the drop the server refused
    assert not board.is_legal(move)
    assert board.illegal_reason(move) is IllegalReason.PAWN_DROP_MATE
    with pytest.raises(IllegalMoveError) as err:
        board.push_usi("P*6d")
    assert err.value.reason is IllegalReason.PAWN_DROP_MATE
    # the same drop by a pawn push (no drop) would be legal mate; here: a gold drop mates
    assert board.outcome() is None


def test_not_pawn_drop_mate_is_accepted() -> None:
    board = Board()
    checking_pawn_drops = 0
    for token in csa_move_tokens(shared_path("records", "csa", "not_uchifuzume.csa")):
        move = csa_to_move(board, token)
        board.push_legal(move)  # raises if the rules core disagrees
        if move.drop_piece_type == PAWN and board.is_check():
            checking_pawn_drops += 1
    assert checking_pawn_drops >= 1


@pytest.mark.parametrize(
    ("name", "loser"),
    [
        ("oute_sennichite.csa", BLACK),
        ("oute_sennichite2.csa", WHITE),
        ("oute_sennichite3.csa", BLACK),
    ],
)
def test_perpetual_check_loses(name: str, loser: int) -> None:
    board = replay_csa(name)
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.PERPETUAL_CHECK
    assert outcome.winner == loser ^ 1
    # the checking side is the loser: every one of its moves in the cycle gave check
    assert board.repetitions() == 4


def test_plain_repetition_is_not_perpetual_check() -> None:
    board = replay_csa("not_sennichite.csa")
    assert board.repetitions() < 4
    assert board.outcome() is None


def test_impasse_declaration_wins() -> None:
    board = replay_csa("jishogi_kachi.csa")
    assert board.turn == WHITE
    points, pieces = declaration_points(board, WHITE)
    assert (points, pieces) == (27, 12)
    outcome = board.declare(Ruleset(declaration="csa27"))
    assert outcome.termination is Termination.DECLARATION
    assert outcome.winner == WHITE
    # under the JSA rule 27 points is a draw (24-30)
    assert board.declare(Ruleset(declaration="jsa")).is_draw


def test_max_moves_draw() -> None:
    board = replay_csa("max_moves_draw.csa")
    assert len(board.move_stack) == 256
    outcome = board.outcome(Ruleset(max_moves=256))
    assert outcome is not None and outcome.termination is Termination.MAX_MOVES
    assert outcome.winner is None
    assert board.outcome(Ruleset(max_moves=None)) is None


def test_floodgate_game_replays() -> None:
    board = replay_csa("wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007.csa")
    assert len(board.move_stack) == 158
    assert board.outcome() is None  # it ended by resignation


# --- illegal-move reasons -------------------------------------------------------------


@pytest.mark.parametrize(
    ("sfen", "usi", "reason"),
    [
        (STARTING_SFEN, "5e5d", IllegalReason.NO_PIECE),
        (STARTING_SFEN, "3c3d", IllegalReason.NOT_OWN_PIECE),
        (STARTING_SFEN, "6i5i", IllegalReason.CAPTURES_OWN_PIECE),
        (STARTING_SFEN, "7g7e", IllegalReason.NOT_A_MOVE_OF_THAT_PIECE),
        (STARTING_SFEN, "8h3c", IllegalReason.PATH_BLOCKED),
        (STARTING_SFEN, "P*5e", IllegalReason.NOT_IN_HAND),
        (STARTING_SFEN, "7g7f+", IllegalReason.CANNOT_PROMOTE),
        ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e", IllegalReason.NIFU),
        ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*4a", IllegalReason.DEAD_PIECE),
        ("4k4/9/9/9/9/9/9/9/4K4 b N 1", "N*4b", IllegalReason.DEAD_PIECE),
        ("4k4/9/9/9/9/9/9/9/4K4 b L 1", "L*4a", IllegalReason.DEAD_PIECE),
        ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*4e", None),
        ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5a", IllegalReason.SQUARE_OCCUPIED),
        ("8k/9/2P6/9/9/9/9/9/4K4 b - 1", "7c7d", IllegalReason.NOT_A_MOVE_OF_THAT_PIECE),
        ("8k/9/2P6/9/9/9/9/9/4K4 b - 1", "7c7b", None),
        ("8k/9/9/9/9/9/9/9/4K4 b - 1", "5i5h", None),
        ("8k/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a", IllegalReason.DEAD_PIECE),
        ("8k/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a+", None),
        ("8k/9/9/9/9/9/9/9/4K4 b - 1", "5i4i+", IllegalReason.CANNOT_PROMOTE),
        # the rook pinned against its king by a bishop cannot leave the line
        ("4k4/9/9/9/9/9/2b6/3R5/4K4 b - 1", "6h6a", IllegalReason.KING_IN_CHECK),
        ("4k4/9/9/9/9/9/2b6/3R5/4K4 b - 1", "5i5h", None),
        # walking into check
        ("4k4/9/9/9/9/9/9/3r5/4K4 b - 1", "5i5h", IllegalReason.KING_IN_CHECK),
        # ignoring a check
        ("4k4/9/9/9/9/9/4r4/9/4K3L b - 1", "1i1h", IllegalReason.KING_IN_CHECK),
    ],
)
def test_illegal_reasons(sfen: str, usi: str, reason: IllegalReason | None) -> None:
    board = Board(sfen)
    move = Move.from_usi(usi)
    assert board.illegal_reason(move) is reason
    assert board.is_legal(move) is (reason is None)
    if reason is not None:
        with pytest.raises(IllegalMoveError) as err:
            board.push_usi(usi)
        assert err.value.reason is reason
        assert reason.description in str(err.value)
        assert board.sfen() == Board(sfen).sfen()  # a refused move changes nothing


def test_pawn_drop_mate_variants() -> None:
    # White king on 1a boxed in by its own knight, a gold covering 1b: P*1b would mate.
    board = Board("7nk/9/7G1/9/9/9/9/9/K8 b P 1")
    assert board.illegal_reason(Move.from_usi("P*1b")) is IllegalReason.PAWN_DROP_MATE
    # if the pawn can be captured (no gold protecting it), the drop is legal
    board = Board("7nk/9/9/9/9/9/9/9/K8 b P 1")
    assert board.is_legal(Move.from_usi("P*1b"))
    # mate by pushing a pawn is legal
    board = Board("7nk/9/7GP/9/9/9/9/9/K8 b - 1")
    assert board.is_legal(Move.from_usi("1c1b"))
    board.push_usi("1c1b")
    assert board.is_checkmate()


def test_checkmate_and_check() -> None:
    board = Board("4k4/9/4G4/9/9/9/9/9/4K4 b G 1")
    assert not board.is_check()
    board.push_usi("G*5b")
    assert board.is_check() and board.is_checkmate()
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.winner == BLACK
    assert str(outcome) == "black wins by checkmate"


def test_forced_promotion_moves() -> None:
    board = Board("4k4/P8/9/9/9/9/9/9/4K4 b - 1")
    assert {m.usi() for m in board.legal_moves_from(9)} == {"9b9a+"}
    board = Board("4k4/9/N8/9/9/9/9/9/4K4 b - 1")
    assert {m.usi() for m in board.legal_moves_from(18)} == {"9c8a+"}


def test_sennichite_without_checks_is_a_draw() -> None:
    board = Board()
    cycle = ["5i4h", "5a4b", "4h5i", "4b5a"]
    for _ in range(2):
        for usi in cycle:
            board.push_usi(usi)
            assert board.outcome() is None
    for usi in cycle[:-1]:
        board.push_usi(usi)
    assert board.outcome() is None
    board.push_usi(cycle[-1])
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.SENNICHITE and outcome.is_draw


def test_perpetual_check_constructed() -> None:
    # black's rook checks along rank a and rank b in turn; the king steps between them
    board = Board("3k5/R8/9/9/9/9/9/9/4K4 b - 1")
    cycle = ["9b9a", "6a6b", "9a9b", "6b6a"]
    for usi in cycle * 3:
        assert board.outcome() is None
        board.push_usi(usi)
        assert usi[0] == "6" or board.is_check()
    outcome = board.outcome()  # the start position, for the fourth time
    assert outcome is not None
    assert outcome.termination is Termination.PERPETUAL_CHECK
    assert outcome.winner == WHITE


def test_try_rule() -> None:
    board = Board("k8/9/4K4/9/9/9/9/9/9 b - 1")
    board.push_usi("5c5b")
    assert board.outcome(Ruleset(try_rule=True)) is None
    board.push_usi("9a9b")
    board.push_usi("5b5a")
    outcome = board.outcome(Ruleset(try_rule=True))
    assert outcome is not None and outcome.termination is Termination.TRY
    assert outcome.winner == BLACK
    assert board.outcome(Ruleset(try_rule=False)) is None


def test_jsa_declaration_points() -> None:
    # black king in the camp with 10 pieces there and a rook and bishop in hand
    sfen = "K+P+P+P+P+P+P+P1/+P+P+P6/9/9/9/9/9/9/8k b 2RB2G 1"
    board = Board(sfen)
    points, pieces = declaration_points(board, BLACK)
    assert pieces == 10 and points == 10 + 15 + 2
    assert board.declare(Ruleset(declaration="jsa")).is_draw  # 27: 24-30 draws
    assert board.declare(Ruleset(declaration="csa27")).winner == WHITE  # sente needs 28
    board = Board(sfen.replace("2RB2G", "2R2B2G"))
    assert board.declare(Ruleset(declaration="jsa")).winner == BLACK  # 32
    board = Board(sfen.replace("2RB2G", "G"))
    assert board.declare(Ruleset(declaration="jsa")).winner == WHITE  # 11 < 24
    board = Board("K+P+P+P+P+P+P+P1/+P+P7/9/9/9/9/9/9/8k b 2R2B2G 1")  # only 9 pieces
    assert board.declare(Ruleset(declaration="jsa")).winner == WHITE


def test_impasse_24_point_count() -> None:
    assert impasse_24(Board()) is None
    both_in = "9/4K4/9/9/9/9/9/4k4/9 b RBGSNLPrb3g3s3n3l17p 1"
    outcome = impasse_24(Board(both_in))
    assert outcome is not None and outcome.winner == WHITE  # black 16 < 24 <= white 38
    even = impasse_24(Board("9/4K4/9/9/9/9/9/4k4/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1"))
    assert even is not None and even.is_draw  # 27 points each


# --- SFEN and USI ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "sfen",
    [
        STARTING_SFEN,
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 12",
    ],
)
def test_sfen_round_trip(sfen: str) -> None:
    assert Board(sfen).sfen() == sfen
    assert Board("sfen " + sfen).sfen() == sfen


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b Q 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - x",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKKSNL b - 1",
        "lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ],
)
def test_invalid_sfen(bad: str) -> None:
    with pytest.raises(InvalidSfenError):
        Board(bad)


@pytest.mark.parametrize("usi", ["7g7f", "8h2b+", "P*5e", "R*1a", "1i1a"])
def test_move_usi_round_trip(usi: str) -> None:
    move = Move.from_usi(usi)
    assert move.usi() == usi
    assert eval(repr(move), {"Move": Move}) == move  # noqa: S307 - repr round-trips
    assert hash(move) == hash(Move.from_usi(usi))


@pytest.mark.parametrize("bad", ["", "7g7", "7g7f=", "K*5e", "p*5e", "0a1a", "+P*5e", "7j7f"])
def test_bad_usi(bad: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_usi(bad)


def test_push_pop_restores_everything() -> None:
    board = Board()
    key0 = board.position_key()
    for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]:
        board.push_usi(usi)
    assert board.pieces_in_hand == ({}, {BISHOP: 1})
    assert board.sfen() == "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
    for _ in range(5):
        board.pop()
    assert board.sfen() == STARTING_SFEN and board.position_key() == key0
    with pytest.raises(IndexError):
        board.pop()


def test_usi_position_line() -> None:
    board = Board()
    assert board.to_usi_position() == "startpos"
    board.push_usi("7g7f")
    assert board.to_usi_position() == "startpos moves 7g7f"
    other = Board("4k4/9/9/9/9/9/9/9/4K4 b G 1")
    other.push_usi("G*5b")
    assert other.to_usi_position() == "sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b"


def test_a_copy_without_its_stack_is_the_root_of_the_moves_pushed_on_it() -> None:
    board = Board()
    for usi in ("7g7f", "3c3d"):
        board.push(Move.from_usi(usi))
    copy = board.copy(stack=False)
    at_copy = board.sfen()
    for usi in ("2g2f", "8c8d"):
        copy.push(Move.from_usi(usi))
    assert copy.root_sfen == at_copy
    assert copy.to_usi_position() == f"sfen {at_copy} moves 2g2f 8c8d"
    assert [b.sfen() for b in copy.iter_positions()][0] == at_copy
    assert copy.copy().root_sfen == at_copy
    assert board.root_sfen == STARTING_SFEN


def test_square_distance_counts_king_steps() -> None:
    assert square_distance(parse_square("5e"), parse_square("5e")) == 0
    assert square_distance(parse_square("5e"), parse_square("4d")) == 1
    assert square_distance(parse_square("9a"), parse_square("8b")) == 1
    assert square_distance(parse_square("9a"), parse_square("1a")) == 8
    assert square_distance(parse_square("1a"), parse_square("9i")) == 8
    assert square_distance(parse_square("7g"), parse_square("5f")) == 2
