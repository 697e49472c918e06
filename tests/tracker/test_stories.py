"""The other stories the tracker keeps (a correction not believed, a capture in progress
read as a take-back, ...): their cost stays bounded, and they share nothing they change.

These look at the tracker's kept stories (``Tracker._forks``) directly: what they do for
the game is tested in test_facts.py, scenario by scenario."""

from __future__ import annotations

from board_bridge.tracker import tracker as tracker_module
from board_bridge.tracker.events import SensorFrame
from board_bridge.tracker.outputs import QuestionAsked
from tests.tracker.script import Script, run, usi

# sente 7g6f; gote takes the silver, target first, knocking its pawn on 7f on the way:
# read as the silver moving on to take 7f, with the story where 7g6f stood kept
KNOCK = "4k4/9/9/9/3g5/2p6/2S6/9/4K4 b - 1"


def _knock_in_a_capture() -> Script:
    s = Script(KNOCK).lift("7g", dt=1.0).place("6f", dt=0.4)
    s.lift("6f", dt=1.3).lift("7f", dt=0.98).place("7f", dt=0.08)
    return s.lift("6e", dt=0.22).place("6f", dt=0.44)


def test_a_kept_story_is_fed_as_the_events_come() -> None:
    # the player touches a far piece again and again: the other story is fed along the
    # way, never more than _FORK_LAG events behind (taking it costs only those few)
    s = _knock_in_a_capture().wait(1.5)
    for _ in range(30):
        s.lift("5a", dt=1.0).place("5a", dt=0.2)
    tracker, _outs = run(s.events, KNOCK, tail=0.1)
    assert max(len(f.events) for f in tracker._forks) > tracker_module._FORK_LAG
    for f in tracker._forks:
        assert len(f.events) - f.fed <= tracker_module._FORK_LAG


def test_a_kept_story_that_shows_an_error_while_the_game_goes_on_is_dropped() -> None:
    # a real correction (the silver set down on 6f, then moved on to 7f): the story where
    # 7g6f stood cannot explain the board; once the game has gone on a few plies (it is
    # looked at every _FORK_STUCK plies, and must show the error twice), it is dropped
    pos = "4k4/9/9/9/9/9/2S6/9/4K4 b - 1"
    s = Script(pos).lift("7g", dt=1.0).place("6f", dt=0.4).lift("6f", dt=1.3)
    s.place("7f", dt=0.4)
    tracker, _outs = run(s.events, pos, tail=1.0)
    assert usi(tracker.moves) == ["7g7f"] and tracker._forks
    s.lift("5a", dt=1.0).place("4a", dt=0.4).lift("5i", dt=1.0).place("4h", dt=0.4)
    s.lift("4a", dt=1.0).place("5a", dt=0.4).lift("4h", dt=1.0).place("5i", dt=0.4)
    s.lift("5a", dt=1.0).place("4a", dt=0.4)
    tracker, _outs = run(s.events, pos, tail=1.0)
    assert usi(tracker.moves) == ["7g7f", "5a4a", "5i4h", "4a5a", "4h5i", "5a4a"]
    assert tracker._forks == []


def test_a_copy_for_another_story_shares_nothing_it_changes() -> None:
    s = _knock_in_a_capture()
    tracker, _outs = run(s.events, KNOCK, tail=1.0)
    before = (
        usi(tracker.moves),
        tracker.board.sfen(),
        list(tracker._states),
        [tracker._hist.lifts(sq, float("-inf")) for sq in range(81)],
    )
    alt = tracker._copy()
    t = s.t + 1.0
    for cells in ("." * 81, s.events[0].cells):  # a board emptied, then set up again
        alt.feed(SensorFrame(t, cells))
        t += 1.0
    alt.tick(t + 5.0)
    after = (
        usi(tracker.moves),
        tracker.board.sfen(),
        list(tracker._states),
        [tracker._hist.lifts(sq, float("-inf")) for sq in range(81)],
    )
    assert after == before


def test_the_story_of_a_correction_not_made_never_takes_that_move_back() -> None:
    # the story kept when a correction of 7g6f is read is the one where 7g6f stood: the
    # board showing the position before it is no take-back there (that is the
    # correction again), though it would be one once the move is closed in casual mode
    s = Script(KNOCK).lift("7g", dt=1.0).place("6f", dt=0.4)
    tracker, _outs = run(s.events, KNOCK, tail=1.0)
    assert usi(tracker.moves) == ["7g6f"]
    tracker._keep_uncorrected()
    (kept,) = tracker._forks
    before = s.events[0].cells
    closed = tracker._copy()
    closed._close()
    assert closed._takebacks(closed._context(), before)
    assert kept.alt._takebacks(kept.alt._context(), before) == []


def _kept_as_stories(tracker: tracker_module.Tracker, *alts: tracker_module.Tracker) -> None:
    """Make ``alts`` the tracker's kept stories, oldest first."""
    tracker._forks = [tracker_module._Fork(alt, [], ((),), 0) for alt in alts]


