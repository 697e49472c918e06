"""Entry point. On the Pico (MicroPython) it runs the firmware; on a PC (CPython)
``python firmware/main.py --pty PATH`` runs the same firmware on a simulated board."""

import sys


def _board():
    from bbfw import core
    from bbfw.config import Config

    core.create(Config()).run()


def _host():
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [here, os.path.join(here, "host")]
    import bbsim

    return bbsim.main(sys.argv[1:])


if sys.implementation.name == "micropython":
    _board()
elif __name__ == "__main__":
    sys.exit(_host())
