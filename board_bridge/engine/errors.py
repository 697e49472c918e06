"""Errors raised by the USI engine client, each inheriting the builtin it resembles."""

from __future__ import annotations


class EngineError(Exception):
    """Something went wrong talking to a USI engine."""


class EngineTerminated(EngineError):
    """The engine process is gone (it crashed, exited, or was closed)."""


class EngineTimeout(EngineError, TimeoutError):
    """The engine did not answer within its time budget (it hangs); it has been killed."""


class EngineProtocolError(EngineError, ValueError):
    """The engine said something that breaks the protocol (e.g. an illegal bestmove)."""


class UnsupportedError(EngineError, ValueError):
    """The caller asked for something this engine cannot do (unknown option, bad value,
    a ``go`` parameter the engine's profile says it would crash on)."""
