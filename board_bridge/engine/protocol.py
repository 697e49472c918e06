"""USI protocol values and line parsing: options, info, bestmove, limits and go commands."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Literal

from board_bridge.engine.errors import EngineProtocolError, UnsupportedError

LOGGER = logging.getLogger(__name__)

BLACK_TO_MOVE: Final = "b"
WHITE_TO_MOVE: Final = "w"
STARTPOS: Final = "startpos"
STARTING_SFEN: Final = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

#: A USI move: a board move with an optional promotion, or a drop.
USI_MOVE_RE: Final = re.compile(r"(?:[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])")
#: Words an engine may send instead of a move after ``bestmove``.
RESIGN: Final = "resign"
WIN: Final = "win"

#: Every ``go`` parameter the client knows (``ponder`` is a flag, as is ``infinite``).
GO_PARAMS: Final = frozenset(
    {
        "btime",
        "wtime",
        "byoyomi",
        "binc",
        "winc",
        "movetime",
        "depth",
        "nodes",
        "infinite",
        "ponder",
    }
)

_SFEN_BOARD_RE: Final = re.compile(r"[1-9+PLNSGBRKplnsgbrk/]+")
_SFEN_HANDS_RE: Final = re.compile(r"-|(?:\d*[PLNSGBRplnsgbr])+")

Side = Literal["b", "w"]


def is_usi_move(text: str) -> bool:
    """True when ``text`` is the syntax of a USI move (``7g7f``, ``8h2b+``, ``P*5e``)."""
    return USI_MOVE_RE.fullmatch(text) is not None


# --------------------------------------------------------------------------- positions


def normalize_position(position: str) -> str:
    """The argument of a ``position`` command for ``position``: ``startpos`` or ``sfen <SFEN>``.

    Accepts ``"startpos"``, ``"sfen <SFEN>"`` or a bare SFEN. The SFEN is checked for its
    shape only (four fields, the right characters), never for chess sense: that is the rules
    core's job. Raises :class:`ValueError` on anything that could not be a position, which also
    keeps line breaks (a second command) out of the engine's input.
    """
    text = position.strip()
    if text == STARTPOS:
        return STARTPOS
    if text.startswith("sfen "):
        text = text[5:].strip()
    parts = text.split()
    if len(parts) == 3:  # the move number is optional in practice
        parts.append("1")
    if (
        len(parts) != 4
        or not _SFEN_BOARD_RE.fullmatch(parts[0])
        or parts[0].count("/") != 8
        or parts[1] not in (BLACK_TO_MOVE, WHITE_TO_MOVE)
        or not _SFEN_HANDS_RE.fullmatch(parts[2])
        or not parts[3].isdigit()
    ):
        raise ValueError(f"not an SFEN position: {position!r}")
    return "sfen " + " ".join(parts)


def side_to_move(position: str, moves: Iterable[str] = ()) -> Side:
    """Who moves after ``moves`` are played from ``position`` (``"b"`` sente, ``"w"`` gote)."""
    spec = normalize_position(position)
    side = BLACK_TO_MOVE if spec == STARTPOS else spec.split()[2]
    if sum(1 for _ in moves) % 2:
        side = WHITE_TO_MOVE if side == BLACK_TO_MOVE else BLACK_TO_MOVE
    return BLACK_TO_MOVE if side == BLACK_TO_MOVE else WHITE_TO_MOVE


def position_command(position: str, moves: Iterable[str] = ()) -> str:
    """The ``position`` line for a start position and the USI moves played from it."""
    move_list = list(moves)
    for move in move_list:
        if not is_usi_move(move):
            raise ValueError(f"not a USI move: {move!r}")
    line = "position " + normalize_position(position)
    if move_list:
        line += " moves " + " ".join(move_list)
    return line


# --------------------------------------------------------------------------- options

OptionType = Literal["check", "spin", "combo", "button", "string", "filename"]
OPTION_TYPES: Final = ("check", "spin", "combo", "button", "string", "filename")
_OPTION_KEYWORDS: Final = frozenset({"name", "type", "default", "min", "max", "var"})


@dataclass(frozen=True)
class Option:
    """One ``option`` an engine announced between ``usi`` and ``usiok``."""

    name: str
    type: OptionType
    default: str | None = None
    min: int | None = None
    max: int | None = None
    var: tuple[str, ...] = ()

    def format_value(self, value: str | int | bool | None) -> str | None:
        """The text to send after ``value`` in ``setoption``, checked against this option.

        Returns ``None`` for a button (sent without a value). Raises :class:`UnsupportedError`
        when the value does not fit the option's type, range or choices.
        """
        if self.type == "button":
            return None
        if value is None:
            raise UnsupportedError(f"option {self.name!r} ({self.type}) needs a value")
        if self.type == "check":
            if isinstance(value, bool):
                return "true" if value else "false"
            text = str(value).strip().lower()
            if text in ("true", "false"):
                return text
            raise UnsupportedError(f"option {self.name!r} is a check: true or false, not {value!r}")
        if self.type == "spin":
            if isinstance(value, bool):
                raise UnsupportedError(f"option {self.name!r} is a spin: a number, not {value!r}")
            try:
                number = int(str(value).strip())
            except ValueError:
                raise UnsupportedError(
                    f"option {self.name!r} is a spin: a number, not {value!r}"
                ) from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise UnsupportedError(
                    f"option {self.name!r} = {number} is outside {self.min}..{self.max}"
                )
            return str(number)
        text = str(value)
        if "\n" in text or "\r" in text:
            raise UnsupportedError(f"option {self.name!r}: a value cannot contain a line break")
        if self.type == "combo":
            for choice in self.var:
                if choice.lower() == text.lower():
                    return choice
            raise UnsupportedError(
                f"option {self.name!r} must be one of {', '.join(self.var)}; not {value!r}"
            )
        return text if text else "<empty>"


def parse_option(line: str) -> Option | None:
    """Parse ``option name <name> type <type> [default ..] [min ..] [max ..] [var ..]*``.

    Names and values may contain spaces. Returns ``None`` (and logs) for a line that is not a
    readable option, so one broken line never stops an engine from starting.
    """
    tokens = line.split()
    if len(tokens) < 5 or tokens[0] != "option" or tokens[1] != "name":
        LOGGER.warning("ignoring unreadable option line: %r", line)
        return None
    try:
        type_at = tokens.index("type", 2)
    except ValueError:
        LOGGER.warning("ignoring option line without a type: %r", line)
        return None
    name = " ".join(tokens[2:type_at])
    if not name or type_at + 1 >= len(tokens) or tokens[type_at + 1] not in OPTION_TYPES:
        LOGGER.warning("ignoring option line with a bad name or type: %r", line)
        return None
    option_type: OptionType = tokens[type_at + 1]  # type: ignore[assignment]
    values: dict[str, str] = {}
    var: list[str] = []
    key: str | None = None
    words: list[str] = []

    def flush() -> None:
        if key is None:
            return
        text = " ".join(words)
        if key == "var":
            var.append(text)
        else:
            values[key] = text

    for token in tokens[type_at + 2 :]:
        if token in _OPTION_KEYWORDS - {"name", "type"}:
            flush()
            key, words = token, []
        else:
            words.append(token)
    flush()
    default = values.get("default")

    def number(text: str | None) -> int | None:
        if text is None:
            return None
        try:
            return int(text)
        except ValueError:
            LOGGER.warning("option %r: ignoring a bad bound %r", name, text)
            return None

    if option_type in ("string", "filename") and default == "<empty>":
        default = ""
    return Option(
        name=name,
        type=option_type,
        default=default,
        min=number(values.get("min")),
        max=number(values.get("max")),
        var=tuple(var),
    )


# --------------------------------------------------------------------------- info


@dataclass(frozen=True)
class Score:
    """An evaluation from the side to move's point of view.

    ``cp`` is set for a centipawn score. For a mate score ``mate_side`` is +1 (the side to
    move mates) or -1 (it is mated) and ``mate`` the signed number of plies when the engine
    gave one (``score mate +`` / ``-`` give no distance; ``mate 0`` means mated now).
    ``bound`` is ``"lower"``/``"upper"`` when the engine said so.
    """

    cp: int | None = None
    mate: int | None = None
    mate_side: int = 0
    bound: Literal["lower", "upper"] | None = None

    @property
    def is_mate(self) -> bool:
        return self.mate_side != 0

    def __str__(self) -> str:
        if self.is_mate:
            if self.mate is None:
                text = "mate " + ("+" if self.mate_side > 0 else "-")
            else:
                text = f"mate {self.mate}"
        else:
            text = f"cp {self.cp}"
        return text + (f" {self.bound}bound" if self.bound else "")


@dataclass(frozen=True)
class Info:
    """What an engine reports while it searches (any field may be missing)."""

    depth: int | None = None
    seldepth: int | None = None
    time: int | None = None  # milliseconds
    nodes: int | None = None
    nps: int | None = None
    hashfull: int | None = None
    multipv: int | None = None
    score: Score | None = None
    pv: tuple[str, ...] = ()
    currmove: str | None = None
    string: str | None = None

    def merged(self, newer: Info) -> Info:
        """This info updated by a newer line: the newer line's fields win where it has them."""
        changes = {
            f.name: getattr(newer, f.name)
            for f in fields(newer)
            if getattr(newer, f.name) not in (None, ())
        }
        return replace(self, **changes)


