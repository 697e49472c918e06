"""Every record in ../shared/records parses, its moves are legal, its result is read right,
and cshogi's parsers read the same moves."""

from __future__ import annotations

from pathlib import Path

import cshogi
import cshogi.KIF
import pytest

from board_bridge.records import FLOODGATE_RULESET, read_file
from board_bridge.records.files import decode
from board_bridge.shogi import BLACK, WHITE, Board, IllegalReason, Move, Termination, parse_square
from tests.conftest import SHARED, shared_path

R = Termination.RESIGNATION
# file -> (moves, termination or None, winner)
EXPECTED: dict[str, tuple[int, Termination | None, int | None]] = {
    "csa/jishogi_kachi.csa": (315, Termination.DECLARATION, WHITE),  # 27 points, CSA rule
    "csa/max_moves_draw.csa": (256, None, None),  # no ending in the file (see below)
    "csa/not_sennichite.csa": (89, None, None),  # the position repeats only twice
    "csa/not_uchifuzume.csa": (113, None, None),
    "csa/oute_sennichite.csa": (110, Termination.PERPETUAL_CHECK, WHITE),
    "csa/oute_sennichite2.csa": (135, Termination.PERPETUAL_CHECK, BLACK),
    "csa/oute_sennichite3.csa": (134, Termination.PERPETUAL_CHECK, WHITE),
    "csa/uchifuzume.csa": (103, Termination.ILLEGAL_MOVE, BLACK),  # from the 'summary
    "csa/wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007.csa": (158, R, WHITE),
    "jkf/sample01.jkf": (2, None, None),
    "jkf/sample02.jkf": (0, None, None),
    "jkf/sample03.jkf": (31, None, None),
    "kif/08731.kif": (143, R, BLACK),
    "kif/15732.kif": (87, R, BLACK),
    "kif/15733.kif": (107, R, WHITE),
    "kif/16020.kif": (103, R, WHITE),
    "kif/16216.kif": (192, R, WHITE),
    "kif/16217.kif": (114, R, WHITE),
    "kif/27479.kif": (114, R, WHITE),
    "kif/27480.kif": (165, R, BLACK),
    "kif/27481.kif": (128, R, WHITE),
    "kif/27482.kif": (90, R, WHITE),
    "kif/27483.kif": (124, R, WHITE),
    "kif/27484.kif": (98, R, WHITE),
    "kif/27485.kif": (103, R, BLACK),
    "kif/27486.kif": (88, R, BLACK),
    "kif/27487.kif": (96, R, WHITE),
    "kif/27488.kif": (97, R, WHITE),
    "kif/27489.kif": (82, R, BLACK),
    "kif/27490.kif": (100, R, BLACK),
    "kif/27584.kif": (108, R, BLACK),
    "kif/27585.kif": (113, R, WHITE),
    "kif/27637.kif": (86, R, BLACK),
    "kif/37368.kif": (123, R, WHITE),
    "kif/39801.kif": (136, R, WHITE),
    "kif/BOD_LIKE_SAMPLE1.kif": (4, R, BLACK),
    "kif/asahi-cup-11-fujii-sato.kif": (121, R, BLACK),
    "kif/asahi-cup-11-fujii-sato.sjis.kif": (121, R, BLACK),
    "kif/fujii-sawada.kif": (155, R, BLACK),
    "kif/illegal_check.kif": (0, None, None),
    "kif/tsshogi-sample.kifu": (5, Termination.ABORT, None),
}


def _all_files() -> list[str]:
    root = SHARED / "records"
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and p.suffix != ".md"
    )


def test_every_shared_file_is_listed() -> None:
    shared_path("records")
    assert _all_files() == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shared_file(name: str) -> None:
    path = shared_path("records", name)
    record = read_file(path)
    n, termination, winner = EXPECTED[name]
    assert len(record.moves) == n
    board = Board(record.start_sfen)
    for rm in record.moves:
        assert board.illegal_reason(rm.move) is None
        board.push(rm.move)
    if termination is None:
        assert record.outcome is None
    else:
        assert record.outcome is not None
        assert (record.outcome.termination, record.outcome.winner) == (termination, winner)


def test_csa_files_agree_with_cshogi() -> None:
    for path in sorted(shared_path("records", "csa").glob("*.csa")):
        record = read_file(path)
        parser = cshogi.Parser()
        parser.parse_csa_str(decode(path.read_bytes()))
        assert [cshogi.move_to_usi(m) for m in parser.moves] == record.usi_moves(), path.name
        assert [int(t) for t in parser.times] == [int(m.time_used or 0) for m in record.moves]
        assert parser.names == [record.sente, record.gote]


