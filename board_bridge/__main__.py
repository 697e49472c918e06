"""Allows `python -m board_bridge`."""

import sys

from board_bridge.cli import main

sys.exit(main())
