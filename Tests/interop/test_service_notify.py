"""systemd readiness (`Type=notify`) without libsystemd: with NOTIFY_SOCKET naming an AF_UNIX
datagram socket (a path, or `@name` in the abstract namespace), parley serve sends READY=1
once its port answers, RELOADING=1 with MONOTONIC_USEC then READY=1 around a SIGHUP reload,
and STOPPING=1 when SIGTERM starts the drain, each with a STATUS= line. The socket here is
Python's, standing in for systemd."""
import http.client
import os
import signal
import socket
import subprocess
import time
import uuid

import pytest

from conftest import binary, free_port


def fields(datagram):
    return dict(line.split("=", 1) for line in datagram.decode().splitlines() if "=" in line)


def healthz(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.parametrize("namespace", ["path", "abstract"])
def test_ready_reloading_and_stopping_reach_the_notify_socket(tmp_path, namespace):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if namespace == "path":
        name = str(tmp_path / "notify.sock")
        listener.bind(name)
    else:
        name = f"@parley-test-{uuid.uuid4().hex}"
        listener.bind("\0" + name[1:])
    listener.settimeout(30)
    port = free_port()
    env = {**os.environ, "NOTIFY_SOCKET": name}
    process = subprocess.Popen([str(binary("parley")), "serve", "--dev", "--port", str(port), "--data-dir", str(tmp_path / "data")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        ready = fields(listener.recv(4096))
        # The port answers as soon as READY=1 arrives: it was sent after the listener was up.
        assert healthz(port) == 200
        assert ready["READY"] == "1" and ready["MAINPID"] == str(process.pid)
        assert ready["STATUS"] == f"Serving http://127.0.0.1:{port}"

        before = time.monotonic_ns() // 1000
        process.send_signal(signal.SIGHUP)
        reloading = fields(listener.recv(4096))
        assert reloading["RELOADING"] == "1" and "STATUS" in reloading
        assert before <= int(reloading["MONOTONIC_USEC"]) <= time.monotonic_ns() // 1000
        again = fields(listener.recv(4096))
        assert again["READY"] == "1" and "STATUS" in again
        assert healthz(port) == 200

        process.send_signal(signal.SIGTERM)
        stopping = fields(listener.recv(4096))
        assert stopping["STOPPING"] == "1" and stopping["STATUS"].startswith("Draining")
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        listener.close()

