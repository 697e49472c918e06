"""board-bridge firmware for the Raspberry Pi Pico (MicroPython; also runs under CPython)."""

VERSION = (1, 0, 0)