_INT_FIELDS: Final = frozenset({"depth", "seldepth", "time", "nodes", "nps", "hashfull", "multipv"})
_SKIP_INT_FIELDS: Final = frozenset({"currmovenumber", "cpuload", "tbhits", "sbhits"})


def parse_info(line: str) -> Info:
    """Parse an ``info ...`` line, skipping any part it cannot read (never raises).

    A ``pv`` ends at the first word that is not a USI move (GPSShogi writes ``pass`` and
    ``resign`` there), so a display never gets a broken variation.
    """
    tokens = line.split()
    values: dict[str, object] = {}
    i = 1 if tokens and tokens[0] == "info" else 0
    while i < len(tokens):
        key = tokens[i]
        i += 1
        if key in _INT_FIELDS or key in _SKIP_INT_FIELDS:
            if i < len(tokens):
                try:
                    number = int(tokens[i])
                except ValueError:
                    LOGGER.debug("info: bad %s %r in %r", key, tokens[i], line)
                else:
                    if key in _INT_FIELDS:
                        values[key] = number
                    i += 1
        elif key == "score":
            score, i = _parse_score(tokens, i, line)
            if score is not None:
                values["score"] = score
        elif key == "pv":
            pv: list[str] = []
            for token in tokens[i:]:
                if not is_usi_move(token):
                    break
                pv.append(token)
            values["pv"] = tuple(pv)
            break
        elif key == "string":
            _, _, rest = line.partition(" string ")
            values["string"] = rest.strip() if rest else " ".join(tokens[i:])
            break
        elif key == "currmove":
            if i < len(tokens) and is_usi_move(tokens[i]):
                values["currmove"] = tokens[i]
                i += 1
        elif key in ("refutation", "currline"):
            break  # rest of the line belongs to it; not shown
        else:
            LOGGER.debug("info: skipping %r in %r", key, line)
    return Info(**values)  # type: ignore[arg-type]


