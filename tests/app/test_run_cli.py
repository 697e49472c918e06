"""`board-bridge run` as systemd runs it: sd_notify READY/WATCHDOG, SIGTERM, resume on restart."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from board_bridge.records.journal import find_unfinished
from tests.conftest import ROOT


def _start(config: Path, notify: str | None, *extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if notify is not None:
        env.update(NOTIFY_SOCKET=notify, WATCHDOG_USEC="1000000")
    return subprocess.Popen(
        [sys.executable, "-m", "board_bridge", "run", "--config", str(config), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )


def _recv_until(sock: socket.socket, wanted: bytes, timeout: float) -> list[bytes]:
    got: list[bytes] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        sock.settimeout(max(0.01, end - time.monotonic()))
        try:
            data = sock.recv(4096)
        except TimeoutError:
            break
        got.append(data)
        if wanted in data:
            return got
    raise AssertionError(f"no {wanted!r} within {timeout} s; got {got}")


@pytest.mark.timeout(90)
def test_run_notifies_systemd_stops_on_sigterm_and_resumes(tmp_path: Path) -> None:
    games = tmp_path / "games"
    config = tmp_path / "board.toml"
    config.write_text(
        '[board]\nsource = "simulated"\n[leds]\nsink = "none"\n'
        f'[records]\ndirectory = "{games}"\n[daemon]\nlog_level = "info"\n'
    )
    address = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    try:
        proc = _start(config, address)
        try:
            got = _recv_until(sock, b"READY=1", 30)
            assert any(b"STATUS=" in g for g in got)
            _recv_until(sock, b"WATCHDOG=1", 3)  # WatchdogSec=1 s: fed every 0.5 s
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=15)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        assert proc.returncode == 0, err
        assert "Traceback" not in err
        assert "stopping: signal SIGTERM" in err
        # the game (set up, no move yet) was left unfinished: the next start resumes it
        unfinished = find_unfinished(games)
        assert len(unfinished) == 1

        proc = _start(config, None)
        try:
            time.sleep(3)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=15)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        assert proc.returncode == 0, err
        assert "resuming the unfinished game" in err
        assert [i.path for i in find_unfinished(games)] == [unfinished[0].path]
    finally:
        sock.close()


def test_run_with_a_missing_engine_fails_clearly(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[game]\nengine = "white"\n[engine]\npath = "/nonexistent/engine"\n')
    proc = subprocess.run(
        [sys.executable, "-m", "board_bridge", "run", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert proc.returncode == 1
    assert "engine.path: engine '/nonexistent/engine' not found" in proc.stderr
    assert "Traceback" not in proc.stderr
