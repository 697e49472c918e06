"""Set-up, resync, the engine's move, polarity and identity boards, game end and the LED
intents."""

from __future__ import annotations

import random

import pytest

from board_bridge.shogi import (
    BLACK,
    STARTING_SFEN,
    WHITE,
    Board,
    IllegalMoveError,
    Move,
    Outcome,
    Termination,
    parse_square,
    square_name,
)
from board_bridge.tracker import Tracker, TrackerParams
from board_bridge.tracker.events import EMPTY, OCCUPIED, SensorFrame
from board_bridge.tracker.intents import Mark
from board_bridge.tracker.outputs import (
    GameEnded,
    IllegalState,
    MoveClosed,
    MoveCorrected,
    MoveMade,
    MoveRetracted,
    QuestionAsked,
    Resynced,
    SetupComplete,
    SetupProgress,
    StateRestored,
)
from tests.tracker.script import Script, cells_of, of, run, usi


def sq(name: str) -> int:
    return parse_square(name)


def frame(t: float, board: Board, sensing: str = "occupancy") -> SensorFrame:
    return SensorFrame(t, "".join(cells_of(board, sensing)))


# --- set-up -----------------------------------------------------------------------------


def test_setup_guides_each_wrong_square_then_completes() -> None:
    tracker = Tracker()
    assert tracker.phase == "setup"
    cells = cells_of(Board())
    cells[sq("7g")] = EMPTY  # a pawn missing
    cells[sq("5e")] = OCCUPIED  # a piece where none belongs
    outs = tracker.feed(SensorFrame(0.0, "".join(cells)))
    outs += tracker.tick(1.0)
    progress = of(outs, SetupProgress)
    assert progress == [SetupProgress(frozenset({sq("5e")}), frozenset({sq("7g")}), 0.0)]
    assert tracker.intents.marks == {sq("5e"): Mark.CLEAR, sq("7g"): Mark.FILL}
    assert tracker.tick(2.0) == []  # the same guidance is not repeated
    cells[sq("5e")] = EMPTY
    tracker.feed(SensorFrame(2.5, "".join(cells)))
    assert of(tracker.tick(3.0), SetupProgress)[0].clear == frozenset()
    cells[sq("7g")] = OCCUPIED
    tracker.feed(SensorFrame(3.5, "".join(cells)))
    assert tracker.tick(4.0) == [SetupComplete(3.5)]
    assert tracker.phase == "play" and tracker.intents.marks == {}
    # and play goes on from there
    cells[sq("7g")] = EMPTY
    tracker.feed(SensorFrame(5.0, "".join(cells)))
    cells[sq("7f")] = OCCUPIED
    tracker.feed(SensorFrame(5.5, "".join(cells)))
    assert of(tracker.tick(6.0), MoveMade)[0].move.usi() == "7g7f"


def test_setup_from_a_given_sfen_and_polarity_faces() -> None:
    sfen = "4k4/9/9/9/4+P4/9/9/9/4K4 b - 1"  # a tokin on 5e
    tracker = Tracker(sfen, sensing="polarity")
    board = Board(sfen)
    cells = cells_of(board, "polarity")
    cells[sq("5e")] = "u"  # the tokin set out face down
    tracker.feed(SensorFrame(0.0, "".join(cells)))
    outs = tracker.tick(1.0)
    assert of(outs, SetupProgress)[0].fill == frozenset({sq("5e")})
    tracker.feed(frame(1.5, board, "polarity"))
    assert tracker.tick(2.0) == [SetupComplete(1.5)]


def test_unset_board_is_unresolved() -> None:
    tracker = Tracker()
    assert "no board frame" in (tracker.unresolved() or "")
    tracker.feed(SensorFrame(0.0, "." * 81))
    tracker.finish(1.0)
    assert "never set up" in (tracker.unresolved() or "")


# --- resync -------------------------------------------------------------------------------


def _resynced(moves: list[str], sfen: str = STARTING_SFEN) -> tuple[Tracker, list[object]]:
    tracker = Tracker(sfen, setup=False)
    board = Board(sfen)
    tracker.feed(frame(0.0, board))
    assert tracker.resync(10.0) == []
    for m in moves:
        board.push_usi(m)
    outs: list[object] = list(tracker.feed(frame(10.1, board)))
    outs += tracker.tick(11.0)
    return tracker, outs


