"""The daemon's seams to the other layers: driver registry, engine, records (and their checks).

Each function here is the one place the app touches another layer's construction API, so
a change there is a change here only. The daemon itself talks to small protocols
(:class:`GameStore`, :class:`Journal`, :class:`EnginePlayer`) that tests can fake.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from board_bridge.drivers.base import LedSink, SensorSource
from board_bridge.drivers.settings import DriverConfigError
from board_bridge.shogi import Move, Outcome

if TYPE_CHECKING:
    from board_bridge.app.config import BoardConfig, Config, EngineSettings, LedConfig

LOGGER = logging.getLogger(__name__)


# --------------------------------------------------------------------------- drivers


def _registry() -> Any | None:
    try:
        return importlib.import_module("board_bridge.drivers.registry")
    except ModuleNotFoundError as exc:
        if exc.name == "board_bridge.drivers.registry":
            return None
        raise


def registry_kinds(what: str) -> tuple[str, ...]:
    """The hardware kinds of ``what`` (``"source"`` or ``"sink"``) the drivers provide."""
    registry = _registry()
    if registry is None:
        return ()
    for name in (f"{what}_kinds", f"{what.upper()}_KINDS", f"{what.upper()}S"):
        value = getattr(registry, name, None)
        if callable(value):
            value = value()
        if value:
            return tuple(str(k) for k in value)
    return ()


def check_driver_settings(board: BoardConfig, leds: LedConfig) -> list[str]:
    """Problems with the source's and sink's own settings (nothing is opened)."""
    problems: list[str] = []
    from board_bridge.app.simulated import LogReplaySource, SimulatedBoard
    from board_bridge.app.sinks import TerminalLedSink

    try:
        if board.source == "simulated":
            SimulatedBoard.from_settings(board.settings, sensing=board.sensing)
        elif board.source == "replay":
            LogReplaySource.from_settings(board.settings)
    except (DriverConfigError, ValueError) as exc:
        problems.append(str(exc))
    try:
        if leds.sink == "terminal":
            TerminalLedSink.from_settings(leds.settings)
        elif leds.sink in ("none", "record") and leds.settings:
            problems.append(f"leds.settings: the {leds.sink!r} sink has no settings")
    except (DriverConfigError, ValueError) as exc:
        problems.append(str(exc))
    registry = _registry()
    check = getattr(registry, "check_settings", None) if registry is not None else None
    if check is not None:
        for kind, values, what in (
            (board.source, board.settings, "source"),
            (leds.sink, leds.settings, "sink"),
        ):
            if kind in registry_kinds(what):
                try:
                    check(what, kind, values)
                except (DriverConfigError, ValueError) as exc:
                    problems.append(str(exc))
    return problems


def make_source(config: Config, **kwargs: Any) -> SensorSource:
    """The configured sensor source (not started yet). ``kwargs`` go to the app's own kinds."""
    board = config.board
    source: SensorSource
    if board.source == "simulated":
        source = SimulatedBoard_from(config, **kwargs)
    elif board.source == "replay":
        from board_bridge.app.simulated import LogReplaySource

        source = LogReplaySource.from_settings(board.settings)
    else:
        registry = _registry()
        if registry is None:
            raise DriverConfigError(
                f"board.source: kind {board.source!r} needs the drivers registry"
            )
        source = registry.make_source(board.source, board.settings, sensing=board.sensing)
    if board.sensor_log is not None:
        from board_bridge.drivers.recording import RecordingSource

        source = RecordingSource(source, board.sensor_log)
    return source


def SimulatedBoard_from(config: Config, **kwargs: Any) -> SensorSource:  # noqa: N802
    from board_bridge.app.simulated import SimulatedBoard

    board = SimulatedBoard.from_settings(
        config.board.settings, sensing=config.board.sensing, sfen=config.game.start_sfen
    )
    for key, value in kwargs.items():
        setattr(board, key, value)
    return board


def make_sink(config: Config) -> LedSink:
    """The configured LED sink (not started yet)."""
    from board_bridge.app.sinks import NullSink, RecordingSink, TerminalLedSink

    leds = config.leds
    if leds.sink == "terminal":
        return TerminalLedSink.from_settings(leds.settings)
    if leds.sink == "none":
        return NullSink()
    if leds.sink == "record":
        return RecordingSink()
    registry = _registry()
    if registry is None:
        raise DriverConfigError(f"leds.sink: kind {leds.sink!r} needs the drivers registry")
    sink: LedSink = registry.make_sink(leds.sink, leds.settings)
    return sink


# --------------------------------------------------------------------------- engine


class EnginePlayer(Protocol):
    """What the daemon needs of an engine (:class:`board_bridge.engine.ManagedEngine`)."""

    @property
    def name(self) -> str: ...

    async def start(self) -> None: ...

    async def new_game(self) -> None: ...

    async def play(
        self, position: str, moves: Sequence[str], limit: Any, *, validate: Any = None
    ) -> Any: ...

    async def analyse(self, position: str, moves: Sequence[str], limit: Any) -> Any: ...

    async def game_over(self, result: Any) -> None: ...

    async def quit(self) -> None: ...


def check_engine_table(table: Mapping[str, Any]) -> str | None:
    """A problem with the engine client's own settings, or None."""
    from board_bridge.engine import EngineConfig

    try:
        EngineConfig.from_dict(table)
    except (ValueError, TypeError) as exc:
        return str(exc)
    return None


def make_engine(settings: EngineSettings) -> EnginePlayer:
    """A restarting engine supervisor for the configured program."""
    from board_bridge.engine import EngineConfig, ManagedEngine, RestartPolicy

    engine_config = EngineConfig.from_dict(settings.table)
    return ManagedEngine(
        engine_config, policy=RestartPolicy(max_failures=max(1, settings.restarts))
    )


def engine_limit(clock_ms: Mapping[str, int], movetime: int) -> Any:
    """The USI search limit: the game clock's, or a fixed time per move without a clock."""
    from board_bridge.engine import Limit

    if clock_ms:
        return Limit(**clock_ms)  # type: ignore[arg-type]
    return Limit(movetime=movetime)


def hint_limit(ms: int) -> Any:
    from board_bridge.engine import Limit

    return Limit(movetime=ms)


# --------------------------------------------------------------------------- records


class Journal(Protocol):
    """A game being recorded (crash-safe: each call is on disk when it returns)."""

    path: Path

    def append_move(self, move: Move, time_used: float, t: float) -> None: ...

    def correct_last(self, move: Move, time_used: float, t: float) -> None: ...

    def retract_last(self, t: float) -> None: ...

    def take_back(self, t: float) -> None: ...

    def finish(self, outcome: Outcome, t: float) -> list[Path]: ...

    def close(self) -> None: ...


@dataclass
class ResumedGame:
    """An unfinished game found on start: its journal and where it stood."""

    journal: Journal
    start_sfen: str
    moves: list[Move]
    times: list[float]
    header: dict[str, str] = field(default_factory=dict)


class GameStore(Protocol):
    """Where games go: new journals, unfinished ones, the library."""

    def find_unfinished(self) -> Path | None: ...

    def resume(self, path: Path) -> ResumedGame: ...

    def create(self, header: Mapping[str, str], start_sfen: str) -> Journal: ...

    def add_to_library(self, paths: Sequence[Path], outcome: Outcome) -> None: ...


def make_store(config: Config) -> GameStore:
    """The records layer's journal and library behind :class:`GameStore`."""
    from board_bridge.app.store import RecordsStore

    return RecordsStore(config.records.directory, config.records.formats, config.records.library)
