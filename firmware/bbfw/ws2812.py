"""The PIO program that clocks WS2812 data out of a Pico pin (800 kHz, GRB, 24 bits)."""
# ruff: noqa: F821
# The body is PIO assembly: rp2.asm_pio runs it with its own names in scope.

import rp2


@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW,
    out_shiftdir=rp2.PIO.SHIFT_LEFT,
    autopull=True,
    pull_thresh=24,
)
def ws2812():
    # 10 PIO cycles a bit at 8 MHz: high 2, then the data bit for 5, then low 3.
    wrap_target()
    label("bit")
    out(x, 1).side(0)[2]
    jmp(not_x, "zero").side(1)[1]
    jmp("bit").side(1)[4]
    label("zero")
    nop().side(0)[4]
    wrap()


FREQ = 8_000_000
