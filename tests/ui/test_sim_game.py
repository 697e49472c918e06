"""Whole games in the simulator on the real daemon: synthetic mouse events lift and place
pieces, the daemon's tracker, journal and records take them, and the record is checked."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from board_bridge.app.config import parse_config
from board_bridge.app.daemon import Daemon
from board_bridge.app.simulated import SimulatedBoard
from board_bridge.drivers.buttons import WithButtons
from board_bridge.drivers.recording import RecordingSource
from board_bridge.records import read_file
from board_bridge.shogi import (
    BISHOP,
    BLACK,
    SILVER,
    STARTING_SFEN,
    Board,
    Move,
    Termination,
    parse_square,
)
from board_bridge.tracker.events import PlayerInput, SensorFrame, parse_event
from board_bridge.tracker.intents import Mark
from board_bridge.ui.app import ObservedEngine, Screen, ScreenButtons, ScreenSink
from board_bridge.ui.glyphs import Fonts
from board_bridge.ui.view import BUTTON
from tests.conftest import require_engine

SIZE = (1024, 600)


class Table:
    """The daemon on a simulated board, with the screen's simulator in front of it."""

    def __init__(self, tmp: Path, fonts: Fonts, sfen: str = STARTING_SFEN, **game: Any) -> None:
        self.tmp = tmp
        settings: dict[str, Any] = {
            "leds": {"sink": "none"},
            "records": {"directory": str(tmp / "games"), "library": False},
            "daemon": {"notify": False},
            "game": {"max_games": 1, "start_sfen": sfen, **game.pop("game", {})},
            **game,
        }
        self.config = parse_config(settings)
        self.board = SimulatedBoard(sfen)
        self.log = tmp / "sensor.jsonl"
        self.sink = ScreenSink()
        self.engine: ObservedEngine | None = None
        engine = None
        if self.config.needs_engine:
            from board_bridge.app import adapters

            assert self.config.engine is not None
            engine = self.engine = ObservedEngine(adapters.make_engine(self.config.engine))
        self.daemon = Daemon(
            self.config,
            source=RecordingSource(self.board, self.log),
            sink=self.sink,
            engine=engine,
        )
        self.surface = pygame.Surface(SIZE)
        self.screen = Screen(
            self.daemon,
            self.sink,
            board=self.board,
            engine=self.engine,
            surface=self.surface,
            fonts=fonts,
            engine_delay=0.05,
        )
        self.layout = self.screen.layout
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Table:
        self.task = asyncio.create_task(self.daemon.run())
        await asyncio.wait_for(self.daemon.ready.wait(), 10)
        await self.until(lambda: self.daemon.game is not None and self.daemon.game.started)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.daemon.stop("test over")
        assert self.task is not None
        await asyncio.wait_for(self.task, 20)

    async def until(self, cond: Callable[[], bool], timeout: float = 10.0) -> None:
        """Run frames (events, upkeep, drawing) until ``cond`` holds."""
        deadline = time.monotonic() + timeout
        while not cond():
            if self.task is not None and self.task.done():
                self.task.result()
                raise AssertionError("the daemon stopped")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; intents {self.sink.intents}")
            self.screen.step()
            await asyncio.sleep(0.01)
        self.screen.step()

    def moves(self) -> list[str]:
        game = self.daemon.game
        return [] if game is None else game.usi_moves()

    def point(self, name: str) -> tuple[int, int]:
        return self.layout.square_center(parse_square(name))

    def slot(self, color: int, pt: int) -> tuple[int, int]:
        x, y, w, h = self.layout.hand_slots(color)[pt]
        return (x + w // 2, y + h // 2)

    async def drag(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        """Press, move and release as a hand would (a moment between lifting and placing)."""
        self.screen.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
        await asyncio.sleep(0.15)
        self.screen.handle(
            pygame.event.Event(pygame.MOUSEMOTION, pos=b, rel=(1, 1), buttons=(1, 0, 0))
        )
        self.screen.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))

    async def move(self, frm: str, to: str, expect: str | None = None) -> None:
        n = len(self.moves())
        await self.drag(self.point(frm), self.point(to))
        if expect is not None:
            await self.until(lambda: len(self.moves()) == n + 1)
            assert self.moves()[-1] == expect

    async def answer(self, option: str) -> None:
        await self.until(lambda: self.screen.question() is not None)
        q = self.screen.question()
        assert q is not None and option in q.options, q
        x, y, w, h = self.layout.question_buttons(q.options)[option]
        frame = self.screen.draw(pygame.Surface(SIZE))
        assert tuple(frame.get_at((x + 4, y + h // 2)))[:3] == BUTTON  # drawn where it is hit
        self.screen.handle(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + w // 2, y + h // 2), button=1)
        )
        self.screen.handle(
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x + w // 2, y + h // 2), button=1)
        )

    async def resign(self) -> None:
        self.screen.handle(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=pygame.KMOD_LCTRL)
        )
        await self.until(lambda: bool(self.daemon.games_finished), 20)


def kif_moves(paths: list[Any]) -> tuple[list[str], Any]:
    kif = [Path(p) for p in paths if str(p).endswith(".kif")]
    assert kif, paths
    record = read_file(kif[0])
    return [m.move.usi() for m in record.moves], record


async def test_a_whole_game_with_capture_promotion_and_drop(tmp_path: Path, fonts: Fonts) -> None:
    async with Table(tmp_path, fonts) as t:
        await t.move("7g", "7f", "7g7f")
        await t.move("3c", "3d", "3c3d")
        # the bishop takes on 2b and may promote: the screen asks, the button answers
        await t.move("8h", "2b")
        await t.until(lambda: t.sink.intents.question is not None)
        assert t.sink.intents.mark(parse_square("2b")) == Mark.QUESTION
        await t.answer("promote")
        await t.until(lambda: len(t.moves()) == 3)
        assert t.moves()[-1] == "8h2b+"
        await t.until(lambda: bool(t.screen.virtual.squares[parse_square("2b")].is_promoted()))  # type: ignore[union-attr]
        assert t.screen.virtual.hands[BLACK] == {BISHOP: 1}
        await t.move("3a", "2b", "3a2b")  # the silver takes the horse back
        # sente drops its bishop from the komadai
        n = len(t.moves())
        await t.drag(t.slot(BLACK, BISHOP), t.point("5e"))
        await t.until(lambda: len(t.moves()) == n + 1)
        assert t.moves()[-1] == "B*5e"
        # a lifted piece lights its square and targets on the screen
        t.screen.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=t.point("7a"), button=1))
        await t.until(lambda: t.sink.intents.mark(parse_square("7a")) == Mark.LIFTED)
        pygame.image.save(t.screen.draw(pygame.Surface(SIZE)), str(tmp_path / "lifted.png"))
        t.screen.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=t.point("7b"), button=1))
        await t.until(lambda: len(t.moves()) == 6)
        assert t.moves()[-1] == "7a7b"
        await t.resign()  # sente to move resigns
        outcome, paths = t.daemon.games_finished[0]
    assert outcome.termination is Termination.RESIGNATION and outcome.winner == 1
    moves, record = kif_moves(paths)
    assert moves == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e", "7a7b"]
    assert record.outcome is not None and record.outcome.winner == 1
    # the sensor log holds what the simulator produced, and replays to the same position
    events = [parse_event(line) for line in t.log.read_text().splitlines()]
    assert [e.value for e in events if isinstance(e, PlayerInput)] == ["promote", "resign"]
    frames = [e for e in events if isinstance(e, SensorFrame)]
    final = Board()
    for usi in moves:
        final.push_usi(usi)
    assert frames[-1].cells == "".join("x" if o else "." for o in final.occupied())
    assert any(f.cells[parse_square("2b")] == "." for f in frames[1:])  # the capture emptied 2b