def _parse_score(tokens: list[str], i: int, line: str) -> tuple[Score | None, int]:
    if i + 1 >= len(tokens):
        LOGGER.debug("info: truncated score in %r", line)
        return None, len(tokens)
    kind, value = tokens[i], tokens[i + 1]
    i += 2
    bound: Literal["lower", "upper"] | None = None
    if i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
        bound = "lower" if tokens[i] == "lowerbound" else "upper"
        i += 1
    if kind == "cp":
        try:
            return Score(cp=int(value), bound=bound), i
        except ValueError:
            LOGGER.debug("info: bad cp %r in %r", value, line)
            return None, i
    if kind == "mate":
        if value in ("+", "-"):
            return Score(mate_side=1 if value == "+" else -1, bound=bound), i
        try:
            plies = int(value)
        except ValueError:
            LOGGER.debug("info: bad mate %r in %r", value, line)
            return None, i
        negative = plies < 0 or value.startswith("-") or plies == 0
        return Score(mate=plies, mate_side=-1 if negative else 1, bound=bound), i
    LOGGER.debug("info: unknown score kind %r in %r", kind, line)
    return None, i - 1


# --------------------------------------------------------------------------- bestmove


@dataclass(frozen=True)
class PlayResult:
    """The engine's answer to a search.

    ``bestmove`` is a USI move, ``"resign"`` or ``"win"`` (an entering-king declaration);
    ``ponder`` the reply it expects, if it said one; ``info`` everything it reported (merged).
    """

    bestmove: str
    ponder: str | None = None
    info: Info = field(default_factory=Info)

    @property
    def resigned(self) -> bool:
        return self.bestmove == RESIGN

    @property
    def declared_win(self) -> bool:
        return self.bestmove == WIN

    @property
    def is_move(self) -> bool:
        return is_usi_move(self.bestmove)


