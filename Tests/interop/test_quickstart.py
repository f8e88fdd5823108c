"""Issue 18: the README's ParleyKit quick start is what runs.

The Swift code between the README's quickstart markers must be Examples/QuickStart/main.swift
byte for byte; that file is the `ParleyQuickStart` executable, which is run here against
`parley serve --dev` and must sign in, list its room, send and receive its own message."""
import re
import subprocess
import tempfile
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, binary
from test_parleykit_reliability import DEADLINE, DevServer


def readme_quickstart():
    text = (ROOT / "README.md").read_text()
    match = re.search(r"<!-- quickstart:begin[^>]*-->\n```swift\n(.*?)```\n<!-- quickstart:end -->", text, re.S)
    assert match, "README.md has no quickstart block"
    return match.group(1)


def test_the_readme_shows_the_example_verbatim():
    assert readme_quickstart() == (ROOT / "Examples" / "QuickStart" / "main.swift").read_text()


@pytest.fixture
def dev_server():
    work = tempfile.mkdtemp(prefix="parley-quickstart-")
    server = DevServer(work).start()
    yield server
    server.stop()
    shutil.rmtree(work, ignore_errors=True)


def test_the_quick_start_runs_against_a_dev_server(dev_server):
    dev_server.request("POST", "/v1/dev/users", body={"id": "alice", "name": "Alice"})
    result = subprocess.run([str(binary("ParleyQuickStart")), dev_server.url, "alice"],
                            capture_output=True, text=True, timeout=DEADLINE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "room: Quick start unread: 0", lines
    assert lines[1] == "sent: seq 1", lines
    assert lines[2].startswith("received: Hello from ParleyKit at 20"), lines
    token = dev_server.request("POST", "/v1/dev/token", body={"user_id": "alice"})["token"]
    rooms = dev_server.request("GET", "/v1/me/rooms", token=token)
    assert len(rooms["rooms"]) == 1
