"""TLS at the edge: `parley serve --tls-cert/--tls-key` serves https and wss on its one port.

The peers are curl, Python's ssl module with `websockets`, `pysher` (wss) and the `pusher`
server library (https). Certificates come from a throwaway CA made with the `openssl`
command in each test's temporary directory."""
import asyncio
import json
import re
import signal
import socket
import ssl
import subprocess
import threading
import time
from contextlib import ExitStack

import pusher
import pysher
import pytest
from websockets.asyncio.client import connect as asyncio_connect

from conftest import binary

APP = {"id": "321", "key": "tls-key", "secret": "tls-secret"}
LISTENING = re.compile(r"address=https://(\S+):(\d+)")


def openssl(directory, *args):
    subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True)


class Certificates:
    """A CA and server certificates signed by it (CN=localhost, SAN localhost and 127.0.0.1)."""

    def __init__(self, directory):
        self.dir = directory
        openssl(directory, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-days", "2", "-subj", "/CN=Parley TLS Test CA", "-keyout", "ca.key", "-out", "ca.pem")
        (directory / "server.ext").write_text(
            "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
        self.cert, self.key = self.issue("server", serial=1001, common_name="localhost")

    @property
    def ca(self):
        return str(self.dir / "ca.pem")

    def issue(self, name, serial, common_name):
        """Makes NAME.pem/NAME.key; returns their paths."""
        openssl(self.dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-subj", f"/CN={common_name}", "-keyout", f"{name}.key", "-out", f"{name}.csr")
        openssl(self.dir, "x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-set_serial", str(serial), "-days", "2", "-extfile", "server.ext", "-out", f"{name}.pem")
        return self.dir / f"{name}.pem", self.dir / f"{name}.key"

    def context(self):
        """A client context that trusts only the test CA."""
        return ssl.create_default_context(cafile=self.ca)


@pytest.fixture
def certs(tmp_path):
    return Certificates(tmp_path)


def start_tls_server(run_binary, tmp_path, certs, through_config_file=False):
    config = {"apps": [dict(APP, client_events=True)]}
    args = ["serve", "--port", "0", "--data-dir", str(tmp_path / "data")]
    if through_config_file:
        config["tls"] = {"cert_file": str(certs.cert), "key_file": str(certs.key)}
    else:
        args += ["--tls-cert", str(certs.cert), "--tls-key", str(certs.key)]
    (tmp_path / "apps.json").write_text(json.dumps(config))
    return run_binary("parley", [*args, "--config", str(tmp_path / "apps.json")], ready=LISTENING)


@pytest.fixture
def tls_server(run_binary, tmp_path, certs):
    return start_tls_server(run_binary, tmp_path, certs, through_config_file=True)


def curl_healthz(certs, port):
    return subprocess.run(["curl", "-sS", "--max-time", "10", "--cacert", certs.ca, "-w", "\n%{http_version}",
                           f"https://127.0.0.1:{port}/healthz"], capture_output=True, text=True)


def peer_serial(certs, port):
    """The serial number of the certificate a fresh TLS connection is shown."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with certs.context().wrap_socket(raw, server_hostname="localhost") as tls:
            return int(tls.getpeercert()["serialNumber"], 16)


class WssClient:
    """A `websockets` client over wss, driven from synchronous test code.

    Not the library's sync client: that one reads in a background thread while the caller
    writes, so two threads use one OpenSSL session at once. Under TLS 1.3 the server's session
    tickets arrive just as the upgrade request is written, and about one connection in a
    thousand on a loaded machine never sends its request (a packet capture shows the client
    silent after its Finished). The asyncio client does all TLS work on its own loop thread."""

    def __init__(self, url, context, open_timeout=10):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        try:
            self.ws = self.run(self.open(url, context, open_timeout), open_timeout + 5)
        except BaseException:
            self.stop_loop()
            raise

    @staticmethod
    async def open(url, context, open_timeout):
        return await asyncio_connect(url, ssl=context, open_timeout=open_timeout)

    def run(self, coroutine, timeout):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def send(self, text):
        self.run(self.ws.send(text), 10)

    def recv(self, timeout):
        return self.run(asyncio.wait_for(self.ws.recv(), timeout), timeout + 5)

    def peer_serial(self):
        certificate = self.ws.transport.get_extra_info("ssl_object").getpeercert()
        return int(certificate["serialNumber"], 16)

    def close(self):
        try:
            self.run(self.ws.close(), 10)
        finally:
            self.stop_loop()

    def stop_loop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def ws_connect(url, context, open_timeout=10):
    return WssClient(url, context, open_timeout)


def ws_url(port):
    return f"wss://127.0.0.1:{port}/app/{APP['key']}?protocol=7&client=pytest&version=1.0"


def test_curl_gets_healthz_over_https(tls_server, certs):
    result = curl_healthz(certs, tls_server.port)
    assert result.returncode == 0, result.stderr
    body, version = result.stdout.rsplit("\n", 1)
    assert json.loads(body)["status"] == "ok"
    assert version == "1.1"  # ALPN agreed on http/1.1


def test_tls_is_12_or_newer_and_alpn_is_http11(tls_server, certs):
    context = certs.context()
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.version() in ("TLSv1.2", "TLSv1.3")
            assert tls.selected_alpn_protocol() == "http/1.1"
    only12 = certs.context()
    only12.maximum_version = ssl.TLSVersion.TLSv1_2
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=10) as raw:
        with only12.wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.version() == "TLSv1.2"


def test_websockets_over_wss_gets_connection_established(tls_server, certs):
    with ws_connect(ws_url(tls_server.port), certs.context(), open_timeout=10) as ws:
        event = json.loads(ws.recv(timeout=10))
        assert event["event"] == "pusher:connection_established"
        assert "socket_id" in json.loads(event["data"])
        ws.send(json.dumps({"event": "pusher:ping", "data": {}}))
        assert json.loads(ws.recv(timeout=10))["event"] == "pusher:pong"


def test_pysher_secure_receives_an_event_triggered_over_https(tls_server, certs):
    received = []
    got = threading.Event()
    subscribed = threading.Event()
    client = pysher.Pusher(APP["key"], secure=True, custom_host="127.0.0.1", port=tls_server.port)
    # pysher hands socket_kwargs to websocket-client's run_forever: trust the test CA.
    client.connection.socket_kwargs["sslopt"] = {"ca_certs": certs.ca}

    def on_connect(_data):
        channel = client.subscribe("tls-news")
        channel.bind("pusher_internal:subscription_succeeded", lambda *_: subscribed.set())
        channel.bind("headline", lambda data: (received.append(data), got.set()))

    client.connection.bind("pusher:connection_established", on_connect)
    client.connect()
    try:
        assert subscribed.wait(15), "pysher never subscribed over wss"
        server_lib = pusher.Pusher(app_id=APP["id"], key=APP["key"], secret=APP["secret"],
                                   host="127.0.0.1", port=tls_server.port, ssl=True)
        server_lib._pusher_client.http.options["verify"] = certs.ca
        server_lib.trigger("tls-news", "headline", {"text": "over TLS both ways"})
        assert got.wait(10), "the event did not reach pysher"
        assert json.loads(received[0]) == {"text": "over TLS both ways"}
    finally:
        client.disconnect()


def test_garbage_instead_of_client_hello_closes_only_that_connection(tls_server, certs):
    for junk in (b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n",
                 b"\x16\x03\x01\x00\x10" + bytes(range(16)),
                 bytes(range(256)) * 8):
        with socket.create_connection(("127.0.0.1", tls_server.port), timeout=10) as raw:
            raw.sendall(junk)
            answer = b""
            while True:
                try:
                    piece = raw.recv(4096)
                except ConnectionResetError:
                    break
                if not piece:
                    break
                answer += piece
            # At most a TLS alert record (content type 21); never an HTTP answer.
            assert answer == b"" or answer[0] == 21, answer[:40]
    result = curl_healthz(certs, tls_server.port)
    assert result.returncode == 0, result.stderr
    assert tls_server.process.poll() is None


def test_certificate_reload_under_load(run_binary, tmp_path, certs):
    server = start_tls_server(run_binary, tmp_path, certs)
    assert peer_serial(certs, server.port) == 1001
    stop = threading.Event()
    failures = []
    rounds = []
    sockets = []

    def keep_talking(ws):
        try:
            while not stop.is_set():
                ws.send(json.dumps({"event": "pusher:ping", "data": {}}))
                assert json.loads(ws.recv(timeout=10))["event"] == "pusher:pong"
                rounds.append(1)
        except Exception as error:  # noqa: BLE001 (reported below)
            failures.append(repr(error))

    opened = ExitStack()
    for _ in range(8):
        ws = opened.enter_context(ws_connect(ws_url(server.port), certs.context(), open_timeout=10))
        assert json.loads(ws.recv(timeout=10))["event"] == "pusher:connection_established"
        sockets.append(ws)
    threads = [threading.Thread(target=keep_talking, args=(ws,)) for ws in sockets]
    for thread in threads:
        thread.start()
    try:
        # Replace the files in place with a certificate of another serial and subject.
        new_cert, new_key = certs.issue("renewed", serial=2002, common_name="localhost")
        certs.cert.write_bytes(new_cert.read_bytes())
        certs.key.write_bytes(new_key.read_bytes())
        before = len(rounds)
        server.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 15
        while peer_serial(certs, server.port) != 2002:
            assert time.monotonic() < deadline, "new connections never saw the new certificate"
            time.sleep(0.05)
        # The old connections kept talking across the reload and still do.
        deadline = time.monotonic() + 15
        while len(rounds) < before + 4 * len(sockets) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(rounds) >= before + 4 * len(sockets)
    finally:
        stop.set()
        for thread in threads:
            thread.join(15)
    assert failures == []
    with opened:
        for ws in sockets:
            # Still on the certificate they were opened with.
            assert ws.peer_serial() == 1001
    with ws_connect(ws_url(server.port), certs.context(), open_timeout=10) as fresh:
        assert json.loads(fresh.recv(timeout=10))["event"] == "pusher:connection_established"
    assert server.process.poll() is None
    server.stop()
    assert "TLS certificate reloaded" in server.output()


def test_start_fails_clearly_on_a_missing_or_mismatched_certificate(tmp_path, certs):
    other_cert, other_key = certs.issue("other", serial=7, common_name="other")
    cases = [
        (["--tls-cert", str(tmp_path / "absent.pem"), "--tls-key", str(certs.key)], "absent.pem"),
        (["--tls-cert", str(certs.cert), "--tls-key", str(other_key)], "does not belong"),
        (["--tls-cert", str(certs.cert)], "--tls-cert needs --tls-key"),
    ]
    for extra, words in cases:
        result = subprocess.run([str(binary("parley")), "serve", "--dev", "--port", "0",
                                 "--data-dir", str(tmp_path / "data"), *extra],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode != 0
        assert words in result.stderr, result.stderr
