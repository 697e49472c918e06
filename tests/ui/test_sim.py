"""The simulator without the daemon: pointer events become physical actions on the virtual
board, and those become the sensor events a real board sends (through SimulatedBoard)."""

from __future__ import annotations

import asyncio

import pygame
import pytest

from board_bridge.app.simulated import SimulatedBoard
from board_bridge.shogi import BISHOP, BLACK, PAWN, STARTING_SFEN, WHITE, Board, Move, parse_square
from board_bridge.tracker.events import PlayerInput, SensorFrame
from board_bridge.ui.layout import Layout
from board_bridge.ui.sim import Simulator
from board_bridge.ui.view import Question
from board_bridge.ui.virtual import PhysicalError, VirtualBoard

LAYOUT = Layout.for_size(1024, 600)


def occupancy(board: Board) -> str:
    return "".join("x" if o else "." for o in board.occupied())


class Rig:
    """A simulator on a SimulatedBoard, with helpers that send pygame events to it."""

    def __init__(self, sfen: str = STARTING_SFEN, question: Question | None = None) -> None:
        self.t = 0.0
        self.board = SimulatedBoard(sfen, clock=self.clock)
        self.virtual = VirtualBoard(Board(sfen))
        self.q = question
        self.sim = Simulator(LAYOUT, self.virtual, self.board, lambda: self.q)

    def clock(self) -> float:
        self.t += 0.1
        return self.t

    def center(self, name: str) -> tuple[int, int]:
        return LAYOUT.square_center(parse_square(name))

    def slot(self, color: int, pt: int) -> tuple[int, int]:
        x, y, w, h = LAYOUT.hand_slots(color)[pt]
        return (x + w // 2, y + h // 2)

    def drag(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        self.sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        self.sim.handle(
            pygame.event.Event(pygame.MOUSEMOTION, pos=mid, rel=(1, 1), buttons=(1, 0, 0))
        )
        self.sim.handle(
            pygame.event.Event(pygame.MOUSEMOTION, pos=b, rel=(1, 1), buttons=(1, 0, 0))
        )
        self.sim.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))

    def click(self, p: tuple[int, int], button: int = 1) -> None:
        self.sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=button))
        self.sim.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=button))

    def frames(self) -> list[str]:
        return [e.cells for e in self.board.emitted if isinstance(e, SensorFrame)]


def test_virtual_board_actions() -> None:
    v = VirtualBoard(Board())
    start = v.cells()
    assert start == occupancy(Board())
    (lifted,) = v.lift(parse_square("7g"))
    assert lifted[parse_square("7g")] == "." and v.held is not None
    with pytest.raises(PhysicalError):
        v.lift(parse_square("3g"))  # one piece at a time
    with pytest.raises(PhysicalError):
        v.place(parse_square("8g"))  # occupied
    v.place(parse_square("7f"))
    v.lift(parse_square("8h"))
    with pytest.raises(PhysicalError):
        v.capture(parse_square("5i"))  # own piece
    emptied, filled = v.capture(parse_square("2b"))
    assert emptied[parse_square("2b")] == "." and filled[parse_square("2b")] == "x"
    assert v.hands[BLACK] == {BISHOP: 1}
    v.take_from_hand(BLACK, BISHOP)
    assert v.hands[BLACK] == {} and v.held is not None
    v.put_back()
    assert v.hands[BLACK] == {BISHOP: 1}
    v.flip(parse_square("2b"))
    assert v.squares[parse_square("2b")].is_promoted()  # type: ignore[union-attr]
    with pytest.raises(PhysicalError):
        v.lift(parse_square("5e"))


def test_sync_takes_kinds_from_the_game() -> None:
    game = Board()
    for usi in ("7g7f", "3c3d", "8h2b+"):
        game.push_usi(usi)
    v = VirtualBoard(Board())
    v.lift(parse_square("7g"))
    v.place(parse_square("7f"))
    v.lift(parse_square("3c"))
    v.place(parse_square("3d"))
    assert not v.sync(game)  # the bishop has not moved on the virtual board
    v.lift(parse_square("8h"))
    v.capture(parse_square("2b"))
    assert v.sync(game)
    assert v.squares[parse_square("2b")].is_promoted()  # type: ignore[union-attr]