async def test_which_piece_was_dropped(tmp_path: Path, fonts: Fonts) -> None:
    sfen = "4k4/9/9/9/9/9/9/9/4K4 b GS 1"
    async with Table(tmp_path, fonts, sfen) as t:
        await t.drag(t.slot(BLACK, SILVER), t.point("5c"))
        await t.until(lambda: t.screen.question() is not None)
        q = t.screen.question()
        assert q is not None and q.kind == "drop" and set(q.options) == {"G", "S"}
        await t.answer("S")
        await t.until(lambda: len(t.moves()) == 1)
        assert t.moves() == ["S*5c"]
        await t.move("5a", "4a", "5a4a")
        await t.resign()
        _, paths = t.daemon.games_finished[0]
    moves, _ = kif_moves(paths)
    assert moves == ["S*5c", "5a4a"]


async def test_playing_the_engine(tmp_path: Path, fonts: Fonts) -> None:
    path = require_engine("fairy-stockfish")
    settings = {"game": {"engine": "white"}, "engine": {"path": path, "movetime": 100}}
    async with Table(tmp_path, fonts, **settings) as t:
        await t.move("7g", "7f", "7g7f")
        # the engine's reply is shown, then made on the virtual board by the simulator
        await t.until(lambda: len(t.moves()) == 2, 30)
        reply = t.moves()[1]
        board = Board()
        board.push_usi("7g7f")
        board.push_usi(reply)
        await t.until(lambda: t.screen.virtual.matches(board))
        assert t.screen.state().engine is not None  # the evaluation is on the screen
        await t.move("2g", "2f", "2g2f")
        await t.until(lambda: len(t.moves()) == 4, 30)
        await t.resign()
        _, paths = t.daemon.games_finished[0]
    moves, record = kif_moves(paths)
    assert moves[:3] == ["7g7f", reply, "2g2f"] and len(moves) == 4
    assert "stockfish" in record.gote.lower()


