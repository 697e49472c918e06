"""``board-bridge online ...``: check that a CSA server or Lishogi account can be reached."""

from __future__ import annotations

import argparse
import asyncio
import os
from typing import Any

from board_bridge.online.base import OnlineError
from board_bridge.online.config import OnlineConfigError, OnlineSettings, make_opponent
from board_bridge.online.csa import DEFAULT_PORT
from board_bridge.online.lishogi import DEFAULT_BASE_URL, LishogiClient


def register(subparsers: Any) -> None:
    online = subparsers.add_parser("online", help="online play: CSA servers and Lishogi")
    sub = online.add_subparsers(dest="online_command", metavar="ACTION")
    check = sub.add_parser(
        "check",
        help="log in to a CSA server or Lishogi and out again (credentials from the environment)",
    )
    kinds = check.add_subparsers(dest="kind", metavar="KIND", required=True)
    csa = kinds.add_parser("csa", help="a CSA protocol server (Floodgate, shogi-server)")
    csa.add_argument("--host", required=True)
    csa.add_argument("--port", type=int, default=DEFAULT_PORT)
    csa.add_argument("--user", required=True)
    csa.add_argument("--password-env", default="CSA_PASSWORD", help="variable holding the password")
    csa.add_argument("--timeout", type=float, default=10.0)
    li = kinds.add_parser("lishogi", help="the Lishogi Board API")
    li.add_argument("--base-url", default=DEFAULT_BASE_URL)
    li.add_argument("--token-env", default="LISHOGI_TOKEN", help="variable holding the token")
    li.add_argument("--timeout", type=float, default=10.0)
    check.set_defaults(func=_check)
    online.set_defaults(func=lambda args: online.print_help() or 2)


def _check(args: argparse.Namespace) -> int:
    from board_bridge.cli import CliError

    if args.kind == "csa":
        table: dict[str, Any] = {
            "kind": "csa",
            "host": args.host,
            "port": args.port,
            "user": args.user,
            "password_env": args.password_env,
            "connect_timeout": args.timeout,
        }
    else:
        table = {
            "kind": "lishogi",
            "base_url": args.base_url,
            "token_env": args.token_env,
            "connect_timeout": args.timeout,
        }
    try:
        settings = OnlineSettings.from_table(table, os.environ)
    except OnlineConfigError as exc:
        raise CliError(str(exc)) from None

    async def run() -> str:
        client = make_opponent(settings)
        try:
            await client.connect()
            if isinstance(client, LishogiClient):
                return f"logged in to {settings.base_url} as {client.account.get('username', '?')}"
            return f"logged in to {settings.host}:{settings.port} as {settings.user}"
        finally:
            await client.close()

    try:
        print(asyncio.run(run()))
    except (OnlineError, TimeoutError) as exc:
        raise CliError(str(exc) or type(exc).__name__) from None
    return 0
