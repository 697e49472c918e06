"""Every corpus game replayed from noisy simulated logs (the simulator and four independent
generators), and the shared example logs replayed to their true moves."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from board_bridge.tracker import replay
from board_bridge.tracker.events import PlayerInput
from board_bridge.tracker.log import load_log
from board_bridge.tracker.simulate import QUIET, Noise, simulate
from tests.acceptance.handgen import random_record
from tests.conftest import corpus_games, shared_path
from tests.tracker.altgen import AltNoise, generate
from tests.tracker.clubgen import generate as club_generate
from tests.tracker.dojogen import generate_annotated as dojo_generate
from tests.tracker.motorgen import generate as motor_generate
from tests.tracker.pawgen import generate as paw_generate
from tests.tracker.physgen import generate as phys_generate

GAMES = corpus_games()
SIM_SEEDS = range(8)  # the simulator, occupancy boards
POLARITY_SEEDS = range(2)
IDENTITY_SEEDS = range(2)
ALT_SEEDS = range(3)  # the independent generator


def _check(events: list[Any], game: dict[str, Any], sensing: str, label: str) -> None:
    tracker, _outs = replay(events, game["sfen"], sensing=sensing)
    got = [m.usi() for m in tracker.moves]
    want = game["moves"]
    if got != want:
        k = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        pytest.fail(
            f"{label}: diverges at ply {k + 1}: got {got[k : k + 3]}, want {want[k : k + 3]}"
        )
    assert tracker.unresolved() is None, f"{label}: {tracker.unresolved()}"


def test_corpus_is_there() -> None:
    assert len(GAMES) >= 26


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_corpus_game_under_simulated_noise(index: int) -> None:
    game = GAMES[index]
    for seed in SIM_SEEDS:
        sim = simulate(game["moves"], game["sfen"], seed=seed)
        _check(sim.events, game, "occupancy", f"game {index} seed {seed}")
    for seed in POLARITY_SEEDS:
        sim = simulate(game["moves"], game["sfen"], seed=seed, sensing="polarity")
        _check(sim.events, game, "polarity", f"game {index} polarity seed {seed}")
    for seed in IDENTITY_SEEDS:
        sim = simulate(game["moves"], game["sfen"], seed=seed, sensing="identity")
        assert not any(isinstance(e, PlayerInput) for e in sim.events)  # nothing to ask
        _check(sim.events, game, "identity", f"game {index} identity seed {seed}")


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_corpus_game_under_the_independent_generator(index: int) -> None:
    game = GAMES[index]
    for seed in ALT_SEEDS:
        events = generate(game["moves"], game["sfen"], seed)
        _check(events, game, "occupancy", f"game {index} alt seed {seed}")
    events = generate(game["moves"], game["sfen"], 100, "polarity")
    _check(events, game, "polarity", f"game {index} alt polarity")


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_corpus_game_under_the_motor_generator(index: int) -> None:
    """The third generator (motor steps, two-handed captures, the captured piece carried
    over the board to the stand): a seed each on occupancy (x1) and polarity (x0.5)."""
    game = GAMES[index]
    for sensing, pace in (("occupancy", 1.0), ("polarity", 0.5)):
        events = motor_generate(game["moves"], game["sfen"], 200 + index, sensing, pace)
        _check(events, game, sensing, f"game {index} motorgen {sensing} x{pace}")


# the fourth generator's boards: (sensing, pace, noise, scan rate)
PAW_CONFIGS = (
    ("occupancy", 1.0, 1.0, None),
    ("polarity", 0.5, 1.0, None),
    ("occupancy", 0.5, 1.0, 100.0),
    ("identity", 0.7, 1.5, None),
)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_corpus_game_under_the_fourth_generator(index: int) -> None:
    """The fourth generator (session 48: knocks as the hand reaches, pieces nudged over a
    square's edge and back, answers pressed while the hand is busy, unneeded presses): a
    seed each on four boards."""
    game = GAMES[index]
    for k, (sensing, pace, noise, scan) in enumerate(PAW_CONFIGS):
        seed = 1000 + 100 * k + index
        events = paw_generate(game["moves"], game["sfen"], seed, sensing, pace, noise, scan)
        _check(events, game, sensing, f"game {index} pawgen {sensing} x{pace} seed {seed}")


# the fifth generator's boards, captures pushed aside left out (their target's square
# never opens, beyond what ARCHITECTURE.md says a capture shows): (seed base, sensing,
# pace, noise)
CLUB_CONFIGS = (
    (2000, "occupancy", 1.0, 1.0),
    (2100, "polarity", 0.6, 1.0),
    (2300, "identity", 1.0, 1.5),
)
# its logs still missed (docs/tracker-ledger.md, session 49): (corpus game, board)
CLUB_KNOWN = {(6, 0)}


def _club(index: int, k: int) -> None:
    game = GAMES[index]
    base, sensing, pace, noise = CLUB_CONFIGS[k]
    seed = base + index
    push_off = {"capture_push": 0.0}
    events = club_generate(game["moves"], game["sfen"], seed, sensing, pace, noise, None, push_off)
    _check(events, game, sensing, f"game {index} clubgen {sensing} x{pace} seed {seed}")


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_corpus_game_under_the_fifth_generator(index: int) -> None:
    """The fifth generator (session 49: pieces slid and pushed with footprints over
    switches with hysteresis, knocks onto the next square, answers pressed as the piece
    is set down, pieces turned over on their square, switches slow to release): a seed
    each on three boards."""
    for k in range(len(CLUB_CONFIGS)):
        if (index, k) not in CLUB_KNOWN:
            _club(index, k)


@pytest.mark.xfail(strict=True, reason="a knock before the lift read as a capture's target")
@pytest.mark.parametrize(("index", "k"), sorted(CLUB_KNOWN))
def test_a_log_of_the_fifth_generator_still_missed(index: int, k: int) -> None:
    # game 6 on occupancy: 1c knocked 0.24 s before 2c was lifted, open 0.32 s, and 3c
    # swapped out in 27 ms 0.49 s after the lift: read as 2c taking 1c, target first
    _club(index, k)


# the sixth generator's boards: (seed base, sensing, pace, noise)
DOJO_CONFIGS = (
    (3000, "occupancy", 1.0, 1.0),
    (3100, "polarity", 0.4, 2.0),
    (3200, "identity", 1.0, 2.0),
)


def _dojo(index: int, k: int) -> None:
    game = GAMES[index]
    base, sensing, pace, noise = DOJO_CONFIGS[k]
    seed = base + index
    events = dojo_generate(game["moves"], game["sfen"], seed, sensing, pace, noise).events
    _check(events, game, sensing, f"game {index} dojogen {sensing} x{pace} seed {seed}")


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_corpus_game_under_the_sixth_generator(index: int) -> None:
    """The sixth generator (session 50: two player profiles a game, knocked pieces
    that fall and are put back up to 1.2 s later, pieces held up to 5 s, hovers, the
    waiting player's sleeve, illegal moves taken back): a seed each on three boards."""
    for k in range(len(DOJO_CONFIGS)):
        _dojo(index, k)


PHYS_CONFIGS = (
    (4000, "occupancy", 1.0, 2.0, None),
    (4100, "polarity", 0.4, 2.0, None),
    (4200, "identity", 1.0, 1.0, 100.0),
)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_corpus_game_under_the_seventh_generator(index: int) -> None:
    """The seventh generator (session 51: pieces, hands and sensors in continuous space
    and time, switch hysteresis, a rank-by-rank scan, RFID dwell): a seed each on three
    boards."""
    game = GAMES[index]
    for base, sensing, pace, noise, scan in PHYS_CONFIGS:
        seed = base + index
        events = phys_generate(game["moves"], game["sfen"], seed, sensing, pace, noise, scan)
        _check(events, game, sensing, f"game {index} physgen {sensing} x{pace} seed {seed}")


# the second generator with every noise raised (docs/tracker-ledger.md, session 17)
RAISED = AltNoise(
    drag=0.6,
    hover=0.35,
    touch=0.2,
    knock_rate=0.08,
    knock_held=0.2,
    swap=0.6,
    correction=0.15,
    illegal=0.08,
)

# logs of the other generators that once missed (docs/tracker-ledger.md, session 25): the
# generator, corpus game (or "random N": handgen's random game N), seed, sensing, then
# motor: pace and noise; alt: noise raised? (sim: the built-in simulator, nothing more;
# paw: the fourth generator's log seed, then pace, noise, scan rate and regret; club: the
# fifth's log seed, then pace, noise, scan rate and its rates)
OTHER_ONCE_MISSED: dict[str, tuple[Any, ...]] = {
    "the captured piece carried over 9d to the stand": ("motor", 7, 1707, "occupancy", 1.0, 1.5),
    "the held gold over 8f, next to 7f, on the way to the stand": (
        "alt",
        24,
        141224,
        "occupancy",
        True,
    ),
    "7f put back with both hands full, target first": ("motor", 24, 7724, "occupancy", 1.0, 1.5),
    "8d touched with both hands full, 7d taken": ("motor", 1, 8101, "occupancy", 1.0, 1.5),
    "1f touched with both hands full, 2e taken": ("motor", 19, 8119, "occupancy", 1.0, 1.5),
    "a stray input while a knocked piece was off": ("alt", 2, 161102, "polarity", False),
    "2e touched 79 ms after N*2f beside it": ("motor", 4, 11304, "occupancy", 0.7, 2.0),
    "1f put back with both hands full, in a chain": ("motor", 19, 12519, "occupancy", 0.3, 1.0),
    "8d's lift spanning the corrected gold's": ("motor", 1, 12301, "polarity", 0.5, 1.0),
    "2e2f and P*2e after P*2f, read as P*2f": ("motor", 15, 14715, "occupancy", 0.3, 1.0),
    "7f straightened after 6f took 7g": ("motor", "random 7321", 24027, "occupancy", 0.3, 1.0),
    "a stray G plies after a kept story asked": ("alt", "random 24601", 196527, "occupancy", False),
    "4h8h stood on an illegal move from 8h, 4h2h tied": ("motor", 8, 31708, "polarity", 0.5, 1.0),
    "the rook set back on 8g, lifted again, read as taking 8f": ("sim", 1, 44, "polarity"),
    "2d knocked and put back just before 3e was lifted, read as 3e2d": ("sim", 8, 70, "occupancy"),
    "6e knocked and put back just before 7e was lifted, read as 7e6e": ("sim", 3, 86, "occupancy"),
    "6h6i undone and made again, read as 6h5h and 6i6h": ("sim", 18, 74, "occupancy"),
    "3c held, 4c lifted in time, set down late, read as 3c2c": ("sim", 4, 89, "occupancy"),
    "1h held, 1i lifted in time, set down late, read as 1h2i": ("sim", 19, 127, "occupancy"),
    "8g9g+ while 8g8i+ asked, read as a touch of 9g": ("sim", 1, 160, "occupancy"),
    "a nifu pawn left 3.03 s, read as a kept story's R*4f": ("sim", 4, 180, "occupancy"),
    "the gold held over 5b, where no drop is legal, read as P*5b": ("sim", 3, 160, "occupancy"),
    "the bishop over 8f 0.11 s after 5c's knock, read as 6d5c": ("sim", 7, 318, "occupancy"),
    "1d1c made again, its answer read as two captures never seen": ("sim", 18, 326, "occupancy"),
    "the king moved into check, put back 3.6 s later, read as 7c8a+": ("sim", 15, 311, "occupancy"),
    "4h knocked, 6d taken, 4i lifted long after 4h, read as 7e4h": ("sim", 18, 470, "occupancy"),
    "7c8d undone and made again, read as L*7c, then as 7c6c": ("sim", 1, 580, "occupancy"),
    "8c touched, a stray answer read as 8c3c never seen and S*8c": (
        "alt",
        3,
        43403,
        "occupancy",
        True,
    ),
    "8e7c+ answered, a stray nonpromote read as 8e9c in its place": (
        "alt",
        23,
        47723,
        "occupancy",
        False,
    ),
    "5c rocked by 6d's lift, back after 7e was taken, read as 6d5c": (
        "paw",
        7,
        1207,
        "polarity",
        0.4,
        2.0,
        None,
        0.0,
    ),
    "8g rocked 1 ms before 7f's lift, 6g swapped, read as 7f8g": (
        "paw",
        13,
        1313,
        "occupancy",
        0.4,
        1.0,
        None,
        0.0,
    ),
    "nonpromote 94 ms before 4c3d landed, never answered": (
        "club",
        2,
        102,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "promote with 8e in the air, 9d9c slid, 9i slow to open": (
        "club",
        19,
        219,
        "occupancy",
        1.0,
        1.0,
        None,
        {"capture_push": 0.0},
    ),
    "nonpromote 8 ms after 9c closed, 9d still closed, read as R*9c": (
        "club",
        2,
        202,
        "occupancy",
        1.0,
        1.0,
        None,
        {"capture_push": 0.0},
    ),
    "8g knocked as 7g slid onto 7f taken first, read as 7g8g": (
        "club",
        24,
        724,
        "occupancy",
        1.0,
        2.0,
        None,
        {"capture_push": 0.0},
    ),
    "5c rocked back 30 ms after 6d's lift, read as 6d5c": (
        "paw",
        7,
        1707,
        "occupancy",
        1.0,
        2.0,
        None,
        0.0,
    ),
    "5c rocked back 30 ms after 6d's lift, x0.4, read as 6d5c": (
        "paw",
        7,
        1707,
        "occupancy",
        0.4,
        2.0,
        None,
        0.0,
    ),
    "2e knocked 17 ms after 1e's refill, read as 1f2e": (
        "paw",
        14,
        1714,
        "polarity",
        0.4,
        2.0,
        None,
        0.0,
    ),
    "2e knocked 8 ms before B*3f landed, read as 2e3f and P*2e": (
        "dojo",
        12,
        112,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "8c knocked after P*8d in a chain, read as 8c8d and P*8c": (
        "dojo",
        17,
        317,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "8c knocked 0.63 s as P*7b landed, read as 8c7b and L*8c": (
        "dojo",
        11,
        311,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "4g held 4.8 s after 3h knocked, read as 4g3h and R*5f": (
        "dojo",
        2,
        402,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "3g knocked as G*4g landed, read as 3g4g and P*3g": (
        "dojo",
        17,
        517,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "1f hovered, 1h knocked as P*1g landed, read as P*1f corrected to 1h1g": (
        "dojo",
        10,
        410,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "4i hovered, 5h knocked as P*4h landed, read as 5h4h": (
        "dojo",
        10,
        510,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "3h straightened 19 ms as the reply's attacker was lifted, x0.4": (
        "club",
        15,
        715,
        "occupancy",
        0.4,
        1.0,
        None,
        {"capture_push": 0.0},
    ),
    "4c straightened 37 ms as the reply's attacker was lifted, x0.4": (
        "club",
        16,
        716,
        "occupancy",
        0.4,
        1.0,
        None,
        {"capture_push": 0.0},
    ),
    "5i knocked 26 ms after G*6h on the square 6h5i left, read as 6h5i taken back": (
        "dojo",
        2,
        902,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "4c rocked back 28 ms after 5d's lift, read as 5d4c and G*3e": (
        "paw",
        11,
        1911,
        "occupancy",
        1.0,
        2.0,
        None,
        0.0,
    ),
    "3g knocked 0.7 s as G*4g landed, P*6i then read as a mating G*6i, x0.4": (
        "dojo",
        17,
        917,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "6f touched over 6g, then nifu P*6g taken back, read as 6f6g and P*6f": (
        "dojo",
        4,
        804,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "1c knocked 33 ms after 3a2b landed, read as 1c2b, N*1c and 2h1h, x0.4": (
        "dojo",
        8,
        808,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "4g held 3.9 s after 5g knocked, read as 4g5g and N*4f, noise x2": (
        "dojo",
        4,
        804,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "1b held 6 s after 2c knocked, x2": (
        "dojo",
        19,
        919,
        "occupancy",
        2.0,
        1.0,
        None,
        None,
    ),
    "8d released 70 ms late, its capture of 8e landing 59 ms after, x0.4": (
        "club",
        8,
        908,
        "occupancy",
        0.4,
        1.0,
        None,
        {"capture_push": 0.0},
    ),
    "2e straightened after 1e1f, the chain read as 1e2e": (
        "paw",
        19,
        1319,
        "occupancy",
        1.0,
        2.0,
        None,
        0.0,
    ),
    "4c turned over after 4d4c, taken 0.17 s later, read unpromoted, polarity x0.4": (
        "dojo",
        1,
        1801,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "7g turned over after 8e7g, then taken, read as a touch, polarity": (
        "dojo",
        12,
        1112,
        "polarity",
        1.0,
        1.0,
        None,
        None,
    ),
    "8e knocked 89 ms as P*8d landed after 8d8e, read as P*8e, x0.4": (
        "dojo",
        12,
        2012,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "6e taken first after 7d8e, 6d knocked, read as 6e taking 6d": (
        "dojo",
        12,
        1312,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "3g taken first after 1e2f, 2f set down again, read as 3g taking 2f": (
        "dojo",
        2,
        1402,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "6h taken first after 6i7i, 6g knocked, read as 6h taking 6g": (
        "dojo",
        6,
        1906,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "1c knocked 0.76 s after 1e1d landed, read as 1c taking 1d and P*1c, identity": (
        "dojo",
        11,
        1811,
        "identity",
        1.0,
        2.0,
        None,
        None,
    ),
    "9e knocked 0.76 s after 9c9d landed, read as 9e taking 9d and P*9e": (
        "dojo",
        3,
        1403,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "2g knocked 1.17 s after 1h2h landed, read as 2g taking 2h and B*2g": (
        "dojo",
        12,
        1712,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "7i off from 12 ms to 31 ms after 7h was lifted, read as 7h taking 7i, x2": (
        "dojo",
        14,
        1514,
        "occupancy",
        2.0,
        1.0,
        None,
        None,
    ),
    "8e knocked 50 ms as 8f was taken after 7e8d, read as a chain, polarity x0.4": (
        "dojo",
        11,
        1111,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "the last move 4c6c landing as the log ended, read in progress, polarity x0.4": (
        "dojo",
        1,
        1701,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "9i9h held 2.6 s after 9h lifted 2.1 s, both drops read taken back, x2": (
        "phys",
        15,
        2915,
        "occupancy",
        2.0,
        1.0,
        None,
    ),
    "P*9i, gote's touch, P*9h with 9i knocked 0.97 s, read as P*9i moved on, noise x2": (
        "dojo",
        15,
        2115,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "L*2h, then G*3i with 2h knocked 1.2 s, read as L*2h corrected to R*3i, noise x2": (
        "dojo",
        17,
        3017,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "9d touched, hand over 9c, then 9d9c with 9b knocked 1.2 s: no 9b9c, P*9b, pol x0.4 n2": (
        "dojo",
        12,
        3412,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "6f6g turned over on the square, shown 0.22 s, then taken: 6f6g+, polarity x0.4 n2": (
        "dojo",
        20,
        4020,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "4g lifted, 3h knocked 24 ms, king set on 5f 0.33 s later: not 4g3h and R*5f": (
        "dojo",
        2,
        3902,
        "polarity",
        1.0,
        1.0,
        None,
        None,
    ),
    "blitz 9g9f and P*9g under a chain wait, then P*2b asked: 21 plies, polarity x0.4 n2": (
        "dojo",
        22,
        2722,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "8e7f slid, 8g knocked as it landed: not P*7f, the story kept at 8d8e": (
        "dojo",
        12,
        4412,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "8e7f slid, 8g knocked in the same 100 Hz frame as it landed: not P*7f": (
        "dojo",
        12,
        4412,
        "occupancy",
        1.0,
        1.0,
        100.0,
        None,
    ),
    "8g8h+ taken target first, the king touching down: not 8g8h, polarity x0.4 n2": (
        "dojo",
        18,
        4618,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "6d6c+ taken target first: not 6d6c, polarity x0.4 n2": (
        "dojo",
        19,
        4819,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "5b4a, 5c and 3a knocked, read as 5b5c and 3a4a: read again across the error": (
        "dojo",
        14,
        4614,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "8b7c, P*7d moved to 7b, 7c knocked: 8b7b kept, taken at a later error, noise x2": (
        "dojo",
        8,
        4308,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "2e3c+ after a hover, 4b knocked: read as 2e3c, 4b3c; read again, polarity x0.4 n2": (
        "dojo",
        3,
        4003,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "6b5c+ with 7c and 4b knocked: read as 6b7c+, 4b5c; read again, polarity x0.4 n2": (
        "dojo",
        16,
        3616,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "6b6a set on 5a first for 4.6 s, a mate: not checkmate, x2": (
        "dojo",
        17,
        4917,
        "occupancy",
        2.0,
        1.0,
        None,
        None,
    ),
    "8e held after 8f knocked, set on 9e 10.5 s after: not 8e8f and P*9e, x2": (
        "dojo",
        11,
        4711,
        "occupancy",
        2.0,
        1.0,
        None,
        None,
    ),
    "8i held 7.7 s after 9i knocked, set on 9h 8.1 s after: not 8i9i and P*9h, x2": (
        "dojo",
        1,
        3901,
        "occupancy",
        2.0,
        1.0,
        None,
        None,
    ),
    "6c held with 7d knocked read as 6c7d and B*3c, 6c3c's story dropped at a taking": (
        "dojo",
        2,
        4202,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "5h5g, its story dropped as another was taken, read as 4g5g and G*4g": (
        "dojo",
        4,
        4404,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "8f set on 8e and moved on to take 7e, 7d knocked, read as 7e7d and 8e7e": (
        "dojo",
        14,
        4814,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "8i set on 8h and moved on to take 9h, 9g knocked, read as 9h9g and 8h9h": (
        "dojo",
        17,
        4317,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "4c5b with 4d and 6a knocked read as 4c4d, 6a5b and G*6a": (
        "dojo",
        7,
        4607,
        "occupancy",
        2.0,
        1.0,
        None,
        None,
    ),
    "the answer to P*3c's question taken for a story two plies shorter": (
        "dojo",
        24,
        5024,
        "polarity",
        1.0,
        1.0,
        None,
        None,
    ),
    "P*9h with 9i knocked read as P*9i moved on, 9i9h putting the error right": (
        "dojo",
        15,
        5715,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "P*9h with 9i knocked read as P*9i moved on, 9i9h's target lifted after the error went": (
        "dojo",
        15,
        5515,
        "occupancy",
        2.0,
        1.0,
        None,
        None,
    ),
    "P*8d onto 8d8e's origin with 9c knocked, an error left by 8e7f": (
        "dojo",
        12,
        5712,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "1g5c+, then 6c set on 6e 3 s: 1g7a+ unseen after 5c4c and 5c5d alike, not taken": (
        "phys",
        24,
        7924,
        "occupancy",
        2.0,
        1.0,
        None,
    ),
    "2h set on 1g, moved on to take 3i first, 4i knocked: read as 3i4i, then a reread": (
        "dojo",
        5,
        7505,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "P*8d with 8e off from 2 ms before its landing: no mover holding 8e, no P*8e": (
        "dojo",
        12,
        6812,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "3g lifted, 4h knocked, the gold held 3.4 s: 3g4h a mate in doubt, 3g3h its move": (
        "dojo",
        11,
        6411,
        "identity",
        1.0,
        2.0,
        None,
        None,
    ),
    "L*1f, 2g knocked 0.97 s: 2g1f's error through a nifu drop; L*1f taken": (
        "dojo",
        19,
        8619,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "6e7c turned over on 7c 0.17 s before gote's 6b took it: the correction 6e7c+": (
        "dojo",
        7,
        8307,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "P*5e, 6e knocked after it; P pressed as 6e came back: the kept question takes it": (
        "dojo",
        18,
        9018,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "8e7f slid, 8g knocked 6 ms before 8e's lift: the error left by the move, no 8g7f": (
        "dojo",
        12,
        9012,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "N*9c, sente's nifu drop shown, P*9d with 9c knocked: no N*9c moved on to 9d": (
        "dojo",
        19,
        9319,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "6e5f, 6d knocked for 70 ms, 4f as it landed: no 6e6d and a drop asked on 5f": (
        "dojo",
        12,
        9412,
        "occupancy",
        1.0,
        1.0,
        100.0,
        None,
    ),
    "4a knocked as 4b was lifted, 3d 9 ms after the gold set on 3c: no 3d3c asking": (
        "dojo",
        10,
        9210,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "5e taken first, the gold held over 5f on its way: no 4f5f and 5e taking it": (
        "dojo",
        12,
        9412,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "a nifu drop on the board 0.55 s: no lance drop in a story of a capture never seen": (
        "dojo",
        15,
        9115,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "8h shoved onto 8g 2.1 s and put back: no capture never seen 17 plies back": (
        "dojo",
        8,
        14608,
        "occupancy",
        2.0,
        1.0,
        None,
        None,
    ),
    "N*9c, 4f touched, P*9d knocking 9c 0.7 s: not N*9c moved on and P*9c": (
        "dojo",
        19,
        13319,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "P*6h, L*6g 7.3 s later knocking 6h 0.13 s: not P*6h slid to 6g and L*6h": (
        "dojo",
        5,
        12905,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "7f lifted, 8e knocked 0.69 s, red: no story two plies back taken for it": (
        "dojo",
        12,
        12312,
        "polarity",
        1.0,
        1.0,
        None,
        None,
    ),
    "9d9c, 9c off 0.19 s after for 45 ms, 9b knocked: no 9b9c and P*9b": (
        "dojo",
        12,
        11712,
        "identity",
        1.0,
        2.0,
        None,
        None,
    ),
    "9g held, 9f rocked back, asked promote?, set on 8g: not the opponent's B*8g": (
        "dojo",
        7,
        12007,
        "occupancy",
        1.0,
        1.0,
        None,
        None,
    ),
    "L*1f, 2g knocked 0.86 s read as nifu, stood through 7b8c: no hover, no L*2f": (
        "dojo",
        19,
        11819,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "P*4b, king held off 4a 1.9 s, 4b knocked: errors, then a move in progress": (
        "dojo",
        20,
        11420,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "S*3e shown 0.3 s, gote's L*4f knocking 3e 0.84 s: not S*4f and L*3e, 3e4f lost": (
        "dojo",
        14,
        10714,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "1b set on 1c, lifted, 2c knocked 0.12 s, held 1.7 s, set on 1a: no 1b2c and L*1a": (
        "dojo",
        19,
        8419,
        "occupancy",
        1.0,
        2.0,
        None,
        None,
    ),
    "G*4b, king on 5c knocked 0.45 s as the log ends: not 5c4b and R*5c": (
        "dojo",
        17,
        15117,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
    "R*5a, 6a knocked 0.65 s, B*7a as the log ends: not 6a5a, B*6a and R*7a": (
        "dojo",
        7,
        11307,
        "polarity",
        0.4,
        2.0,
        None,
        None,
    ),
    "6f7e, P*7g, P*7f knocking 7g 1.03 s: not P*7g held over 7f and P*7g, 12 plies on": (
        "dojo",
        17,
        15717,
        "occupancy",
        0.4,
        1.0,
        None,
        None,
    ),
}


@pytest.mark.parametrize("why", sorted(OTHER_ONCE_MISSED))
def test_a_log_of_another_generator_that_once_missed(why: str) -> None:
    gen, index, seed, sensing, *more = OTHER_ONCE_MISSED[why]
    game = random_record(int(index.split()[1])) if isinstance(index, str) else GAMES[index]
    if gen == "motor":
        pace, noise = more
        events = motor_generate(game["moves"], game["sfen"], seed, sensing, pace, noise)
    elif gen == "sim":  # the built-in simulator
        events = simulate(game["moves"], game["sfen"], seed=seed, sensing=sensing).events
    elif gen == "club":
        pace, noise, scan, rates = more
        events = club_generate(game["moves"], game["sfen"], seed, sensing, pace, noise, scan, rates)
    elif gen == "dojo":
        pace, noise, scan, rates = more
        events = dojo_generate(
            game["moves"], game["sfen"], seed, sensing, pace, noise, scan, rates
        ).events
    elif gen == "phys":
        pace, noise, scan = more
        events = phys_generate(game["moves"], game["sfen"], seed, sensing, pace, noise, scan)
    elif gen == "paw":
        pace, noise, scan, regret = more
        events = paw_generate(game["moves"], game["sfen"], seed, sensing, pace, noise, scan, regret)
    else:
        (raised,) = more
        events = generate(game["moves"], game["sfen"], seed, sensing, RAISED if raised else None)
    _check(events, game, sensing, why)


NOISE_KINDS = [
    f.name
    for f in dataclasses.fields(Noise)
    if not f.name.startswith("speed") and f.name not in ("target_first", "long_hover")
]


@pytest.mark.parametrize("kind", NOISE_KINDS)
def test_each_noise_kind_forced(kind: str) -> None:
    """Every move gets the noise (where it applies); the record stays exact."""
    game = next(g for g in GAMES if g["source"] == "engine")
    moves = game["moves"][:60]
    changes: dict[str, float] = {kind: 1.0}
    if kind == "hover":
        changes["long_hover"] = 0.5
    if kind in ("fast_capture", "knock_held"):
        changes["target_first"] = 0.0
    noise = dataclasses.replace(QUIET, **changes)
    for seed in range(2):
        sim = simulate(moves, game["sfen"], seed=seed, noise=noise)
        if kind not in ("takeback",):  # a take-back needs a suitable wrong move
            assert sim.counts.get(kind, 0) > 0, f"{kind} never happened"
        _check(sim.events, {**game, "moves": moves}, "occupancy", f"{kind} seed {seed}")


def test_simulation_is_seeded_and_reproducible() -> None:
    game = GAMES[0]
    a = simulate(game["moves"][:30], game["sfen"], seed=7).events
    b = simulate(game["moves"][:30], game["sfen"], seed=7).events
    c = simulate(game["moves"][:30], game["sfen"], seed=8).events
    assert a == b and a != c
    assert generate(game["moves"][:30], game["sfen"], 3) == generate(
        game["moves"][:30], game["sfen"], 3
    )


def test_simulated_setup_from_an_empty_board() -> None:
    game = GAMES[21]
    sim = simulate(game["moves"][:20], game["sfen"], seed=3, setup=True)
    assert sim.events[0].cells == "." * 81  # type: ignore[union-attr]
    tracker, outs = replay(sim.events, game["sfen"])
    assert [m.usi() for m in tracker.moves] == game["moves"][:20]


@pytest.mark.parametrize("name", ["engine-game-quiet.jsonl", "engine-game-noisy.jsonl"])
def test_shared_logs_replay_to_the_true_moves(name: str) -> None:
    events = load_log(shared_path("sensor-logs", name))
    truth = shared_path("sensor-logs", "engine-game.usi").read_text().split()
    tracker, _outs = replay(events)
    assert [m.usi() for m in tracker.moves] == truth
    assert tracker.unresolved() is None
    assert tracker.phase == "over"  # the game ends in mate