def test_drag_move_capture_and_drop_emit_real_frames() -> None:
    rig = Rig()
    rig.drag(rig.center("7g"), rig.center("7f"))
    game = Board()
    game.push_usi("7g7f")
    frames = rig.frames()
    assert len(frames) == 2
    assert frames[0][parse_square("7g")] == "." and frames[0].count("x") == 39
    assert frames[1] == occupancy(game)
    # gote: 3c3d; sente: bishop takes on 2b (target empties, then fills)
    rig.drag(rig.center("3c"), rig.center("3d"))
    rig.drag(rig.center("8h"), rig.center("2b"))
    game.push_usi("3c3d")
    game.push_usi("8h2b")
    frames = rig.frames()[4:]
    assert [f[parse_square("2b")] for f in frames] == ["x", ".", "x"]
    assert frames[-1] == occupancy(game)
    assert rig.virtual.hands[BLACK] == {BISHOP: 1}
    # gote recaptures with the silver, then sente drops the bishop from its komadai
    rig.drag(rig.center("3a"), rig.center("2b"))
    game.push_usi("3a2b")
    n = len(rig.frames())
    rig.drag(rig.slot(BLACK, BISHOP), rig.center("5e"))
    game.push_usi("B*5e")
    assert len(rig.frames()) == n + 1  # picking from the komadai is not seen; the drop is
    assert rig.frames()[-1] == occupancy(game)
    assert rig.virtual.hands == ({}, {BISHOP: 1})


def test_click_to_lift_then_click_to_place() -> None:
    rig = Rig()
    rig.click(rig.center("2g"))
    assert rig.virtual.held is not None and len(rig.frames()) == 1
    rig.sim.handle(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1), buttons=(0, 0, 0))
    )
    assert rig.sim.held()[0].pos == (5, 5)  # the piece follows the pointer
    rig.click(rig.center("2f"))
    assert rig.virtual.held is None
    assert rig.frames()[-1][parse_square("2f")] == "x"


def test_right_click_and_escape_put_the_piece_back() -> None:
    rig = Rig()
    rig.click(rig.center("2g"))
    rig.click(rig.center("2f"), button=3)
    assert rig.virtual.held is None
    assert rig.frames()[-1] == occupancy(Board())
    rig.click(rig.center("5i"))
    rig.sim.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
    assert rig.frames()[-1] == occupancy(Board())
    assert len(rig.frames()) == 4


