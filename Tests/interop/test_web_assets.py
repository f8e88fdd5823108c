"""How `parley serve` serves Parley Web over HTTP: the page and its files exactly as kept in
Web/, with their content types, a strict CSP, ETags (304 on a match), gzip when accepted,
immutable caching under the versioned path, the page's settings for --dev and --config, the
size budget, and --no-web."""
import gzip
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from chat_support import APP_B, ChatServer
from conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "Web"
BUDGET_BYTES = 120 * 1024


@pytest.fixture
def dev_server():
    server = ChatServer(dev=True).start()
    yield server
    server.stop()
    shutil.rmtree(server.work, ignore_errors=True)


def base_path(index_html):
    match = re.search(r'src="(/web/[0-9a-f]+)/app\.js"', index_html)
    assert match, index_html[:500]
    return match.group(1)


def test_the_page_and_its_files_are_the_ones_in_web(dev_server):
    page = dev_server.request("GET", "/")
    assert page.status == 200 and page.headers["Content-Type"] == "text/html; charset=utf-8"
    base = base_path(page.body.decode())
    assert page.body.decode() == (WEB / "index.html").read_text().replace("{{BASE}}", base), \
        "the build embeds Web/ (WebAssetsPlugin)"
    types = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
    files = [path for path in WEB.iterdir() if path.suffix in types]
    assert {path.name for path in files} >= {"app.js", "realtime.js", "api.js", "style.css"}
    for path in files:
        answer = dev_server.request("GET", f"{base}/{path.name}")
        assert answer.status == 200, path.name
        assert answer.headers["Content-Type"] == types[path.suffix]
        assert answer.body == path.read_bytes(), f"{path.name} differs from Web/ (WebAssetsPlugin)"
        assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "script-src 'self'" in answer.headers["Content-Security-Policy"]


def test_the_scripts_and_styles_fit_the_budget():
    total = sum(path.stat().st_size for path in WEB.iterdir() if path.suffix in (".js", ".css"))
    assert total <= BUDGET_BYTES, f"{total} bytes of JavaScript and CSS (budget {BUDGET_BYTES})"


def test_security_headers_etag_and_gzip(dev_server):
    page = dev_server.request("GET", "/")
    policy = page.headers["Content-Security-Policy"]
    for directive in ("default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"):
        assert directive in policy, policy
    assert "unsafe" not in policy
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["Cache-Control"] == "no-cache"
    etag = page.headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{24}"', etag)

    again = dev_server.request("GET", "/", headers={"If-None-Match": etag})
    assert again.status == 304 and again.body == b"" and again.headers["ETag"] == etag
    assert dev_server.request("GET", "/", headers={"If-None-Match": '"other"'}).status == 200

    base = base_path(page.body.decode())
    plain = dev_server.request("GET", f"{base}/app.js")
    packed = dev_server.request("GET", f"{base}/app.js", headers={"Accept-Encoding": "br, gzip;q=0.8"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip" and packed.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(packed.body) == plain.body and len(packed.body) < len(plain.body) / 2
    assert packed.headers["ETag"] != plain.headers["ETag"]
    assert dev_server.request("GET", f"{base}/app.js", headers={"If-None-Match": packed.headers["ETag"],
                                                                "Accept-Encoding": "gzip"}).status == 304
    refused = dev_server.request("GET", f"{base}/app.js", headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused.headers and refused.body == plain.body

    head = dev_server.request("HEAD", "/")
    assert head.status == 200 and head.body == b""
    stale = dev_server.request("GET", "/web/000000000000/app.js")
    assert stale.status == 200 and stale.headers["Cache-Control"] == "no-cache"
    missing = dev_server.request("GET", f"{base}/nothing.js")
    assert missing.status == 404 and missing.error_code == "not_found"


def test_dev_settings(dev_server):
    settings = dev_server.request("GET", "/web/config.json")
    assert settings.headers["Cache-Control"] == "no-store"
    assert settings.json == {"app_key": "dev-key", "app_id": "1", "dev": True, "token_url": None}


def test_config_settings_name_the_token_url_and_the_csp_allows_its_origin():
    backend = f"http://127.0.0.1:{free_port()}"
    server = ChatServer(extra_args=["--web-app", APP_B["id"], "--web-token-url", backend + "/token"]).start()
    try:
        settings = server.request("GET", "/web/config.json").json
        assert settings == {"app_key": APP_B["key"], "app_id": APP_B["id"], "dev": False, "token_url": backend + "/token"}
        policy = server.request("GET", "/").headers["Content-Security-Policy"]
        assert f"connect-src 'self' {backend};" in policy, policy
    finally:
        server.stop()


def test_no_web_and_a_bad_token_url():
    server = ChatServer(extra_args=["--no-web"]).start()
    try:
        assert server.request("GET", "/").status == 404
        assert server.request("GET", "/web/config.json").status == 404
    finally:
        server.stop()
    bad = ChatServer()
    result = subprocess.run([str(bad.binary), "serve", "--config", str(bad.work / "apps.json"), "--port", "0",
                             "--web-token-url", "javascript:alert(1)"], capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and "--web-token-url" in (result.stdout + result.stderr)
    unknown = subprocess.run([str(bad.binary), "serve", "--config", str(bad.work / "apps.json"), "--port", "0",
                              "--data-dir", str(bad.work / "data"), "--web-app", "999"], capture_output=True, text=True, timeout=30)
    assert unknown.returncode != 0 and "--web-app 999" in (unknown.stdout + unknown.stderr)
