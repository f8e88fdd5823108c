"""CORS in a real browser: a page served from a second origin calls Parley's REST API with a
bearer token (a preflighted request) and `/v1/channels/auth`, in headless Chromium. The same
page from an origin the app does not list is blocked by the browser."""
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from chat_support import APP_A, APP_B, ChatServer, create_user, mint, unique
from conftest import free_port

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>cors</title></head>
<body><pre id="result">pending</pre>
<script>
const api = "http://127.0.0.1:%(api_port)d";
const token = "%(token)s";
async function call(path, init) {
  try {
    const answer = await fetch(api + path, init);
    return {status: answer.status, body: await answer.json()};
  } catch (error) {
    return {blocked: String(error)};
  }
}
(async () => {
  const me = await call("/v1/me", {headers: {"Authorization": "Bearer " + token}});
  const auth = await call("/v1/channels/auth", {
    method: "POST",
    headers: {"Authorization": "Bearer " + token, "Content-Type": "application/json"},
    body: JSON.stringify({socket_id: "1234.5678", channel_name: "private-room-%(room)s"}),
  });
  document.getElementById("result").textContent = JSON.stringify({origin: location.origin, me, auth});
})();
</script></body></html>
"""


def chromium():
    path = shutil.which("chromium")
    if not path:
        pytest.skip("chromium is not installed (Debian package chromium; scripts/test.sh installs it)")
    return path


def wait_for_http(url, timeout=15):
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def page_result(browser, url):
    """Loads `url` in headless Chromium and returns the JSON the page wrote into #result."""
    with tempfile.TemporaryDirectory(prefix="parley-chromium-") as profile:
        out = subprocess.run([browser, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                              f"--user-data-dir={profile}", "--virtual-time-budget=20000", "--dump-dom", url],
                             capture_output=True, text=True, timeout=90)
    match = re.search(r'<pre id="result">(.*?)</pre>', out.stdout, re.S)
    assert match, f"no result in the page:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}"
    text = match.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    assert text != "pending", "the page's fetches did not finish"
    return json.loads(text)


@pytest.fixture
def page_server():
    """A plain static file server (Python's http.server) on a second port: the second origin."""
    root = Path(tempfile.mkdtemp(prefix="parley-page-"))
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "--directory", str(root)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/")
        yield root, port
    finally:
        process.terminate()
        process.wait(10)


def test_a_page_on_a_listed_origin_calls_the_api_and_channel_auth(page_server):
    browser = chromium()
    root, page_port = page_server
    server = ChatServer()
    config = {"apps": [dict(APP_A, cors_origins=[f"http://127.0.0.1:{page_port}"]), dict(APP_B)]}
    (server.work / "apps.json").write_text(json.dumps(config))
    server.start()
    try:
        user = unique("web")
        create_user(server, APP_A, user)
        token = mint(APP_A, user)
        room = server.ok("POST", "/v1/rooms", token=token, json_body={"kind": "private"})["id"]
        (root / "page.html").write_text(PAGE % {"api_port": server.port, "token": token, "room": room})

        listed = page_result(browser, f"http://127.0.0.1:{page_port}/page.html")
        assert listed["origin"] == f"http://127.0.0.1:{page_port}"
        assert listed["me"]["status"] == 200 and listed["me"]["body"]["id"] == user, listed
        assert listed["auth"]["status"] == 200 and listed["auth"]["body"]["auth"].startswith(APP_A["key"] + ":"), listed

        # The same page from http://localhost:PORT is another origin, not listed: the browser
        # refuses to hand the page the answers.
        unlisted = page_result(browser, f"http://localhost:{page_port}/page.html")
        assert unlisted["origin"] == f"http://localhost:{page_port}"
        assert "blocked" in unlisted["me"] and "blocked" in unlisted["auth"], unlisted
    finally:
        server.stop()
