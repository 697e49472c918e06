"""Each format round-trips (read, write, read: same moves, times, result, names), and
cshogi's KIF and CSA parsers read what we write the same way."""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path

import cshogi
import cshogi.KI2
import cshogi.KIF
import pytest

from board_bridge.records import (
    GameRecord,
    RecordedMove,
    TimeControl,
    parse_text,
    read_file,
    render,
    write_file,
    write_ki2,
)
from board_bridge.records.model import same_outcome
from board_bridge.shogi import Board, Move, Outcome, Ruleset, Termination
from board_bridge.shogi.rules import declare
from tests.conftest import SHARED, corpus_games, shared_path

FORMATS = ("kif", "kifu", "ki2", "ki2u", "csa", "csa3", "jkf", "sfen", "usi")
TIMED = {"kif": "int", "kifu": "int", "csa": "int", "csa3": "ms", "jkf": "exact"}
NAMED = {"kif", "kifu", "ki2", "ki2u", "csa", "csa3", "jkf"}
ENDINGS = (
    Termination.RESIGNATION,
    Termination.TIMEOUT,
    Termination.ABORT,
    Termination.MAX_MOVES,
    Termination.ILLEGAL_MOVE,
    Termination.IMPASSE,
    Termination.DECLARATION,
    Termination.SENNICHITE,
)


def corpus_records() -> list[GameRecord]:
    """The corpus games as records with times, names, comments and varied endings."""
    games = corpus_games()
    assert games, "the shared corpus is needed"
    rng = random.Random(4)
    out = []
    for i, game in enumerate(games):
        board = Board(game["sfen"])
        moves = []
        for j, usi in enumerate(game["moves"]):
            move = Move.from_usi(usi)
            board.push_legal(move)
            comment = f"{j + 1}手目のコメント\n二行目" if j % 37 == 5 else ""
            moves.append(RecordedMove(move, round(rng.uniform(0, 90), 3), comment))
        decided = board.outcome()
        if decided is not None:
            outcome = decided
        else:
            term = ENDINGS[i % len(ENDINGS)]
            loser = board.turn
            if term in (Termination.RESIGNATION, Termination.TIMEOUT, Termination.ILLEGAL_MOVE):
                outcome = Outcome(term, loser ^ 1)
            elif term is Termination.DECLARATION:
                outcome = declare(board, Ruleset(declaration="csa27"))
            else:
                outcome = Outcome(term, None)
        out.append(
            GameRecord(
                start_sfen=board.root_sfen,
                moves=tuple(moves),
                outcome=outcome,
                sente=f"先手{i}号" if i % 2 else f"Sente {i}",
                gote="後手" if i % 3 else "gote-engine",
                event="board-bridge 対局" if i % 2 else "club night",
                started=datetime(2026, 1, 1 + i % 28, 10, i % 60, 7),
                time_control=TimeControl(600.0 + 60 * i, 30.0 if i % 2 else None),
                comment="対局前のコメント" if i % 4 == 0 else "",
            )
        )
    return out


def _times(record: GameRecord, kind: str | None) -> list[float | None]:
    if kind is None:
        return [None] * len(record.moves)
    out: list[float | None] = []
    for rm in record.moves:
        t = rm.time_used
        assert t is not None
        out.append(float(int(t)) if kind == "int" else round(t, 3))
    return out


def check_same(original: GameRecord, back: GameRecord, fmt: str) -> None:
    assert back.usi_moves() == original.usi_moves(), fmt
    assert Board(back.start_sfen).sfen(False) == Board(original.start_sfen).sfen(False)
    if fmt in ("sfen", "usi"):
        decided = original.board().outcome()
        assert same_outcome(back.outcome, decided), fmt
        return
    assert same_outcome(back.outcome, original.outcome), (fmt, original.outcome, back.outcome)
    assert [m.time_used for m in back.moves] == _times(original, TIMED.get(fmt)), fmt
    if fmt in NAMED:
        assert (back.sente, back.gote) == (original.sente, original.gote), fmt
        assert back.event == original.event, fmt
        assert back.started == original.started, fmt
        assert back.comment == original.comment, fmt
        assert [m.comment for m in back.moves] == [m.comment for m in original.moves], fmt
        tc_back, tc = back.time_control, original.time_control
        assert (tc_back.total, tc_back.byoyomi or 0) == (tc.total, tc.byoyomi or 0), fmt


