"""The game library and the convert / show / games commands."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from board_bridge.cli import main
from board_bridge.records import read_file
from board_bridge.records.journal import GameJournal
from board_bridge.records.library import GameLibrary, LibraryError
from board_bridge.shogi import Move, Outcome, Termination
from tests.conftest import corpus_games, shared_path


def _finished_game(directory: Path, sente: str, n: int, winner: int) -> list[Path]:
    j = GameJournal.create(directory, {"sente": sente, "gote": "GPSShogi"})
    for usi in corpus_games()[-1]["moves"][:n]:
        j.append_move(Move.from_usi(usi), 2.0)
    return j.finish(Outcome(Termination.RESIGNATION, winner))


def test_library_add_list_get_export(tmp_path: Path) -> None:
    lib = GameLibrary(tmp_path / "lib.sqlite")
    paths_a = _finished_game(tmp_path / "games", "Alice", 20, 0)
    paths_b = _finished_game(tmp_path / "games", "Bob", 31, 0)
    a = lib.add(read_file(paths_a[0]), paths_a)
    b = lib.add_files(paths_b)
    entries = lib.list()
    assert {e.id for e in entries} == {a, b}
    bob = lib.get(b)
    assert (bob.sente, bob.gote, bob.moves) == ("Bob", "GPSShogi", 31)
    assert bob.result == "black wins" and bob.termination == "resignation"
    assert [e.sente for e in lib.list(player="ali")] == ["Alice"]
    text, encoding = lib.export(a, "csa")
    assert encoding == "utf-8" and text.startswith("V2.2\nN+Alice")
    assert lib.record(a).usi_moves() == corpus_games()[-1]["moves"][:20]
    with pytest.raises(LibraryError):
        lib.get(999)
    # The database is an ordinary sqlite file in WAL mode.
    lib.close()
    with sqlite3.connect(tmp_path / "lib.sqlite") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    lib.close()


def test_library_record_falls_back_to_another_file(tmp_path: Path) -> None:
    paths = _finished_game(tmp_path, "Carol", 10, 1)
    with GameLibrary(tmp_path / "lib.sqlite") as lib:
        gid = lib.add_files(paths)
        paths[0].unlink()  # the .kifu is gone; the .csa is still there
        assert lib.record(gid).sente == "Carol"
        paths[1].unlink()
        with pytest.raises(LibraryError):
            lib.record(gid)


def test_convert_and_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = shared_path("records", "kif", "asahi-cup-11-fujii-sato.sjis.kif")
    out = tmp_path / "game.csa"
    assert main(["convert", str(src), str(out)]) == 0
    record = read_file(out)
    assert record.sente == "藤井聡太四段" and len(record.moves) == 121
    assert main(["convert", str(out), str(tmp_path / "game.jkf")]) == 0
    assert main(["convert", str(tmp_path / "game.jkf"), str(tmp_path / "game.kif")]) == 0
    assert read_file(tmp_path / "game.kif").usi_moves() == record.usi_moves()
    capsys.readouterr()
    assert main(["show", str(src)]) == 0
    shown = capsys.readouterr().out
    assert "   1 ▲ 2g2f" in shown
    assert "result: black wins by resignation" in shown
    assert "time: black 40:00, white 40:00" in shown
    assert "usi: position startpos moves 2g2f 3c3d" in shown


def test_convert_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.csa"
    bad.write_text("V2.2\nPI\n+\n+7776FU\n-3334FU\n+9999ZZ\n")
    assert main(["convert", str(bad), str(tmp_path / "x.kifu")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"board-bridge: {bad}:6: ") and "\n" not in err
    assert not (tmp_path / "x.kifu").exists()
    # --keep-going writes what could be read.
    assert main(["convert", "--keep-going", str(bad), str(tmp_path / "x.kifu")]) == 0
    assert read_file(tmp_path / "x.kifu").usi_moves() == ["7g7f", "3c3d"]
    assert main(["convert", str(bad), str(tmp_path / "x.docx")]) == 1
    assert main(["show", str(tmp_path / "missing.kif")]) == 1
    assert "missing.kif" in capsys.readouterr().err


def test_games_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "lib.sqlite"
    paths = _finished_game(tmp_path / "games", "Dora", 12, 1)
    assert main(["games", "--db", str(db), "add", *map(str, paths)]) == 0
    assert main(["games", "--db", str(db), "list"]) == 0
    listing = capsys.readouterr().out
    assert "Dora vs GPSShogi" in listing and "12 moves" in listing and "white wins" in listing
    out = tmp_path / "export.kif"
    assert (
        main(["games", "--db", str(db), "export", "1", "--format", "kif", "--out", str(out)]) == 0
    )
    assert read_file(out).sente == "Dora"
    assert out.read_bytes().startswith(b"#KIF version=2.0 encoding=Shift_JIS")
    assert main(["games", "--db", str(db), "export", "1", "--format", "usi"]) == 0
    assert capsys.readouterr().out.startswith("position startpos moves ")
    assert main(["games", "--db", str(db), "export", "7"]) == 1
    assert "no game 7" in capsys.readouterr().err
    # Unfinished games of a records directory.
    j = GameJournal.create(tmp_path / "games", {"sente": "Eve"})
    j.append_move(Move.from_usi("7g7f"), 1.0)
    j.close()
    assert main(["games", "unfinished", str(tmp_path / "games")]) == 0
    assert "Eve vs -  1 moves  in play" in capsys.readouterr().out
