"""Hand-written sensor sequences for tracker tests: a virtual board moved square by square."""

from __future__ import annotations

from board_bridge.shogi import PAWN, STARTING_SFEN, Board, Move, parse_square
from board_bridge.tracker import Tracker, TrackerParams
from board_bridge.tracker.events import EMPTY, PlayerInput, SensorEvent, SensorFrame
from board_bridge.tracker.outputs import TrackerOutput
from board_bridge.tracker.positions import PosInfo, cell_of_type, cells_of_codes


def cells_of(board: Board, sensing: str = "occupancy") -> list[str]:
    return list(cells_of_codes(board.board_cells(), sensing))


class Script:
    """Events of a hand on a board. Squares are named (``"7g"``); each step waits ``dt``
    seconds (default 0.4 s) before it happens. ``play()`` makes a whole move cleanly."""

    def __init__(self, sfen: str = STARTING_SFEN, sensing: str = "occupancy", t: float = 0.0):
        self.board = Board(sfen)
        self.sensing = sensing
        self.cells = cells_of(self.board, sensing)
        self.t = t
        self.events: list[SensorEvent] = [SensorFrame(t, "".join(self.cells))]

    @property
    def fresh(self) -> str:
        """A piece set down (a pawn from the stand on an identity board)."""
        return cell_of_type(PAWN, self.sensing)

    def wait(self, dt: float) -> Script:
        self.t = round(self.t + dt, 6)
        return self

    def set(self, name: str, cell: str, dt: float = 0.4) -> Script:
        self.wait(dt)
        self.cells[parse_square(name)] = cell
        self.events.append(SensorFrame(self.t, "".join(self.cells)))
        return self

    def lift(self, name: str, dt: float = 0.4) -> Script:
        return self.set(name, EMPTY, dt)

    def scan(
        self, dt: float = 0.4, lifts: tuple[str, ...] = (), places: tuple[str, ...] = ()
    ) -> Script:
        """Lift and place pieces within one scan of the board: one frame shows them all."""
        self.wait(dt)
        for name in lifts:
            self.cells[parse_square(name)] = EMPTY
        for name in places:
            self.cells[parse_square(name)] = self.fresh
        self.events.append(SensorFrame(self.t, "".join(self.cells)))
        return self

    def place(self, name: str, cell: str | None = None, dt: float = 0.4) -> Script:
        return self.set(name, cell or self.fresh, dt)

    def bounce(self, name: str, cell: str | None = None, dt: float = 0.4, n: int = 3) -> Script:
        """Land on ``name`` with ``n`` contact bounces of a few milliseconds."""
        self.place(name, cell, dt)
        for _ in range(n):
            self.lift(name, 0.003)
            self.place(name, cell, 0.004)
        return self

    def press(self, value: str, dt: float = 0.8) -> Script:
        self.wait(dt)
        self.events.append(PlayerInput(self.t, value))
        return self

    def play(self, usi: str, answer: str | None = None, dt: float = 0.4) -> Script:
        """Make a move cleanly (a capture lifts the target, then the attacker) and push it
        on ``board``; ``answer``: the input to press afterwards."""
        move = Move.from_usi(usi)
        face = PosInfo(self.board, self.sensing).face_after(move)
        if move.from_square is not None:
            if self.board.piece_at(move.to_square) is not None:
                self.lift(_name(move.to_square), dt)
            self.lift(_name(move.from_square), dt)
        self.place(_name(move.to_square), face, dt)
        self.board.push(move)
        if answer is not None:
            self.press(answer)
        return self


def _name(sq: int) -> str:
    from board_bridge.shogi import square_name

    return square_name(sq)


def run(
    events: list[SensorEvent],
    sfen: str = STARTING_SFEN,
    *,
    tail: float = 3.0,
    **kwargs: object,
) -> tuple[Tracker, list[TrackerOutput]]:
    """Feed ``events`` to a tracker already set up (setup=False unless given), then let
    ``tail`` seconds pass. Returns the tracker and all its outputs."""
    kwargs.setdefault("setup", False)
    tracker = Tracker(sfen, **kwargs)  # type: ignore[arg-type]
    outs: list[TrackerOutput] = []
    for e in events:
        outs += tracker.feed(e)
    outs += tracker.tick(events[-1].t + tail)
    return tracker, outs


def of(outs: list[TrackerOutput], kind: type) -> list:
    return [o for o in outs if isinstance(o, kind)]


def usi(moves: list[Move]) -> list[str]:
    return [m.usi() for m in moves]


FAST = TrackerParams()
