"""Malformed files: a clear error with the line number, and what could be read is kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from board_bridge.records import RecordParseError, read_file, write_file
from board_bridge.records.files import UnknownFormatError, decode, detect_encoding
from tests.conftest import shared_path


def _lines(name: str) -> list[str]:
    return decode(shared_path("records", name).read_bytes()).lstrip("\ufeff").split("\n")


def _write(tmp_path: Path, name: str, lines: list[str], encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes("\n".join(lines).encode(encoding))
    return path


def _line_of(lines: list[str], start: str) -> int:
    return next(i for i, ln in enumerate(lines) if ln.startswith(start))


def test_kif_cut_in_the_middle_of_a_move(tmp_path: Path) -> None:
    lines = _lines("kif/fujii-sawada.kif")
    i = _line_of(lines, "45 ")
    lines = lines[:i] + [lines[i][:5]]  # "45 ４" and the file ends
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "cut.kifu", lines))
    assert err.value.line == i + 1
    assert str(err.value).startswith(f"{tmp_path / 'cut.kifu'}:{i + 1}: ")
    assert err.value.partial is not None and len(err.value.partial.moves) == 44


def test_kif_garbled_from_square(tmp_path: Path) -> None:
    lines = _lines("kif/fujii-sawada.kif")
    i = _line_of(lines, "30 ")
    lines[i] = lines[i][: lines[i].index("(")] + "(99)   (00:00/00:00:00)"
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "garbled.kifu", lines))
    assert err.value.line == i + 1  # the bad move, not the one after it
    assert err.value.partial is not None and len(err.value.partial.moves) == 29


def test_kif_move_numbers_out_of_order(tmp_path: Path) -> None:
    lines = _lines("kif/fujii-sawada.kif")
    i = _line_of(lines, "12 ")
    del lines[i]
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "skip.kifu", lines))
    assert err.value.line == i + 1
    assert "13" in str(err.value) and "12" in str(err.value)
    assert err.value.partial is not None and len(err.value.partial.moves) == 11


def test_kif_not_a_move(tmp_path: Path) -> None:
    lines = _lines("kif/27479.kif")
    i = _line_of(lines, "  10 ")
    lines[i] = "  10 ＊＊＊＊   (00:00/00:00:00)"
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "x.kif", lines, "cp932"))
    assert err.value.line == i + 1 and "not a move" in str(err.value)


def test_unknown_lines_are_notes_not_errors(tmp_path: Path) -> None:
    lines = _lines("kif/27479.kif")
    lines.insert(3, "this line means nothing")
    record = read_file(_write(tmp_path, "note.kifu", lines))
    assert len(record.moves) == 114
    assert [p.line for p in record.problems] == [4]


def test_csa_garbled_move(tmp_path: Path) -> None:
    lines = _lines("csa/wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007.csa")
    moves = [i for i, ln in enumerate(lines) if ln[:1] in "+-" and len(ln) == 7]
    i = moves[40]
    lines[i] = lines[i][:5] + "XX"
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "g.csa", lines))
    assert err.value.line == i + 1 and "XX" in str(err.value)
    assert err.value.partial is not None and len(err.value.partial.moves) == 40
    assert err.value.partial.sente == "gps_normal"


def test_csa_illegal_move_in_the_middle(tmp_path: Path) -> None:
    lines = _lines("csa/uchifuzume.csa")
    moves = [i for i, ln in enumerate(lines) if ln[:1] in "+-" and len(ln) == 7]
    i = moves[10]
    sign = lines[i][0]
    lines[i] = f"{sign}5955OU" if sign == "+" else f"{sign}5155OU"  # a king flies
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "i.csa", lines))
    assert err.value.line == i + 1
    assert err.value.partial is not None and len(err.value.partial.moves) == 10


def test_csa_unknown_special_and_wrong_side(tmp_path: Path) -> None:
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "s.csa", ["V2.2", "PI", "+", "+7776FU", "%RESIGNED"]))
    assert err.value.line == 5
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "w.csa", ["V2.2", "PI", "+", "-3334FU"]))
    assert err.value.line == 4 and "side to move" in str(err.value)


def test_illegal_last_move_ends_the_game(tmp_path: Path) -> None:
    """A final move that is illegal (here: it leaves the king in check) ends the game,
    and its mover loses, as 反則負け; the move is kept as ``illegal_move``."""
    kif = [
        "手合割：平手",
        "手数----指手---------消費時間--",
        "   1 ７六歩(77)   ( 0:01/00:00:01)",
        "   2 ３四歩(33)   ( 0:01/00:00:01)",
        "   3 ６八玉(59)   ( 0:01/00:00:02)",
        "   4 ８四歩(83)   ( 0:01/00:00:02)",
        "   5 ７七玉(68)   ( 0:01/00:00:03)",  # into the bishop's line: illegal
        "   6 反則勝ち",
        "まで5手で後手の反則勝ち",
    ]
    record = read_file(_write(tmp_path, "ill.kifu", kif))
    assert record.usi_moves() == ["7g7f", "3c3d", "5i6h", "8c8d"]
    assert record.illegal_move is not None and record.illegal_move.usi() == "6h7g"
    assert record.outcome is not None and record.outcome.winner == 1
    assert record.outcome.termination.value == "illegal-move"
    assert "check" in record.outcome.detail
    for ext in (".kifu", ".csa", ".jkf", ".ki2u"):
        back = read_file(write_file(record, tmp_path / f"back{ext}"))
        assert back.usi_moves() == record.usi_moves(), ext
        assert back.outcome is not None and back.outcome.winner == 1, ext
        assert back.outcome.termination.value == "illegal-move", ext
        if ext != ".ki2u":  # KI2 cannot name an illegal move: its まで line keeps the result
            assert back.illegal_move == record.illegal_move, ext
    # The USI line is a position for engines: the legal moves only.
    assert read_file(write_file(record, tmp_path / "p.usi")).usi_moves() == record.usi_moves()


def test_jkf_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "bad.jkf", ['{"header": {},', '  "moves": [', "  {]", "}"]))
    assert err.value.line == 3
    good = shared_path("records", "jkf", "sample03.jkf").read_text(encoding="utf-8")
    with pytest.raises(RecordParseError) as err:
        read_file(_write(tmp_path, "cut.jkf", good[: len(good) // 2].split("\n")))
    assert err.value.line > 0


def test_encoding_detection(tmp_path: Path) -> None:
    sjis = shared_path("records", "kif", "asahi-cup-11-fujii-sato.sjis.kif").read_bytes()
    assert detect_encoding(sjis) == "cp932"
    # Shift_JIS bytes under a .kifu name: not valid UTF-8, so read as Shift_JIS.
    path = tmp_path / "mislabelled.kifu"
    path.write_bytes(sjis)
    assert read_file(path).sente == "藤井聡太四段"
    assert detect_encoding(b"\xef\xbb\xbfabc") == "utf-8-sig"
    assert detect_encoding(b"#KIF version=2.0 encoding=Shift_JIS\n") == "cp932"
    assert detect_encoding(b"'CSA encoding=UTF-8\nV3.0\n") == "utf-8"
    with pytest.raises(UnknownFormatError):
        read_file(tmp_path / "game.pgn")