def test_resync_with_nothing_missed() -> None:
    tracker, outs = _resynced([])
    assert outs == [Resynced((), 10.1)]


def test_resync_recovers_one_ply() -> None:
    tracker, outs = _resynced(["7g7f"])
    assert usi(tracker.moves) == ["7g7f"]
    assert [o.move.usi() for o in of(outs, MoveMade)] == ["7g7f"]
    assert of(outs, Resynced)[0].moves == (Move.from_usi("7g7f"),)


def test_resync_recovers_two_plies() -> None:
    tracker, outs = _resynced(["7g7f", "3c3d"])
    assert usi(tracker.moves) == ["7g7f", "3c3d"]
    assert usi(list(of(outs, Resynced)[0].moves)) == ["7g7f", "3c3d"]


def test_resync_with_three_plies_guides_back() -> None:
    tracker, outs = _resynced(["7g7f", "3c3d", "2g2f"])
    assert tracker.moves == []
    ill = of(outs, IllegalState)
    assert ill and ill[0].reason == "unknown"
    assert ill[0].fill == frozenset({sq("7g"), sq("3c"), sq("2g")})
    assert ill[0].clear == frozenset({sq("7f"), sq("3d"), sq("2f")})
    # put back: the game goes on from the position
    board = Board()
    outs = tracker.feed(frame(12.0, board)) + tracker.tick(13.0)
    assert of(outs, StateRestored)


def test_resync_of_a_promotion_asks() -> None:
    tracker, outs = _resynced(["7g7f", "3c3d", "8h2b+"])
    assert of(outs, IllegalState)  # three plies: guided back
    after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
    tracker, outs = _resynced(["8h3c+"], after)  # promotion unknown: asked
    q = of(outs, QuestionAsked)
    assert q and q[0].kind == "promote" and tracker.moves == []
    tracker, outs = _resynced(["8h2b"], after)  # a capture looks like a lifted piece
    assert outs == [Resynced((), 10.1)] and tracker.moves == []


# --- the engine's move ----------------------------------------------------------------


def test_expected_move_made_is_recorded_and_shown() -> None:
    s = Script().play("7g7f")
    tracker, _ = run(s.events)
    s.wait(3.0)
    engine = Move.from_usi("3c3d")
    tracker.expect(engine)
    intents = tracker.intents
    assert intents.engine_move == "3c3d"
    assert intents.marks[sq("3c")] == Mark.ENGINE_FROM and intents.marks[sq("3d")] == Mark.ENGINE_TO
    s.play("3c3d")
    outs = []
    for e in s.events[-2:]:
        outs += tracker.feed(e)
    outs += tracker.tick(s.t + 1)
    assert of(outs, MoveMade)[-1].move == engine
    assert tracker.intents.engine_move is None


def test_unexpected_move_is_refused_with_guidance() -> None:
    s = Script().play("7g7f")
    tracker, _ = run(s.events)
    s.wait(3.0)
    tracker.expect(Move.from_usi("3c3d"))
    s.lift("8c").place("8d")
    outs = []
    for e in s.events[-2:]:
        outs += tracker.feed(e)
    outs += tracker.tick(s.t + 1)
    ill = of(outs, IllegalState)
    assert ill and ill[0].reason == "unexpected"
    assert ill[0].clear == frozenset({sq("8d")}) and ill[0].fill == frozenset({sq("8c")})
    assert usi(tracker.moves) == ["7g7f"]
    s.lift("8d").place("8c").play("3c3d")
    outs = []
    for e in s.events[-4:]:
        outs += tracker.feed(e)
    outs += tracker.tick(s.t + 1)
    assert of(outs, StateRestored) and usi(tracker.moves) == ["7g7f", "3c3d"]


def test_expected_promotion_and_drop_need_no_question() -> None:
    sfen = "4k4/9/9/9/9/9/9/9/4K4 w gsp 1"
    tracker = Tracker(sfen, setup=False)
    tracker.expect(Move.from_usi("S*5e"))
    assert tracker.intents.engine_drop == "S"
    assert tracker.intents.marks == {sq("5e"): Mark.ENGINE_TO}
    s = Script(sfen).place("5e")
    outs = []
    for e in s.events:
        outs += tracker.feed(e)
    outs += tracker.tick(s.t + 1)
    assert of(outs, QuestionAsked) == [] and usi(tracker.moves) == ["S*5e"]


