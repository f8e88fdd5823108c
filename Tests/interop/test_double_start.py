"""A second `parley serve` must not start beside a running one: not on its port (the kernel
would split connections between two servers, each with its own database) and not on its
data directory (two writers on one embedded database). `--reuse-port` is the explicit way to
share a port, for replacing a running server without a gap."""
import json
import os
import signal
import subprocess
import tempfile
import urllib.request

from conftest import binary, free_port
from test_serve_cli import start, stop


def run_second(args, data_dir=None):
    data = data_dir or tempfile.mkdtemp(prefix="parley-second-")
    return subprocess.run([str(binary("parley")), "serve", "--data-dir", data, *args],
                          capture_output=True, text=True, timeout=30)


def get(url):
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status, json.loads(answer.read())


def test_a_second_server_on_the_same_port_exits_with_a_clear_message():
    port = free_port()
    first, _, _, _ = start(["--dev", "--port", str(port)])
    try:
        second = run_second(["--dev", "--port", str(port)])
        assert second.returncode == 1, second.stderr
        assert f"127.0.0.1:{port} is already in use" in second.stderr
        assert "--reuse-port" in second.stderr
        assert "parley listening" not in second.stderr
        assert first.poll() is None
        assert get(f"http://127.0.0.1:{port}/healthz") == (200, {"status": "ok"})
    finally:
        stop(first)


def test_a_second_server_on_the_same_data_directory_names_the_first_ones_pid():
    data = tempfile.mkdtemp(prefix="parley-shared-")
    first = subprocess.Popen([str(binary("parley")), "serve", "--dev", "--port", str(free_port()), "--data-dir", data],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = ""
        while "parley listening" not in line:
            line = first.stdout.readline()
            assert line, "the first server did not start"
        second = run_second(["--dev", "--port", str(free_port())], data_dir=data)
        assert second.returncode == 1, second.stderr
        assert f"the data directory {data} is in use by another parley server (pid {first.pid})" in second.stderr
        assert first.poll() is None
    finally:
        stop(first)
    # The lock dies with its holder: the same directory starts again at once, even after a kill.
    again, _, _, _ = start(["--dev", "--port", str(free_port()), "--data-dir", data])
    stop(again)


def test_reuse_port_hands_the_port_over_without_a_gap():
    port = free_port()
    old, _, _, _ = start(["--dev", "--port", str(port)])
    new = None
    try:
        new, _, bound, _ = start(["--dev", "--port", str(port), "--reuse-port"])
        assert bound == port
        old.send_signal(signal.SIGTERM)
        assert old.wait(timeout=15) == 0
        # Every connection now lands on the new server, which was listening all along.
        for _ in range(20):
            assert get(f"http://127.0.0.1:{port}/healthz") == (200, {"status": "ok"})
        assert new.poll() is None
    finally:
        stop(old)
        if new is not None:
            stop(new)