def test_own_piece_square_refused_and_komadai_accepts() -> None:
    rig = Rig()
    rig.drag(rig.center("2g"), rig.center("2i"))  # onto sente's own lance
    assert rig.virtual.held is not None and rig.sim.messages
    hx, hy, hw, hh = LAYOUT.hand_rect(WHITE)
    rig.click((hx + hw // 2, hy + 3))  # lay it on gote's komadai (a capture by hand)
    assert rig.virtual.held is None and rig.virtual.hands[WHITE] == {PAWN: 1}


def test_question_buttons_press_inputs() -> None:
    q = Question("promote", ("promote", "nonpromote"))
    rig = Rig(question=q)
    x, y, w, h = LAYOUT.question_buttons(q.options)["nonpromote"]
    rig.click((x + w // 2, y + h // 2))
    inputs = [e for e in rig.board.emitted if isinstance(e, PlayerInput)]
    assert [i.value for i in inputs] == ["nonpromote"]
    rig.q = Question("drop", ("G", "S"))
    x, y, w, h = LAYOUT.question_buttons(rig.q.options)["S"]
    rig.sim.handle(
        pygame.event.Event(
            pygame.FINGERDOWN, x=(x + w / 2) / 1024, y=(y + h / 2) / 600, finger_id=0
        )
    )
    assert [e.value for e in rig.board.emitted if isinstance(e, PlayerInput)] == ["nonpromote", "S"]
    rig.q = None
    rig.click((x + w // 2, y + h // 2))  # no question: the old button is dead
    assert len([e for e in rig.board.emitted if isinstance(e, PlayerInput)]) == 2


def test_touch_drag() -> None:
    rig = Rig()
    (ax, ay), (bx, by) = rig.center("7g"), rig.center("7f")
    for kind, x, y in (
        (pygame.FINGERDOWN, ax, ay),
        (pygame.FINGERMOTION, bx, by),
        (pygame.FINGERUP, bx, by),
    ):
        rig.sim.handle(pygame.event.Event(kind, x=x / 1024, y=y / 600, dx=0, dy=0, finger_id=0))
    game = Board()
    game.push_usi("7g7f")
    assert rig.frames()[-1] == occupancy(game)


def test_events_through_pygames_queue() -> None:
    pygame.display.set_mode((1024, 600))
    rig = Rig()
    pygame.event.clear()
    (ax, ay), (bx, by) = rig.center("7g"), rig.center("7f")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(ax, ay), button=1))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(bx, by), rel=(0, 1), buttons=(1, 0, 0))
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(bx, by), button=1))
    for event in pygame.event.get():
        rig.sim.handle(event)
    assert len(rig.frames()) == 2 and rig.virtual.held is None


async def test_scripted_play_makes_a_capture_and_promotion() -> None:
    position = Board("4k4/6p2/9/9/9/9/9/1B7/4K4 b - 1")
    rig = Rig(position.sfen())
    move = Move.from_usi("8h3b+")
    await rig.sim.play(position, move, delay=0)
    position.push(move)
    frames = rig.frames()
    assert [f[parse_square("3b")] for f in frames] == ["x", ".", "x"]
    assert frames[-1] == occupancy(position)
    assert rig.virtual.squares[parse_square("3b")].is_promoted()  # type: ignore[union-attr]
    assert rig.virtual.hands[BLACK] == {PAWN: 1}


async def test_capture_frames_come_apart_and_in_order() -> None:
    rig = Rig("4k4/9/9/9/4p4/4R4/9/9/4K4 b - 1", question=Question("drop", ("G", "S")))
    rig.sim.capture_gap = 0.05
    rig.drag(rig.center("5f"), rig.center("5e"))
    frames = rig.frames()
    assert len(frames) == 2 and frames[-1][parse_square("5e")] == "."  # the pawn taken off
    x, y, w, h = LAYOUT.question_buttons(("G", "S"))["G"]
    rig.click((x + w // 2, y + h // 2))  # pressed during the gap: must come after the frame
    assert rig.board.emitted[-1] == SensorFrame(rig.board.emitted[-1].t, frames[-1])
    await asyncio.sleep(0.12)
    kinds = [type(e).__name__ for e in rig.board.emitted]
    assert kinds == ["SensorFrame", "SensorFrame", "SensorFrame", "PlayerInput"]
    assert rig.frames()[-1][parse_square("5e")] == "x"


def test_a_touch_counts_once_and_the_wheel_is_ignored() -> None:
    q = Question("promote", ("promote", "nonpromote"))
    rig = Rig(question=q)
    x, y, w, h = LAYOUT.question_buttons(q.options)["promote"]
    cx, cy = x + w // 2, y + h // 2
    # SDL reports a touch as a finger and again as a mouse event marked touch=True
    rig.sim.handle(pygame.event.Event(pygame.FINGERDOWN, x=cx / 1024, y=cy / 600, finger_id=0))
    rig.sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(cx, cy), button=1, touch=True))
    rig.sim.handle(pygame.event.Event(pygame.FINGERUP, x=cx / 1024, y=cy / 600, finger_id=0))
    rig.sim.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(cx, cy), button=1, touch=True))
    assert [e.value for e in rig.board.emitted if isinstance(e, PlayerInput)] == ["promote"]
    for button in (4, 5):  # wheel "buttons"
        rig.sim.handle(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rig.center("7g"), button=button)
        )
    assert rig.virtual.held is None and rig.frames() == []


def test_flip_is_seen_by_polarity_and_identity_boards_only() -> None:
    sfen = "4k4/9/9/9/9/9/9/9/P3K4 b - 1"
    for sensing, seen in (("polarity", "p"), ("identity", "t"), ("occupancy", "")):
        rig = Rig(sfen)
        rig.board = SimulatedBoard(sfen, sensing=sensing)
        rig.sim.hand = rig.board
        rig.sim.handle(
            pygame.event.Event(
                pygame.MOUSEMOTION, pos=rig.center("9i"), rel=(0, 0), buttons=(0, 0, 0)
            )
        )
        rig.sim.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_f, mod=0))
        assert rig.virtual.squares[parse_square("9i")].is_promoted()  # type: ignore[union-attr]
        frames = [e.cells for e in rig.board.emitted if isinstance(e, SensorFrame)]
        assert (frames[-1][parse_square("9i")] == seen) if seen else frames == []
        rig.sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rig.center("9i"), button=2))
        assert not rig.virtual.squares[parse_square("9i")].is_promoted()  # type: ignore[union-attr]
