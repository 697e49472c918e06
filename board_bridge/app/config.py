"""The daemon's configuration: dataclasses loaded from TOML, every error naming its key.

``load_config(path)`` reads a file; ``parse_config(data)`` a mapping. Both collect every
problem and raise one :class:`ConfigError` listing them, each as ``key: what is wrong``
(``board.source: unknown kind 'gpoi' (expected one of gpio, replay, serial, simulated)``).
Everything has a default, so an empty file is a valid configuration (the simulated board,
the terminal LEDs, a game between two people, no clock). docs/config.md documents each key.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from board_bridge.app import adapters
from board_bridge.app.clock import CLOCK_KINDS, ClockError, TimeControl
from board_bridge.records.files import FORMAT_EXTENSIONS
from board_bridge.shogi import STARTING_SFEN, Board, InvalidSfenError, Ruleset
from board_bridge.tracker.positions import SENSINGS

#: Sensor sources the app itself provides; the drivers' registry adds the hardware kinds.
APP_SOURCES: Final = ("simulated", "replay")
#: LED sinks the app itself provides.
APP_SINKS: Final = ("terminal", "none", "record")
#: Sources that can report an identity board's kinds: the app's own (the hardware
#: drivers report occupancy or polarity frames only).
IDENTITY_SOURCES: Final = APP_SOURCES
MODES: Final = ("casual", "tournament")
ENGINE_SIDES: Final = ("none", "black", "white", "both")
LOG_LEVELS: Final = ("debug", "info", "warning", "error")
ENGINE_DIRS: Final = ("/usr/games",)
#: Record formats (``kif`` is Shift_JIS KIF, ``kifu`` UTF-8 KIF, ``csa3`` CSA 3.0, ...).
RECORD_FORMATS: Final = tuple(FORMAT_EXTENSIONS)

DEFAULT_RECORDS_DIR: Final = "~/.local/share/board-bridge/games"


class ConfigError(ValueError):
    """A configuration that cannot be used; ``problems`` lists each as ``key: message``."""

    def __init__(self, problems: Sequence[str], source: str | None = None) -> None:
        self.problems = list(problems)
        self.source = source
        head = f"{source}: " if source else ""
        if len(self.problems) == 1:
            super().__init__(head + self.problems[0])
        else:
            lines = "\n  ".join(self.problems)
            super().__init__(f"{head}{len(self.problems)} problems:\n  {lines}")


# --------------------------------------------------------------------------- dataclasses


@dataclass(frozen=True)
class BoardConfig:
    source: str = "simulated"
    sensing: str = "occupancy"
    settings: Mapping[str, Any] = field(default_factory=dict)  # the source's own table
    sensor_log: Path | None = None  # write every sensor event here (JSON lines)
    reconnect_delay: float = 1.0


@dataclass(frozen=True)
class LedConfig:
    sink: str = "terminal"
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameConfig:
    engine_side: str = "none"  # which side the engine plays: none, black, white, both
    hints: bool = False
    mode: str = "casual"
    start_sfen: str = STARTING_SFEN
    black: str = ""
    white: str = ""
    event: str = ""
    max_games: int = 0  # 0: play game after game until stopped
    ruleset: Ruleset = field(default_factory=Ruleset)

    @property
    def engine_colors(self) -> frozenset[int]:
        return frozenset(
            {"none": (), "black": (0,), "white": (1,), "both": (0, 1)}[self.engine_side]
        )


@dataclass(frozen=True)
class ClockConfig:
    control: TimeControl = field(default_factory=TimeControl)  # black's (both, unless white)
    button: bool = False  # a "clock" input ends a turn (else settling the move does)
    white: TimeControl | None = None  # white's own, for time odds

    @property
    def controls(self) -> tuple[TimeControl, TimeControl]:
        return (self.control, self.white or self.control)

    def describe(self) -> str:
        black, white = self.controls
        if black == white:
            return black.describe()
        return f"sente {black.describe()}, gote {white.describe()}"


@dataclass(frozen=True)
class EngineSettings:
    """``[engine]``: the engine client's own table plus what the daemon needs."""

    path: str = "fairy-stockfish"
    resolved: str | None = None  # the program found for ``path`` (None: not found)
    table: Mapping[str, Any] = field(default_factory=dict)  # for EngineConfig.from_dict
    movetime: int = 1000  # ms per move when there is no clock
    hint_time: int = 500  # ms of analysis for a hint
    restarts: int = 3
    margin: int = 100  # ms of the engine's clock kept back for the pipes and the board


