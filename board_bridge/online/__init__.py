"""Online play: the CSA server protocol client and the Lishogi Board API client (see docs/online.md)."""

from board_bridge.online.base import (
    ClockSnapshot,
    ClockUpdate,
    ConnectionLost,
    Disconnected,
    GameInfo,
    GameOver,
    GameRejected,
    LoginFailed,
    MoveConfirmed,
    NotYourTurn,
    OnlineError,
    OnlineEvent,
    OnlineOpponent,
    OnlineProtocolError,
    OnlineUnsupported,
    OpponentMove,
    PlayedMove,
    Reconnected,
    SideTimeControl,
)
from board_bridge.online.config import OnlineConfigError, OnlineSettings, make_opponent
from board_bridge.online.csa import CsaClient
from board_bridge.online.lishogi import LishogiClient, Seek

__all__ = [
    "ClockSnapshot", "ClockUpdate", "ConnectionLost", "CsaClient", "Disconnected", "GameInfo",
    "GameOver", "GameRejected", "LishogiClient", "LoginFailed", "MoveConfirmed", "NotYourTurn",
    "OnlineConfigError", "OnlineError", "OnlineEvent", "OnlineOpponent", "OnlineProtocolError",
    "OnlineSettings", "OnlineUnsupported", "OpponentMove", "PlayedMove", "Reconnected", "Seek",
    "SideTimeControl", "make_opponent",
]  # fmt: skip
