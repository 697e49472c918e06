"""The crash-safe game journal: every move appended and fsynced before it is acknowledged,
finished records written atomically, unfinished games found and resumed after a crash."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from board_bridge.records.files import (
    FORMAT_EXTENSIONS,
    atomic_write,
    encode,
    fsync_directory,
    render,
)
from board_bridge.records.model import GameRecord, RecordedMove, TimeControl
from board_bridge.shogi import (
    STARTING_SFEN,
    Board,
    IllegalMoveError,
    InvalidSfenError,
    Move,
    Outcome,
    Termination,
)

JOURNAL_SUFFIX: Final = ".journal"
JOURNAL_VERSION: Final = 1
DEFAULT_FORMATS: Final = ("kifu", "csa")
#: Header keys with a GameRecord field of their own; others go to ``extra``.
HEADER_FIELDS: Final = ("sente", "gote", "event", "started", "time_total", "byoyomi", "increment")


class JournalError(OSError):
    """A journal that cannot be created, read or written."""


class JournalClosedError(JournalError):
    """A write to a journal that was closed or whose game has ended."""


def _encode_entry(entry: Mapping[str, Any]) -> bytes:
    """One journal line: ``<crc32 hex> <compact JSON>\\n``."""
    body = json.dumps(entry, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    data = body.encode("utf-8")
    return f"{zlib.crc32(data):08x} ".encode("ascii") + data + b"\n"


def _decode_line(line: bytes) -> dict[str, Any] | None:
    """The entry of a complete line (without its newline), or None when it is damaged."""
    head = line[:8]
    if len(line) < 10 or line[8:9] != b" " or head.strip(b"0123456789abcdef"):
        return None
    crc = int(head, 16)
    body = line[9:]
    if zlib.crc32(body) != crc:
        return None
    try:
        entry = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return entry if isinstance(entry, dict) else None


@dataclass
class JournalState:
    """What a journal file holds: its valid entries and where they end."""

    entries: list[dict[str, Any]]
    valid_length: int  # bytes of intact, complete lines
    torn_tail: bool  # the file ends with a partial or damaged last line (dropped)
    problems: list[str] = field(default_factory=list)


def load_entries(path: Path) -> JournalState:
    """Read a journal: every complete line whose checksum and sequence number are right,
    up to the first one that is not. A damaged or partial last line (a write cut short)
    is dropped; damage before the last line is reported in ``problems``."""
    data = path.read_bytes()
    entries: list[dict[str, Any]] = []
    pos = 0
    problems: list[str] = []
    torn = False
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            torn = True  # the last write did not finish
            break
        entry = _decode_line(data[pos:end])
        if entry is None or entry.get("seq") != len(entries):
            if data.find(b"\n", end + 1) >= 0 or end + 1 < len(data):
                problems.append(
                    f"damaged entry {len(entries)} at byte {pos}: later entries ignored"
                )
            torn = True
            break
        entries.append(entry)
        pos = end + 1
    return JournalState(entries, pos, torn, problems)


def _header_json(header: GameRecord | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(header, GameRecord):
        out: dict[str, Any] = {
            "sente": header.sente,
            "gote": header.gote,
            "event": header.event,
        }
        if header.started is not None:
            out["started"] = header.started.isoformat()
        tc = header.time_control
        for key, value in (
            ("time_total", tc.total),
            ("byoyomi", tc.byoyomi),
            ("increment", tc.increment),
        ):
            if value is not None:
                out[key] = value
        out["extra"] = [list(kv) for kv in header.extra]
        return out
    out = {}
    extra = []
    for key, item in header.items():
        if key in HEADER_FIELDS:
            if key == "started" and isinstance(item, datetime):
                out[key] = item.isoformat()
            elif key in ("time_total", "byoyomi", "increment") and item is not None:
                out[key] = float(item)
            else:
                out[key] = item
        elif key == "extra" and isinstance(item, list):
            extra.extend(item)
        else:
            extra.append([str(key), str(item)])
    out["extra"] = extra
    return out


def _record_from(
    start: Mapping[str, Any], moves: list[RecordedMove], comments: dict[int, str]
) -> GameRecord:
    header = start.get("header") or {}
    started = None
    if header.get("started"):
        with contextlib.suppress(ValueError, TypeError):
            started = datetime.fromisoformat(str(header["started"]))
    if started is None and start.get("created"):
        with contextlib.suppress(ValueError, TypeError):
            started = datetime.fromisoformat(str(start["created"]))

    def num(key: str) -> float | None:
        v = header.get(key)
        return float(v) if isinstance(v, int | float) else None

    out_moves = [
        RecordedMove(rm.move, rm.time_used, comments.get(i + 1, "")) for i, rm in enumerate(moves)
    ]
    return GameRecord(
        start_sfen=str(start.get("sfen") or STARTING_SFEN),
        moves=tuple(out_moves),
        sente=str(header.get("sente") or ""),
        gote=str(header.get("gote") or ""),
        event=str(header.get("event") or ""),
        started=started,
        time_control=TimeControl(num("time_total"), num("byoyomi"), num("increment")),
        comment=comments.get(0, ""),
        extra=tuple((str(k), str(v)) for k, v in header.get("extra") or []),
    )


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "termination": outcome.termination.value,
        "winner": outcome.winner,
        "detail": outcome.detail,
    }


def _outcome_from(data: Mapping[str, Any]) -> Outcome:
    return Outcome(
        Termination(data["termination"]), data.get("winner"), str(data.get("detail") or "")
    )


@dataclass(frozen=True)
class JournalInfo:
    """An unfinished (or unclosed) game found in a journal directory."""

    path: Path
    game_id: str
    start_sfen: str
    sente: str
    gote: str
    started: datetime | None
    moves: int
    last_t: float | None
    ended: bool  # the result is in the journal, the record files may be missing
    outcome: Outcome | None
    problems: tuple[str, ...] = ()


class _Replay:
    """A journal's entries replayed into the game they describe."""

    def __init__(self, entries: list[dict[str, Any]]) -> None:
        if not entries or entries[0].get("type") != "start":
            raise JournalError("the journal has no start entry")
        self.start = entries[0]
        try:
            self.board = Board(str(self.start.get("sfen") or STARTING_SFEN))
        except InvalidSfenError as exc:
            raise JournalError(f"the journal's start position: {exc}") from None
        self.moves: list[RecordedMove] = []
        self.comments: dict[int, str] = {}
        self.outcome: Outcome | None = None
        self.illegal: Move | None = None
        self.closed = False
        self.finished_at: datetime | None = None
        self.files: list[str] = []
        self.last_t: float | None = None
        self.header_updates: dict[str, Any] = {}
        for entry in entries[1:]:
            self.apply(entry)

    def apply(self, entry: Mapping[str, Any]) -> None:
        kind = entry.get("type")
        t = entry.get("t")
        if isinstance(t, int | float):
            self.last_t = float(t)
        if kind in ("move", "correct"):
            if kind == "correct" and self.moves:
                self.board.pop()
                self.moves.pop()
                self.comments.pop(len(self.moves) + 1, None)
            move = Move.from_usi(str(entry["usi"]))
            try:
                self.board.check_legal(move)
            except IllegalMoveError as exc:
                raise JournalError(f"entry {entry.get('seq')}: {exc}") from None
            self.board.push(move)
            time_used = entry.get("time")
            self.moves.append(
                RecordedMove(move, float(time_used) if time_used is not None else None)
            )
        elif kind in ("retract", "takeback"):
            if self.moves:
                self.board.pop()
                self.moves.pop()
                self.comments.pop(len(self.moves) + 1, None)
        elif kind == "comment":
            ply = int(entry.get("ply", len(self.moves)))
            text = str(entry.get("text", ""))
            old = self.comments.get(ply)
            self.comments[ply] = f"{old}\n{text}" if old else text
        elif kind == "header":
            self.header_updates.update(entry.get("items") or {})
        elif kind == "end":
            self.outcome = _outcome_from(entry["outcome"])
            if entry.get("illegal"):
                self.illegal = Move.from_usi(str(entry["illegal"]))
            if entry.get("finished"):
                with contextlib.suppress(ValueError):
                    self.finished_at = datetime.fromisoformat(str(entry["finished"]))
        elif kind == "closed":
            self.closed = True
            self.files = [str(f) for f in entry.get("files") or []]

    def record(self) -> GameRecord:
        start = dict(self.start)
        if self.header_updates:
            header = dict(start.get("header") or {})
            update = _header_json(self.header_updates)
            extra = {str(k): str(v) for k, v in header.get("extra") or []}
            extra.update({str(k): str(v) for k, v in update.pop("extra")})
            header.update(update)
            header["extra"] = [[k, v] for k, v in extra.items()]
            start["header"] = header
        rec = _record_from(start, self.moves, self.comments)
        return rec.replace(
            outcome=self.outcome, illegal_move=self.illegal, finished=self.finished_at
        )


