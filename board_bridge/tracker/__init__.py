"""The move tracker: from sensor events and the position to moves, questions and LED intents."""
