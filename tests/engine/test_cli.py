"""`board-bridge engine check` (registered through board_bridge.engine.cli.register)."""

from __future__ import annotations

import argparse
import sys

import pytest

from board_bridge.cli import CliError
from board_bridge.engine import cli as engine_cli
from tests.conftest import require_engine
from tests.engine.support import FAKE_ENGINE


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="board-bridge")
    engine_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


def test_check_fairy_stockfish(capsys: pytest.CaptureFixture[str]) -> None:
    path = require_engine("fairy-stockfish")
    code = run(
        ["engine", "check", path, "-o", "Skill Level=2", "--byoyomi", "100", "--moves", "7g7f"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "id name Fairy-Stockfish" in out and "profile fairy-stockfish" in out
    assert "option UCI_Variant (combo) = 'shogi'" in out
    assert "option Skill Level (spin) = '20' [-20..20]" in out
    assert "\nbestmove " in out and "info depth" in out


def test_check_reports_a_broken_engine_in_one_line() -> None:
    with pytest.raises(CliError, match="exit code 2.*opening book"):
        run(["engine", "check", sys.executable, "--", str(FAKE_ENGINE), "--exit-at-start"])


def test_check_refuses_bad_options() -> None:
    with pytest.raises(CliError, match="NAME=VALUE"):
        run(["engine", "check", sys.executable, "-o", "oops"])
    with pytest.raises(CliError, match="no option 'Colour'"):
        run(["engine", "check", "-o", "Colour=red", sys.executable, "--", str(FAKE_ENGINE)])