class GameJournal:
    """A game being recorded, one JSON line per event, each on disk before the call
    returns (write, flush, fsync). The finished record is written atomically.

    Use :meth:`create` for a new game, :meth:`resume` after a crash,
    :func:`find_unfinished` to find the games to resume."""

    def __init__(self, path: Path, replay: _Replay, seq: int, formats: Sequence[str]) -> None:
        self.path = path
        self.game_id = path.stem
        self._replay = replay
        self._seq = seq
        self._formats = tuple(formats)
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND)

    # --- life cycle -------------------------------------------------------------

    @classmethod
    def create(
        cls,
        directory: str | os.PathLike[str],
        record_header: GameRecord | Mapping[str, Any] | None = None,
        start_sfen: str = STARTING_SFEN,
        formats: Sequence[str] = DEFAULT_FORMATS,
        game_id: str | None = None,
    ) -> GameJournal:
        """Start a journal for a new game in ``directory`` (made if needed). The header
        gives the players and clock: a GameRecord, or a mapping with sente, gote, event,
        started (datetime or ISO text), time_total, byoyomi, increment, and any other
        items (kept as extra header items)."""
        for fmt in formats:
            if fmt not in FORMAT_EXTENSIONS:
                raise ValueError(f"unknown record format {fmt!r}")
        sfen = Board(start_sfen).sfen()  # raises InvalidSfenError
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        now = datetime.now().replace(microsecond=0)
        gid = game_id or f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        path = folder / f"{gid}{JOURNAL_SUFFIX}"
        header = _header_json(record_header or {})
        header.setdefault("started", now.isoformat())
        start = {
            "seq": 0,
            "type": "start",
            "version": JOURNAL_VERSION,
            "id": gid,
            "sfen": sfen,
            "header": header,
            "created": now.isoformat(),
            "formats": list(formats),
        }
        data = _encode_entry(start)  # a header that is not JSON fails here, before any file
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise JournalError(f"{path} already exists") from None
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_directory(folder)
        return cls(path, _Replay([start]), 1, formats)

    @classmethod
    def resume(
        cls, path: str | os.PathLike[str], formats: Sequence[str] | None = None
    ) -> tuple[GameJournal, GameRecord]:
        """Reopen an unfinished game's journal: the game so far, and a journal to go on
        writing. A torn last line is cut off the file first, so new entries follow the
        last intact one. The caller waits for the physical board to match
        ``record.board()`` before going on."""
        p = Path(path)
        state = load_entries(p)
        replay = _Replay(state.entries)
        if state.problems:
            # Damage before the end is not what a crash leaves: keep the file as it was
            # beside the journal, then go on from the last intact entry.
            backup = p.with_name(f"{p.name}.damaged-{secrets.token_hex(3)}")
            atomic_write(backup, p.read_bytes())
        if state.torn_tail:
            with open(p, "r+b") as f:
                f.truncate(state.valid_length)
                f.flush()
                os.fsync(f.fileno())
        stored = state.entries[0].get("formats") or list(DEFAULT_FORMATS)
        journal = cls(p, replay, len(state.entries), formats or stored)
        return journal, replay.record()

    def close(self) -> None:
        """Close the file (safe to call twice). The game stays resumable."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> GameJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the game ---------------------------------------------------------------

    @property
    def record(self) -> GameRecord:
        """The game as recorded so far."""
        return self._replay.record()

    @property
    def board(self) -> Board:
        return self._replay.board.copy()

    @property
    def ended(self) -> bool:
        return self._replay.outcome is not None

    def _append(self, entry: dict[str, Any]) -> None:
        if self._fd is None:
            raise JournalClosedError(f"{self.path} is closed")
        entry["seq"] = self._seq
        data = _encode_entry(entry)
        written = os.write(self._fd, data)
        if written != len(data):
            raise JournalError(f"{self.path}: short write ({written} of {len(data)} bytes)")
        os.fsync(self._fd)
        self._seq += 1
        self._replay.apply(entry)

    def _check_open_game(self) -> None:
        if self._replay.outcome is not None:
            raise JournalClosedError(f"the game of {self.path} has ended")

    def append_move(
        self, move: Move, time_used: float | None = None, t: float | None = None
    ) -> None:
        """Record a move (checked by the rules core: IllegalMoveError, nothing written).
        When this returns, the move is on disk."""
        self._check_open_game()
        self._replay.board.check_legal(move)
        self._append({"type": "move", "usi": move.usi(), "time": time_used, "t": t})

    def correct_last(
        self, move: Move, time_used: float | None = None, t: float | None = None
    ) -> None:
        """Replace the last move (a player moved the piece on before the opponent replied)."""
        self._check_open_game()
        board = self._replay.board
        if not board.move_stack:
            raise IndexError("no move to correct")
        last = board.pop()
        try:
            board.check_legal(move)
        finally:
            board.push(last)
        self._append({"type": "correct", "usi": move.usi(), "time": time_used, "t": t})

    def retract_last(self, t: float | None = None) -> None:
        """Remove the last move: it was never made (a misread the tracker took back)."""
        self._check_open_game()
        if not self._replay.moves:
            raise IndexError("no move to retract")
        self._append({"type": "retract", "t": t})

    def take_back(self, t: float | None = None) -> None:
        """Remove the last move: the players agreed to take it back (待った)."""
        self._check_open_game()
        if not self._replay.moves:
            raise IndexError("no move to take back")
        self._append({"type": "takeback", "t": t})

    def comment(self, text: str, ply: int | None = None, t: float | None = None) -> None:
        """Attach a comment to move ``ply`` (the last move by default; 0 = the game)."""
        self._append(
            {
                "type": "comment",
                "text": text,
                "ply": len(self._replay.moves) if ply is None else ply,
                "t": t,
            }
        )

    def set_header(self, items: Mapping[str, Any], t: float | None = None) -> None:
        """Add or change header items (names learnt after the start, ...)."""
        clean = {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in items.items()}
        self._append({"type": "header", "items": clean, "t": t})

    def finish(
        self,
        outcome: Outcome,
        t: float | None = None,
        formats: Sequence[str] | None = None,
        illegal_move: Move | None = None,
    ) -> list[Path]:
        """End the game: the result goes to the journal first (fsynced), then each record
        file is written atomically beside the journal (``<id>.kifu``, ``<id>.csa``, ...),
        then the journal is marked closed. Returns the record files. Calling it again
        after a crash in between rewrites the files from the journal."""
        if self._replay.outcome is None:
            entry: dict[str, Any] = {
                "type": "end",
                "outcome": _outcome_json(outcome),
                "finished": datetime.now().replace(microsecond=0).isoformat(),
                "t": t,
            }
            if illegal_move is not None:
                entry["illegal"] = illegal_move.usi()
            self._append(entry)
        paths = self.write_records(formats)
        if not self._replay.closed:
            self._append({"type": "closed", "files": [p.name for p in paths], "t": t})
        self.close()
        return paths

    def write_records(self, formats: Sequence[str] | None = None) -> list[Path]:
        """Write the game's record files atomically (also for a game still going on)."""
        record = self.record
        # Temporary files of an atomic write a crash interrupted: never the real thing.
        for stale in self.path.parent.glob(f".{self.game_id}.*.tmp"):
            with contextlib.suppress(OSError):
                stale.unlink()
        paths = []
        for fmt in formats or self._formats:
            text, encoding = render(record, fmt)
            if encoding == "cp932":
                try:
                    text.encode("cp932")
                except UnicodeEncodeError:
                    text = text.replace("encoding=Shift_JIS", "encoding=UTF-8", 1)
                    encoding = "utf-8"
            target = self.path.with_name(self.game_id + FORMAT_EXTENSIONS[fmt])
            if fmt == "csa3":
                target = self.path.with_name(self.game_id + ".v3.csa")
            paths.append(atomic_write(target, encode(text, encoding)))
        return paths


