"""A virtual hand: turns a game into a realistic, seeded sensor log with every kind of noise.

``simulate(moves, sfen, seed=N)`` plays the game on a simulated sensor board the way people
do: thinking pauses, lifts and placements with reed-switch bounce, pieces slid across the
squares between, a hand hovering over squares, pieces touched and put back, neighbours
knocked and put back (also while an attacker is held), captures with the target lifted
first or last, fast captures (the target empty for 15-80 ms), corrections (set down on a
wrong legal square, then moved on), illegal moves made and taken back, retractions and
take-backs, and questions (promotion on occupancy boards, the kind of a drop) answered
after the piece is placed. Everything is drawn from ``random.Random(seed)``: the same seed
gives the same log. :class:`Noise` holds the rate of each kind (``QUIET`` has none).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace

from board_bridge.shogi import (
    PAWN,
    STARTING_SFEN,
    Board,
    Move,
    piece_type_symbol,
)
from board_bridge.tracker.events import (
    EMPTY,
    INPUT_NONPROMOTE,
    INPUT_PROMOTE,
    PlayerInput,
    SensorEvent,
    SensorFrame,
)
from board_bridge.tracker.positions import PosInfo, cell_of_type, cells_of_codes, check_sensing


@dataclass(frozen=True)
class Noise:
    """Rates of each kind of noise (probabilities per move unless said otherwise)."""

    bounce: float = 0.85  # a landing bounces (per landing)
    lift_bounce: float = 0.15  # a lift bounces (per lift)
    slide: float = 0.3  # a ranging or stepping piece is slid across the squares between
    hover: float = 0.15  # the held piece passes over another square (it reads occupied)
    long_hover: float = 0.15  # of hovers: long enough to settle (a move, then corrected)
    touch: float = 0.06  # a piece is touched (lifted) and put back before the move
    knock: float = 0.06  # a neighbour is knocked off its square and put back
    knock_held: float = 0.1  # of captures: a capturable neighbour knocked while holding
    target_first: float = 0.5  # of captures: the target is lifted before the attacker
    fast_capture: float = 0.3  # of attacker-first captures: swapped in 15-80 ms
    correction: float = 0.04  # set down on a wrong legal square, then moved on
    illegal: float = 0.03  # an illegal move made, red lights, taken back (casual only)
    retract: float = 0.02  # the move made, put back, made again
    takeback: float = 0.01  # a wrong move and a reply, both taken back (casual only)
    late_answer: float = 0.1  # of questions: answered late (3-8 s)
    speed_min: float = 0.5  # a game's hand speed is drawn in [speed_min, speed_max]
    speed_max: float = 2.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name.startswith("speed"):
                if value <= 0:
                    raise ValueError(f"Noise.{f.name} must be positive: {value}")
            elif not 0.0 <= value <= 1.0:
                raise ValueError(f"Noise.{f.name} is a probability in [0, 1]: {value}")
        if self.speed_min > self.speed_max:
            raise ValueError("Noise.speed_min must be <= speed_max")

    @classmethod
    def parse(cls, text: str) -> Noise:
        """``realistic``, ``quiet``, or ``name=rate,...`` over the realistic defaults
        (a leading ``quiet,`` starts from no noise instead)."""
        base = cls()
        text = text.strip()
        if text in ("", "realistic", "default"):
            return base
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if parts and parts[0] in ("quiet", "none"):
            base = QUIET
            parts = parts[1:]
        names = {f.name for f in fields(cls)}
        changes: dict[str, float] = {}
        for part in parts:
            name, sep, value = part.partition("=")
            name = name.strip().replace("-", "_")
            if not sep or name not in names:
                raise ValueError(
                    f"unknown noise setting {part!r} (known: {', '.join(sorted(names))})"
                )
            try:
                changes[name] = float(value)
            except ValueError:
                raise ValueError(f"not a number in {part!r}") from None
        return replace(base, **changes)


QUIET = Noise(
    bounce=0.0,
    lift_bounce=0.0,
    slide=0.0,
    hover=0.0,
    long_hover=0.0,
    touch=0.0,
    knock=0.0,
    knock_held=0.0,
    target_first=0.5,
    fast_capture=0.0,
    correction=0.0,
    illegal=0.0,
    retract=0.0,
    takeback=0.0,
    late_answer=0.0,
    speed_min=1.0,
    speed_max=1.0,
)


@dataclass
class Simulation:
    """A simulated log and how many times each kind of noise was used."""

    events: list[SensorEvent]
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[tuple[float, str]] = field(default_factory=list)  # (t, what the hand did)


def _neighbours(sq: int) -> list[int]:
    r, c = divmod(sq, 9)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < 9 and 0 <= c + dc < 9:
                out.append((r + dr) * 9 + c + dc)
    return out


def _between(a: int, b: int) -> list[int]:
    """Squares strictly between two squares on a line (rank, file or diagonal), else []."""
    ra, ca = divmod(a, 9)
    rb, cb = divmod(b, 9)
    dr, dc = rb - ra, cb - ca
    if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return []
    n = max(abs(dr), abs(dc))
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return [(ra + sr * i) * 9 + ca + sc * i for i in range(1, n)]


class _Hand:
    """The simulated board and the hand playing on it."""

    def __init__(self, board: Board, rng: random.Random, noise: Noise, sensing: str, mode: str):
        self.board = board
        self.rng = rng
        self.noise = noise
        self.sensing = sensing
        self.casual = mode == "casual"
        self.speed = rng.uniform(noise.speed_min, noise.speed_max)
        self.t = 0.0
        self.cells = self.cells_of(board)
        self.events: list[SensorEvent] = []
        self.counts: dict[str, int] = {}
        self.notes: list[tuple[float, str]] = []

    # --- primitives --------------------------------------------------------------

    def cells_of(self, board: Board) -> list[str]:
        return list(cells_of_codes(board.board_cells(), self.sensing))

    def count(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        self.notes.append((self.t, kind))

    def note(self, text: str) -> None:
        self.notes.append((self.t, text))

    def chance(self, p: float) -> bool:
        return p > 0 and self.rng.random() < p

    def wait(self, lo: float, hi: float, scaled: bool = True) -> None:
        d = self.rng.uniform(lo, hi)
        self.t += d / self.speed if scaled else d
        self.t = round(self.t, 6)

    def tick(self, lo: float = 0.001, hi: float = 0.01) -> None:
        """A few milliseconds (not scaled: switch physics, not the hand)."""
        self.t = round(self.t + self.rng.uniform(lo, hi), 6)

    def think(self) -> None:
        """A player's pause before acting (never under 0.6 s: people see, then reach)."""
        d = math.exp(self.rng.gauss(math.log(2.0), 0.8)) / math.sqrt(self.speed)
        self.t = round(self.t + min(20.0, max(0.6, d)), 6)

    def frame(self) -> None:
        self.events.append(SensorFrame(self.t, "".join(self.cells)))

    def put(self, sq: int, cell: str) -> None:
        if self.cells[sq] != cell:
            self.cells[sq] = cell
            self.frame()

    def lift(self, sq: int) -> str:
        cell = self.cells[sq]
        self.put(sq, EMPTY)
        if self.chance(self.noise.lift_bounce):
            self.count("lift_bounce")
            for _ in range(self.rng.randint(1, 3)):
                self.tick(0.0005, 0.004)
                self.put(sq, cell)
                self.tick(0.0005, 0.004)
                self.put(sq, EMPTY)
        return cell

    def land(self, sq: int, cell: str) -> None:
        if self.chance(self.noise.bounce):
            self.count("bounce")
            for _ in range(self.rng.randint(1, 4)):
                self.put(sq, cell)
                self.tick()
                self.put(sq, EMPTY)
                self.tick()
        self.put(sq, cell)

    def answer(self, value: str) -> None:
        if self.chance(self.noise.late_answer):
            self.count("late_answer")
            self.wait(3.0, 8.0, scaled=False)
        else:
            self.wait(0.35, 2.5)
        self.events.append(PlayerInput(self.t, value))

    def face(self, board: Board, move: Move) -> str:
        return PosInfo(board, self.sensing).face_after(move)

    def question(self, board: Board, move: Move) -> str | None:
        """The input the board will ask for this move, if any."""
        if self.sensing == "identity":
            return None  # the board sees the kind dropped and the face up
        if move.from_square is None:
            kinds = {
                m.drop_piece_type for m in board.legal_drops() if m.to_square == move.to_square
            }
            if len(kinds) > 1:
                assert move.drop_piece_type is not None
                return piece_type_symbol(move.drop_piece_type)
            return None
        if self.sensing == "polarity":
            return None
        other = Move(move.from_square, move.to_square, not move.promotion)
        if board.is_legal(other):
            return INPUT_PROMOTE if move.promotion else INPUT_NONPROMOTE
        return None

    def ends_game(self, board: Board, move: Move) -> bool:
        board.push(move)
        try:
            return board.outcome() is not None
        finally:
            board.pop()

    # --- noise before a move ----------------------------------------------------------

    def touch(self) -> None:
        own = [
            sq for sq in range(81) if (p := self.board.piece_at(sq)) and p.color == self.board.turn
        ]
        if not own:
            return
        sq = self.rng.choice(own)
        self.count("touch")
        cell = self.lift(sq)
        self.wait(0.2, 1.5)
        self.land(sq, cell)
        self.wait(0.2, 1.0)

    def knock(self, near: list[int], avoid: set[int]) -> None:
        squares = sorted({n for s in near for n in _neighbours(s)} - avoid)
        squares = [s for s in squares if self.cells[s] != EMPTY]
        if not squares:
            return
        sq = self.rng.choice(squares)
        self.count("knock")
        cell = self.lift(sq)
        self.wait(0.08, 1.0)
        self.land(sq, cell)
        self.wait(0.1, 0.6)

    def illegal(self) -> None:
        """An illegal move made on the board, seen (red lights), taken back."""
        board = self.board
        rng = self.rng
        empties = [sq for sq in range(81) if board.piece_at(sq) is None]
        own = [sq for sq in range(81) if (p := board.piece_at(sq)) and p.color == board.turn]
        if rng.random() < 0.3 and board.hand_count(board.turn, PAWN):
            # a pawn drop that is not legal (nifu, dead square, pawn-drop mate, check)
            bad = [sq for sq in empties if not board.is_legal(Move(None, sq, drop_piece_type=PAWN))]
            if bad:
                sq = rng.choice(bad)
                self.count("illegal")
                self.wait(0.5, 1.5, scaled=False)  # a piece picked from the stand
                self.land(sq, cell_of_type(PAWN, self.sensing))
                self.wait(1.0, 4.0, scaled=False)
                self.put(sq, EMPTY)
                self.wait(0.3, 1.0)
                return
        rng.shuffle(own)
        for a in own[:10]:
            targets = [
                c
                for c in empties
                if not board.is_legal(Move(a, c, False)) and not board.is_legal(Move(a, c, True))
            ]
            if not targets:
                continue
            near = [c for c in targets if c in _neighbours(a)]
            c = rng.choice(near or targets)
            self.count("illegal")
            cell = self.lift(a)
            self.wait(0.2, 0.8)
            self.land(c, cell)
            self.wait(1.0, 4.0, scaled=False)
            self.lift(c)
            self.wait(0.2, 0.8)
            self.land(a, cell)
            self.wait(0.3, 1.0)
            return

    # --- making a move --------------------------------------------------------------------

    def play(self, move: Move, *, answer: bool = True, noisy: bool = True) -> None:
        """Make ``move`` on the board (with noise if ``noisy``) and push it."""
        board = self.board
        n = self.noise
        to = move.to_square
        fr = move.from_square
        face = self.face(board, move)
        capture = fr is not None and board.piece_at(to) is not None
        legal_targets: list[Move] = []
        if fr is not None:
            legal_targets = [
                m
                for m in board.legal_moves_from(fr)
                if m.to_square != to
                and board.piece_at(m.to_square) is None
                and not self.ends_game(board, m)
            ]
        else:
            legal_targets = [
                m
                for m in board.legal_drops(move.drop_piece_type)
                if m.to_square != to and not self.ends_game(board, m)
            ]
        correction = noisy and legal_targets and self.chance(n.correction)
        target_first = capture and self.rng.random() < n.target_first
        held: int | None = None  # where the moving piece was set down for a correction
        if fr is not None:
            if target_first and not correction:
                self.lift(to)
                self.wait(0.2, 1.0)
            cell = self.lift(fr)
            self.wait(0.15, 0.9)
        else:
            cell = face
            self.wait(0.5, 1.5, scaled=False)  # a piece picked from the stand
        if noisy and capture and fr is not None and self.chance(n.knock_held):
            caps = sorted(
                m.to_square
                for m in board.legal_moves_from(fr)
                if m.to_square != to and board.piece_at(m.to_square) is not None
            )
            if caps:
                k = self.rng.choice(caps)
                self.count("knock_held")
                kcell = self.lift(k)
                self.wait(0.08, 0.5)
                self.land(k, kcell)
                self.wait(0.03, 0.2)  # on to the target in the same motion
        if correction:
            wrong = self.rng.choice(legal_targets)
            c = wrong.to_square
            self.count("correction")
            wface = self.face(board, wrong) if fr is not None else face
            self.land(c, wface)
            if self.rng.random() < 0.5:
                self.wait(0.1, 0.25, scaled=False)  # moved on before it settled
            else:
                self.wait(0.6, 2.0, scaled=False)  # settled: recorded, then corrected
            self.lift(c)
            held = c
            self.wait(0.2, 0.8)
            if target_first:
                self.lift(to)
                self.wait(0.2, 0.8)
        if noisy and self.chance(n.hover):
            spots = [s for s in _neighbours(to) if self.cells[s] == EMPTY and s != held]
            if spots:
                h = self.rng.choice(spots)
                self.count("hover")
                self.put(h, cell)
                if self.chance(n.long_hover):
                    self.count("long_hover")
                    self.wait(0.35, 0.9, scaled=False)
                else:
                    self.wait(0.03, 0.25, scaled=False)
                self.put(h, EMPTY)
                self.wait(0.05, 0.4)
        start = held if held is not None else fr
        if noisy and start is not None and self.chance(n.slide):
            path = [s for s in _between(start, to) if self.cells[s] == EMPTY]
            if path and len(path) == len(_between(start, to)):
                self.count("slide")
                for s in path:
                    self.put(s, cell)
                    self.wait(0.02, 0.09, scaled=False)
                    self.put(s, EMPTY)
                    self.tick(0.0, 0.01)
        if capture and self.cells[to] != EMPTY:
            if noisy and self.chance(n.fast_capture):
                self.count("fast_capture")
                self.put(to, EMPTY)
                self.wait(0.015, 0.08, scaled=False)
            else:
                self.put(to, EMPTY)
                self.wait(0.15, 0.8)
        self.land(to, face)
        question = self.question(board, move)
        self.note(f"played {move.usi()}")
        board.push(move)
        if question is not None and answer:
            self.answer(question)

    def undo(self) -> None:
        """Set the board back before its last move (a retraction or a take-back)."""
        board = self.board
        captured = board.captured_piece_type()
        move = board.pop()
        after = self.cells_of(board)
        to = move.to_square
        self.lift(to)
        self.wait(0.2, 0.8)
        if move.from_square is not None:
            self.land(move.from_square, after[move.from_square])
            if captured is not None:
                self.wait(0.2, 0.8)
                self.land(to, after[to])

    def takeback(self, true_move: Move) -> bool:
        """A wrong move, a reply, both taken back (the reply first). False if none fits."""
        board = self.board
        rng = self.rng

        def simple(b: Board, exclude: Move | None) -> list[Move]:
            out = []
            for m in b.legal_moves:
                if m.from_square is None or b.piece_at(m.to_square) is not None:
                    continue
                if m == exclude or self.question(b, m) is not None or self.ends_game(b, m):
                    continue
                out.append(m)
            return out

        wrongs = simple(board, true_move)
        if not wrongs:
            return False
        wrong = rng.choice(wrongs)
        board.push(wrong)
        replies = simple(board, None)
        board.pop()
        if not replies:
            return False
        reply = rng.choice(replies)
        self.count("takeback")
        self.play(wrong, noisy=False)
        self.think()
        self.play(reply, noisy=False)
        self.wait(1.0, 3.0)
        self.undo()
        self.wait(2.5, 4.0, scaled=False)  # the tracker waits a moment before a take-back
        self.undo()
        self.wait(2.5, 4.0, scaled=False)
        return True

    def move(self, move: Move, last: bool) -> None:
        """One move of the game, with the noise before and around it."""
        n = self.noise
        self.think()
        if self.casual and not last and self.chance(n.takeback) and self.takeback(move):
            self.think()
        # fiddling with the pieces comes while thinking, not the instant the opponent let go
        if self.chance(n.touch):
            self.wait(0.3, 1.0, scaled=False)
            self.touch()
        if self.casual and self.chance(n.illegal):
            self.wait(0.3, 1.0, scaled=False)
            self.illegal()
        if self.chance(n.knock):
            self.wait(0.3, 1.0, scaled=False)
            near = [move.to_square] + ([move.from_square] if move.from_square is not None else [])
            self.knock(near, set())
        self.play(move)
        if not last and self.chance(n.retract):
            self.count("retract")
            self.wait(0.8, 2.0)
            self.undo()
            self.wait(2.5, 4.0, scaled=False)
            self.play(move, noisy=False)

    def setup(self, target: Board) -> None:
        """Set the pieces out on an empty board, with a mistake or two."""
        want = self.cells_of(target)
        self.cells = [EMPTY] * 81
        self.frame()
        order = [sq for sq in range(81) if want[sq] != EMPTY]
        self.rng.shuffle(order)
        for sq in order:
            self.wait(0.3, 1.2)
            if self.chance(0.05):
                wrong = self.rng.choice(
                    [s for s in range(81) if want[s] == EMPTY and self.cells[s] == EMPTY]
                )
                self.count("setup_mistake")
                self.land(wrong, want[sq])
                self.wait(0.8, 2.0)
                self.put(wrong, EMPTY)
                self.wait(0.2, 0.6)
            self.land(sq, want[sq])


