"""The pure game clock: sudden death, byoyomi, Fischer, flag fall, engine limits."""

from __future__ import annotations

import pytest

from board_bridge.app.clock import ClockError, GameClock, TimeControl
from board_bridge.shogi import BLACK, WHITE, Termination


def test_no_limit_measures_time_but_never_flags() -> None:
    clock = GameClock(TimeControl())
    clock.start(BLACK, 10.0)
    assert clock.deadline() is None
    assert clock.flag(1e9) is None
    assert clock.press(13.5) == pytest.approx(3.5)
    assert clock.running == WHITE
    assert clock.moves_made(BLACK) == 1
    assert clock.engine_limit_ms(14.0) == {}


def test_sudden_death_charges_and_flags() -> None:
    clock = GameClock(TimeControl("sudden-death", main=60))
    clock.start(BLACK, 0.0)
    assert clock.press(20.0) == pytest.approx(20.0)
    assert clock.remaining(BLACK) == pytest.approx(40.0)
    assert clock.remaining(WHITE, 25.0) == pytest.approx(55.0)
    assert clock.press(30.0) == pytest.approx(10.0)
    assert clock.deadline() == pytest.approx(70.0)
    assert clock.flag(69.9) is None
    outcome = clock.flag(70.0)
    assert outcome is not None
    assert outcome.termination is Termination.TIMEOUT
    assert outcome.winner == WHITE
    assert clock.flagged == BLACK
    with pytest.raises(ClockError):
        clock.start(WHITE, 71.0)


def test_byoyomi_after_main_time() -> None:
    clock = GameClock(TimeControl("byoyomi", main=10, byoyomi=5))
    clock.start(BLACK, 0.0)
    clock.press(12.0)  # 10 s main + 2 s of byoyomi: fine, main now spent
    assert clock.remaining(BLACK) == 0.0
    assert clock.periods_left(BLACK) == 1
    clock.press(13.0)  # white
    assert clock.deadline() == pytest.approx(18.0)  # black has only the 5 s period
    assert clock.flag(17.99) is None
    assert clock.display(BLACK, 15.0).strip() == "3.0s"
    clock.press(17.5)  # in time: the period resets
    clock.press(18.0)
    assert clock.deadline() == pytest.approx(23.0)
    outcome = clock.flag(23.0)
    assert outcome is not None and outcome.winner == WHITE


def test_byoyomi_periods_are_used_up() -> None:
    clock = GameClock(TimeControl("byoyomi", main=0, byoyomi=10, periods=3))
    clock.start(BLACK, 0.0)
    assert clock.deadline() == pytest.approx(30.0)
    clock.press(15.0)  # one period overrun
    assert clock.periods_left(BLACK) == 2
    clock.press(16.0)
    assert clock.deadline() == pytest.approx(36.0)


def test_fischer_adds_increment() -> None:
    clock = GameClock(TimeControl("fischer", main=30, increment=5))
    clock.start(BLACK, 0.0)
    clock.press(10.0)
    assert clock.remaining(BLACK) == pytest.approx(25.0)
    limit = clock.engine_limit_ms(12.0)
    assert limit == {"btime": 25000, "wtime": 28000, "binc": 5000, "winc": 5000}
    clock.press(12.0)
    assert clock.deadline() == pytest.approx(37.0)
    assert clock.flag(37.0) is not None


def test_byoyomi_engine_limit() -> None:
    clock = GameClock(TimeControl("byoyomi", main=0, byoyomi=0.2))
    clock.start(WHITE, 1.0)
    assert clock.engine_limit_ms(1.0) == {"btime": 0, "wtime": 0, "byoyomi": 200}


def test_stop_then_start_leaves_a_gap_uncharged() -> None:
    clock = GameClock(TimeControl("sudden-death", main=60))
    clock.start(WHITE, 0.0)
    assert clock.stop(2.0) == pytest.approx(2.0)  # the engine has answered
    assert clock.deadline() is None  # nobody's time runs while its move is made on the board
    clock.start(BLACK, 9.0)
    clock.press(10.0)
    assert clock.remaining(BLACK) == pytest.approx(59.0)
    assert clock.remaining(WHITE) == pytest.approx(58.0)


def test_snapshot_restore_and_replay() -> None:
    clock = GameClock(TimeControl("sudden-death", main=100))
    clock.start(BLACK, 0.0)
    state = clock.snapshot()
    clock.press(30.0)
    clock.restore(state)
    assert clock.remaining(BLACK) == 100.0 and clock.running == BLACK
    fresh = GameClock(TimeControl("sudden-death", main=100))
    fresh.replay([1.0, 2.0, 3.0])
    assert fresh.remaining(BLACK) == pytest.approx(96.0)
    assert fresh.remaining(WHITE) == pytest.approx(98.0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "byoyomi", "main": 10},
        {"kind": "sudden-death"},
        {"kind": "fischer", "main": -1},
        {"kind": "blitz"},
        {"kind": "byoyomi", "byoyomi": 10, "periods": 0},
    ],
)
def test_bad_time_controls(kwargs: dict[str, object]) -> None:
    with pytest.raises(ClockError):
        TimeControl(**kwargs)  # type: ignore[arg-type]


def test_describe() -> None:
    assert TimeControl("byoyomi", main=600, byoyomi=30).describe() == "10m + 30s byoyomi"
    assert TimeControl("fischer", main=300, increment=2).describe() == "5m + 2s per move"


def test_time_odds_each_side_its_own_control() -> None:
    person = TimeControl("sudden-death", main=600)
    engine = TimeControl("byoyomi", main=0, byoyomi=0.2)
    clock = GameClock(person, engine)
    assert clock.describe() == "sente 10m sudden death, gote 0.2s byoyomi"
    clock.start(BLACK, 0.0)
    assert clock.deadline() == pytest.approx(600.0)
    clock.press(5.0)
    # white (the engine) has only its byoyomi; the limit gives black's clock too
    assert clock.deadline() == pytest.approx(5.2)
    assert clock.engine_limit_ms(5.0) == {"btime": 595000, "wtime": 0, "byoyomi": 200}
    clock.press(5.1)
    assert clock.remaining(BLACK) == pytest.approx(595.0)
    assert clock.flag(500.0) is None


def test_time_odds_with_one_side_unlimited() -> None:
    clock = GameClock(TimeControl(), TimeControl("fischer", main=10, increment=1))
    clock.start(WHITE, 0.0)
    assert clock.engine_limit_ms(0.0) == {"wtime": 10000, "winc": 1000}
    clock.press(2.0)
    assert clock.deadline() is None and clock.engine_limit_ms(2.0) == {}