def test_kif_files_agree_with_cshogi() -> None:
    for path in sorted(shared_path("records", "kif").glob("*.kif*")):
        if path.name == "BOD_LIKE_SAMPLE1.kif":
            continue  # cshogi's KIF parser does not read board diagrams
        record = read_file(path)
        parser = cshogi.KIF.Parser.parse_str(decode(path.read_bytes()).lstrip("\ufeff"))
        assert [cshogi.move_to_usi(m) for m in parser.moves] == record.usi_moves(), path.name
        want = {cshogi.BLACK_WIN: BLACK, cshogi.WHITE_WIN: WHITE}.get(parser.win)
        assert (record.outcome.winner if record.outcome else None) == want, path.name


def test_max_moves_under_floodgate_rules() -> None:
    """The file stops at move 256 without an ending; under Floodgate's 256-move limit the
    position itself is the end: a draw."""
    record = read_file(shared_path("records", "csa", "max_moves_draw.csa"), FLOODGATE_RULESET)
    assert record.outcome is not None
    assert record.outcome.termination is Termination.MAX_MOVES and record.outcome.winner is None


def test_not_sennichite_keeps_the_note() -> None:
    record = read_file(shared_path("records", "csa", "not_sennichite.csa"))
    assert any("no repetition" in p.message for p in record.problems)


def test_illegal_check_position() -> None:
    """illegal_check.kif is a start position (black to move, no moves) where black's
    bishop on 5h is pinned against the king by the rook on 5a: every bishop move would
    leave the king in check."""
    record = read_file(shared_path("records", "kif", "illegal_check.kif"))
    assert record.start_sfen == "4r4/9/9/9/9/9/5P3/4B4/4K3P b Pp 1"
    board = record.board()
    assert not board.is_check()
    bishop = parse_square("5h")
    for target in ("6g", "7f", "8e", "6i", "4i"):
        reason = board.illegal_reason(Move(bishop, parse_square(target)))
        assert reason is IllegalReason.KING_IN_CHECK, target
    assert all(m.from_square != bishop for m in board.legal_moves)


def test_shift_jis_and_utf8_copies_read_the_same() -> None:
    utf8 = read_file(shared_path("records", "kif", "asahi-cup-11-fujii-sato.kif"))
    sjis = read_file(shared_path("records", "kif", "asahi-cup-11-fujii-sato.sjis.kif"))
    assert sjis.usi_moves() == utf8.usi_moves()
    assert sjis.sente == utf8.sente == "藤井聡太四段"
    assert [m.time_used for m in sjis.moves] == [m.time_used for m in utf8.moves]
    assert sjis.time_control.total == 2400 and sjis.time_control.byoyomi == 60
    assert sjis.moves[0].comment.startswith("佐藤の振り歩先で")


def test_bom_and_kif2_header() -> None:
    path = shared_path("records", "kif", "tsshogi-sample.kifu")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf#KIF version=2.0")
    record = read_file(path)
    assert record.usi_moves() == ["2g2f", "8c8d", "2f2e", "8d8e", "6i7h"]
    assert record.handicap == "平手"


def test_jkf_forks_are_kept() -> None:
    record = read_file(shared_path("records", "jkf", "sample03.jkf"))
    assert len(record.variations) == 3
    for var in record.variations:
        board = Board(record.start_sfen)
        chain = [var]
        while chain[-1].parent is not None:
            chain.append(record.variations[chain[-1].parent])
        moves = [rm.move for rm in record.moves]
        for link in reversed(chain):
            moves = moves[: link.ply - 1] + [rm.move for rm in link.moves]
        for m in moves:
            assert board.illegal_reason(m) is None
            board.push(m)


def test_jkf_header_and_comments() -> None:
    record = read_file(shared_path("records", "jkf", "sample01.jkf"))
    assert record.sente == "ルノワール" and record.gote == "ゴッホ"
    assert record.event == "ユニットテスト選手権"
    assert record.comment.startswith("【コメントのテスト】")
    assert record.moves[0].comment == "1手目のコメントです。"
    assert ("持ち時間", "一億年") in record.extra  # not a time: kept as it is
    sample02 = read_file(shared_path("records", "jkf", "sample02.jkf"))
    assert sample02.handicap is None and sample02.start_sfen.split()[1] == "w"


def test_paths_are_not_hard_coded() -> None:
    assert Path(SHARED).name == "shared"
