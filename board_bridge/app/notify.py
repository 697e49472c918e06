"""systemd's sd_notify protocol: READY=1, WATCHDOG=1 and STATUS= datagrams to NOTIFY_SOCKET."""

from __future__ import annotations

import logging
import os
import socket

LOGGER = logging.getLogger(__name__)


class Notifier:
    """Sends notifications to systemd when the daemon runs as a ``Type=notify`` service.

    Without ``NOTIFY_SOCKET`` (a run from a shell) every call does nothing. An abstract
    socket name starts with ``@``. ``watchdog_interval`` is half of ``WATCHDOG_USEC`` (how
    often :meth:`watchdog` should be called), or None when no watchdog is set.
    """

    def __init__(self, address: str | None = None, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = (address if address is not None else env.get("NOTIFY_SOCKET")) or None
        self.watchdog_interval: float | None = None
        usec = env.get("WATCHDOG_USEC")
        pid = env.get("WATCHDOG_PID")
        if usec and usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.watchdog_interval = int(usec) / 1e6 / 2
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *fields: str) -> bool:
        """Send ``KEY=value`` fields in one datagram; False (logged once) when it fails."""
        if self.address is None:
            return False
        target = self.address
        if target.startswith("@"):
            target = "\0" + target[1:]
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(fields).encode(), target)
        except OSError as exc:
            LOGGER.warning("sd_notify to %s failed: %s", self.address, exc)
            self.address = None  # do not try (and log) again
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