def parse_bestmove(line: str) -> tuple[str, str | None]:
    """``bestmove <move> [ponder <move>]`` -> (move, ponder).

    ``resign`` and ``win`` are answers too; ``(none)`` (a chess habit for "no legal move")
    is read as ``resign``. Raises :class:`EngineProtocolError` when the move is not a move.
    """
    tokens = line.split()
    if len(tokens) < 2 or tokens[0] != "bestmove":
        raise EngineProtocolError(f"engine sent a bestmove line without a move: {line!r}")
    move = tokens[1]
    if move == "(none)":
        LOGGER.info("engine answered bestmove (none): taken as resign")
        move = RESIGN
    if move not in (RESIGN, WIN) and not is_usi_move(move):
        raise EngineProtocolError(f"engine sent an illegal bestmove string: {line!r}")
    ponder: str | None = None
    if len(tokens) >= 4 and tokens[2] == "ponder":
        if is_usi_move(tokens[3]):
            ponder = tokens[3]
        else:
            LOGGER.warning("ignoring an unreadable ponder move in %r", line)
    return move, ponder


# --------------------------------------------------------------------------- limits


@dataclass(frozen=True)
class Limit:
    """How long a search may run. Every time is in milliseconds, as on the USI wire.

    ``btime``/``wtime`` are the clocks left; ``byoyomi`` the byoyomi period, or ``binc``/
    ``winc`` a Fischer increment (not both); ``movetime`` a fixed time; ``depth``/``nodes``
    search bounds; ``infinite`` searches until :meth:`stop`.
    """

    btime: int | None = None
    wtime: int | None = None
    byoyomi: int | None = None
    binc: int | None = None
    winc: int | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False

    def __post_init__(self) -> None:
        for name in ("btime", "wtime", "byoyomi", "binc", "winc", "movetime", "depth", "nodes"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"Limit.{name} must be a non-negative int, not {value!r}")
        if self.byoyomi is not None and (self.binc is not None or self.winc is not None):
            raise ValueError("Limit: byoyomi and binc/winc cannot be used together")
        if not self.infinite and not any(
            getattr(self, name) is not None
            for name in ("btime", "wtime", "byoyomi", "binc", "winc", "movetime", "depth", "nodes")
        ):
            raise ValueError("Limit: give a clock, movetime, depth, nodes or infinite=True")

    @property
    def has_clock(self) -> bool:
        return any(
            getattr(self, name) is not None
            for name in ("btime", "wtime", "byoyomi", "binc", "winc")
        )

    def budget_ms(self, side: Side) -> int | None:
        """The longest the engine may think for ``side`` to move, or None when unbounded."""
        if self.infinite:
            return None
        budgets: list[int] = []
        if self.movetime is not None:
            budgets.append(self.movetime)
        if self.has_clock:
            own = (self.btime if side == BLACK_TO_MOVE else self.wtime) or 0
            inc = (self.binc if side == BLACK_TO_MOVE else self.winc) or 0
            budgets.append(own + (self.byoyomi or 0) + inc)
        return min(budgets) if budgets else None

    def spend(self, side: Side, elapsed_ms: int) -> Limit:
        """This limit after ``side`` already used ``elapsed_ms`` (for a retried search).

        The clock of ``side`` goes down first, then its byoyomi; nothing goes below zero.
        """
        if elapsed_ms <= 0 or self.infinite:
            return self
        changes: dict[str, Any] = {}
        left = elapsed_ms
        own_name = "btime" if side == BLACK_TO_MOVE else "wtime"
        own = getattr(self, own_name)
        if own is not None:
            changes[own_name] = max(0, own - left)
            left = max(0, left - own)
        if left and self.byoyomi is not None:
            changes["byoyomi"] = max(0, self.byoyomi - left)
        if self.movetime is not None:
            changes["movetime"] = max(0, self.movetime - elapsed_ms)
        return replace(self, **changes)


