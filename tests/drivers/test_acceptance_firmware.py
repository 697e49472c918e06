"""Acceptance of issue 6 (hardware): a whole corpus game played through the firmware code over
a pty into the daemon is recorded exactly, with the cable pulled once and 1% of the bytes on
the line corrupted both ways; a game goes on, recorded exactly, after the board's
microcontroller reboots mid-move; and a move made just in time is not lost to the flag while
the board's events are still on the link.

Everything on the way is the real thing: the firmware (firmware/bbfw) on the simulated
board's matrix and buttons, the pty, the daemon's "serial" source and LED sink built from
its config, the tracker, the journal and the KIF/CSA written at the game's end. The
scripted hand only moves pieces and presses buttons, as a person does: it waits for the
board to acknowledge a move, and answers a question only when the daemon asks one (the
question it expects is worked out from the rules core and checked against the one asked).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from board_bridge.app.config import Config, parse_config
from board_bridge.app.daemon import Daemon
from board_bridge.drivers import firmware_sim
from board_bridge.drivers.registry import unwrap
from board_bridge.drivers.serial_link import SerialBoard
from board_bridge.records import read_file
from board_bridge.records.journal import find_unfinished, load_journal
from board_bridge.shogi import (
    BLACK,
    HAND_PIECE_TYPES,
    Board,
    Move,
    Termination,
    piece_type_symbol,
)
from board_bridge.tracker.events import SensorFrame, parse_event
from board_bridge.tracker.outputs import IllegalState, Resynced
from tests.drivers.test_firmware_game import physical_states, shortest_game
from tests.drivers.test_serial_support import FAST_FIRMWARE

pytestmark = pytest.mark.timeout(150)

#: the board's buttons (GPIO numbers): the answers to the tracker's questions
BUTTONS = (
    ("promote", 20),
    ("nonpromote", 21),
    ("R", 23),
    ("B", 24),
    ("G", 25),
    ("S", 26),
    ("N", 27),
    ("L", 28),
    ("P", 29),
)
#: generous waits: a loaded 2-core CI machine must pass too
WAIT = 20.0
#: how long a hand holds a lifted piece (and the captured one) before the next step
HOLD = 0.12
#: how long a button is held down (the firmware debounces buttons for 30 ms)
PRESS = 0.08


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class Question:
    """What the board must ask after a move is put down, and the player's answer."""

    kind: str  # "promote" or "drop"
    square: int
    options: tuple[str, ...]
    answer: str


@dataclass(frozen=True)
class Ply:
    usi: str
    states: tuple[str, ...]  # the physical board states the hand makes, in order
    capture: bool
    question: Question | None


def question_for(board: Board, move: Move) -> Question | None:
    """The question the move needs (from the rules core), or None."""
    if move.from_square is None:
        kinds = {
            m.drop_piece_type
            for m in board.legal_moves
            if m.from_square is None and m.to_square == move.to_square
        }
        if len(kinds) < 2:
            return None
        assert move.drop_piece_type is not None
        options = tuple(piece_type_symbol(pt) for pt in HAND_PIECE_TYPES if pt in kinds)
        return Question("drop", move.to_square, options, piece_type_symbol(move.drop_piece_type))
    other = Move(move.from_square, move.to_square, not move.promotion)
    if not board.is_legal(other):
        return None
    answer = "promote" if move.promotion else "nonpromote"
    return Question("promote", move.to_square, ("promote", "nonpromote"), answer)


def plan(sfen: str, moves: list[str]) -> list[Ply]:
    """Each move's physical states (lift, take the captured piece off, put down) and question."""
    board = Board(sfen)
    states = physical_states(sfen, moves)
    plies: list[Ply] = []
    at = 1
    for usi in moves:
        move = Move.from_usi(usi)
        capture = move.from_square is not None and board.piece_at(move.to_square) is not None
        n = 1 if move.from_square is None else (3 if capture else 2)
        plies.append(Ply(usi, tuple(states[at : at + n]), capture, question_for(board, move)))
        at += n
        board.push(move)
    assert at == len(states)
    return plies


def acceptance_game() -> dict[str, Any]:
    """The shortest corpus game (51 plies, ending in mate): it has captures, drops,
    promotions, and both kinds of question."""
    game = shortest_game()
    plies = plan(game["sfen"], game["moves"])
    kinds = {p.question.kind for p in plies if p.question is not None}
    assert kinds == {"promote", "drop"}, kinds
    assert any(p.capture for p in plies) and any("*" in p.usi for p in plies)
    assert any(p.usi.endswith("+") for p in plies)
    return game