def test_the_engines_move_cannot_be_corrected() -> None:
    s = Script().play("7g7f")
    tracker, _ = run(s.events)
    s.wait(3.0)
    tracker.expect(Move.from_usi("4a3b"))
    s.play("4a3b").wait(1.0).lift("3b").place("4b")
    outs = []
    for e in s.events[-4:]:
        outs += tracker.feed(e)
    outs += tracker.tick(s.t + 1)
    assert of(outs, MoveCorrected) == [] and of(outs, IllegalState)[-1].reason == "unexpected"
    assert usi(tracker.moves) == ["7g7f", "4a3b"]


# --- polarity boards ----------------------------------------------------------------------


def _bishops(sensing: str) -> Script:
    return Script(sensing=sensing).play("7g7f").play("3c3d")


def test_polarity_promotion_read_from_the_face() -> None:
    s = _bishops("polarity").play("8h2b+")
    tracker, outs = run(s.events, sensing="polarity")
    assert usi(tracker.moves)[-1] == "8h2b+" and of(outs, QuestionAsked) == []
    s = _bishops("polarity").play("8h2b")
    tracker, outs = run(s.events, sensing="polarity")
    assert usi(tracker.moves)[-1] == "8h2b" and of(outs, QuestionAsked) == []


def test_polarity_flip_in_place_is_an_error() -> None:
    s = Script(sensing="polarity").set("7g", "p")  # a pawn turned over without moving
    tracker, outs = run(s.events, sensing="polarity")
    ill = of(outs, IllegalState)
    assert ill and ill[0].fill == frozenset({sq("7g")}) and ill[0].reason == "cannot-promote"
    assert tracker.moves == []


@pytest.mark.parametrize(("sensing", "horse"), [("polarity", "p"), ("identity", "b")])
def test_a_flip_of_the_moved_piece_corrects_the_promotion(sensing: str, horse: str) -> None:
    # the bishop set down on 2b unpromoted, then turned over there (a horse: "p" on a
    # polarity board, "b" on an identity board)
    s = _bishops(sensing).play("8h2b").wait(1.0).lift("2b").place("2b", horse, dt=0.3)
    tracker, outs = run(s.events, sensing=sensing)
    assert usi(tracker.moves)[-1] == "8h2b+"
    assert of(outs, MoveCorrected)[0].new.usi() == "8h2b+"


def test_polarity_flip_after_a_quiet_move_corrects_the_promotion() -> None:
    # no capture this time: the rook set down on 5c unpromoted, then turned over there
    sfen = "4k4/9/9/9/9/9/4R4/9/4K4 b - 1"
    s = Script(sfen, sensing="polarity").lift("5g").place("5c").wait(1.0)
    s.lift("5c").place("5c", "p", dt=0.3)
    tracker, outs = run(s.events, sfen, sensing="polarity")
    assert usi(tracker.moves) == ["5g5c+"] and of(outs, IllegalState) == []
    assert [o.new.usi() for o in of(outs, MoveCorrected)] == ["5g5c+"]


def test_polarity_wrong_face_for_the_move() -> None:
    s = Script(sensing="polarity").lift("7g").place("7f", "p")  # promoted outside the zone
    tracker, outs = run(s.events, sensing="polarity")
    assert of(outs, IllegalState)[-1].reason == "cannot-promote"


def test_polarity_drop_kind_still_asked() -> None:
    sfen = "4k4/9/9/9/9/9/9/9/4K4 b GS 1"
    s = Script(sfen, sensing="polarity").place("5e").press("G")
    tracker, outs = run(s.events, sfen, sensing="polarity")
    assert of(outs, QuestionAsked)[0].options == ("G", "S")
    assert usi(tracker.moves) == ["G*5e"]


# --- identity boards (a tag per face: the kind and face up of each piece) -----------------


