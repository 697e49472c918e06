"""The ``[online]`` config table: which server, which account, how to find a game; and the factory.

Secrets (a CSA password, a Lishogi token) may be given inline, in a file (``*_file``) or in
an environment variable (``*_env``); they are never written back, logged or shown in a repr.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from board_bridge.online.base import OnlineOpponent
from board_bridge.online.csa import DEFAULT_PORT, MIN_KEEPALIVE, CsaClient
from board_bridge.online.lishogi import DEFAULT_BASE_URL, LishogiClient, Secret, Seek

KINDS: Final = ("csa", "lishogi")
KEYS: Final = frozenset(
    {
        "kind",
        # csa
        "host",
        "port",
        "user",
        "password",
        "password_file",
        "password_env",
        "keepalive",
        "agree",
        # lishogi
        "base_url",
        "token",
        "token_file",
        "token_env",
        "seek",
        "seek_minutes",
        "seek_increment",
        "seek_byoyomi",
        "seek_periods",
        "seek_rated",
        "seek_color",
        "accept_challenges",
        "game_id",
        # both
        "connect_timeout",
    }
)


class OnlineConfigError(ValueError):
    """An ``[online]`` table that cannot be used; the message names the key."""


@dataclass(frozen=True)
class OnlineSettings:
    kind: str
    host: str = ""
    port: int = DEFAULT_PORT
    user: str = ""
    secret: Secret = field(default_factory=lambda: Secret(""), repr=False)
    keepalive: float = MIN_KEEPALIVE
    agree: bool = True
    base_url: str = DEFAULT_BASE_URL
    seek: Seek | None = None
    accept_challenges: bool = True
    game_id: str | None = None
    connect_timeout: float = 10.0

    @classmethod
    def from_table(
        cls, table: Mapping[str, Any], environ: Mapping[str, str] | None = None
    ) -> OnlineSettings:
        env = os.environ if environ is None else environ
        unknown = sorted(set(table) - KEYS)
        if unknown:
            raise OnlineConfigError(f"[online]: unknown key(s) {', '.join(unknown)}")
        kind = table.get("kind")
        if kind not in KINDS:
            raise OnlineConfigError(f"[online] kind must be one of {KINDS}: {kind!r}")

        def number(key: str, default: float) -> float:
            value = table.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise OnlineConfigError(f"[online] {key} must be a non-negative number: {value!r}")
            return float(value)

        def flag(key: str, default: bool) -> bool:
            value = table.get(key, default)
            if not isinstance(value, bool):
                raise OnlineConfigError(f"[online] {key} must be true or false: {value!r}")
            return value

        def secret(name: str) -> Secret:
            inline, path, var = table.get(name), table.get(f"{name}_file"), table.get(f"{name}_env")
            given = [
                k for k, v in ((name, inline), (f"{name}_file", path), (f"{name}_env", var)) if v
            ]
            if len(given) != 1:
                raise OnlineConfigError(
                    f"[online] give exactly one of {name}, {name}_file, {name}_env (got {given or 'none'})"
                )
            if inline:
                return Secret(str(inline))
            if path:
                try:
                    return Secret(Path(str(path)).read_text(encoding="utf-8").strip())
                except OSError as exc:
                    raise OnlineConfigError(
                        f"[online] {name}_file: cannot read {path}: {exc.strerror}"
                    ) from None
            value = env.get(str(var), "")
            if not value:
                raise OnlineConfigError(f"[online] {name}_env: ${var} is not set")
            return Secret(value)

        timeout = number("connect_timeout", 10.0)
        if kind == "csa":
            host = str(table.get("host", ""))
            user = str(table.get("user", ""))
            if not host or not user:
                raise OnlineConfigError("[online] a CSA server needs host and user")
            keepalive = number("keepalive", MIN_KEEPALIVE)
            if keepalive < MIN_KEEPALIVE:
                raise OnlineConfigError(f"[online] keepalive must be at least {MIN_KEEPALIVE:g} s")
            port = int(number("port", DEFAULT_PORT))
            return cls(
                kind="csa",
                host=host,
                port=port,
                user=user,
                secret=secret("password"),
                keepalive=keepalive,
                agree=flag("agree", True),
                connect_timeout=timeout,
            )
        seek = None
        if flag("seek", False):
            color = str(table.get("seek_color", "random"))
            if color not in ("random", "sente", "gote"):
                raise OnlineConfigError(f"[online] seek_color is random, sente or gote: {color!r}")
            seek = Seek(
                time=number("seek_minutes", 10),
                increment=int(number("seek_increment", 0)),
                byoyomi=int(number("seek_byoyomi", 30)),
                periods=max(1, int(number("seek_periods", 1))),
                rated=flag("seek_rated", False),
                color=color,
            )
        game_id = table.get("game_id") or None
        return cls(
            kind="lishogi",
            base_url=str(table.get("base_url", DEFAULT_BASE_URL)),
            secret=secret("token"),
            seek=seek,
            accept_challenges=flag("accept_challenges", True),
            game_id=None if game_id is None else str(game_id),
            connect_timeout=timeout,
        )


def make_opponent(settings: OnlineSettings) -> OnlineOpponent:
    """The configured client (not connected yet)."""
    if settings.kind == "csa":
        return CsaClient(
            settings.host,
            settings.port,
            settings.user,
            settings.secret.reveal(),
            agree=None if settings.agree else (lambda summary: False),
            keepalive=settings.keepalive,
            connect_timeout=settings.connect_timeout,
        )
    return LishogiClient(
        settings.secret.reveal(),
        settings.base_url,
        seek=settings.seek,
        accept=None if not settings.accept_challenges else _standard(),
        game_id=settings.game_id,
        request_timeout=settings.connect_timeout,
    )


def _standard() -> Any:
    from board_bridge.online.lishogi import standard_challenges

    return standard_challenges
