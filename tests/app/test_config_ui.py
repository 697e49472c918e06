"""The daemon's config reads [ui], and `board-bridge run` opens the screen when it is on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from board_bridge.app.config import ConfigError, load_config, parse_config
from board_bridge.cli import main


def test_ui_table_is_read_and_checked() -> None:
    config = parse_config({"ui": {"enabled": True, "fullscreen": True}})
    assert config.ui is not None and config.ui.enabled and config.ui.fullscreen
    assert parse_config({}).ui is None
    with pytest.raises(ConfigError) as err:
        parse_config({"ui": {"enabeld": True}})
    assert "ui.enabeld" in str(err.value)


def test_config_check_accepts_ui(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "board.toml"
    path.write_text("[ui]\nenabled = true\nwidth = 800\nheight = 480\n")
    assert load_config(path).ui.width == 800
    assert main(["config", "check", str(path)]) == 0
    path.write_text("[ui]\nwidth = -3\n")
    assert main(["config", "check", str(path)]) == 1
    assert "ui.width" in capsys.readouterr().err


def test_run_with_ui_enabled_opens_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []

    async def fake_run_screen(config: Any, ui: Any) -> int:
        seen.append((config, ui))
        return 0

    import board_bridge.ui.cli as ui_cli

    monkeypatch.setattr(ui_cli, "run_screen", fake_run_screen)
    path = tmp_path / "board.toml"
    path.write_text(f'[ui]\nenabled = true\n[records]\ndirectory = "{tmp_path}"\n')
    assert main(["run", "--config", str(path)]) == 0
    assert len(seen) == 1 and seen[0][1].enabled
