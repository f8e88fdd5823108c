"""`parley serve` as a person runs it: flags and environment, the start-up line, health and
version endpoints, refusing to start without apps, and a graceful SIGTERM that closes
WebSockets with 1001 and exits 0."""
import json
import os
import re
import resource
import signal
import subprocess
import tempfile
import time
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conftest import binary, free_port

START_LINE = re.compile(r'msg="parley listening" address=http://(\S+):(\d+)')


def start(args, env=None, fd_soft_limit=None):
    data = tempfile.mkdtemp(prefix="parley-cli-")

    def lower_soft_limit():
        if fd_soft_limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_soft_limit, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    process = subprocess.Popen([str(binary("parley")), "serve", "--data-dir", data, *args],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, **(env or {})}, preexec_fn=lower_soft_limit)
    deadline = time.time() + 20
    lines = []
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        match = START_LINE.search(line)
        if match:
            return process, match.group(1), int(match.group(2)), lines
    process.kill()
    pytest.fail("parley serve never logged its start line: " + "".join(lines))


def stop(process):
    if process.poll() is None:
        process.kill()
        process.wait(10)


def get_json(url):
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status, json.loads(answer.read())


def test_help_lists_every_flag():
    out = subprocess.run([str(binary("parley")), "serve", "--help"], capture_output=True, text=True, timeout=20)
    assert out.returncode == 0
    for flag in ["--host", "--port", "--data-dir", "--threads", "--backend", "--max-message-size",
                 "--max-outbound", "--idle-timeout", "--shutdown-grace", "--config", "--dev",
                 "--max-connections", "--max-connections-per-ip", "--head-timeout", "--body-timeout", "--min-body-rate"]:
        assert flag in out.stdout
    top = subprocess.run([str(binary("parley")), "--help"], capture_output=True, text=True, timeout=20)
    assert top.returncode == 0 and "serve" in top.stdout


def test_refuses_to_start_without_apps():
    out = subprocess.run([str(binary("parley")), "serve", "--port", str(free_port())],
                         capture_output=True, text=True, timeout=20)
    assert out.returncode == 2
    assert "--config" in out.stderr and "--dev" in out.stderr


def test_bad_flag_value_is_reported():
    out = subprocess.run([str(binary("parley")), "serve", "--dev", "--port", "http"],
                         capture_output=True, text=True, timeout=20)
    assert out.returncode == 2 and "--port" in out.stderr


@pytest.mark.parametrize("backend", ["epoll", "poll"])
def test_dev_server_answers_health_and_version(backend):
    port = free_port()
    process, host, bound, lines = start(["--dev", "--port", str(port), "--backend", backend])
    try:
        assert (host, bound) == ("127.0.0.1", port)
        assert "dev-key" in lines[-1] and f"backend={backend}" in lines[-1]
        assert get_json(f"http://127.0.0.1:{port}/healthz") == (200, {"status": "ok"})
        status, version = get_json(f"http://127.0.0.1:{port}/version")
        assert status == 200 and version["name"] == "parley" and version["version"]
    finally:
        stop(process)


def test_environment_sets_the_port_and_a_flag_wins():
    env_port, flag_port = free_port(), free_port()
    process, _, bound, _ = start(["--dev"], env={"PARLEY_PORT": str(env_port)})
    stop(process)
    assert bound == env_port
    process, _, bound, _ = start(["--dev", "--port", str(flag_port)], env={"PARLEY_PORT": str(env_port)})
    stop(process)
    assert bound == flag_port


def test_sigterm_closes_websockets_with_1001_and_exits_zero():
    port = free_port()
    process, _, _, _ = start(["--dev", "--port", str(port), "--shutdown-grace", "3"])
    try:
        socket = connect(f"ws://127.0.0.1:{port}/app/dev-key?protocol=7")
        assert json.loads(socket.recv(timeout=5))["event"] == "pusher:connection_established"
        sent = time.time()
        process.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        assert process.wait(timeout=10) == 0
        assert time.time() - sent < 10
        assert "shutting down" in process.stdout.read()
    finally:
        stop(process)


def test_the_open_file_limit_is_raised_to_the_hard_limit_and_reported():
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard == resource.RLIM_INFINITY:
        with open("/proc/sys/fs/nr_open") as nr_open:
            hard = int(nr_open.read())
    assert hard > 512, "this test needs a hard open-file limit above 512"
    port = free_port()
    process, _, _, lines = start(["--dev", "--port", str(port)], fd_soft_limit=512)
    try:
        assert f"fd_limit={hard}" in lines[-1]
        assert re.search(r"max_connections=\d+", lines[-1])
        with open(f"/proc/{process.pid}/limits") as limits:
            row = next(line for line in limits if line.startswith("Max open files"))
        assert row.split()[3:5] == [str(hard), str(hard)]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
            assert f"parley_open_files_limit {hard}" in answer.read().decode()
    finally:
        stop(process)
