"""Shared fixtures: where the project's shared corpus lives, and engine discovery."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BOARD_BRIDGE_SHARED", ROOT.parent / "shared")).resolve()


def pytest_configure(config: pytest.Config) -> None:
    """Stop at once, with one clear message, when the shared corpus is not there.

    Many tests are parametrised over its games at collection time; without this a
    clone outside the project folder reported hundreds of unrelated failures."""
    if not (SHARED / "games" / "corpus.jsonl").exists():
        raise pytest.UsageError(
            f"shared corpus not found at {SHARED}: clone beside ../shared "
            "or set BOARD_BRIDGE_SHARED"
        )


def shared_path(*parts: str) -> Path:
    """A path under ../shared; fails clearly (never skips) when the corpus is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"shared corpus not found at {path} (set BOARD_BRIDGE_SHARED)")
    return path


def corpus_games() -> list[dict[str, Any]]:
    path = SHARED / "games" / "corpus.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def find_engine(name: str) -> str | None:
    """Path of an installed engine binary (Debian puts them in /usr/games)."""
    found = shutil.which(name) or shutil.which(name, path="/usr/games")
    return found


def require_engine(name: str) -> str:
    """The engine's path; CI (BOARD_BRIDGE_REQUIRE_ENGINES=1) fails instead of skipping."""
    path = find_engine(name)
    if path is None:
        if os.environ.get("BOARD_BRIDGE_REQUIRE_ENGINES") or os.environ.get("CI"):
            pytest.fail(f"engine {name!r} is not installed (CI must install it)")
        pytest.skip(f"engine {name!r} is not installed")
    return path


@pytest.fixture
def shared() -> Path:
    if not SHARED.exists():
        pytest.fail(f"shared corpus not found at {SHARED} (set BOARD_BRIDGE_SHARED)")
    return SHARED
