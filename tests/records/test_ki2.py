"""KI2 move names on positions where the disambiguation words matter, both ways."""

from __future__ import annotations

import pytest

from board_bridge.records import GameRecord, RecordedMove, RecordParseError, parse_ki2, write_ki2
from board_bridge.records.ki2 import ki2_move_text
from board_bridge.shogi import Board, Move

CASES = [
    # (sfen, usi, expected KI2 text)
    ("4k4/9/9/9/9/9/9/9/3GKG3 b - 1", "4i5h", "▲５八金右"),
    ("4k4/9/9/9/9/9/9/9/3GKG3 b - 1", "6i5h", "▲５八金左"),
    ("4k4/9/9/9/9/9/9/9/3KGG3 b - 1", "5i5h", "▲５八金直"),
    ("4k4/9/9/9/9/9/9/9/3KGG3 b - 1", "4i5h", "▲５八金右"),
    ("4k4/9/9/9/9/9/9/3G5/4G3K b - 1", "6h5h", "▲５八金寄"),
    ("4k4/9/9/9/9/9/9/3G5/4G3K b - 1", "5i5h", "▲５八金上"),
    ("4k4/9/9/9/9/9/5S3/9/3S4K b - 1", "4g5h", "▲５八銀引"),
    ("4k4/9/9/9/9/9/5S3/9/3S4K b - 1", "6i5h", "▲５八銀上"),
    ("4k4/9/9/9/9/9/9/9/3GK4 b G 1", "G*5h", "▲５八金打"),
    ("4k4/9/9/9/9/9/9/9/3GK4 b G 1", "6i5h", "▲５八金"),
    ("4k4/9/9/9/9/9/9/9/4K4 b G 1", "G*5h", "▲５八金"),
    ("3gkg3/9/9/9/9/9/9/9/4K4 w - 1", "4a5b", "△５二金左"),
    ("3gkg3/9/9/9/9/9/9/9/4K4 w - 1", "6a5b", "△５二金右"),
    ("4k4/9/9/9/9/9/9/9/R3K2R1 b - 1", "9i8i", "▲８九飛"),
    ("k8/9/9/9/9/9/9/+R7+R/4K4 b - 1", "1h5h", "▲５八龍右"),
    ("k8/9/9/9/9/9/9/+R7+R/4K4 b - 1", "9h5h", "▲５八龍左"),
    ("4k4/9/9/4S4/9/9/9/9/4K4 b - 1", "5d5c", "▲５三銀不成"),
    ("4k4/9/9/4S4/9/9/9/9/4K4 b - 1", "5d5c+", "▲５三銀成"),
    ("4k4/9/9/9/9/9/9/9/4K4 b - 1", "5i4h", "▲４八玉"),
]


@pytest.mark.parametrize(("sfen", "usi", "text"), CASES)
def test_ki2_words(sfen: str, usi: str, text: str) -> None:
    board = Board(sfen)
    move = Move.from_usi(usi)
    assert board.is_legal(move)
    assert ki2_move_text(board, move) == text
    record = GameRecord(start_sfen=sfen, moves=(RecordedMove(move),))
    back = parse_ki2(write_ki2(record))
    assert back.usi_moves() == [usi]


def test_three_golds_need_two_words() -> None:
    """Golds on 6i, 5i and 4i all reach 5h: 直 for the middle one, 右 and 左 for the others;
    and a gold on 6h beside them moves 寄."""
    sfen = "4k4/9/9/9/9/9/9/3G5/3GGG2K b - 1"
    board = Board(sfen)
    names = {
        usi: ki2_move_text(board, Move.from_usi(usi)) for usi in ("6i5h", "5i5h", "4i5h", "6h5h")
    }
    assert names == {
        "6i5h": "▲５八金左上",
        "5i5h": "▲５八金直",
        "4i5h": "▲５八金右",
        "6h5h": "▲５八金寄",
    }
    for usi, text in names.items():
        back = parse_ki2(
            write_ki2(GameRecord(start_sfen=sfen, moves=(RecordedMove(Move.from_usi(usi)),)))
        )
        assert back.usi_moves() == [usi], text


def test_ambiguous_ki2_is_an_error_with_its_line() -> None:
    text = "手合割：平手\n先手：a\n後手：b\n▲７六歩　△３四歩\n▲５八金\n"
    with pytest.raises(RecordParseError) as err:
        parse_ki2(text)
    assert err.value.line == 5
    assert "ambiguous" in str(err.value)
    assert err.value.partial is not None and err.value.partial.usi_moves() == ["7g7f", "3c3d"]


def test_ki2_reads_same_and_result_words() -> None:
    text = (
        "開始日時：2024/05/01 10:00:00\n手合割：平手\n先手：甲\n後手：乙\n"
        "▲７六歩　△３四歩　▲２二角成　△同　銀\n*角交換\n▲４五角　△５二金右\n"
        "\nまで6手で時間切れにより後手の勝ち\n"
    )
    record = parse_ki2(text)
    assert record.usi_moves() == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "6a5b"]
    assert record.moves[3].comment == "角交換"
    assert record.outcome is not None
    assert (record.outcome.termination.value, record.outcome.winner) == ("timeout", 1)
