"""USI engine client: asyncio subprocess talk, engine profiles, and a restarting supervisor."""

from __future__ import annotations

from board_bridge.engine.client import GameResult, MoveValidator, Search, UsiEngine
from board_bridge.engine.errors import (
    EngineError,
    EngineProtocolError,
    EngineTerminated,
    EngineTimeout,
    UnsupportedError,
)
from board_bridge.engine.managed import EngineEvent, EngineGaveUp, ManagedEngine, RestartPolicy
from board_bridge.engine.profiles import (
    FAIRY_STOCKFISH,
    GENERIC,
    GPSSHOGI,
    KNOWN_PROFILES,
    EngineConfig,
    EngineProfile,
    Timeouts,
    profile_for,
)
from board_bridge.engine.protocol import (
    Info,
    Limit,
    Option,
    PlayResult,
    Score,
    go_command,
    is_usi_move,
    parse_bestmove,
    parse_info,
    parse_option,
    position_command,
    side_to_move,
)
from board_bridge.engine.sync import SimpleEngine

__all__ = [
    "FAIRY_STOCKFISH",
    "GENERIC",
    "GPSSHOGI",
    "KNOWN_PROFILES",
    "EngineConfig",
    "EngineError",
    "EngineEvent",
    "EngineGaveUp",
    "EngineProfile",
    "EngineProtocolError",
    "EngineTerminated",
    "EngineTimeout",
    "GameResult",
    "Info",
    "Limit",
    "ManagedEngine",
    "MoveValidator",
    "Option",
    "PlayResult",
    "RestartPolicy",
    "Score",
    "Search",
    "SimpleEngine",
    "Timeouts",
    "UnsupportedError",
    "UsiEngine",
    "go_command",
    "is_usi_move",
    "parse_bestmove",
    "parse_info",
    "parse_option",
    "position_command",
    "profile_for",
    "side_to_move",
]
