"""Tests of the pure matrix logic: debouncing, square maps, polarity, ghosting."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from board_bridge.drivers.matrix import (
    ALL_EMPTY,
    Debouncer,
    MatrixConfigError,
    SquareMap,
    bits_from_cells,
    cells_from_bits,
    ghost_closure,
    polarity_cell,
    rectangle_ghosts,
    suspect_diode,
)


def with_cells(**cells: str) -> str:
    """81 cells, empty except squares given as s<index>=<cell>."""
    out = list(ALL_EMPTY)
    for key, value in cells.items():
        out[int(key[1:])] = value
    return "".join(out)


def feed(deb: Debouncer, scans: list[tuple[float, str]]) -> list[tuple[float, str]]:
    out = []
    for t, raw in scans:
        out.extend((f.t, f.cells) for f in deb.update(raw, t))
    return out


def test_first_frame_after_a_stable_board() -> None:
    deb = Debouncer(scans=3, stable=0.004)
    assert deb.update(ALL_EMPTY, 0.000) == []
    assert deb.update(ALL_EMPTY, 0.002) == []
    frames = deb.update(ALL_EMPTY, 0.004)
    assert [(f.t, f.cells) for f in frames] == [(0.0, ALL_EMPTY)]
    assert deb.state == ALL_EMPTY


def test_boot_waits_out_a_bounce() -> None:
    deb = Debouncer(scans=2, stable=0.0)
    a = with_cells(s3="x")
    out = feed(deb, [(0.0, ALL_EMPTY), (0.01, a), (0.02, ALL_EMPTY), (0.03, ALL_EMPTY)])
    assert out == [(0.02, ALL_EMPTY)]


def test_the_first_state_may_come_sooner_than_a_change() -> None:
    # the buttons' debouncer boots with the squares' (one scan), a press needs three
    deb = Debouncer(scans=3, stable=0.004, boot=(1, 0.0))
    pressed = with_cells(s0="x")
    assert feed(deb, [(0.0, ALL_EMPTY)]) == [(0.0, ALL_EMPTY)]
    assert feed(deb, [(0.002, pressed), (0.004, pressed)]) == []
    assert feed(deb, [(0.006, pressed)]) == [(0.002, pressed)]


def test_a_change_needs_n_scans_and_t_seconds_and_keeps_its_edge_time() -> None:
    deb = Debouncer(scans=3, stable=0.010)
    feed(deb, [(0.0, ALL_EMPTY)] * 1 + [(0.001, ALL_EMPTY), (0.002, ALL_EMPTY), (0.012, ALL_EMPTY)])
    placed = with_cells(s40="x")
    # three scans, but only 4 ms: not yet
    assert feed(deb, [(1.000, placed), (1.002, placed), (1.004, placed)]) == []
    # still the same after 10 ms: accepted, stamped at the first scan that saw it
    assert feed(deb, [(1.010, placed)]) == [(1.000, placed)]
    assert feed(deb, [(1.012, placed)]) == []


def test_bounces_are_filtered() -> None:
    deb = Debouncer(scans=3, stable=0.005)
    feed(deb, [(i * 0.002, ALL_EMPTY) for i in range(4)])
    placed = with_cells(s10="x")
    scans = []
    t = 1.0
    for raw in [placed, ALL_EMPTY, placed, placed, ALL_EMPTY, placed]:  # contact bounce
        scans.append((t, raw))
        t += 0.002
    assert feed(deb, scans) == []
    # settles closed
    out = feed(deb, [(t + i * 0.002, placed) for i in range(4)])
    assert out == [(t - 0.002, placed)]


def test_a_short_blip_never_shows() -> None:
    deb = Debouncer(scans=2, stable=0.0)
    feed(deb, [(0.0, ALL_EMPTY), (0.001, ALL_EMPTY)])
    blip = with_cells(s0="x")
    assert feed(deb, [(0.1, blip), (0.101, ALL_EMPTY), (0.102, ALL_EMPTY)]) == []
    assert deb.state == ALL_EMPTY


def test_changes_accepted_together_come_out_in_edge_order() -> None:
    deb = Debouncer(scans=3, stable=0.0)
    start = with_cells(s60="x", s20="x")
    feed(deb, [(0.0, start)] * 3)
    lifted = with_cells(s20="x")  # the capturing piece leaves 60
    both = ALL_EMPTY  # ... and the captured piece leaves 20 one scan later
    out = feed(deb, [(1.0, lifted), (1.01, both), (1.02, both), (1.03, both)])
    assert out == [(1.0, lifted), (1.01, both)]


def test_frame_times_never_go_backwards() -> None:
    deb = Debouncer(scans=1, stable=0.0)
    feed(deb, [(5.0, ALL_EMPTY)])
    frame = deb.frame(10.0)
    assert frame is not None and frame.t == 10.0
    out = feed(deb, [(9.0, with_cells(s1="x"))])
    assert out == [(10.0, with_cells(s1="x"))]


@given(st.lists(st.tuples(st.integers(0, 80), st.booleans()), min_size=1, max_size=40))
def test_the_debounced_state_converges_to_a_steady_input(toggles: list[tuple[int, bool]]) -> None:
    deb = Debouncer(scans=3, stable=0.003)
    t = 0.0
    cells = list(ALL_EMPTY)
    last_t = float("-inf")
    for sq, occ in toggles:
        cells[sq] = "x" if occ else "."
        for frame in deb.update("".join(cells), t):
            assert frame.t >= last_t
            last_t = frame.t
        t += 0.001
    final = "".join(cells)
    for _ in range(5):
        deb.update(final, t)
        t += 0.001
    assert deb.state == final


def test_debouncer_rejects_bad_settings_and_scans() -> None:
    with pytest.raises(MatrixConfigError):
        Debouncer(scans=0)
    with pytest.raises(MatrixConfigError):
        Debouncer(stable=-1)
    with pytest.raises(ValueError):
        Debouncer().update("x" * 80, 0.0)


def test_square_maps() -> None:
    identity = SquareMap.from_settings()
    assert identity.squares == tuple(range(81))
    r180 = SquareMap.from_settings(rotate=180)
    assert r180.squares[0] == 80 and r180.squares[80] == 0
    r90 = SquareMap.from_settings(rotate=90)
    # position (row 0, column 0) -> top-right corner when turned a quarter clockwise
    assert r90.squares[0] == 8
    assert SquareMap.from_settings(rotate=360 - 90).squares[0] == 72
    mirror = SquareMap.from_settings(mirror=True)
    assert mirror.squares[0] == 8 and mirror.squares[9] == 17
    # four quarter turns are the identity
    order = list(range(81))
    for _ in range(4):
        order = [r90.squares[p] for p in order]
    assert order == list(range(81))
    cells = "x" + "." * 80
    assert r180.cells(cells) == "." * 80 + "x"
    with pytest.raises(MatrixConfigError):
        SquareMap.from_settings(rotate=45)
    with pytest.raises(MatrixConfigError):
        SquareMap.from_settings(order=[0] * 81)
    explicit = list(reversed(range(81)))
    assert SquareMap.from_settings(order=explicit).position(0) == 80


def test_bits_round_trip() -> None:
    rng = random.Random(7)
    for _ in range(50):
        bits = rng.getrandbits(81)
        assert bits_from_cells(cells_from_bits(bits)) == bits


def test_polarity_cells() -> None:
    assert polarity_cell(False, False) == "."
    assert polarity_cell(True, False) == "u"
    assert polarity_cell(False, True) == "p"
    assert polarity_cell(True, True) == "x"
    assert polarity_cell(False, True, "presence-latch") == "."
    assert polarity_cell(True, True, "presence-latch") == "u"  # the latch saw a south pole
    assert polarity_cell(True, False, "presence-latch") == "p"
    with pytest.raises(MatrixConfigError):
        polarity_cell(True, True, "tri-state")


def pos(r: int, c: int) -> int:
    return r * 9 + c


def test_ghost_closure_with_and_without_diodes() -> None:
    three = {pos(1, 1), pos(1, 5), pos(4, 1)}
    assert ghost_closure(three, missing_diodes=()) == three  # diodes everywhere: no ghost
    assert ghost_closure(three) == three | {pos(4, 5)}  # no diodes: the fourth corner
    # only the diode of the middle corner (sharing a row with one, a column with the other) matters
    assert ghost_closure(three, missing_diodes={pos(1, 1)}) == three | {pos(4, 5)}
    assert ghost_closure(three, missing_diodes={pos(1, 5), pos(4, 1)}) == three
    # longer chains light up a whole connected block
    chain = {pos(0, 0), pos(0, 1), pos(2, 1), pos(2, 2)}
    assert pos(0, 2) in ghost_closure(chain) and pos(2, 0) in ghost_closure(chain)


def test_rectangle_ghosts_and_suspect_diode() -> None:
    read = {pos(1, 1), pos(1, 5), pos(4, 1), pos(4, 5), pos(7, 7)}
    ghosts = rectangle_ghosts(read)
    assert set(ghosts) == {pos(1, 1), pos(1, 5), pos(4, 1), pos(4, 5)}
    assert pos(7, 7) not in ghosts
    assert suspect_diode(pos(4, 5), {pos(1, 1), pos(1, 5), pos(4, 1)}) == pos(1, 1)
    assert suspect_diode(pos(4, 5), {pos(1, 1), pos(1, 5)}) is None