def test_identity_setup_names_a_piece_of_the_wrong_kind() -> None:
    tracker = Tracker(sensing="identity")
    cells = cells_of(Board(), "identity")
    assert "".join(cells[72:81]) == "LNSGKGSNL" and cells[sq("8h")] == "B"
    cells[sq("4i")], cells[sq("3i")] = "S", "G"  # the gold and the silver swapped
    outs = tracker.feed(SensorFrame(0.0, "".join(cells)))
    outs += tracker.tick(1.0)
    assert of(outs, SetupProgress)[0].fill == frozenset({sq("4i"), sq("3i")})
    cells[sq("4i")], cells[sq("3i")] = "G", "S"
    tracker.feed(SensorFrame(2.0, "".join(cells)))
    assert tracker.tick(3.0) == [SetupComplete(2.0)]


def test_identity_promotion_read_from_the_kind() -> None:
    for move in ("8h2b+", "8h2b"):
        s = _bishops("identity").play(move)
        assert s.events[-1].cells[sq("2b")] == ("b" if move.endswith("+") else "B")
        tracker, outs = run(s.events, sensing="identity")
        assert usi(tracker.moves)[-1] == move and of(outs, QuestionAsked) == []


def test_identity_drop_kind_read_from_the_tag() -> None:
    sfen = "4k4/9/9/9/9/9/9/9/4K4 b GS 1"
    for cell, want in (("G", "G*5e"), ("S", "S*5e")):
        s = Script(sfen, sensing="identity").place("5e", cell)
        tracker, outs = run(s.events, sfen, sensing="identity")
        assert of(outs, QuestionAsked) == [] and usi(tracker.moves) == [want]


def test_identity_a_kind_not_in_hand_is_never_recorded() -> None:
    sfen = "4k4/9/9/9/9/9/9/9/4K4 b GS 1"
    s = Script(sfen, sensing="identity").place("5e", "R")  # a rook from nowhere
    tracker, outs = run(s.events, sfen, sensing="identity")
    assert tracker.moves == [] and of(outs, IllegalState)[-1].clear == frozenset({sq("5e")})


def test_identity_flip_in_place_and_wrong_piece() -> None:
    s = Script(sensing="identity").set("7g", "t")  # a pawn turned over where it stands
    tracker, outs = run(s.events, sensing="identity")
    assert of(outs, IllegalState)[0].reason == "cannot-promote" and tracker.moves == []
    s = Script(sensing="identity").set("7g", "L")  # a lance where the pawn stood
    tracker, outs = run(s.events, sensing="identity")
    assert of(outs, IllegalState)[0].reason == "wrong-piece"
    assert of(outs, IllegalState)[0].fill == frozenset({sq("7g")})


def test_identity_an_unregistered_tag_is_reported_never_guessed() -> None:
    s = Script(sensing="identity").lift("7g").place("7f", "?")
    tracker, outs = run(s.events, sensing="identity")
    ill = of(outs, IllegalState)[-1]
    assert ill.reason == "unknown-tag" and tracker.moves == []
    assert tracker.intents.marks[sq("7f")] == Mark.ERROR
    # the piece's tag registered (or the piece swapped for one that is): play goes on
    s.place("7f", "P", dt=0.5)
    tracker, outs = run(s.events, sensing="identity")
    assert usi(tracker.moves) == ["7g7f"] and of(outs, StateRestored)


def test_a_board_read_with_less_than_it_sees() -> None:
    # an identity log replays on a tracker that only reads occupancy or faces; an
    # occupancy frame on an identity tracker shows kinds unknown
    s = _bishops("identity").play("8h2b", "nonpromote").play("3a2b").play("B*5e")
    for sensing in ("occupancy", "polarity"):
        tracker, _ = run(s.events, sensing=sensing)
        assert usi(tracker.moves) == ["7g7f", "3c3d", "8h2b", "3a2b", "B*5e"]
    s = Script().lift("7g").place("7f")
    tracker, outs = run(s.events, sensing="identity")
    assert tracker.moves == [] and of(outs, IllegalState)[-1].reason == "unknown-tag"


# --- game end, clock, journal resume ---------------------------------------------------


def test_checkmate_ends_the_game() -> None:
    sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"
    s = Script(sfen).place("5b")  # G*5b mates
    tracker, outs = run(s.events, sfen)
    ended = of(outs, GameEnded)
    assert ended and ended[0].outcome.termination is Termination.CHECKMATE
    assert ended[0].outcome.winner == BLACK and tracker.phase == "over"
    intents = tracker.intents
    assert intents.game_over is not None and intents.marks[sq("5a")] == Mark.GAME_OVER
    assert tracker.feed(SensorFrame(s.t + 5, "." * 81)) == []


