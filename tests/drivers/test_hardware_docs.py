"""The hardware documentation agrees with the code: pin maps, pictures, the LED palette."""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from board_bridge.drivers.gpio_matrix import DEFAULT_COLUMNS, DEFAULT_ROWS
from board_bridge.drivers.leds import DEFAULT_PALETTE, SINGLE_COLOUR_PATTERNS
from board_bridge.tracker.intents import Mark

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"

#: The Raspberry Pi 40-pin header: BCM GPIO -> physical pin.
PI_HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip
#: The Raspberry Pi Pico: GP number -> physical pin.
PICO_PINS = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}  # fmt: skip


def load_drawer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("draw_matrix", HARDWARE / "draw_matrix.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_pictures_are_up_to_date() -> None:
    drawer = load_drawer()
    assert (HARDWARE / "matrix.svg").read_text(encoding="utf-8") == drawer.draw_matrix(), (
        "run python hardware/draw_matrix.py"
    )
    assert (HARDWARE / "leds.svg").read_text(encoding="utf-8") == drawer.draw_leds()
    svg = drawer.draw_matrix()
    for pin in (*DEFAULT_ROWS, *DEFAULT_COLUMNS):
        assert f">GPIO{pin}<" in svg
    assert svg.count("<polygon") == 81  # a diode on every square


def matrix_table(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    rows = re.findall(r"\| row [a-i][^|]*\| (\d+) \| (\d+) \|", text)
    cols = re.findall(r"\| column [1-9][^|]*\| (\d+) \| (\d+) \|", text)
    return [(int(a), int(b)) for a, b in rows], [(int(a), int(b)) for a, b in cols]


@pytest.mark.parametrize("name", ["pinmap-pi4.md", "pinmap-pi5.md"])
def test_pi_pin_maps_match_the_driver_defaults_and_the_header(name: str) -> None:
    rows, cols = matrix_table((HARDWARE / name).read_text(encoding="utf-8"))
    assert [bcm for bcm, _ in rows] == list(DEFAULT_ROWS)
    assert [bcm for bcm, _ in cols] == list(DEFAULT_COLUMNS)
    for bcm, pin in rows + cols:
        assert PI_HEADER[bcm] == pin, f"GPIO{bcm} is header pin {PI_HEADER[bcm]}, not {pin}"


def firmware_config() -> dict[str, object]:
    tree = ast.parse((ROOT / "firmware" / "bbfw" / "config.py").read_text(encoding="utf-8"))
    out: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Config":
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                    with contextlib.suppress(ValueError):
                        out[stmt.targets[0].id] = ast.literal_eval(stmt.value)
    return out


def test_pico_pin_map_matches_the_firmware() -> None:
    text = (HARDWARE / "pinmap-pico.md").read_text(encoding="utf-8")
    rows = [
        (int(a), int(b)) for a, b in re.findall(r"\| row [a-i][^|]*\| GP(\d+) \| (\d+) \|", text)
    ]
    cols = [
        (int(a), int(b)) for a, b in re.findall(r"\| column [1-9][^|]*\| GP(\d+) \| (\d+) \|", text)
    ]
    cfg = firmware_config()
    assert [gp for gp, _ in rows] == list(cfg["ROW_PINS"])  # type: ignore[call-overload]
    assert [gp for gp, _ in cols] == list(cfg["COL_PINS"])  # type: ignore[call-overload]
    led = re.search(r"WS2812 data[^|]*\| GP(\d+) \| (\d+) \|", text)
    assert led is not None and int(led.group(1)) == cfg["LED_PIN"]
    for gp, pin in [*rows, *cols, (int(led.group(1)), int(led.group(2)))]:
        assert PICO_PINS[gp] == pin, f"GP{gp} is Pico pin {PICO_PINS[gp]}, not {pin}"
    for gp, pin in re.findall(r"\| [a-z]+ \| GP(\d+) \| (\d+) \|", text):
        assert PICO_PINS[int(gp)] == int(pin)


def test_the_led_docs_match_the_palette() -> None:
    text = (ROOT / "docs" / "leds.md").read_text(encoding="utf-8")
    seen = set()
    for name, color, blink, single in re.findall(
        r"^\| `([A-Z_]+)` \|[^|]*\|[^|`]*`(#[0-9a-f]{6})` \| (\w+) \| (\w+) \|$", text, re.M
    ):
        mark = Mark[name]
        style = DEFAULT_PALETTE[mark]
        r, g, b = style.color
        assert color == f"#{r:02x}{g:02x}{b:02x}", name
        assert blink == style.blink.name, name
        pattern = SINGLE_COLOUR_PATTERNS[mark]
        assert single == (pattern.name if pattern else "off"), name
        seen.add(mark)
    assert seen == set(Mark) - {Mark.NONE}
