"""The tracker never crashes on a board it cannot explain.

Logs played from one position are fed to a tracker set up at another (a wrong SFEN given
to ``replay``, a game resumed from the wrong record), cut anywhere, with sensor readings
flipped at random; or to one set up with the same squares filled by other pieces, so that
it reads every move against the wrong ones. Whatever it reads, it must read without an exception and say at the
end whether the log ended resolved. (Session 54: a story kept before the game's first
move crashed the daemon with an IndexError, found by a fuzz like this one; its own
facts test is in test_facts.py.)
"""

from __future__ import annotations

import random

import pytest

from board_bridge.shogi import Board, Move
from board_bridge.tracker import Tracker
from board_bridge.tracker.events import SensorEvent, SensorFrame
from board_bridge.tracker.log import load_log
from board_bridge.tracker.simulate import simulate
from tests.acceptance.handgen import Noise, make_log
from tests.conftest import corpus_games, shared_path

GAMES = corpus_games()


def _source(rng: random.Random) -> list[SensorEvent]:
    """A log to feed: one of the shared sensor logs, or a corpus game played by the
    built-in simulator or by the independent hand (quick, with noise of its own)."""
    pick = rng.random()
    if pick < 0.2:
        name = rng.choice(("engine-game-noisy.jsonl", "engine-game-quiet.jsonl"))
        return list(load_log(shared_path("sensor-logs", name)))
    game = rng.choice(GAMES)
    seed = rng.randrange(100_000)
    if pick < 0.5:
        return list(simulate(game["moves"], game["sfen"], seed=seed).events)
    moves = [Move.from_usi(usi) for usi in game["moves"]]
    noise = Noise(pace=rng.choice((0.3, 0.5, 1.0)), rich=0.5, overlap=0.3)
    return make_log(game["sfen"], moves, seed, noise)


def _wrong_position(rng: random.Random) -> str:
    """A position from somewhere in a corpus game (not the log's own, mostly)."""
    game = rng.choice(GAMES)
    board = Board(game["sfen"])
    for usi in game["moves"][: rng.randrange(len(game["moves"]) + 1)]:
        board.push(Move.from_usi(usi))
    return board.sfen()


def _expand(rank: str) -> list[str]:
    cells: list[str] = []
    promoted = False
    for ch in rank:
        if ch.isdigit():
            cells += [""] * int(ch)
        elif ch == "+":
            promoted = True
        else:
            cells.append(("+" if promoted else "") + ch)
            promoted = False
    return cells


def _dead(token: str, rank: int) -> bool:
    kind = token[-1]
    if "+" in token or kind.upper() not in "PLN":
        return False
    last = (0, 1) if kind.upper() == "N" else (0,)
    return rank in last if kind.isupper() else 8 - rank in last


def _scrambled(rng: random.Random, sfen: str) -> str:
    """``sfen`` with the same squares filled by other pieces: the kings stay, the others
    are shuffled and some change sides (no piece where it could never move). A tracker
    set up so sees the board it expects and reads every move against the wrong pieces."""
    board, *rest = sfen.split(" ")
    grid = [_expand(rank) for rank in board.split("/")]
    squares = [(r, c) for r in range(9) for c in range(9) if grid[r][c] and grid[r][c] not in "Kk"]
    tokens = [grid[r][c] for r, c in squares]
    rng.shuffle(tokens)
    tokens = [t.swapcase() if rng.random() < 0.2 else t for t in tokens]
    for (r, c), token in zip(squares, tokens, strict=True):
        grid[r][c] = token.lstrip("+") if _dead(token, r) else token
        if _dead(grid[r][c], r):
            grid[r][c] = "G" if grid[r][c].isupper() else "g"
    ranks = []
    for row in grid:
        out, empty = "", 0
        for token in row:
            if not token:
                empty += 1
                continue
            out += (str(empty) if empty else "") + token
            empty = 0
        ranks.append(out + (str(empty) if empty else ""))
    return " ".join(["/".join(ranks), *rest])


def _flipped(rng: random.Random, frame: SensorFrame) -> SensorFrame:
    cells = list(frame.board_string())
    i = rng.randrange(len(cells))
    if cells[i] in ".x":
        cells[i] = "." if cells[i] == "x" else "x"
    return SensorFrame.from_board_string(frame.t, "".join(cells))


@pytest.mark.parametrize("seed", range(8))
def test_a_log_read_against_the_wrong_pieces_is_read_without_a_crash(seed: int) -> None:
    rng = random.Random(seed)
    game = rng.choice(GAMES)
    moves = [Move.from_usi(usi) for usi in game["moves"]]
    noise = Noise(pace=rng.choice((0.3, 0.5, 1.0)), rich=0.5, overlap=0.3)
    events = make_log(game["sfen"], moves, rng.randrange(100_000), noise)
    events = events[: rng.randrange(200, 2000)]
    tracker = Tracker(_scrambled(rng, game["sfen"]))
    for event in events:
        tracker.feed(event)
    tracker.finish(events[-1].t + 5.0)
    reason = tracker.unresolved()
    assert reason is None or isinstance(reason, str)


@pytest.mark.parametrize("seed", range(24))
def test_a_log_from_another_position_is_read_without_a_crash(seed: int) -> None:
    rng = random.Random(seed)
    events = _source(rng)
    start = rng.randrange(max(1, len(events) - 50)) if rng.random() < 0.5 else 0
    events = events[start : start + rng.randrange(100, 1500)]
    flips = rng.choice((0.0, 0.02, 0.1))
    tracker = Tracker(_wrong_position(rng))
    for event in events:
        if flips and isinstance(event, SensorFrame) and rng.random() < flips:
            event = _flipped(rng, event)
        tracker.feed(event)
    tracker.finish(events[-1].t + 5.0)
    reason = tracker.unresolved()
    assert reason is None or isinstance(reason, str)
