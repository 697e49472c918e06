"""The move tracker: from sensor events and the position to moves, questions and LED intents."""

from board_bridge.tracker import events, intents, outputs
from board_bridge.tracker.params import TrackerParams
from board_bridge.tracker.tracker import Tracker, replay

__all__ = ["Tracker", "TrackerParams", "events", "intents", "outputs", "replay"]
