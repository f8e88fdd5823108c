"""Shared fixtures for the interop tests: where the built binaries are, free ports, and
starting a binary and waiting for its "listening on HOST:PORT" line.

Binaries come from PARLEY_BIN_DIR (default `.build/debug`, relative to the repository root).
"""

import os
import re
import resource
import select
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With PARLEY_TEST_NO_SKIPS=1 (scripts/test.sh sets it) a skipped test fails instead:
    the full run installs everything, so a skip there means a test silently did not run."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("PARLEY_TEST_NO_SKIPS") == "1" and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped in a run that must run every test: {reason}"


def bin_dir():
    """The directory holding the built executables."""
    path = Path(os.environ.get("PARLEY_BIN_DIR", ".build/debug"))
    return path if path.is_absolute() else ROOT / path


def binary(name):
    """Path to a built executable; fails the test clearly when it was not built."""
    path = bin_dir() / name
    if not path.exists():
        pytest.fail(f"{path} is missing: build it first (swift build --product {name})")
    return path


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


LISTENING = re.compile(r"listening on (\S+):(\d+)")


class RunningBinary:
    """A started executable; `host`/`port` come from its "listening on" line."""

    def __init__(self, process, host, port, early_output):
        self.process = process
        self.host = host
        self.port = port
        self.early_output = early_output

    @property
    def http_url(self):
        return f"http://{self.host}:{self.port}"

    @property
    def ws_url(self):
        return f"ws://{self.host}:{self.port}"

    def stop(self, sig=signal.SIGTERM, timeout=10):
        """Signals the process and waits for it; returns its exit code (kills if it hangs)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                pytest.fail(f"process did not exit within {timeout}s of {sig.name}")
        return self.process.returncode

    def output(self):
        """Everything the process printed after its listening line (after it exited)."""
        rest = self.process.stdout.read() if self.process.stdout else ""
        return self.early_output + (rest or "")


def start_binary(name, args, ready=LISTENING, timeout=30, env=None, fd_limit=None):
    """Starts `name` with `args` and waits for a line matching `ready` (a compiled regex with
    host and port groups). `fd_limit` caps its open descriptors (RLIMIT_NOFILE). Returns a
    RunningBinary."""

    def limit():
        if fd_limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))

    process = subprocess.Popen(
        [str(binary(name)), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
        env={**os.environ, **(env or {})},
        preexec_fn=limit,
    )
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        readable, _, _ = select.select([process.stdout], [], [], 0.2)
        if not readable:
            if process.poll() is not None:
                break
            continue
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        match = ready.search(line)
        if match:
            return RunningBinary(process, match.group(1), int(match.group(2)), "".join(seen))
    process.kill()
    process.wait()
    pytest.fail(f"{name} did not report listening; output:\n{''.join(seen)}")


@pytest.fixture
def run_binary():
    """Factory fixture: `run_binary(name, args)` starts a binary; all are stopped afterwards."""
    started = []

    def run(name, args, **kwargs):
        running = start_binary(name, args, **kwargs)
        started.append(running)
        return running

    yield run
    for running in started:
        if running.process.poll() is None:
            running.process.kill()
            running.process.wait()


@pytest.fixture
def test_peer(run_binary):
    """Factory: starts `ParleyTestPeer serve` on a free port with extra arguments."""

    def start(*extra, **kwargs):
        return run_binary("ParleyTestPeer", ["serve", "--port", "0", *extra], **kwargs)

    return start