# --------------------------------------------------------------------------- the rig


def daemon_config(
    tmp_path: Path, link: Path, clock: dict[str, Any] | None = None, **link_settings: Any
) -> Config:
    """Two people recording a game on the serial board (the firmware's LEDs included)."""
    return parse_config(
        {
            "board": {
                "source": "serial",
                "settings": {
                    "port": str(link),
                    "baud": 115200,
                    "heartbeat": 0.2,
                    "link_timeout": 1.5,
                    "handshake_timeout": 2.0,
                    "retry": 0.15,
                    "reconnect_min": 0.05,
                    "reconnect_max": 0.3,
                    "firmware_timeout": 4.0,
                    **link_settings,
                },
                "reconnect_delay": 0.05,
                "sensor_log": str(tmp_path / "sensor.jsonl"),
            },
            "leds": {"sink": "serial"},
            "game": {"engine": "none", "max_games": 1, "black": "sente", "white": "gote"},
            "clock": clock or {"kind": "none"},
            "records": {"directory": str(tmp_path / "games"), "formats": ["kif", "csa"]},
            "daemon": {"log_level": "warning", "notify": False},
        }
    )


def start_firmware(link: Path, cells: str, corrupt: float, seed: int, **settings: Any) -> Any:
    config = firmware_sim.config(**{**FAST_FIRMWARE, "BUTTONS": BUTTONS, **settings})
    sim = firmware_sim.simulator(link, config=config, corrupt=corrupt, seed=seed, cells=cells)
    return sim.start()