def test_end_game_and_close_move() -> None:
    s = Script().play("7g7f")
    tracker, _ = run(s.events)
    s.wait(3.0)
    assert tracker.close_move(s.t) == [MoveClosed(Move.from_usi("7g7f"), s.t, 1)]
    assert tracker.close_move(s.t) == []
    s.lift("7f").place("7g")  # no longer a retraction: the move was closed
    outs = []
    for e in s.events[-2:]:
        outs += tracker.feed(e)
    outs += tracker.tick(s.t + 3)
    assert of(outs, MoveRetracted) == []
    resign = Outcome(Termination.RESIGNATION, WHITE)
    assert tracker.end_game(resign, s.t + 5) == [GameEnded(resign, s.t + 5)]
    assert tracker.phase == "over" and tracker.end_game(resign, s.t + 6) == []


def test_apply_move_from_a_journal() -> None:
    tracker = Tracker()
    assert tracker.apply_move(Move.from_usi("7g7f"), 0.0) == []
    with pytest.raises(IllegalMoveError):
        tracker.apply_move(Move.from_usi("7g7f"), 0.0)
    board = Board()
    board.push_usi("7g7f")
    tracker.feed(frame(1.0, board))  # the board is set up to the resumed position
    assert tracker.tick(2.0) == [SetupComplete(1.0)]
    board.push_usi("3c3d")
    tracker.feed(frame(3.0, board))
    assert of(tracker.tick(4.0), MoveMade)[0].ply == 2


def test_check_last_move_and_hint_intents() -> None:
    s = Script().play("7g7f").play("3c3d").play("8h2b+", answer="promote")
    tracker, _ = run(s.events)
    marks = tracker.intents.marks
    assert marks[sq("8h")] == Mark.LAST_MOVE and marks[sq("2b")] == Mark.LAST_MOVE
    tracker.hint(Move.from_usi("3a2b"))
    assert tracker.intents.marks[sq("3a")] == Mark.HINT
    sfen = "4k4/9/9/9/9/9/9/9/4K3r b - 1"
    tracker = Tracker(sfen, setup=False)
    assert tracker.intents.marks[sq("5i")] == Mark.CHECK


def test_params_are_validated() -> None:
    with pytest.raises(ValueError):
        TrackerParams(settle=-1)
    with pytest.raises(ValueError):
        TrackerParams(settle=0.5, capture_settle=0.2)
    with pytest.raises(ValueError):
        Tracker(sensing="rfid")
    with pytest.raises(ValueError):
        Tracker(mode="blitz")


def test_setup_completes_even_if_play_starts_at_once() -> None:
    s = Script().wait(0.05).play("7g7f", dt=0.1)  # first lift 0.15 s after the first frame
    tracker = Tracker()
    outs = []
    for e in s.events:
        outs += tracker.feed(e)
    outs += tracker.tick(s.t + 1)
    assert outs[0] == SetupComplete(0.0)
    assert usi(tracker.moves) == ["7g7f"]


def test_a_hover_that_would_mate_does_not_end_the_game() -> None:
    sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"
    # the gold hovers over 5b (mate) long enough to be read, then is dropped on 4b
    s = Script(sfen).place("5b").lift("5b", dt=0.8).place("4b", dt=0.3).wait(3.0)
    tracker, outs = run(s.events, sfen)
    assert usi(tracker.moves) == ["G*4b"] and of(outs, GameEnded) == []
    assert tracker.phase == "play"
    # a mate that stands ends the game once the board has stayed so (held_settle: a
    # piece dropped where it may not go can read as a legal mating drop of another kind)
    s = Script(sfen).place("5b")
    tracker, outs = run(s.events, sfen, tail=2.5)
    assert of(outs, GameEnded) == [] and tracker.phase == "play"
    ended = of(tracker.tick(s.t + 3.1), GameEnded)
    assert ended and ended[0].t == s.t and tracker.phase == "over"


# --- a board left wrong -----------------------------------------------------------------


