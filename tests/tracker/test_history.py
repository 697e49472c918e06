"""A square's lifts as the history reads them: contact chatter on landing and on lifting
left out, a quick hand's swap kept."""

from __future__ import annotations

from board_bridge.tracker.history import SquareHistory
from board_bridge.tracker.params import TrackerParams

P = TrackerParams()
SQ = 40


def _history(changes: list[tuple[float, bool]]) -> SquareHistory:
    """A square occupied since long ago, then ``changes`` (time, occupied)."""
    h = SquareHistory(P.min_lift, P.bounce)
    h.record(SQ, 0.0, True)
    for t, occupied in changes:
        h.record(SQ, t, occupied)
    return h


def test_a_swap_of_a_few_ms_then_the_landing_chatter_is_one_lift() -> None:
    # the target swapped out in 4 ms, the attacker's landing bouncing after
    h = _history([(1.0, False), (1.004, True), (1.0075, False), (1.0105, True)])
    assert h.lifts(SQ, 0.5) == [(1.0, 1.004)]


def test_the_chatter_of_a_lift_is_not_a_swap() -> None:
    # the switch opens, closes again for 2 ms, then opens for good: one lift, still going
    h = _history([(1.0, False), (1.003, True), (1.005, False)])
    assert h.lifts(SQ, 0.5) == [(1.005, None)]
    # and once the piece is put back, that lift alone
    h.record(SQ, 2.0, True)
    assert h.lifts(SQ, 0.5) == [(1.005, 2.0)]


def test_a_swap_then_a_lift_after_a_steady_contact_are_two_lifts() -> None:
    h = _history([(1.0, False), (1.004, True), (1.5, False), (2.0, True)])
    assert h.lifts(SQ, 0.5) == [(1.0, 1.004), (1.5, 2.0)]


def test_openings_under_min_lift_and_a_landings_chatter_are_not_lifts() -> None:
    h = _history([(1.0, False), (1.001, True)])  # 1 ms: a glitch
    assert h.lifts(SQ, 0.5) == []
    # a piece lifted, set down with its switch bouncing (openings of 4 and 3 ms)
    h = _history([(1.0, False), (1.6, True), (1.602, False), (1.606, True), (1.608, False)])
    h.record(SQ, 1.611, True)
    assert h.lifts(SQ, 0.5) == [(1.0, 1.6)]


def test_a_landings_chatter_stretched_by_a_100_hz_scan_is_not_a_swap() -> None:
    # 100 Hz x0.4 --rich, game 17 of seed 49416: B*6e landed, read occupied for 20 ms
    # (past ``bounce``), empty for 10 ms, then stayed. Nobody takes a piece that soon
    # after it landed: no lift (it had counted against 5d taking 5e unseen)
    h = _history([(1.0, False), (2.0, True), (2.02, False), (2.03, True)])
    assert h.lifts(SQ, 1.5) == []
    # the history pruned to the landing: the same
    h = SquareHistory(P.min_lift, P.bounce)
    for t, occupied in [(2.0, True), (2.02, False), (2.03, True)]:
        h.record(SQ, t, occupied)
    assert h.lifts(SQ, 1.5) == []
    # a piece that stood a while, swapped out as fast, is still a lift
    h = _history([(1.0, False), (2.0, True), (2.5, False), (2.51, True)])
    assert h.lifts(SQ, 1.5) == [(2.5, 2.51)]


def test_a_landings_chatter_read_empty_past_bounce_by_a_100_hz_scan_is_not_a_lift() -> None:
    # 100 Hz x0.4 --rich, game 6 of seed 52428: P*7c landed, read occupied for 10 ms,
    # empty for 20 ms (past ``bounce``), then stayed. Read as a lift of 7c, it stood for
    # the capture of the pawn, and the horse's 8b9a (its capture never seen) was read 8b7c
    h = _history([(1.0, False), (2.0, True), (2.01, False), (2.03, True)])
    assert h.lifts(SQ, 1.5) == []
    # 30 ms empty: still within the landing's chatter
    h = _history([(1.0, False), (2.0, True), (2.01, False), (2.04, True)])
    assert h.lifts(SQ, 1.5) == []
    # a piece set down, lifted again and set down later is two landings: a lift between
    h = _history([(1.0, False), (2.0, True), (2.03, False), (2.2, True)])
    assert h.lifts(SQ, 1.5) == [(2.03, 2.2)]
    # the square emptied for good soon after a landing (a slide over it): a lift going on
    h = _history([(1.0, False), (2.0, True), (2.01, False)])
    assert h.lifts(SQ, 1.5) == [(2.01, None)]


def test_a_piece_that_left_within_the_overlap_left_though_pushed_back_over_it() -> None:
    # the square ahead filled at 1.0; this piece's own opened 20 ms later, read occupied
    # again 50 ms after that (pushed back over it) and emptied for good at 1.10: it had
    # left within the 80 ms overlap, though the square read occupied at its end
    h = _history([(1.02, False), (1.07, True), (1.1, False)])
    assert h.left_by(SQ, 1.0, P.overlap)
    assert not h.left_by(SQ, 1.0, 0.0)
    # opened only after the overlap: another piece filled the square ahead
    h = _history([(1.0 + P.overlap + 0.01, False)])
    assert not h.left_by(SQ, 1.0, P.overlap)
