"""The two interfaces every board backend implements: a sensor source and an LED sink.

Like gpiozero's pin factories, each backend lives behind these small interfaces
and has a fake for tests. A backend must implement the abstract methods; it may
override the others.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterator

from board_bridge.tracker.events import SensorEvent
from board_bridge.tracker.intents import LedIntents


class SourceDisconnected(Exception):
    """The board went away (cable pulled, port closed). The source may come back."""


class SensorSource(abc.ABC):
    """Where sensor events come from: a GPIO matrix, the firmware link, a log, the simulator.

    Must implement: :meth:`events`. May override: :meth:`start`, :meth:`close`,
    :meth:`request_frame` (ask for a full frame now, e.g. after a reconnect).
    ``close()`` is safe to call twice; sources are async context managers.
    """

    async def start(self) -> None:
        """Open the hardware. Called once before :meth:`events`."""

    @abc.abstractmethod
    def events(self) -> AsyncIterator[SensorEvent]:
        """Yield events in time order. Raise :class:`SourceDisconnected` when the board goes
        away; the daemon calls :meth:`events` again to wait for it to return. The first event
        after (re)connecting is a full :class:`SensorFrame`."""

    async def request_frame(self) -> None:
        """Ask the board for a full frame now (optional)."""

    async def close(self) -> None:
        """Release the hardware. Safe to call twice."""

    async def __aenter__(self) -> SensorSource:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class LedSink(abc.ABC):
    """Where LED intents go: WS2812 via firmware or the Pi, single-colour LEDs, a terminal.

    Must implement: :meth:`show`. May override: :meth:`start`, :meth:`close`.
    """

    async def start(self) -> None:
        """Open the hardware."""

    @abc.abstractmethod
    async def show(self, intents: LedIntents) -> None:
        """Render the intents now (replacing what was shown)."""

    async def close(self) -> None:
        """Turn the LEDs off and release the hardware. Safe to call twice."""

    async def __aenter__(self) -> LedSink:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
