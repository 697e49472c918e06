"""The pygame board view and the on-screen simulator (see docs/ui.md)."""

from __future__ import annotations

import os

# pygame prints a greeting on import unless told not to; the CLI's output is its own.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
