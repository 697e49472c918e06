"""Stand-in for MicroPython's ``rp2`` module on a PC: a PIO state machine whose output
(WS2812 words) lands in the simulated board's LED buffer."""

import machine


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    IN_LOW = 0
    IN_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2


class _Program:
    """An assembled PIO program. The body is not run here: only real PIO can."""

    def __init__(self, func, settings):
        self.func = func
        self.name = func.__name__
        self.settings = settings


def asm_pio(**settings):
    def decorate(func):
        return _Program(func, settings)

    return decorate


class StateMachine:
    def __init__(self, id, program, freq=-1, **kw):
        if not isinstance(program, _Program):
            raise TypeError("StateMachine needs a program made by rp2.asm_pio")
        self.id = id
        self.program = program
        self.freq = freq
        self.kw = kw
        self.running = False

    def active(self, value=None):
        if value is None:
            return self.running
        self.running = bool(value)
        return None

    def put(self, words, shift=0):
        if not self.running:
            return
        if isinstance(words, int):
            words = [words]
        out = [(w << shift) & 0xFFFFFFFF for w in words]
        machine.board.pio_put(self.program.name, out)