def test_a_story_with_a_question_waiting_is_taken_only_if_no_other_explains() -> None:
    # two kept stories explain the board: the newer one still asks a question (a drop's
    # kind), the older one took the player's input. The older one is the better story.
    s = _knock_in_a_capture()
    tracker, _outs = run(s.events, KNOCK, tail=1.0)
    answered, asking = tracker._copy(), tracker._copy()
    question = QuestionAsked(kind="drop", options=("N", "P"), square=63, t=tracker._t_now)
    asking._pending = tracker_module._Pending("move", tracker._info(), (), question, None)
    _kept_as_stories(tracker, answered, asking)
    assert tracker._revisable(tracker._t_now) is answered
    _kept_as_stories(tracker, asking)
    assert tracker._revisable(tracker._t_now) is asking


def test_of_the_stories_that_explain_the_board_the_one_further_on_is_taken() -> None:
    # two kept stories explain the board, with as many errors shown: the older one has
    # read the last move made, the newer one still reads a piece off its square (a move
    # in progress, or a touch). The one further on is the better story, whatever its age
    # (x0.3 --extra, game 19 of seed 44333: 8c7b then 7c touched, kept with 8c7c after 7b
    # knocked; 8b7b made in the first only, and the second, newer, was taken)
    s = _knock_in_a_capture()
    tracker, _outs = run(s.events, KNOCK, tail=1.0)
    further, behind = tracker._copy(), tracker._copy()
    assert behind._cells is not None
    sq = behind._cells.index(".")
    behind._cells = behind._cells[:sq] + "x" + behind._cells[sq + 1 :]
    assert (further._unmade(), behind._unmade()) == (0, 1)
    _kept_as_stories(tracker, further, behind)
    assert tracker._revisable(tracker._t_now) is further
    _kept_as_stories(tracker, behind, further)
    assert tracker._revisable(tracker._t_now) is further


def test_of_the_stories_that_explain_the_board_the_one_with_fewer_errors_is_taken() -> None:
    s = _knock_in_a_capture()
    tracker, _outs = run(s.events, KNOCK, tail=1.0)
    clean, erring = tracker._copy(), tracker._copy()
    erring._shown_times = (*clean._shown_times, tracker._t_now)
    tracker._shown_times = erring._shown_times
    _kept_as_stories(tracker, clean, erring)
    assert tracker._revisable(tracker._t_now) is clean


def _horse_takes_unseen(sfen: str) -> list[tracker_module.Tracker]:
    """Sente's horse on 5e lifted, one of the pieces around it taken (none read empty),
    then gote's 4a3a and sente's 9i9h: the stories of captures never seen it keeps."""
    s = Script(sfen)
    for move in ("9i9h", "4a3a", "9h9i", "3a4a"):
        s.play(move, dt=0.3).wait(0.6)
    s.lift("5e", dt=1.0).lift("4a", dt=1.3).place("3a", dt=0.3)
    s.lift("9i", dt=1.3).place("9h", dt=0.3)
    tracker, _outs = run(s.events, sfen, tail=1.0)
    return [f.alt for f in tracker._forks if f.alt._premise is not None]


def test_four_alike_captures_never_seen_are_all_kept() -> None:
    # four pieces around the horse, each of which it may have taken: three were kept, and
    # when the game's was the fourth, the last kept left fitting was taken (100 Hz x0.4
    # --rich, game 8 of seed 43572: 2b1c the game's, 2b3a taken, a false move). Five were
    # kept since (game 11 of seed 45608: 7g6g among five alike, the game lost with four),
    # six now (game 17 of seed 51511: 2c2b, then 1e1c, six alike with the stories of two
    # captures and a drop, and the game's never taken for the one left unkept)
    kept = _horse_takes_unseen("5k3/9/9/4g4/3s+Bs3/4g4/9/9/K8 b - 1")
    assert sorted(alt.moves[4].usi() for alt in kept) == ["5e4e", "5e5d", "5e5f", "5e6e"]
    assert not any(alt._premise is not None and alt._premise[2] for alt in kept)


def test_six_alike_captures_never_seen_are_all_kept() -> None:
    # six pieces around the horse: all six stories kept, none left unkept
    kept = _horse_takes_unseen("5k3/9/9/4gs3/3s+Bs3/3sg4/9/9/K8 b - 1")
    assert len(kept) == 6
    assert not any(alt._premise is not None and alt._premise[2] for alt in kept)


def test_more_alike_captures_never_seen_than_are_kept_are_never_guessed_between() -> None:
    # seven pieces around the horse: six stories are kept, and none is ever taken as the
    # last that fits, since the seventh, not kept, may be the game's
    kept = _horse_takes_unseen("5k3/9/9/4gs3/3s+Bs3/3sgs3/9/9/K8 b - 1")
    assert len(kept) == tracker_module._UNSEEN_TIED
    for alt in kept:
        assert alt._premise is not None and alt._premise[2]
        assert tracker_module._guesses(alt, [alt], 100.0, 1.0)
