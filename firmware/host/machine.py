"""Stand-in for MicroPython's ``machine`` module on a PC: pins wired to a simulated board.

Only what the firmware uses is here. ``board`` is the :class:`bbsim.SimBoard` the pins
read and drive; the simulator sets it before it starts the firmware.
"""

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5

board = None  # the simulated board (bbsim.SimBoard)


class SimulatedReset(BaseException):
    """machine.reset() on the simulator: the runner catches it and boots the firmware again."""


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            return board.read_pin(self.id)
        board.write_pin(self.id, 1 if v else 0)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    low = off
    high = on


class WDT:
    def __init__(self, id=0, timeout=5000):
        board.wdt_start(timeout)

    def feed(self):
        board.wdt_feed()


def reset_cause():
    return board.reset_cause


def reset():
    raise SimulatedReset()


def soft_reset():
    raise SimulatedReset()


def unique_id():
    return b"SIMPICO1"


def freq():
    return 125_000_000