def _moved_between_plainly(tracker: Tracker, i: int, j: int, cells: str, captures: bool) -> bool:
    """_moved_between's answer worked out from its definition, every state looked at."""
    states = tracker._states
    lifted: set[int] = set()
    for k in range(i + 1, j):
        d = [sq for sq in range(81) if states[k][1][sq] != cells[sq]]
        shown = states[k + 1][0] - states[k][0] >= tracker.params.min_reply
        if any(cells[sq] == EMPTY for sq in d):
            if shown:
                return True
        elif len(d) == 2:
            lifted = set(d)
        elif captures and shown and len(d) == 1 and d[0] in lifted:
            return True
    return False


@pytest.mark.parametrize("seed", range(6))
def test_states_shown_again_are_weighed_as_if_each_were_looked_at(seed: int) -> None:
    # the chain search asks, for a state shown again, whether moves could have been made
    # since; what it found for the states after an earlier showing is reused (a board left
    # wrong and touched showed the same state hundreds of times, and each showing cost a
    # look at every state since: 0.14 s a frame after a minute)
    rng = random.Random(seed)
    base = list(cells_of(Board(), "occupancy"))
    x, y, z, extra = (parse_square(n) for n in ("7g", "8h", "7i", "5e"))
    looks = []  # every state of three pieces lifted or not, and a piece set down or not
    for k in range(16):
        cells = list(base)
        for bit, sq in enumerate((x, y, z)):
            if k >> bit & 1:
                cells[sq] = EMPTY
        if k & 8:
            cells[extra] = OCCUPIED
        looks.append("".join(cells))
    tracker = Tracker()
    t = 0.0
    for _ in range(160):
        t += rng.choice((0.02, 0.05, 0.15, 0.4))
        tracker._states.append((t, rng.choice(looks[:8] * 3 + looks[8:])))
    tracker._states.append((t + 0.3, looks[0]))
    n = len(tracker._states)
    asked = 0
    for captures in (False, True):
        for end in range(n - 1, 0, -23):  # asked as the chain search asks, from each end
            seen = {tracker._states[end][1]: end}
            gaps: dict[str, object] = {}
            for i in range(end - 1, -1, -1):
                cells = tracker._states[i][1]
                later = seen.get(cells)
                if later is not None:
                    plain = _moved_between_plainly(tracker, i, later, cells, captures)
                    got = tracker._moved_between(i, later, cells, captures, gaps)  # type: ignore[arg-type]
                    assert got == plain
                    asked += 1
                    if not plain:
                        continue
                seen[cells] = i
    assert asked > 500


def test_a_board_left_wrong_is_read_right_once_put_right() -> None:
    # three pieces knocked off mid-game; for a minute hands touch the pieces around, some
    # set down elsewhere and put back later; then the pieces go back and the game goes on
    moves = ["7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c", "3i4h", "3a3b"]
    s = Script()
    for m in moves[:4]:
        s.play(m)
    s.wait(2.0)
    rng = random.Random(7)
    knocked = ["5i", "1a", "8b"]
    for name in knocked:
        s.lift(name, dt=0.2)
    away: list[tuple[str, str]] = []  # (where a piece was set down, its own square)
    for _ in range(80):
        if away and rng.random() < 0.3:
            at, home = away.pop()
            s.lift(at, dt=0.4).place(home, dt=0.3)
            continue
        taken = set(knocked) | {a for a, _ in away}
        names = [square_name(sq) for sq in range(81) if s.cells[sq] != EMPTY]
        name = rng.choice([n for n in names if n not in taken])
        s.lift(name, dt=rng.uniform(0.1, 0.6))
        spots = [square_name(sq) for sq in range(81) if s.cells[sq] == EMPTY]
        spots = [n for n in spots if n not in taken and n != name]
        if rng.random() < 0.4:
            spot = rng.choice(spots)
            away.append((spot, name))
            s.place(spot, dt=0.2)
        else:
            s.place(name, dt=0.2)
    for at, home in reversed(away):
        s.lift(at, dt=0.4).place(home, dt=0.3)
    for name in knocked:
        s.place(name, dt=0.6)
    s.wait(2.0)
    for m in moves[4:]:
        s.play(m)
    tracker, outs = run(s.events)
    assert usi(tracker.moves) == moves
    assert of(outs, IllegalState)  # the board was shown wrong meanwhile
