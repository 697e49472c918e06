"""Every setting of the firmware in one place: pins, timings, LEDs, link.

Edit the defaults below for your board, or pass overrides: ``Config(DEBOUNCE_MS=30)``.
Pin numbers are GPIO numbers (GPn), not the Pico's physical pin numbers.
"""


class Config:
    # ---- sensor matrix: rows are driven low one at a time, columns read with pull-ups
    # (a closed switch pulls its column low; put a diode in series with each switch).
    # ROW_PINS[0] is rank a (gote's back rank) ... ROW_PINS[8] is rank i.
    ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10)
    # COL_PINS[0] is file 9 ... COL_PINS[8] is file 1 (the board as sente sees it).
    COL_PINS = (11, 12, 13, 14, 15, 16, 17, 18, 19)
    SCAN_SETTLE_US = 20  # wait after driving a row before reading the columns
    # a square must read the same for this long to count: keep it short, a fast capture
    # empties its target for as little as 8 ms at quick hands (with 20, 21 of 52 logs of
    # the independent hand at x1.0 lost their game; docs/hardware.md, "Debouncing")
    DEBOUNCE_MS = 5

    # ---- what the board reports: 0 occupancy ('.'/'x'), 1 polarity ('.'/'u'/'p')
    BOARD_KIND = 0

    # ---- buttons (optional): (input value, GPIO) pairs, active low with pull-ups,
    # e.g. (("promote", 20), ("nonpromote", 21)). Values: promote, nonpromote,
    # R B G S N L P (the piece dropped), undo, resign, clock.
    BUTTONS = ()
    BUTTON_DEBOUNCE_MS = 30

    # ---- WS2812 LEDs, driven by PIO state machine LED_SM
    LED_PIN = 22
    LED_LAYOUT = 1  # 0 none, 1 one LED per square (81), 2 a 10 x 10 corner grid (100)
    LED_COUNT = 81  # LEDs on the strip (the host sends at most this many)
    LED_SM = 0
    LED_BRIGHTNESS = 255  # a last scale on every colour, 0-255 (the host caps power too)

    # ---- link to the host: "usb" (USB CDC, the REPL's port) or "uart"
    LINK = "usb"
    UART_ID = 0
    UART_TX = 0
    UART_RX = 1
    UART_BAUD = 115200

    # ---- protocol timings (milliseconds)
    HEARTBEAT_MS = 200  # our heartbeat: it also bounds how late the host may settle a move
    HOST_TIMEOUT_MS = 3000  # no host frame for this long: the host is gone (LEDs off)
    RETRANSMIT_MS = 150  # resend unacknowledged events after this long
    WINDOW = 16  # events in flight before waiting for an acknowledgement
    QUEUE = 64  # events kept for the host while it is away or slow
    LOOP_MS = 1  # sleep between two turns of the main loop

    # ---- watchdog: reset the board when the main loop stalls this long (0 = off;
    # the RP2040 allows at most 8388 ms)
    WDT_MS = 4000

    NAME = "board-bridge-pico"

    def __init__(self, **overrides):
        for key, value in overrides.items():
            if not hasattr(Config, key) or key.startswith("_"):
                raise ValueError(f"unknown setting: {key}")
            setattr(self, key, value)
        if len(self.ROW_PINS) != 9 or len(self.COL_PINS) != 9:
            raise ValueError("the matrix needs 9 row pins and 9 column pins")
