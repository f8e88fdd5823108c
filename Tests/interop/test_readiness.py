"""`/readyz` tells a load balancer whether to send traffic: 503 with a JSON reason while the
database does not answer, 200 again once it does, and one log line for each change, while
`/healthz` (the process is alive) stays 200 throughout. Runs its own PostgreSQL instance,
which it stops and starts."""
import json
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from chat_support import ROOT, ChatServer
from log_tail import LogTail

SCRIPT = ROOT / "scripts" / "postgres-test-instance.sh"


def postgres(command, directory):
    return subprocess.run([str(SCRIPT), command, str(directory)], check=True, capture_output=True, text=True,
                          timeout=120).stdout.strip()


def get(server, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def wait_for_status(server, status, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        answer = get(server, "/readyz")
        if answer[0] == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.2)


@pytest.fixture
def instance():
    if shutil.which("psql") is None or not list(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")):
        pytest.skip("PostgreSQL server binaries are not installed")
    directory = Path(tempfile.mkdtemp(prefix="parley-readyz-pg-"))
    directory.chmod(0o755)
    url = postgres("start", directory)
    yield directory, url
    postgres("stop", directory)


def test_readyz_follows_the_database_down_and_back_with_a_log_line_each(instance):
    directory, url = instance
    server = ChatServer(database=url).start()
    tail = LogTail(server.process)
    try:
        assert get(server, "/readyz") == (200, {"status": "ready"})

        postgres("halt", directory)
        status, body = wait_for_status(server, 503)
        assert status == 503, body
        assert body["error"]["code"] == "store_unreachable"
        assert "database" in body["error"]["message"]
        down = tail.wait_for("database unreachable", timeout=30)
        assert down is not None and "level=error" in down
        assert get(server, "/healthz") == (200, {"status": "ok"})

        postgres("start", directory)
        assert wait_for_status(server, 200) == (200, {"status": "ready"})
        back = tail.wait_for("database reachable again", timeout=30)
        assert back is not None and "down_ms=" in back
    finally:
        server.stop()


def test_readyz_is_ready_on_the_embedded_database():
    server = ChatServer().start()
    try:
        assert get(server, "/readyz") == (200, {"status": "ready"})
    finally:
        server.stop()
