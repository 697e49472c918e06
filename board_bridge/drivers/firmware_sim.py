"""Runs the board's firmware (firmware/ in a source checkout) on a simulated board on this
computer, reached over a pty: for tests, demos and trying the daemon without a Pico."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any


def firmware_dir() -> Path:
    """The firmware/ folder beside the board_bridge package."""
    path = Path(__file__).resolve().parents[2] / "firmware"
    if not (path / "bbfw" / "core.py").exists():
        raise FileNotFoundError(
            f"the firmware is not at {path}: the simulator needs a source checkout of board-bridge"
        )
    return path


def load() -> ModuleType:
    """The simulator module (firmware/host/bbsim.py), with the firmware importable.

    The stand-in ``machine`` and ``rp2`` modules it uses are put on ``sys.path``; nothing
    else in board_bridge imports modules of those names."""
    path = firmware_dir()
    for entry in (str(path / "host"), str(path)):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    return importlib.import_module("bbsim")


def config(**overrides: Any) -> Any:
    """A firmware ``Config`` with ``overrides`` (e.g. ``DEBOUNCE_MS=10``)."""
    load()
    return importlib.import_module("bbfw.config").Config(**overrides)


def simulator(link_path: str | Path, **kwargs: Any) -> Any:
    """A ``bbsim.FirmwareSim`` (not started): the firmware on a simulated board whose pty
    the host reaches at ``link_path``. Keyword arguments: ``config``, ``corrupt`` (byte
    corruption rate both ways), ``seed``, ``cells`` (the board at power-on)."""
    return load().FirmwareSim(str(link_path), **kwargs)