def simulate(
    moves: Sequence[str | Move],
    sfen: str = STARTING_SFEN,
    *,
    seed: int,
    noise: Noise | None = None,
    sensing: str = "occupancy",
    mode: str = "casual",
    setup: bool = False,
) -> Simulation:
    """A sensor log of a game played by a simulated hand (see the module docstring).

    ``moves``: the game in USI (or Move values), legal from ``sfen``. ``setup``: start
    from an empty board and set the pieces out first. Raises ValueError for an illegal move.
    """
    check_sensing(sensing)
    if mode not in ("casual", "tournament"):
        raise ValueError(f"mode must be casual or tournament, not {mode!r}")
    board = Board(sfen)
    parsed: list[Move] = []
    check = board.copy()
    for i, m in enumerate(moves):
        move = Move.from_usi(m) if isinstance(m, str) else m
        reason = check.illegal_reason(move)
        if reason is not None:
            raise ValueError(f"move {i + 1} ({move.usi()}) is illegal: {reason.description}")
        check.push(move)
        parsed.append(move)
    rng = random.Random(seed)
    hand = _Hand(board, rng, noise or Noise(), sensing, mode)
    if setup:
        hand.setup(board)
        hand.wait(1.0, 2.0, scaled=False)
    else:
        hand.frame()
    for i, move in enumerate(parsed):
        hand.move(move, last=i == len(parsed) - 1)
    hand.wait(1.0, 2.0, scaled=False)
    return Simulation(hand.events, hand.counts, hand.notes)


def parse_game(text: str) -> tuple[str, list[str]]:
    """A game from a corpus JSON line (``{"sfen", "moves"}``) or from USI moves
    (optionally after ``position startpos moves`` / ``sfen ... moves``)."""
    text = text.strip()
    if text.startswith("{"):
        obj = json.loads(text)
        if not isinstance(obj, dict) or not isinstance(obj.get("moves"), list):
            raise ValueError('a game line needs "moves": [USI, ...]')
        sfen = obj.get("sfen") or STARTING_SFEN
        if not isinstance(sfen, str) or not all(isinstance(m, str) for m in obj["moves"]):
            raise ValueError('"sfen" and "moves" must be strings')
        return sfen, list(obj["moves"])
    words = text.split()
    if words and words[0] == "position":
        words = words[1:]
    sfen = STARTING_SFEN
    if words and words[0] == "startpos":
        words = words[1:]
    elif words and words[0] == "sfen":
        if "moves" in words:
            i = words.index("moves")
            sfen, words = " ".join(words[1:i]), words[i:]
        else:
            sfen, words = " ".join(words[1:]), []
    if words and words[0] == "moves":
        words = words[1:]
    return sfen, words


__all__ = ["Noise", "QUIET", "Simulation", "parse_game", "simulate"]
