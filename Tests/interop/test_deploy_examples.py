"""The deployment examples in deploy/ work as documented (docs/operations.md): nginx from
Debian runs deploy/nginx/parley.conf (only the addresses and certificate paths changed) in
front of parley serve, passes WebSockets, a 10 MiB upload and idle sockets through, and keeps
/metrics inside; `systemd-analyze verify` accepts deploy/systemd/parley.service."""
import json
import re
import shutil
import ssl
import subprocess
import time
import urllib.request

import pytest
from websockets.sync.client import connect

from chat_support import APP_A, ROOT, ChatServer, create_user, mint
from conftest import free_port

NGINX_EXAMPLE = ROOT / "deploy" / "nginx" / "parley.conf"
SYSTEMD_EXAMPLE = ROOT / "deploy" / "systemd" / "parley.service"


def seconds(text, directive):
    return int(re.search(rf"^\s*{directive}\s+(\d+)s;", text, re.M).group(1))


@pytest.fixture
def behind_nginx(tmp_path):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not shutil.which("nginx") and not (ROOT / nginx).exists() and not __import__("os").path.exists(nginx):
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    server = ChatServer().start()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], cwd=tmp_path, check=True, capture_output=True)
    port = free_port()
    site = NGINX_EXAMPLE.read_text()
    site = site.replace("server 127.0.0.1:6001;", f"server 127.0.0.1:{server.port};")
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {tmp_path}/cert.pem;", site)
    site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {tmp_path}/key.pem;", site)
    (tmp_path / "parley.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(f"""
        daemon off;
        pid {tmp_path}/nginx.pid;
        error_log {tmp_path}/error.log;
        events {{ worker_connections 256; }}
        http {{
            access_log off;
            client_body_temp_path {tmp_path}/body;
            proxy_temp_path {tmp_path}/proxy;
            include {tmp_path}/parley.conf;
        }}
    """)
    checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
    deadline = time.monotonic() + 10
    while True:
        try:
            urllib.request.urlopen(f"https://127.0.0.1:{port}/healthz", context=context, timeout=2)
            break
        except OSError:
            assert time.monotonic() < deadline, (tmp_path / "error.log").read_text()
            time.sleep(0.1)
    yield server, port, context
    process.terminate()
    process.wait(10)
    server.stop()


def request(port, context, method, path, token=None, body=None, headers=None):
    all_headers = dict(headers or {})
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(f"https://127.0.0.1:{port}{path}", data=body, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(req, context=context, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_nginx_example_passes_websockets_and_uploads_and_hides_metrics(behind_nginx):
    server, port, context = behind_nginx
    assert request(port, context, "GET", "/readyz") == (200, b'{"status":"ready"}')
    assert request(port, context, "GET", "/metrics")[0] == 404

    with connect(f"wss://127.0.0.1:{port}/app/{APP_A['key']}?protocol=7", ssl=context) as socket:
        assert json.loads(socket.recv(timeout=5))["event"] == "pusher:connection_established"
        socket.send(json.dumps({"event": "pusher:ping", "data": {}}))
        assert json.loads(socket.recv(timeout=5))["event"] == "pusher:pong"

    create_user(server, APP_A, "uploader")
    token = mint(APP_A, "uploader")
    status, body = request(port, context, "POST", "/v1/rooms", token=token, body=b'{"kind":"private","name":"files"}',
                           headers={"Content-Type": "application/json"})
    assert status == 201, body
    room = json.loads(body)["id"]
    upload = bytes(range(256)) * (10 * 1024 * 1024 // 256 - 64)
    status, body = request(port, context, "POST", f"/v1/rooms/{room}/attachments", token=token, body=upload,
                           headers={"Content-Type": "application/octet-stream"})
    assert status == 201, body[:300]
    assert json.loads(body)["size"] == len(upload)


def test_nginx_example_timeouts_outlast_the_ping_cycle():
    text = NGINX_EXAMPLE.read_text()
    activity, pong = 120, 30  # the defaults of activity_timeout and pong_timeout (docs/configuration.md)
    assert seconds(text, "proxy_read_timeout") > activity + pong
    assert seconds(text, "proxy_send_timeout") > activity + pong


def test_systemd_unit_verifies(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    unit = SYSTEMD_EXAMPLE.read_text()
    assert "ExecReload=/bin/kill -HUP $MAINPID" in unit and re.search(r"^LimitNOFILE=\d+", unit, re.M)
    assert re.search(r"^Type=notify$", unit, re.M)  # the server sends READY=1 itself (test_service_notify)
    # The unit names /usr/local/bin/parley; verify it against the built binary instead.
    binary = server_binary()
    (tmp_path / "parley.service").write_text(unit.replace("/usr/local/bin/parley", str(binary)))
    out = subprocess.run(["systemd-analyze", "verify", "--man=no", str(tmp_path / "parley.service")],
                         capture_output=True, text=True, timeout=60)
    problems = [line for line in out.stderr.splitlines() if "parley.service" in line]
    assert out.returncode == 0 and not problems, out.stderr


def server_binary():
    from chat_support import BIN_DIR
    return BIN_DIR / "parley"