async def test_view_beside_a_board(tmp_path: Path, fonts: Fonts) -> None:
    """`board-bridge view`: a board (here the simulated one, moved by code) is the source;
    the screen shows the game and its buttons answer the board's question."""
    config = parse_config(
        {
            "leds": {"sink": "none"},
            "records": {"directory": str(tmp_path), "library": False},
            "daemon": {"notify": False},
        }
    )
    board = SimulatedBoard(STARTING_SFEN)
    buttons = ScreenButtons()
    sink = ScreenSink()
    daemon = Daemon(config, source=WithButtons(board, buttons), sink=sink)  # type: ignore[arg-type]
    screen = Screen(daemon, sink, buttons=buttons, surface=pygame.Surface(SIZE), fonts=fonts)
    task = asyncio.create_task(daemon.run())

    async def until(cond: Callable[[], bool]) -> None:
        for _ in range(1000):
            if cond():
                return
            screen.step()
            await asyncio.sleep(0.01)
        raise AssertionError(f"timed out; intents {sink.intents}")

    try:
        await until(lambda: daemon.game is not None and daemon.game.started)
        position = Board()
        for usi in ("7g7f", "3c3d"):
            move = Move.from_usi(usi)
            await board.play_move(position, move, delay=0.05)
            position.push(move)
            await until(
                lambda: daemon.game is not None and len(daemon.game.moves) == position.ply - 1
            )
        sq8h, sq2b = parse_square("8h"), parse_square("2b")
        board.lift(sq8h)
        await asyncio.sleep(0.1)
        board.lift(sq2b)
        await asyncio.sleep(0.1)
        board.place(sq2b)
        await until(lambda: screen.question() is not None)
        frame = screen.draw(pygame.Surface(SIZE))
        x, y, w, h = screen.layout.question_buttons(("promote", "nonpromote"))["nonpromote"]
        assert tuple(frame.get_at((x + 4, y + h // 2)))[:3] == BUTTON
        screen.handle(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + w // 2, y + h // 2), button=1)
        )
        await until(lambda: daemon.game is not None and len(daemon.game.moves) == 3)
        assert daemon.game.usi_moves() == ["7g7f", "3c3d", "8h2b"]
        state = screen.state()  # the view shows the game's position: an unpromoted bishop
        piece = state.pieces[sq2b]
        assert piece is not None and not piece.is_promoted() and state.pieces[sq8h] is None
    finally:
        daemon.stop("test over")
        await asyncio.wait_for(task, 20)


async def test_next_game_after_the_end(tmp_path: Path, fonts: Fonts) -> None:
    """After a game ends, N sets the pieces up again and the daemon starts the next game."""
    async with Table(tmp_path, fonts, game={"max_games": 2}) as t:
        await t.move("7g", "7f", "7g7f")
        await t.resign()  # gote resigns
        first = t.daemon.game
        assert first is not None and first.outcome is not None
        assert "wins" in (t.screen.state().game_over or "")
        t.screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0))
        assert t.screen.virtual.matches(Board())  # the pieces stand as at the start
        await t.until(lambda: t.daemon.game is not first and t.daemon.game.started, 15)
        assert t.moves() == []
        await t.move("2g", "2f", "2g2f")
    _, paths = t.daemon.games_finished[0]
    moves, _ = kif_moves(paths)
    assert moves == ["7g7f"]
