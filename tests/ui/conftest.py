"""Fixtures of the UI tests: a headless SDL (dummy video and audio drivers) and a shared font set."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from board_bridge.ui.glyphs import Fonts  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _pygame() -> object:
    pygame.display.init()
    pygame.font.init()
    yield None
    pygame.quit()


@pytest.fixture(scope="session")
def fonts() -> Fonts:
    """The kanji fonts (CI installs fonts-noto-cjk, so the kanji path is the one tested)."""
    f = Fonts()
    if not f.kanji and (os.environ.get("CI") or os.environ.get("BOARD_BRIDGE_REQUIRE_ENGINES")):
        pytest.fail("no Japanese font found: CI must install fonts-noto-cjk")
    return f


@pytest.fixture(scope="session")
def latin_fonts() -> Fonts:
    return Fonts(japanese=False)