@dataclass(frozen=True)
class RecordsConfig:
    directory: Path = field(default_factory=lambda: Path(DEFAULT_RECORDS_DIR).expanduser())
    formats: tuple[str, ...] = ("kif", "csa")
    library: Path | None = None  # the sqlite game library; None: no library


@dataclass(frozen=True)
class DaemonConfig:
    tick: float = 0.05  # seconds between tracker ticks while the board is active
    idle_tick: float = 0.5  # ... and while nothing happens
    active_window: float = 2.0  # how long after an event the board counts as active
    log_level: str = "info"
    notify: bool = True  # sd_notify readiness/watchdog when NOTIFY_SOCKET is set


@dataclass(frozen=True)
class Config:
    board: BoardConfig = field(default_factory=BoardConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    game: GameConfig = field(default_factory=GameConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    engine: EngineSettings | None = None  # None: no [engine] table and none needed
    records: RecordsConfig = field(default_factory=RecordsConfig)
    daemon: DaemonConfig = field(default_factory=DaemonConfig)
    path: Path | None = None  # the file it came from
    online: Any = None  # board_bridge.online.config.OnlineSettings: an opponent on a server
    ui: Any = None  # board_bridge.ui.cli.UiSettings: the board view on a screen

    @property
    def needs_engine(self) -> bool:
        return self.game.engine_side != "none" or self.game.hints


# --------------------------------------------------------------------------- reading


_MISSING: Any = object()


class _Table:
    """One TOML table being read; problems go to a shared list, unknown keys are reported."""

    def __init__(self, name: str, values: Any, problems: list[str]) -> None:
        self.name = name
        self.problems = problems
        if values is None:
            values = {}
        if not isinstance(values, Mapping):
            problems.append(f"{name}: must be a table, got {_show(values)}")
            values = {}
        self.values: dict[str, Any] = dict(values)
        self.known: list[str] = []

    def key(self, key: str) -> str:
        return f"{self.name}.{key}" if self.name else key

    def bad(self, key: str, message: str) -> None:
        self.problems.append(f"{self.key(key)}: {message}")

    def get(self, key: str, default: Any, check: Callable[[Any], str | None]) -> Any:
        """The value of ``key`` (``default`` when absent); ``check`` returns a problem or None."""
        self.known.append(key)
        if key not in self.values:
            return default
        value = self.values[key]
        problem = check(value)
        if problem is not None:
            self.bad(key, problem)
            return default
        return value

    def text(self, key: str, default: str, choices: Sequence[str] = (), what: str = "value") -> str:
        def check(v: Any) -> str | None:
            if not isinstance(v, str):
                return f"must be a string, got {_show(v)}"
            if choices and v not in choices:
                return f"unknown {what} {v!r} (expected one of {', '.join(choices)})"
            return None

        return str(self.get(key, default, check))

    def boolean(self, key: str, default: bool) -> bool:
        return bool(
            self.get(
                key, default, lambda v: None if isinstance(v, bool) else _want("true or false", v)
            )
        )

    def number(self, key: str, default: float, *, lo: float = 0.0, positive: bool = False) -> float:
        def check(v: Any) -> str | None:
            if isinstance(v, bool) or not isinstance(v, int | float):
                return _want("a number", v)
            if v < lo or (positive and v <= 0):
                return f"must be {'greater than' if positive else 'at least'} {lo:g}, got {v}"
            return None

        return float(self.get(key, default, check))

    def integer(self, key: str, default: int, *, lo: int = 0) -> int:
        def check(v: Any) -> str | None:
            if isinstance(v, bool) or not isinstance(v, int):
                return _want("a whole number", v)
            if v < lo:
                return f"must be at least {lo}, got {v}"
            return None

        return int(self.get(key, default, check))

    def table(self, key: str) -> dict[str, Any]:
        value = self.get(key, {}, lambda v: None if isinstance(v, Mapping) else _want("a table", v))
        return dict(value)

    def sub(self, key: str) -> _Table:
        self.known.append(key)
        return _Table(self.key(key), self.values.get(key), self.problems)

    def finish(self) -> None:
        for key in self.values:
            if key not in self.known:
                self.bad(key, f"unknown key (expected one of {', '.join(sorted(set(self.known)))})")


def _show(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def _want(what: str, value: Any) -> str:
    return f"must be {what}, got {_show(value)}"


def source_kinds() -> tuple[str, ...]:
    """Every sensor-source kind a config may name: the app's and the drivers' registry's."""
    return tuple(sorted({*APP_SOURCES, *adapters.registry_kinds("source")}))


def sink_kinds() -> tuple[str, ...]:
    return tuple(sorted({*APP_SINKS, *adapters.registry_kinds("sink")}))


def find_program(name: str, base: Path | None = None) -> str | None:
    """An engine program: a path (relative to the config file), else on PATH, else /usr/games."""
    expanded = os.path.expanduser(name)
    if os.sep in expanded:
        path = Path(expanded)
        if not path.is_absolute() and base is not None:
            path = base / path
        return str(path) if os.access(path, os.X_OK) and path.is_file() else None
    found = shutil.which(expanded)
    if found:
        return found
    for directory in ENGINE_DIRS:
        found = shutil.which(expanded, path=directory)
        if found:
            return found
    return None


def _path(value: str, base: Path | None) -> Path:
    path = Path(os.path.expanduser(value))
    if not path.is_absolute() and base is not None:
        path = base / path
    return path


def parse_config(
    data: Mapping[str, Any], *, base: Path | None = None, source: str | None = None
) -> Config:
    """Build a :class:`Config` from parsed TOML. ``base``: where relative paths start."""
    problems: list[str] = []
    root = _Table("", data, problems)

    # [board]
    b = root.sub("board")
    kinds = source_kinds()
    board = BoardConfig(
        source=b.text("source", "simulated", kinds, "kind"),
        sensing=b.text("sensing", "occupancy", SENSINGS),
        settings=b.table("settings"),
        sensor_log=_opt_path(b, "sensor_log", base),
        reconnect_delay=b.number("reconnect_delay", 1.0, positive=True),
    )
    b.finish()
    if board.sensing == "identity" and board.source not in IDENTITY_SOURCES:
        problems.append(
            f"board.sensing: the {board.source} source cannot read identity (RFID) boards; "
            f"use occupancy or polarity, or a source of {', '.join(IDENTITY_SOURCES)}"
        )
    if board.source == "replay" and "path" not in board.settings:
        problems.append("board.settings.path: the replay source needs the sensor log to replay")

    # [leds]
    le = root.sub("leds")
    leds = LedConfig(
        sink=le.text("sink", "terminal", sink_kinds(), "kind"), settings=le.table("settings")
    )
    le.finish()

    # [game]
    g = root.sub("game")
    start = g.text("start_sfen", STARTING_SFEN)
    if start != STARTING_SFEN:
        try:
            start = Board(start.removeprefix("sfen ").strip()).sfen()
        except InvalidSfenError as exc:
            g.bad("start_sfen", str(exc))
            start = STARTING_SFEN
    mode = g.text("mode", "casual", MODES)
    engine_side = g.text("engine", "none", ENGINE_SIDES)
    hints = g.boolean("hints", False)
    black, white = g.text("black", ""), g.text("white", "")
    event = g.text("event", "")
    max_games = g.integer("max_games", 0)
    g.finish()

    # [rules]
    r = root.sub("rules")
    declaration = r.text("declaration", "jsa", ("none", "jsa", "csa27"))
    impasse = r.boolean("impasse_24", True)
    try_rule = r.boolean("try_rule", False)
    max_moves = r.integer("max_moves", 0)
    r.finish()
    ruleset = Ruleset(
        declaration=declaration,  # type: ignore[arg-type]
        impasse_24=impasse,
        try_rule=try_rule,
        max_moves=max_moves or None,
        illegal_move_loses=mode == "tournament",
    )
    game = GameConfig(
        engine_side=engine_side,
        hints=hints,
        mode=mode,
        start_sfen=start,
        black=black,
        white=white,
        event=event,
        max_games=max_games,
        ruleset=ruleset,
    )

    # [clock]
    c = root.sub("clock")
    both = _time_control(c, "clock", TimeControl(), problems)
    button = c.boolean("button", False)
    sides = {}
    for side in ("black", "white"):
        if side in c.values:
            t = c.sub(side)
            sides[side] = _time_control(t, f"clock.{side}", both, problems)
            t.finish()
    c.finish()
    black_tc = sides.get("black", both)
    white_tc = sides.get("white", both)
    clock = ClockConfig(black_tc, button, None if white_tc == black_tc else white_tc)

    # [engine]
    engine: EngineSettings | None = None
    if "engine" in root.values or game.engine_side != "none" or game.hints:
        e = root.sub("engine")
        path = e.text("path", "fairy-stockfish")
        movetime = e.integer("movetime", 1000, lo=1)
        hint_time = e.integer("hint_time", 500, lo=1)
        restarts = e.integer("restarts", 3, lo=0)
        margin = e.integer("margin", 100, lo=0)
        own = {"movetime", "hint_time", "restarts", "margin"}
        table = {k: v for k, v in e.values.items() if k not in own}
        e.known.extend(table)  # the engine client checks its own keys below
        e.finish()
        resolved = find_program(path, base)
        if resolved is None and (game.engine_side != "none" or game.hints):
            problems.append(
                f"engine.path: engine {path!r} not found (looked at the path, on PATH and in "
                f"{', '.join(ENGINE_DIRS)})"
            )
        table["path"] = resolved or path
        problem = adapters.check_engine_table(table)
        if problem:
            problems.append(f"engine: {problem}")
        engine = EngineSettings(path, resolved, table, movetime, hint_time, restarts, margin)

    # [online]: an opponent on a CSA server or Lishogi, in the engine's seat
    online = None
    if "online" in root.values:
        root.known.append("online")
        from board_bridge.online.config import OnlineSettings

        table = root.values["online"]
        if not isinstance(table, Mapping):
            problems.append(f"online: must be a table, got {_show(table)}")
        else:
            try:
                online = OnlineSettings.from_table(table)
            except ValueError as exc:
                problems.append(str(exc))
        if game.engine_side != "none":
            problems.append(
                'game.engine: must be "none" with [online] (the online opponent takes the '
                "engine's seat)"
            )
        if game.hints:
            problems.append("game.hints: not available with [online]")

    # [ui]: the board view on a screen beside the board (checked by the ui layer, which
    # needs pygame only when the screen opens)
    ui = None
    if "ui" in root.values:
        root.known.append("ui")
        from board_bridge.ui.cli import UiConfigError, parse_ui_settings

        try:
            ui = parse_ui_settings(root.values["ui"])
        except UiConfigError as exc:
            problems.append(str(exc))

    # [records]
    rc = root.sub("records")
    directory = _path(rc.text("directory", DEFAULT_RECORDS_DIR), base)
    formats_raw = rc.get(
        "formats",
        ["kif", "csa"],
        lambda v: (
            None
            if isinstance(v, list) and all(isinstance(x, str) for x in v)
            else _want("a list of strings", v)
        ),
    )
    formats = tuple(str(f).lower() for f in formats_raw)
    for f in formats:
        if f not in RECORD_FORMATS:
            rc.bad(
                "formats", f"unknown format {f!r} (expected some of {', '.join(RECORD_FORMATS)})"
            )
    formats = tuple(dict.fromkeys(formats))
    if "kif" not in formats and "kifu" not in formats:
        formats = ("kif", *formats)  # a KIF is always written
    library_raw = rc.get(
        "library",
        True,
        lambda v: None if isinstance(v, bool | str) else _want("true, false or a path", v),
    )
    rc.finish()
    library: Path | None
    if library_raw is True:
        library = directory / "library.sqlite"
    elif library_raw is False:
        library = None
    else:
        library = _path(str(library_raw), base)
    records = RecordsConfig(directory, formats, library)

    # [daemon]
    d = root.sub("daemon")
    daemon = DaemonConfig(
        tick=d.number("tick", 0.05, positive=True),
        idle_tick=d.number("idle_tick", 0.5, positive=True),
        active_window=d.number("active_window", 2.0),
        log_level=d.text("log_level", "info", LOG_LEVELS),
        notify=d.boolean("notify", True),
    )
    d.finish()

    root.finish()
    problems.extend(adapters.check_driver_settings(board, leds))
    if problems:
        raise ConfigError(problems, source)
    return Config(board, leds, game, clock, engine, records, daemon, online=online, ui=ui)


def _time_control(t: _Table, where: str, base: TimeControl, problems: list[str]) -> TimeControl:
    """A time control from a table's keys, each defaulting to ``base``'s."""
    kind = t.text("kind", base.kind, CLOCK_KINDS)
    main = t.number("main", base.main)
    byo = t.number("byoyomi", base.byoyomi)
    inc = t.number("increment", base.increment)
    periods = t.integer("periods", base.periods, lo=1)
    try:
        return TimeControl(kind, main, byo, inc, periods)  # type: ignore[arg-type]
    except ClockError as exc:
        problems.append(f"{where}: {exc}")
        return TimeControl()


def _opt_path(t: _Table, key: str, base: Path | None) -> Path | None:
    value = t.text(key, "")
    return _path(value, base) if value else None


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and check a TOML config file. Raises :class:`ConfigError` (also for I/O)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ConfigError([f"cannot read the file: {exc.strerror or exc}"], str(p)) from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError([f"not UTF-8 text: {exc}"], str(p)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"not valid TOML: {exc}"], str(p)) from None
    config = parse_config(data, base=p.resolve().parent, source=str(p))
    return Config(
        config.board,
        config.leds,
        config.game,
        config.clock,
        config.engine,
        config.records,
        config.daemon,
        path=p,
        online=config.online,
        ui=config.ui,
    )