def journal_info(path: str | os.PathLike[str]) -> JournalInfo:
    """What a journal holds (raises JournalError when it has no intact start entry)."""
    p = Path(path)
    state = load_entries(p)
    replay = _Replay(state.entries)
    record = replay.record()
    problems = list(state.problems)
    if state.torn_tail and not state.problems:
        problems.append("the last entry was cut short (dropped)")
    return JournalInfo(
        path=p,
        game_id=str(replay.start.get("id") or p.stem),
        start_sfen=record.start_sfen,
        sente=record.sente,
        gote=record.gote,
        started=record.started,
        moves=len(record.moves),
        last_t=replay.last_t,
        ended=replay.outcome is not None,
        outcome=replay.outcome,
        problems=tuple(problems),
    )


def find_unfinished(directory: str | os.PathLike[str]) -> list[JournalInfo]:
    """The journals in ``directory`` whose game was not closed, oldest first. A journal
    with no intact start entry (a crash while it was being created) holds no move and is
    left out."""
    folder = Path(directory)
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.glob(f"*{JOURNAL_SUFFIX}")):
        try:
            state = load_entries(path)
            replay = _Replay(state.entries)
        except (JournalError, OSError, ValueError, KeyError):
            continue
        if not replay.closed:
            out.append(journal_info(path))
    return out


def load_journal(path: str | os.PathLike[str]) -> GameRecord:
    """The game a journal holds, without opening it for writing."""
    state = load_entries(Path(path))
    return _Replay(state.entries).record()
