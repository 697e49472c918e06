"""The daemon's seams to the other layers: driver registry, engine, records (and their checks).

Each function here is the one place the app touches another layer's construction API, so
a change there is a change here only. The daemon itself talks to small protocols
(:class:`GameStore`, :class:`Journal`, :class:`EnginePlayer`) that tests can fake.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from board_bridge.drivers.base import LedSink, SensorSource
from board_bridge.drivers.settings import DriverConfigError, Settings
from board_bridge.shogi import STARTING_SFEN, Move, Outcome

if TYPE_CHECKING:
    from board_bridge.app.config import BoardConfig, Config, EngineSettings, LedConfig

LOGGER = logging.getLogger(__name__)


# --------------------------------------------------------------------------- drivers


def _registry() -> Any:
    from board_bridge.drivers import registry

    return registry


def register_app_kinds() -> None:
    """Tell the drivers' registry about the app's own sources and sinks."""
    registry = _registry()
    registry.register_source("simulated", "board_bridge.app.simulated:SimulatedBoard.from_settings")
    registry.register_source("replay", "board_bridge.app.simulated:LogReplaySource.from_settings")
    registry.register_sink("terminal", "board_bridge.app.sinks:TerminalLedSink.from_settings")
    registry.register_sink("record", "board_bridge.app.sinks:RecordingSink.from_settings")


def registry_kinds(what: str) -> tuple[str, ...]:
    """The kinds of ``what`` (``"source"`` or ``"sink"``) the drivers' registry knows."""
    registry = _registry()
    kinds: tuple[str, ...] = registry.source_kinds() if what == "source" else registry.sink_kinds()
    return kinds


def check_driver_settings(board: BoardConfig, leds: LedConfig) -> list[str]:
    """Problems with the source's and sink's own settings. Sources and sinks are built (their
    factories check every setting) but not started, so no hardware is opened."""
    problems: list[str] = []
    source: SensorSource | None = None
    try:
        source = _build_source(board, STARTING_SFEN)
    except (DriverConfigError, ValueError) as exc:
        problems.append(f"board.settings: {exc}" if not str(exc).startswith("board.") else str(exc))
    try:
        _build_sink(leds, source)
    except (DriverConfigError, ValueError) as exc:
        if source is not None or leds.sink not in _registry().SINKS_NEEDING_SOURCE:
            problems.append(
                f"leds.settings: {exc}" if not str(exc).startswith("leds.") else str(exc)
            )
    return problems


def _build_source(board: BoardConfig, sfen: str) -> SensorSource:
    from board_bridge.app.simulated import LogReplaySource, SimulatedBoard

    source: SensorSource
    if board.source == "simulated":
        source = SimulatedBoard.from_settings(board.settings, sensing=board.sensing, sfen=sfen)
    elif board.source == "replay":
        source = LogReplaySource.from_settings(board.settings)
    else:
        source = _registry().make_source(board.source, board.settings)
    return source


def _build_sink(leds: LedConfig, source: SensorSource | None) -> LedSink:
    from board_bridge.app.sinks import NullSink, RecordingSink, TerminalLedSink

    if leds.sink in ("none", "record"):
        Settings(f"leds.settings ({leds.sink!r})", leds.settings).finish()
        return NullSink() if leds.sink == "none" else RecordingSink()
    if leds.sink == "terminal":
        return TerminalLedSink.from_settings(leds.settings)
    sink: LedSink = _registry().make_sink(leds.sink, leds.settings, source=source)
    return sink


def make_source(config: Config) -> SensorSource:
    """The configured sensor source (not started yet), recording to ``board.sensor_log``."""
    source = _build_source(config.board, config.game.start_sfen)
    if config.board.sensor_log is not None:
        from board_bridge.drivers.recording import RecordingSource

        source = RecordingSource(source, config.board.sensor_log)
    return source


def _source_attribute(source: SensorSource, name: str) -> Any:
    """``name`` of ``source`` or of the first source it wraps (recording, buttons) having it."""
    current: Any = source
    for _ in range(10):
        value = getattr(current, name, None)
        if value is not None:
            return value
        current = getattr(current, "source", None)
        if current is None:
            break
    return None


def source_resumed(source: SensorSource) -> bool:
    """Whether ``source`` came back from a disconnection with every event made while it was
    away still to come (the firmware link resumes its event stream); otherwise the tracker
    must resynchronise with the board as it is."""
    return _source_attribute(source, "resumed") is True


def source_watermark(source: SensorSource) -> float | None:
    """The time up to which ``source`` has yielded every event (None: it yields each event
    as it happens, so up to now). The firmware link's events can come late."""
    value = _source_attribute(source, "watermark")
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def make_sink(config: Config, source: SensorSource | None = None) -> LedSink:
    """The configured LED sink (not started yet); ``source`` for sinks sharing its link."""
    return _build_sink(config.leds, source)


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


def make_online(settings: Any) -> EnginePlayer:
    """The configured online opponent (CSA server or Lishogi) in the engine's seat."""
    from board_bridge.online.adapter import OnlineEnginePlayer
    from board_bridge.online.config import make_opponent

    player: EnginePlayer = OnlineEnginePlayer(make_opponent(settings))
    return player


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


def engine_limit(
    clock_ms: Mapping[str, int], movetime: int, black_to_move: bool, spent_ms: int
) -> Any:
    """The USI search limit: the game clock's at the start of the turn less ``spent_ms``
    (time already gone, plus the daemon's safety margin), or a fixed time per move."""
    from board_bridge.engine import Limit

    if clock_ms:
        limit = Limit(**clock_ms)  # type: ignore[arg-type]
        return limit.spend("b" if black_to_move else "w", spent_ms)
    return Limit(movetime=max(1, movetime - spent_ms))


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
    header: dict[str, Any] = field(default_factory=dict)


class GameStore(Protocol):
    """Where games go: new journals, unfinished ones, the library."""

    def find_unfinished(self) -> Path | None: ...

    def resume(self, path: Path) -> ResumedGame: ...

    def create(self, header: Mapping[str, Any], start_sfen: str) -> Journal: ...

    def add_to_library(self, paths: Sequence[Path], outcome: Outcome) -> None: ...


def make_store(config: Config) -> GameStore:
    """The records layer's journal and library behind :class:`GameStore`."""
    from board_bridge.app.store import RecordsStore

    return RecordsStore(config.records.directory, config.records.formats, config.records.library)


register_app_kinds()