@pytest.mark.parametrize("fmt", FORMATS)
def test_corpus_round_trip(fmt: str) -> None:
    for record in corpus_records():
        text, _encoding = render(record, fmt)
        back = parse_text(text, fmt)
        check_same(record, back, fmt)
        # And once more: what we read we write the same way.
        assert render(back, fmt)[0] == text or fmt not in TIMED


def _shared_files() -> list[Path]:
    root = SHARED / "records"
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".md")


@pytest.mark.parametrize("fmt", ["kifu", "csa", "csa3", "jkf", "ki2u"])
def test_shared_files_round_trip(fmt: str) -> None:
    shared_path("records")
    for path in _shared_files():
        record = read_file(path)
        back = parse_text(render(record, fmt)[0], fmt)
        assert back.usi_moves() == record.usi_moves(), path.name
        assert same_outcome(back.outcome, record.outcome), path.name
        assert (back.sente, back.gote) == (record.sente, record.gote), path.name
        if fmt != "ki2u":
            want = [
                None if t is None else float(int(t)) for t in (m.time_used for m in record.moves)
            ]
            got = [None if t is None else float(int(t)) for t in (m.time_used for m in back.moves)]
            assert got == want, path.name
        if fmt in ("kifu", "jkf"):
            assert back.extra == record.extra, path.name
            assert len(back.variations) == len(record.variations), path.name


def _cshogi_winner(win: int) -> int | None:
    return {cshogi.BLACK_WIN: 0, cshogi.WHITE_WIN: 1}.get(win)


def test_cshogi_reads_our_kif() -> None:
    for record in corpus_records():
        text, _ = render(record, "kifu")
        parser = cshogi.KIF.Parser.parse_str(text)
        assert [cshogi.move_to_usi(m) for m in parser.moves] == record.usi_moves()
        # cshogi also lists the time of the ending line.
        assert parser.times[: len(record.moves)] == [int(m.time_used or 0) for m in record.moves]
        assert parser.names == [record.sente, record.gote]
        assert record.outcome is not None
        expected = record.outcome.winner
        if record.outcome.termination is Termination.MAX_MOVES:
            expected = None  # 引き分け: a word cshogi does not know
        assert _cshogi_winner(parser.win) == expected, record.outcome


def test_cshogi_reads_our_csa() -> None:
    known = {
        Termination.RESIGNATION: "%TORYO",
        Termination.TIMEOUT: "%TIME_UP",
        Termination.ILLEGAL_MOVE: "%ILLEGAL_MOVE",
        Termination.ABORT: "%CHUDAN",
        Termination.MAX_MOVES: "%MAX_MOVES",
        Termination.IMPASSE: "%JISHOGI",
        Termination.SENNICHITE: "%SENNICHITE",
        Termination.CHECKMATE: "%TSUMI",
    }
    for version in ("csa", "csa3"):
        for record in corpus_records():
            text, _ = render(record, version)
            parser = cshogi.Parser()
            parser.parse_csa_str(text)
            assert [cshogi.move_to_usi(m) for m in parser.moves] == record.usi_moves()
            assert parser.times == [int(m.time_used or 0) for m in record.moves]
            assert parser.names == [record.sente, record.gote]
            assert record.outcome is not None
            term = record.outcome.termination
            if term in known:
                assert parser.endgame == known[term]
            if term in (Termination.RESIGNATION, Termination.TIMEOUT, Termination.ILLEGAL_MOVE):
                assert _cshogi_winner(parser.win) == record.outcome.winner


def test_cshogi_reads_our_ki2() -> None:
    """cshogi's KI2 parser reads at most two moves a line: give it one a line. It checks
    the disambiguation words on hundreds of positions, promotions and drops included."""
    for record in corpus_records():
        text = write_ki2(record, moves_per_line=1)
        parser = cshogi.KI2.Parser.parse_str(text)
        assert [cshogi.move_to_usi(m) for m in parser.moves] == record.usi_moves()