class Hand:
    """The players' hands on the simulated board, watching the daemon as a person watches
    the board's LEDs: a move is finished when the board has taken it."""

    def __init__(self, sim: Any, daemon: Daemon, outputs: list[Any], log: Path) -> None:
        self.sim = sim
        self.daemon = daemon
        self.outputs = outputs
        self.log = log
        link = unwrap(daemon.source, SerialBoard)
        assert isinstance(link, SerialBoard), "the daemon's source is not the serial board"
        self.link: SerialBoard = link

    @property
    def game(self) -> Any:
        game = self.daemon.game
        assert game is not None
        return game

    def recorded(self) -> list[str]:
        return self.game.usi_moves()  # type: ignore[no-any-return]

    def describe(self) -> str:
        game = self.daemon.game
        tail = [type(o).__name__ + str(getattr(o, "move", "") or "") for o in self.outputs[-12:]]
        return (
            f"recorded={game.usi_moves() if game else None} "
            f"pending={game.tracker.pending_question if game else None} "
            f"unresolved={game.tracker.unresolved() if game else None} "
            f"link={self.link.stats} connected={self.link.connected} "
            f"firmware errors={self.sim.errors} last outputs={tail}"
        )

    async def until(self, pred: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not within {timeout:g} s; {self.describe()}")
            await asyncio.sleep(0.01)

    async def started(self) -> None:
        await self.until(
            lambda: self.daemon.game is not None and self.daemon.game.started, "set-up"
        )

    async def seen(self, cells: str, what: str) -> None:
        """Wait until the daemon has the board as ``cells`` (its sensor log's last frame)."""
        await self.until(lambda: last_logged_cells(self.log) == cells, what)

    async def press(self, value: str) -> None:
        self.sim.press(value)
        await asyncio.sleep(PRESS)
        self.sim.press(value, down=False)

    async def make(self, states: tuple[str, ...], *, last_step: float = 0.0) -> None:
        """The states of one move, one after the other; the last (the piece put down) stays."""
        for i, cells in enumerate(states):
            self.sim.set_cells(cells)
            await asyncio.sleep(HOLD if i < len(states) - 1 else last_step)

    async def answer_and_wait(self, index: int, ply: Ply) -> None:
        """Answer the board's question (if the move needs one), then wait for the move to be
        recorded."""
        q = ply.question
        if q is not None:
            await self.until(
                lambda: (
                    self.game.tracker.pending_question is not None or len(self.recorded()) > index
                ),
                f"ply {index + 1} {ply.usi}: the {q.kind} question",
            )
            asked = self.game.tracker.pending_question
            assert asked is not None, f"ply {index + 1} {ply.usi}: no question; {self.describe()}"
            assert (asked.kind, asked.square, tuple(asked.options)) == (
                q.kind,
                q.square,
                q.options,
            ), asked
            await asyncio.sleep(0.1)  # the player reads the LEDs
            await self.press(q.answer)
        await self.until(lambda: len(self.recorded()) > index, f"ply {index + 1} {ply.usi}")
        got = self.recorded()
        assert len(got) == index + 1 and got[-1] == ply.usi, (index, ply.usi, self.describe())
        assert self.game.tracker.pending_question is None

    async def play(self, index: int, ply: Ply) -> None:
        await self.make(ply.states)
        await self.answer_and_wait(index, ply)
        await asyncio.sleep(0.05)  # the next player reaches for a piece


async def run_daemon(config: Config) -> tuple[Daemon, asyncio.Task[None], list[Any]]:
    daemon = Daemon(config)
    outputs: list[Any] = []
    daemon.on_output = outputs.append
    task = asyncio.create_task(daemon.run())
    ready = asyncio.create_task(daemon.ready.wait())
    done, _ = await asyncio.wait({ready, task}, timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        ready.cancel()
        task.result()  # raises what stopped it
    assert ready in done, "the daemon did not start"
    return daemon, task, outputs


async def stop_daemon(daemon: Daemon, task: asyncio.Task[None]) -> None:
    daemon.stop("test over")
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, WAIT)


def cshogi_moves(path: Path) -> list[str]:
    import cshogi
    import cshogi.KIF

    parsed = cshogi.KIF.Parser.parse_file(str(path))
    return [cshogi.move_to_usi(m) for m in parsed.moves]


def last_logged_cells(path: Path) -> str | None:
    """The board in the sensor log's last frame (what the daemon saw last)."""
    frames = sensor_log_frames(path) if path.exists() else []
    return frames[-1] if frames else None


def sensor_log_frames(path: Path) -> list[str]:
    cells = []
    for line in path.read_text().splitlines():
        ev = parse_event(line)
        if isinstance(ev, SensorFrame):
            cells.append(ev.cells)
    return cells


# --------------------------------------------------------------------------- the tests


async def test_corpus_game_through_firmware_pty_daemon_recorded_exactly(tmp_path: Path) -> None:
    """The acceptance test of issue 6: a whole game, 1% of the bytes corrupted both ways, the
    cable pulled once (a capture made while it is out), and the KIF holds exactly the game."""
    game = acceptance_game()
    plies = plan(game["sfen"], game["moves"])
    start = physical_states(game["sfen"], [])[0]
    # the cable is pulled before this ply (a capture), made unseen, and plugged back
    unseen = next(i for i, p in enumerate(plies) if i >= len(plies) // 3 and p.capture)
    log = tmp_path / "sensor.jsonl"
    link = tmp_path / "ttyBOARD"
    sim = start_firmware(link, start, corrupt=0.01, seed=6)
    try:
        daemon, task, outputs = await run_daemon(daemon_config(tmp_path, link))
        try:
            hand = Hand(sim, daemon, outputs, log)
            await hand.started()
            for i, ply in enumerate(plies):
                if i != unseen:
                    await hand.play(i, ply)
                    continue
                sim.pull()
                await hand.make(ply.states, last_step=0.3)  # nobody sees it
                await hand.until(lambda: not hand.link.connected, "the host sees the cable out")
                assert hand.recorded() == game["moves"][:i]
                sim.plug()
                await hand.answer_and_wait(i, ply)  # taken when the board is back
                await asyncio.sleep(0.05)
            # the last move mates: the game ends, and max_games stops the daemon
            await asyncio.wait_for(task, WAIT)
        finally:
            if not task.done():
                await stop_daemon(daemon, task)
    finally:
        sim.stop()

    assert sim.errors == []
    # the line really was bad, and the cable really went
    assert sim.corrupt_in.count > 0 and sim.corrupt_out.count > 0
    assert hand.link.stats.bad_frames > 0 and hand.link.stats.firmware_bad_frames > 0
    assert hand.link.stats.connects >= 2 and hand.link.stats.reboots == 0
    # the firmware resent the events made while the cable was out: nothing lost, no resync
    assert hand.link.resumed and hand.link.stats.lost_events == 0
    assert not any(isinstance(o, Resynced) for o in outputs)
    # the board never showed red: every state the hands made was understood
    assert not any(isinstance(o, IllegalState) for o in outputs)
    assert sim.board.led_writes > 0  # the daemon's LED frames reached the firmware
    # the record: exactly the corpus game, ended by the mate
    (outcome, paths) = daemon.games_finished[0]
    assert outcome.termination is Termination.CHECKMATE and outcome.winner == BLACK
    kif = next(Path(p) for p in paths if str(p).endswith(".kif"))
    csa = next(Path(p) for p in paths if str(p).endswith(".csa"))
    assert [m.move.usi() for m in read_file(kif).moves] == game["moves"]
    assert [m.move.usi() for m in read_file(csa).moves] == game["moves"]
    assert cshogi_moves(kif) == game["moves"]  # an independent reader agrees
    assert find_unfinished(tmp_path / "games") == []
    # the sensor log holds the board as the firmware reported it, to the final position
    frames = sensor_log_frames(log)
    assert frames[0] == start and frames[-1] == plies[-1].states[-1]


async def test_microcontroller_reboot_mid_move_the_game_goes_on(tmp_path: Path) -> None:
    """The board's microcontroller restarts in the middle of a capture (the attacker lifted;
    the captured piece taken off while it restarts): the daemon picks the new boot up, the
    capture is finished, its promotion question answered, and the game goes on, recorded
    exactly."""
    game = acceptance_game()
    plies = plan(game["sfen"], game["moves"])[:18]
    start = physical_states(game["sfen"], [])[0]
    restart = next(i for i, p in enumerate(plies) if p.capture and p.question is not None)
    log = tmp_path / "sensor.jsonl"
    link = tmp_path / "ttyBOARD"
    sim = start_firmware(link, start, corrupt=0.0, seed=7)
    try:
        daemon, task, outputs = await run_daemon(daemon_config(tmp_path, link))
        try:
            hand = Hand(sim, daemon, outputs, log)
            await hand.started()
            for i, ply in enumerate(plies):
                if i != restart:
                    await hand.play(i, ply)
                    continue
                lifted, taken, placed = ply.states
                sim.set_cells(lifted)
                await hand.seen(lifted, "the lift")
                await asyncio.to_thread(sim.reboot)
                sim.set_cells(taken)  # while the board restarts
                await hand.until(
                    lambda: hand.link.stats.reboots == 1 and hand.link.connected,
                    "the host sees the restart",
                )
                await hand.seen(taken, "the board after the restart")
                await asyncio.sleep(HOLD)
                sim.set_cells(placed)
                await hand.answer_and_wait(i, ply)
        finally:
            await stop_daemon(daemon, task)
    finally:
        sim.stop()

    assert sim.errors == []
    assert sim.boots == 2 and hand.link.stats.reboots == 1 and not hand.link.resumed
    assert not any(isinstance(o, IllegalState) for o in outputs)
    assert daemon.games_finished == []
    (info,) = find_unfinished(tmp_path / "games")
    assert [m.move.usi() for m in load_journal(info.path).moves] == [p.usi for p in plies]


async def test_a_move_made_just_in_time_is_not_lost_to_the_flag_while_events_lag(
    tmp_path: Path,
) -> None:
    """The daemon waits for the board's events before it believes a settled board (a frame
    can be late on the link), so a move that settles only when the firmware's next heartbeat
    proves nothing else happened must still beat the flag when it was made in time."""
    start = physical_states(shortest_game()["sfen"], [])[0]
    (ply,) = plan(shortest_game()["sfen"], ["7g7f"])
    log = tmp_path / "sensor.jsonl"
    link = tmp_path / "ttyBOARD"
    # heartbeats only every second: the proof that the board stayed still comes late
    sim = start_firmware(link, start, corrupt=0.0, seed=8, HEARTBEAT_MS=1000)
    byoyomi = {"kind": "byoyomi", "main": 0, "byoyomi": 2.5}
    config = daemon_config(tmp_path, link, byoyomi, link_timeout=3.0, heartbeat=0.5)
    try:
        daemon, task, outputs = await run_daemon(config)
        try:
            hand = Hand(sim, daemon, outputs, log)
            await hand.started()
            await hand.until(lambda: hand.game.clock.deadline() is not None, "the clock")
            deadline = hand.game.clock.deadline()
            # lift, and put the piece down 0.3 s before the flag
            await asyncio.sleep(max(0.0, deadline - 0.3 - HOLD - time.monotonic()))
            await hand.make(ply.states)
            placed_at = time.monotonic()
            await hand.until(
                lambda: bool(hand.recorded()) or daemon.games_finished != [], "the move or flag"
            )
        finally:
            await stop_daemon(daemon, task)
    finally:
        sim.stop()

    assert placed_at < deadline, "the test itself was too slow to make the move in time"
    assert daemon.games_finished == [], daemon.games_finished
    assert hand.recorded() == ["7g7f"]
    (info,) = find_unfinished(tmp_path / "games")
    (recorded,) = load_journal(info.path).moves
    assert recorded.move.usi() == "7g7f" and recorded.time_used is not None
    assert recorded.time_used < 2.5