def go_command(
    limit: Limit,
    side: Side,
    *,
    ponder: bool = False,
    supported: frozenset[str] = GO_PARAMS,
    swap_clocks: bool = False,
) -> str:
    """The ``go`` line for ``limit``, translated for an engine that supports only ``supported``.

    Translations (each logged): ``movetime`` becomes ``btime 0 wtime 0 byoyomi <movetime>``;
    an increment becomes a byoyomi of the mover's increment. Where no translation exists
    (``depth``/``nodes`` as the only bound, ``infinite``, ``ponder``) it raises
    :class:`UnsupportedError`, because such engines crash on a parameter they do not know.
    ``swap_clocks`` sends sente's clock as ``wtime``/``winc`` and gote's as ``btime``/``binc``,
    for engines that read them the chess way round (Fairy-Stockfish 11).
    """
    parts = ["go"]
    if ponder:
        if "ponder" not in supported:
            raise UnsupportedError("this engine cannot ponder (go ponder)")
        parts.append("ponder")
    if limit.infinite:
        if "infinite" not in supported:
            raise UnsupportedError("this engine has no go infinite")
        parts.append("infinite")
        return " ".join(parts)

    clock: dict[str, int] = {}
    if limit.has_clock:
        clock["btime"] = limit.btime or 0
        clock["wtime"] = limit.wtime or 0
        if limit.byoyomi is not None:
            clock["byoyomi"] = limit.byoyomi
        if limit.binc is not None or limit.winc is not None:
            if {"binc", "winc"} <= supported:
                clock["binc"] = limit.binc or 0
                clock["winc"] = limit.winc or 0
            elif "byoyomi" in supported:
                inc = (limit.binc if side == BLACK_TO_MOVE else limit.winc) or 0
                LOGGER.info("engine has no binc/winc: sending the increment as byoyomi %d", inc)
                clock["byoyomi"] = inc
            else:
                raise UnsupportedError("this engine supports neither binc/winc nor byoyomi")
    extra: dict[str, int] = {}
    if limit.movetime is not None:
        if "movetime" in supported:
            extra["movetime"] = limit.movetime
        elif not clock and "byoyomi" in supported:
            LOGGER.info("engine has no go movetime: sending byoyomi %d", limit.movetime)
            clock = {"btime": 0, "wtime": 0, "byoyomi": limit.movetime}
        elif clock:
            LOGGER.info("engine has no go movetime: dropped (the clock bounds the search)")
        else:
            raise UnsupportedError("this engine supports neither movetime nor byoyomi")
    for name in ("depth", "nodes"):
        value = getattr(limit, name)
        if value is None:
            continue
        if name in supported:
            extra[name] = value
        elif clock or extra:
            LOGGER.info("engine has no go %s: dropped (another bound limits the search)", name)
        else:
            raise UnsupportedError(f"this engine has no go {name}; give it a clock or movetime")
    if swap_clocks:
        swapped = {"btime": "wtime", "wtime": "btime", "binc": "winc", "winc": "binc"}
        renamed = {swapped.get(name, name): value for name, value in clock.items()}
        order = ("btime", "wtime", "byoyomi", "binc", "winc")
        clock = {name: renamed[name] for name in order if name in renamed}
    for name, value in clock.items():
        if name not in supported:
            raise UnsupportedError(f"this engine has no go {name}")
        parts += [name, str(value)]
    for name, value in extra.items():
        parts += [name, str(value)]
    return " ".join(parts)


def format_setoption(name: str, value: str | None) -> str:
    """``setoption name <name> [value <value>]``."""
    if "\n" in name or "\r" in name:
        raise UnsupportedError(f"an option name cannot contain a line break: {name!r}")
    return f"setoption name {name}" + ("" if value is None else f" value {value}")


def merge_options(
    *layers: Mapping[str, str | int | bool | None],
) -> dict[str, str | int | bool | None]:
    """Later layers win; names compare case-insensitively (USI option names are not
    case-sensitive in practice), keeping the last spelling."""
    merged: dict[str, tuple[str, str | int | bool | None]] = {}
    for layer in layers:
        for name, value in layer.items():
            merged[name.lower()] = (name, value)
    return dict(merged.values())