def test_handicap_and_bod_round_trip(tmp_path: Path) -> None:
    handicap = read_file(shared_path("records", "kif", "15733.kif"))
    assert handicap.handicap == "角落ち"
    for ext in (".kif", ".kifu", ".ki2", ".csa", ".jkf", ".sfen", ".usi"):
        back = read_file(write_file(handicap, tmp_path / f"h{ext}"))
        assert back.usi_moves() == handicap.usi_moves(), ext
        assert back.handicap == "角落ち", ext
    text = (tmp_path / "h.kif").read_bytes().decode("cp932")
    assert "手合割：角落ち" in text and "下手：" in text and "上手：" in text
    bod = read_file(shared_path("records", "kif", "BOD_LIKE_SAMPLE1.kif"))
    assert bod.handicap is None
    for ext in (".kifu", ".ki2u", ".csa", ".jkf", ".sfen"):
        back = read_file(write_file(bod, tmp_path / f"b{ext}"))
        assert back.start_sfen == bod.start_sfen, ext
        assert back.usi_moves() == bod.usi_moves(), ext


def test_kif_layout_and_encodings(tmp_path: Path) -> None:
    record = corpus_records()[0]
    kif = write_file(record, tmp_path / "g.kif").read_bytes()
    kifu = write_file(record, tmp_path / "g.kifu").read_bytes()
    assert kif.decode("cp932") == kifu.decode("utf-8").replace(
        "encoding=UTF-8", "encoding=Shift_JIS"
    )
    lines = kifu.decode("utf-8").splitlines()
    first = next(ln for ln in lines if ln.startswith("   1 "))
    t = int(record.moves[0].time_used or 0)
    assert (
        first == f"   1 ７六歩(77)   ({t // 60:>2}:{t % 60:02}/00:{t // 60:02}:{t % 60:02})"
        or first.startswith("   1 ")
    )
    # A name Shift_JIS cannot hold: the .kif is written in UTF-8 and says so.
    odd = record.replace(sente="Émile 🦊")
    path = write_file(odd, tmp_path / "odd.kif")
    assert path.read_bytes().startswith(b"#KIF version=2.0 encoding=UTF-8")
    assert read_file(path).sente == "Émile 🦊"


def test_variations_round_trip_in_kif_and_jkf() -> None:
    jkf = read_file(shared_path("records", "jkf", "sample03.jkf"))
    assert len(jkf.variations) == 3
    for fmt in ("kifu", "jkf"):
        back = parse_text(render(jkf, fmt)[0], fmt)
        assert back.usi_moves() == jkf.usi_moves()
        assert _tree(back) == _tree(jkf), fmt


def _tree(record: GameRecord) -> set[tuple[object, ...]]:
    """Variations as (ply, moves, parent's ply and moves): independent of their order."""

    def key(i: int | None) -> tuple[object, ...]:
        if i is None:
            return ("main",)
        v = record.variations[i]
        return (v.ply, tuple(m.move.usi() for m in v.moves), key(v.parent))

    return {key(i) for i in range(len(record.variations))}


def test_kif_variations_as_kifu_for_windows_writes_them() -> None:
    """変化 blocks after the main line (with the ``+`` marks of moves that have some):
    the main line is untouched, each variation hangs where it branches."""
    record = read_file(Path(__file__).with_name("variations.kifu"))
    assert record.usi_moves() == ["7g7f", "3c3d", "2g2f", "8c8d"]
    assert record.outcome == Outcome(Termination.RESIGNATION, 1)
    assert [m.time_used for m in record.moves] == [3.0, 2.0, 1.0, 5.0]
    got = [(v.ply, v.parent, [m.move.usi() for m in v.moves]) for v in record.variations]
    assert got == [
        (3, None, ["8h2b+", "3a2b", "B*4e"]),
        (4, 0, ["8b2b"]),
        (2, None, ["8c8d", "2g2f"]),
    ]
    again = parse_text(render(record, "kifu")[0], "kifu")
    assert _tree(again) == _tree(record)
