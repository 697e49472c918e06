"""Test fakes for the daemon: an engine, a game store writing plain files, a simple tracker.

The fake tracker understands only clean hand sequences (lift, capture, place, drop) with no
settle timers; it exists so the daemon's wiring can be tested on its own. The end-to-end
tests use the real tracker and records.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from board_bridge.app.adapters import ResumedGame
from board_bridge.engine import PlayResult
from board_bridge.shogi import Board, Move, Outcome, Ruleset, piece_type_symbol
from board_bridge.tracker.events import PlayerInput, SensorEvent, SensorFrame
from board_bridge.tracker.intents import LedIntents, Mark
from board_bridge.tracker.outputs import (
    GameEnded,
    IllegalState,
    MoveClosed,
    MoveMade,
    QuestionAsked,
    SetupComplete,
    SetupProgress,
    StateRestored,
    TakeBack,
)


class FakeJournal:
    def __init__(self, path: Path, start_sfen: str, header: Mapping[str, str]) -> None:
        self.path = path
        self.calls: list[tuple[Any, ...]] = []
        self.moves: list[tuple[str, float]] = []
        self.finished: Outcome | None = None
        self._write({"start": start_sfen, "header": dict(header)})

    def _write(self, obj: dict[str, Any]) -> None:
        with self.path.open("a") as f:
            f.write(json.dumps(obj) + "\n")

    def append_move(self, move: Move, time_used: float, t: float) -> None:
        self.calls.append(("append", move.usi(), time_used))
        self.moves.append((move.usi(), time_used))
        self._write({"move": move.usi(), "time": time_used})

    def correct_last(self, move: Move, time_used: float, t: float) -> None:
        self.calls.append(("correct", move.usi(), time_used))
        self.moves[-1] = (move.usi(), time_used)
        self._write({"correct": move.usi(), "time": time_used})

    def retract_last(self, t: float) -> None:
        self.calls.append(("retract",))
        self.moves.pop()
        self._write({"retract": True})

    def take_back(self, t: float) -> None:
        self.calls.append(("takeback",))
        self.moves.pop()
        self._write({"takeback": True})

    def finish(self, outcome: Outcome, t: float) -> list[Path]:
        self.finished = outcome
        self._write({"end": str(outcome)})
        return [self.path]

    def close(self) -> None:
        self.calls.append(("close",))


class FakeStore:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.journals: list[FakeJournal] = []
        self.library: list[tuple[Sequence[Path], Outcome]] = []

    def find_unfinished(self) -> Path | None:
        for path in sorted(self.directory.glob("*.jsonl")):
            lines = [json.loads(x) for x in path.read_text().splitlines()]
            if not any("end" in x for x in lines):
                return path
        return None

    def resume(self, path: Path) -> ResumedGame:
        lines = [json.loads(x) for x in path.read_text().splitlines()]
        moves: list[tuple[str, float]] = []
        for x in lines[1:]:
            if "move" in x:
                moves.append((x["move"], x["time"]))
            elif "correct" in x:
                moves[-1] = (x["correct"], x["time"])
            else:
                moves.pop()
        journal = FakeJournal.__new__(FakeJournal)
        journal.path, journal.calls, journal.moves, journal.finished = path, [], moves, None
        self.journals.append(journal)
        return ResumedGame(
            journal,
            lines[0]["start"],
            [Move.from_usi(m) for m, _ in moves],
            [t for _, t in moves],
            lines[0]["header"],
        )

    def create(self, header: Mapping[str, str], start_sfen: str) -> FakeJournal:
        path = self.directory / f"game-{len(self.journals) + 1:03d}.jsonl"
        journal = FakeJournal(path, start_sfen, header)
        self.journals.append(journal)
        return journal

    def add_to_library(self, paths: Sequence[Path], outcome: Outcome) -> None:
        self.library.append((paths, outcome))


class FakeTracker:
    """Occupancy/polarity frames -> moves, for clean sequences only."""

    def __init__(
        self,
        sfen: str,
        *,
        sensing: str = "occupancy",
        mode: str = "casual",
        ruleset: Ruleset | None = None,
        setup: bool = True,
        revise: bool = True,
        params: Any = None,
    ) -> None:
        self.board = Board(sfen)
        self.sensing = sensing
        self.ruleset = ruleset or Ruleset()
        self.phase = "setup" if setup else "play"
        self.expected: Move | None = None
        self.hinted: Move | None = None
        self.pending_question: QuestionAsked | None = None
        self._candidates: list[Move] = []
        self._emptied: set[int] = set()
        self._error: IllegalState | None = None
        self._cells = "".join("x" if o else "." for o in self.board.occupied())
        self._outcome: Outcome | None = None
        self._setup_diff: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())

    # --------------------------------------------------------------- helpers
    def _occ(self, board: Board) -> str:
        return "".join("x" if o else "." for o in board.occupied())

    def _after(self, move: Move) -> Board:
        b = self.board.copy(stack=False)
        b.push(move)
        return b

    @property
    def intents(self) -> LedIntents:
        marks: dict[int, Mark] = {}
        if self.phase == "setup":
            clear, fill = self._setup_diff
            marks.update({sq: Mark.CLEAR for sq in clear})
            marks.update({sq: Mark.FILL for sq in fill})
            return LedIntents(marks)
        last = self.board.peek()
        if last is not None:
            if last.from_square is not None:
                marks[last.from_square] = Mark.LAST_MOVE
            marks[last.to_square] = Mark.LAST_MOVE
        engine_move = engine_drop = None
        if self.expected is not None:
            if self.expected.from_square is not None:
                marks[self.expected.from_square] = Mark.ENGINE_FROM
            else:
                assert self.expected.drop_piece_type is not None
                engine_drop = piece_type_symbol(self.expected.drop_piece_type)
            marks[self.expected.to_square] = Mark.ENGINE_TO
            engine_move = self.expected.usi()
        if self.hinted is not None:
            marks[self.hinted.to_square] = max(
                marks.get(self.hinted.to_square, Mark.NONE), Mark.HINT
            )
        question = None
        if self.pending_question is not None:
            marks[self.pending_question.square] = Mark.QUESTION
            question = self.pending_question.kind
        reason = None
        if self._error is not None:
            for sq in self._error.clear | self._error.fill:
                marks[sq] = Mark.ERROR
            reason = self._error.reason
        over = str(self._outcome) if self._outcome else None
        return LedIntents(
            marks,
            question=question,
            reason=reason,
            engine_move=engine_move,
            engine_drop=engine_drop,
            game_over=over,
        )

    # --------------------------------------------------------------- contract
    def feed(self, event: SensorEvent) -> list[Any]:
        if self.phase == "over":
            return []
        if isinstance(event, PlayerInput):
            return self._answer(event)
        assert isinstance(event, SensorFrame)
        cells = "".join("x" if c != "." else "." for c in event.cells)
        if self.phase == "setup":
            want = self._occ(self.board)
            clear = frozenset(i for i in range(81) if cells[i] == "x" and want[i] == ".")
            fill = frozenset(i for i in range(81) if cells[i] == "." and want[i] == "x")
            self._setup_diff = (clear, fill)
            if clear or fill:
                return [SetupProgress(clear, fill, event.t)]
            self.phase = "play"
            self._cells = cells
            return [SetupComplete(event.t)]
        current = self._occ(self.board)
        for i in range(81):
            if cells[i] == "." and current[i] == "x":
                self._emptied.add(i)
        if cells == current:
            self._emptied.clear()
            self.pending_question = None
            if self._error is not None:
                self._error = None
                return [StateRestored(event.t)]
            return []
        candidates = []
        for move in self.board.legal_moves:
            if self._occ(self._after(move)) != cells:
                continue
            if (
                self.board.piece_at(move.to_square) is not None
                and move.to_square not in self._emptied
            ):
                continue
            candidates.append(move)
        if self.sensing == "polarity":
            want_p = {i for i, c in enumerate(event.cells) if c == "p"}
            candidates = [
                m
                for m in candidates
                if {
                    sq for sq in range(81) if (p := self._after(m).piece_at(sq)) and p.is_promoted()
                }
                == want_p
            ]
        if not candidates:
            return []  # in the middle of a move
        if len({(m.from_square, m.to_square, m.drop_piece_type) for m in candidates}) > 1:
            kinds = "".join(sorted({piece_type_symbol(m.drop_piece_type or 0) for m in candidates}))
            self._candidates = candidates
            self.pending_question = QuestionAsked(
                "drop", tuple(kinds), candidates[0].to_square, event.t
            )
            return [self.pending_question]
        if len(candidates) == 2:  # promotion optional
            self._candidates = candidates
            self.pending_question = QuestionAsked(
                "promote", ("promote", "nonpromote"), candidates[0].to_square, event.t
            )
            return [self.pending_question]
        return self._made(candidates[0], event.t)

    def _answer(self, event: PlayerInput) -> list[Any]:
        q = self.pending_question
        if q is None:
            return []
        for move in self._candidates:
            if q.kind == "promote" and (event.value == "promote") == move.promotion:
                return self._made(move, event.t)
            if (
                q.kind == "drop"
                and move.drop_piece_type
                and piece_type_symbol(move.drop_piece_type) == event.value
            ):
                return self._made(move, event.t)
        return []

    def _made(self, move: Move, t: float) -> list[Any]:
        self.pending_question = None
        if self.expected is not None and move != self.expected:
            after = self._occ(self._after(move))
            current = self._occ(self.board)
            self._error = IllegalState(
                "unexpected",
                frozenset(i for i in range(81) if after[i] == "x" and current[i] == "."),
                frozenset(i for i in range(81) if after[i] == "." and current[i] == "x"),
                t,
            )
            return [self._error]
        ply = self.board.ply
        self.board.push(move)
        self._emptied.clear()
        out: list[Any] = [MoveMade(move, t, ply)]
        outcome = self.board.outcome(self.ruleset)
        if outcome is not None:
            self.phase = "over"
            self._outcome = outcome
            out.append(GameEnded(outcome, t))
        return out

    def tick(self, t: float) -> list[Any]:
        return []

    def finish(self, t: float) -> list[Any]:
        return []

    def expect(self, move: Move | None) -> None:
        self.expected = move

    def hint(self, move: Move | None) -> None:
        self.hinted = move

    def close_move(self, t: float) -> list[Any]:
        last = self.board.peek()
        return [MoveClosed(last, t, self.board.ply - 1)] if last else []

    def end_game(self, outcome: Outcome, t: float) -> list[Any]:
        self.phase = "over"
        self._outcome = outcome
        return [GameEnded(outcome, t)]

    def resync(self, t: float) -> list[Any]:
        return []

    def apply_move(self, move: Move, t: float) -> None:
        self.board.push(move)

    def take_back_for_test(self, t: float) -> list[Any]:
        move = self.board.pop()
        return [TakeBack(move, t, self.board.ply)]


class FakeEngine:
    """Plays a fixed list of replies; records what it was asked."""

    name = "fake-engine"

    def __init__(self, replies: list[str], delay: float = 0.01) -> None:
        self.replies = list(replies)
        self.delay = delay
        self.asked: list[tuple[str, tuple[str, ...], Any]] = []
        self.started = self.quit_called = False
        self.results: list[str] = []
        self.cancelled = 0

    async def start(self) -> None:
        self.started = True

    async def new_game(self) -> None:
        pass

    async def play(self, position: str, moves: Any, limit: Any, *, validate: Any = None) -> Any:
        self.asked.append((position, tuple(moves), limit))
        try:
            await asyncio.sleep(self.delay)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        move = self.replies.pop(0) if self.replies else "resign"
        assert move == "resign" or validate is None or validate(move)
        return PlayResult(move)

    async def analyse(self, position: str, moves: Any, limit: Any) -> Any:
        raise NotImplementedError

    async def game_over(self, result: Any) -> None:
        self.results.append(result)

    async def quit(self) -> None:
        self.quit_called = True
