"""board-bridge: turns a sensor-equipped wooden shogi board into a connected board."""

__version__ = "0.1.0"
