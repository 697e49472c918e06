"""Engine configuration for the daemon: path, options, timeouts, and known engines' quirks."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

from board_bridge.engine.protocol import GO_PARAMS

OptionValue = str | int | bool | None


@dataclass(frozen=True)
class Timeouts:
    """Every wait on an engine is bounded; all values in seconds.

    - ``startup``: from launch to ``usiok`` (GPSShogi loads its book here).
    - ``ready``: ``isready`` to ``readyok`` (after options, before each game).
    - ``stop``: ``stop`` (or ``ponderhit`` bookkeeping) to ``bestmove``.
    - ``search_margin`` + ``search_margin_ratio`` * budget: how long past its time budget
      an engine may take to send ``bestmove`` before it is declared hung.
    - ``unbounded_search``: the budget of a search bounded only by depth or nodes.
    - ``quit``: ``quit`` to process exit, before the client terminates, then kills it.
    - ``terminate``: SIGTERM to exit, before SIGKILL.
    - ``write``: one command written to the engine's stdin.
    """

    startup: float = 30.0
    ready: float = 30.0
    stop: float = 5.0
    search_margin: float = 3.0
    search_margin_ratio: float = 0.1
    unbounded_search: float = 120.0
    quit: float = 3.0
    terminate: float = 2.0
    write: float = 5.0

    def search_deadline(self, budget_ms: int | None) -> float:
        """Seconds to wait for ``bestmove`` of a search whose budget is ``budget_ms``."""
        if budget_ms is None:
            return self.unbounded_search
        budget = budget_ms / 1000.0
        return budget + self.search_margin + self.search_margin_ratio * budget

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Timeouts:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown engine timeouts: {', '.join(sorted(unknown))}")
        return cls(**{name: float(value) for name, value in data.items()})


@dataclass(frozen=True)
class EngineProfile:
    """What the client knows about one engine family, recognised by its ``id name``.

    - ``options``: set after ``usiok`` when the engine announces them (USI_* always).
    - ``go_params``: ``go`` parameters it understands; others are translated or refused,
      since some engines (GPSShogi) abort on a parameter they do not know.
    - ``ponder_option``: the option that switches pondering on, if the engine can ponder.
    - ``send_gameover``: whether ``gameover`` is worth sending.
    - ``restart_after_resign``: the engine wedges after ``bestmove resign`` (GPSShogi).
    - ``swap_clocks``: the engine reads ``btime``/``binc`` as gote's clock (the chess way
      round, where the first player is white): send them swapped.
    - ``timeouts``: overrides of :class:`Timeouts` for this engine.
    """

    key: str
    id_pattern: str
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    go_params: frozenset[str] = GO_PARAMS
    ponder_option: str | None = "USI_Ponder"
    send_gameover: bool = True
    restart_after_resign: bool = False
    swap_clocks: bool = False
    timeouts: Mapping[str, float] = field(default_factory=dict)
    notes: str = ""

    def matches(self, id_name: str) -> bool:
        return re.search(self.id_pattern, id_name, re.IGNORECASE) is not None

    @property
    def can_ponder(self) -> bool:
        return "ponder" in self.go_params and self.ponder_option is not None


GENERIC = EngineProfile(
    key="generic",
    id_pattern=r"(?!)",  # never matched by name: the fallback
    notes="Any USI engine: the whole protocol, USI_Ponder to ponder.",
)

FAIRY_STOCKFISH = EngineProfile(
    key="fairy-stockfish",
    id_pattern=r"^Fairy-Stockfish",
    # In USI mode the shogi variant is already the default; set it anyway so a changed
    # default or a VariantPath file cannot start a game of some other variant.
    options=MappingProxyType({"UCI_Variant": "shogi"}),
    ponder_option="Ponder",
    send_gameover=False,  # answers "Unknown command: gameover ..."
    # Fairy-Stockfish 11 (Debian 12) in USI mode budgets sente's search from wtime and
    # gote's from btime: at the start position 'go btime 0 wtime 60000 byoyomi 100' thinks
    # 2.6 s, 'go btime 60000 wtime 0 byoyomi 100' 0.02 s.
    swap_clocks=True,
    notes=(
        "Switches itself to USI when it receives 'usi'; ponder option is 'Ponder'; "
        "reads btime/wtime the chess way round (sent swapped)."
    ),
)

GPSSHOGI = EngineProfile(
    key="gpsshogi",
    id_pattern=r"^gpsshogi",
    go_params=frozenset({"btime", "wtime", "byoyomi", "infinite"}),
    ponder_option=None,  # 'go ponder' aborts it; it ponders internally with USI_Ponder
    restart_after_resign=True,  # after 'bestmove resign' it answers no further search
    # It overshoots short byoyomi (about 1 s for byoyomi 200 on a PC): a wider margin.
    timeouts=MappingProxyType({"startup": 60.0, "ready": 60.0, "search_margin": 5.0}),
    notes=(
        "Aborts (std::runtime_error) on go binc/winc/movetime/depth/nodes/ponder; "
        "prints 'info currmove', 'pass' in pv and 'warning ...' lines."
    ),
)

KNOWN_PROFILES: tuple[EngineProfile, ...] = (FAIRY_STOCKFISH, GPSSHOGI)


def profile_for(id_name: str, key: str | None = None) -> EngineProfile:
    """The profile for an engine by its ``id name``, or by ``key`` when the config forces one."""
    if key is not None:
        for profile in (*KNOWN_PROFILES, GENERIC):
            if profile.key == key:
                return profile
        raise ValueError(f"unknown engine profile {key!r}")
    for profile in KNOWN_PROFILES:
        if profile.matches(id_name):
            return profile
    return GENERIC


@dataclass(frozen=True)
class EngineConfig:
    """How the daemon starts an engine: what to run and what to tell it.

    ``options`` override the profile's options; ``profile`` forces a profile by key instead
    of recognising the engine by its ``id name``; ``timeouts`` override the defaults and the
    profile's; ``ponder`` turns pondering on where the engine can.
    """

    path: str
    args: tuple[str, ...] = ()
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    cwd: str | None = None
    profile: str | None = None
    timeouts: Mapping[str, float] = field(default_factory=dict)
    ponder: bool = False
    name: str | None = None

    @property
    def command(self) -> tuple[str, ...]:
        return (self.path, *self.args)

    def effective_timeouts(self, profile: EngineProfile) -> Timeouts:
        """Defaults, then the profile's overrides, then this config's."""
        base = Timeouts()
        merged = {**dict(profile.timeouts), **dict(self.timeouts)}
        return replace(base, **{name: float(value) for name, value in merged.items()})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EngineConfig:
        """Build from a config-file table, e.g. TOML ``[engine]``::

        path = "/usr/games/gpsusi"
        args = []
        ponder = false
        [engine.options]
        Thread = 2
        [engine.timeouts]
        startup = 60
        """
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown engine settings: {', '.join(sorted(unknown))}")
        if "path" not in data or not isinstance(data["path"], str) or not data["path"]:
            raise ValueError("engine settings need a 'path' to the engine program")
        args = data.get("args", ())
        if isinstance(args, str) or not isinstance(args, Sequence):
            raise ValueError("engine 'args' must be a list of strings")
        timeouts = dict(data.get("timeouts", {}))
        Timeouts.from_dict(timeouts)  # validates the names
        return cls(
            path=data["path"],
            args=tuple(str(a) for a in args),
            options=dict(data.get("options", {})),
            cwd=data.get("cwd"),
            profile=data.get("profile"),
            timeouts={k: float(v) for k, v in timeouts.items()},
            ponder=bool(data.get("ponder", False)),
            name=data.get("name"),
        )
