"""The game journal: durable appends, torn tails, resume, atomic finish, and a kill test."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from board_bridge.records import read_file
from board_bridge.records.journal import (
    GameJournal,
    JournalClosedError,
    find_unfinished,
    load_entries,
    load_journal,
)
from board_bridge.shogi import IllegalMoveError, Move, Outcome, Termination
from tests.conftest import corpus_games
from tests.records.journal_writer import states

WRITER = Path(__file__).with_name("journal_writer.py")


def mv(usi: str) -> Move:
    return Move.from_usi(usi)


def test_moves_corrections_and_finish(tmp_path: Path) -> None:
    j = GameJournal.create(
        tmp_path, {"sente": "Sente", "gote": "Gote", "time_total": 600, "場所": "自宅"}
    )
    j.append_move(mv("7g7f"), 1.5, 10.0)
    j.append_move(mv("3c3d"), 2.0, 12.0)
    j.append_move(mv("2g2f"), 3.0, 15.0)
    j.correct_last(mv("8h2b+"), 4.0, 16.0)  # moved on before the reply
    j.comment("a bishop exchange")
    j.append_move(mv("3a2b"), 1.0, 18.0)
    j.retract_last(19.0)
    j.append_move(mv("3a2b"), 1.25, 20.0)
    j.take_back(21.0)
    j.append_move(mv("3a2b"), 1.5, 22.0)
    with pytest.raises(IllegalMoveError):
        j.append_move(mv("5a4b"), 1.0)  # the opponent's king: nothing is written
    rec = j.record
    assert rec.usi_moves() == ["7g7f", "3c3d", "8h2b+", "3a2b"]
    assert [m.time_used for m in rec.moves] == [1.5, 2.0, 4.0, 1.5]
    assert rec.moves[2].comment == "a bishop exchange"
    assert rec.sente == "Sente" and rec.time_control.total == 600
    assert rec.extra == (("場所", "自宅"),)
    paths = j.finish(Outcome(Termination.RESIGNATION, 1), 30.0)
    assert sorted(p.suffix for p in paths) == [".csa", ".kifu"]
    for p in paths:
        back = read_file(p)
        assert back.usi_moves() == rec.usi_moves()
        # Black was to move and resigned (CSA's %TORYO is always the side to move's).
        assert back.outcome is not None and back.outcome.winner == 1
        assert back.outcome.termination is Termination.RESIGNATION
        # KIF and CSA V2.2 keep whole seconds.
        assert [m.time_used for m in back.moves] == [1.0, 2.0, 4.0, 1.0]
    assert find_unfinished(tmp_path) == []
    with pytest.raises(JournalClosedError):
        j.append_move(mv("7i6h"), 1.0)
    j.close()  # twice is fine
    assert not list(tmp_path.glob("*.tmp"))


def test_resume_goes_on_where_it_stopped(tmp_path: Path) -> None:
    j = GameJournal.create(tmp_path, {"sente": "A", "gote": "B"})
    for usi in ["7g7f", "3c3d", "2g2f"]:
        j.append_move(mv(usi), 1.0)
    j.close()  # the daemon died here
    [info] = find_unfinished(tmp_path)
    assert info.moves == 3 and not info.ended and info.sente == "A"
    j2, rec = GameJournal.resume(info.path)
    assert rec.usi_moves() == ["7g7f", "3c3d", "2g2f"]
    assert rec.board().sfen(move_number=False).startswith("lnsgkgsnl/1r5b1/pppppp1pp")
    j2.append_move(mv("4c4d"), 2.0)
    paths = j2.finish(Outcome(Termination.ABORT, None), formats=("kif", "csa3", "jkf", "sfen"))
    assert [read_file(p).usi_moves() for p in paths] == [rec.usi_moves() + ["4c4d"]] * 4
    assert find_unfinished(tmp_path) == []


def test_ended_but_unwritten_game_is_found_and_written(tmp_path: Path) -> None:
    j = GameJournal.create(tmp_path, {})
    j.append_move(mv("7g7f"), 1.0)
    # A crash after the result was journaled and before the files were written:
    j._append({"type": "end", "outcome": {"termination": "timeout", "winner": 0, "detail": ""}})
    j.close()
    [info] = find_unfinished(tmp_path)
    assert info.ended and info.outcome == Outcome(Termination.TIMEOUT, 0)
    j2, rec = GameJournal.resume(info.path)
    paths = j2.finish(Outcome(Termination.RESIGNATION, 1))  # the journaled result stands
    assert read_file(paths[0]).outcome == Outcome(Termination.TIMEOUT, 0)
    assert find_unfinished(tmp_path) == []


def _journal_with_moves(tmp_path: Path, n: int) -> Path:
    j = GameJournal.create(tmp_path, {"sente": "x"})
    game = corpus_games()[0]["moves"]
    for usi in game[:n]:
        j.append_move(mv(usi), 0.5)
    j.close()
    return j.path


def test_truncation_at_every_byte_of_the_last_line(tmp_path: Path) -> None:
    path = _journal_with_moves(tmp_path, 6)
    data = path.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    full = load_journal(path).usi_moves()
    assert len(full) == 6
    for cut in range(last_start, len(data) + 1):
        path.write_bytes(data[:cut])
        state = load_entries(path)
        assert state.problems == []
        rec = load_journal(path)
        expected = full if cut == len(data) else full[:5]
        assert rec.usi_moves() == expected, cut
        assert state.torn_tail == (last_start < cut < len(data))
    # Resume cuts the torn tail off, so the next entry starts on a clean line.
    path.write_bytes(data[: last_start + 7])
    j, rec = GameJournal.resume(path)
    assert path.read_bytes() == data[:last_start]
    j.append_move(Move.from_usi(corpus_games()[0]["moves"][5]), 0.5)
    j.close()
    assert load_journal(path).usi_moves() == full


def test_damaged_entries_are_never_accepted(tmp_path: Path) -> None:
    path = _journal_with_moves(tmp_path, 6)
    data = path.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    rng = random.Random(7)
    for _ in range(200):
        pos = rng.randrange(last_start, len(data) - 1)
        damaged = bytearray(data)
        damaged[pos] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(damaged))
        assert load_journal(path).usi_moves() == load_journal_prefix(data, 5), pos
    # Damage in the middle: entries after it are not trusted, the original is kept aside.
    lines = data.split(b"\n")
    lines[3] = lines[3].replace(b'"usi"', b'"usj"')
    path.write_bytes(b"\n".join(lines))
    state = load_entries(path)
    assert len(state.entries) == 3 and state.problems
    j, rec = GameJournal.resume(path)
    j.close()
    assert len(rec.moves) == 2
    assert list(tmp_path.glob("*.damaged-*"))


def load_journal_prefix(data: bytes, moves: int) -> list[str]:
    return corpus_games()[0]["moves"][:moves]


def test_create_is_refused_for_bad_input(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        GameJournal.create(tmp_path, {}, start_sfen="not an sfen")
    with pytest.raises(ValueError):
        GameJournal.create(tmp_path, {}, formats=("docx",))
    assert list(tmp_path.iterdir()) == []


def test_killed_writer_loses_at_most_the_move_in_flight(tmp_path: Path) -> None:
    """SIGKILL a process writing a game at random moments: every acknowledged operation
    is in the journal, at most one more, and the journal always loads."""
    games = corpus_games()
    assert games, "the shared corpus is needed"
    rng = random.Random(20261122)
    runs = 48
    deadline = time.monotonic() + 60
    checked = finished = 0
    kill_points: set[int] = set()
    for run in range(runs):
        if time.monotonic() > deadline:
            break
        game = games[run % len(games)]["moves"]
        seed = rng.randrange(1 << 30)
        folder = tmp_path / f"run{run}"
        folder.mkdir()
        moves_file = folder / "moves.json"
        moves_file.write_text(json.dumps(game))
        err_file = (folder / "stderr.txt").open("wb")
        proc = subprocess.Popen(
            [sys.executable, str(WRITER), str(folder), str(seed), str(moves_file)],
            stdout=subprocess.PIPE,
            stderr=err_file,
            bufsize=0,  # unbuffered: readline takes the ready line and nothing more
            cwd=str(Path(__file__).resolve().parents[2]),
        )
        assert proc.stdout is not None
        ready = proc.stdout.readline().decode()
        assert ready.startswith("ready "), (folder / "stderr.txt").read_text()
        time.sleep(rng.uniform(0, 0.12))
        proc.send_signal(signal.SIGKILL)
        out, _err = proc.communicate(timeout=10)  # one pipe: the buffered lines come too
        err_file.close()
        lines = out.decode().splitlines()
        acks = [int(ln.split()[1]) for ln in lines if ln.startswith("ack ")]
        assert acks == list(range(len(acks)))
        acked = len(acks)
        expected = states(game, seed)
        found = find_unfinished(folder)
        if any(ln.startswith("finished") for ln in lines) or not found:
            # Finished (perhaps killed between closing the journal and saying so): the
            # journal is closed and the records hold the whole game.
            finished += 1
            assert found == []
            kifu = next(folder.glob("*.kifu"))
            assert [(m.move.usi(), m.time_used) for m in read_file(kifu).moves] == [
                (u, float(int(t))) for u, t in expected[-1]
            ]
            continue
        [info] = found
        rec = load_journal(info.path)
        got = [(m.move.usi(), m.time_used) for m in rec.moves]
        allowed = [expected[acked]] + ([expected[acked + 1]] if acked + 1 < len(expected) else [])
        assert got in allowed, (run, acked, len(got), [len(a) for a in allowed])
        kill_points.add(acked)
        # And the journal can be resumed and finished.
        j, _ = GameJournal.resume(info.path)
        paths = j.finish(Outcome(Termination.ABORT, None))
        assert read_file(paths[0]).usi_moves() == [u for u, _ in got]
        checked += 1
    print(
        f"crash test: {checked} killed mid-game, {finished} finished, {len(kill_points)} kill points"
    )
    assert checked >= 20, (checked, finished)
    assert len(kill_points) >= 10, sorted(kill_points)  # killed at many different moments
    assert not [p for p in tmp_path.rglob("*.tmp")]
