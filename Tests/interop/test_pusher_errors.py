"""Must show 5: each error gets the spec's code, only the offender fails, the server stays up."""
import hashlib
import hmac
import json
import time
import urllib.request
import urllib.error

import pusher
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from test_pusher_support import APP, DISABLED, RawClient, server  # noqa: F401


def close_code(ws):
    with pytest.raises(ConnectionClosed):
        while True:
            ws.recv(timeout=5)
    return ws.close_code if ws.close_code is not None else ws.protocol.close_rcvd.code


def refused(server, url):
    ws = ws_connect(url, open_timeout=10)
    error = json.loads(ws.recv(timeout=5))
    assert error["event"] == "pusher:error"
    return error["data"]["code"], close_code(ws)


def signed_request(server, method, path, body=b"", timestamp=None, secret=APP["secret"], md5=None, params=None):
    query = dict(params or {})
    query.update({"auth_key": APP["key"], "auth_timestamp": str(int(timestamp or time.time())), "auth_version": "1.0",
                  "body_md5": md5 or hashlib.md5(body).hexdigest()})
    canonical = "&".join(f"{k}={v}" for k, v in sorted(query.items()))
    query["auth_signature"] = hmac.new(secret.encode(), f"{method}\n{path}\n{canonical}".encode(), hashlib.sha256).hexdigest()
    url = f"http://127.0.0.1:{server.port}{path}?" + "&".join(f"{k}={v}" for k, v in query.items())
    request = urllib.request.Request(url, data=body if method == "POST" else None, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def healthy(server):
    assert server.alive()
    client = RawClient(server.ws_url())
    client.send("pusher:ping")
    client.expect("pusher:pong")
    client.close()
    assert server.client().trigger("health", "ok", {}) == {}


def test_unknown_key_and_disabled_app(server):
    assert refused(server, server.ws_url("no-such-key")) == (4001, 4001)
    assert refused(server, server.ws_url(DISABLED["key"])) == (4003, 4003)
    healthy(server)


def test_http_signature_timestamp_md5_size_channels(server):
    body = json.dumps({"name": "e", "channels": ["c"], "data": "x"}).encode()
    assert signed_request(server, "POST", "/apps/123/events", body)[0] == 200
    status, error = signed_request(server, "POST", "/apps/123/events", body, secret="wrong")
    assert status == 401 and "error" in error
    assert signed_request(server, "POST", "/apps/123/events", body, timestamp=time.time() - 700)[0] == 401
    assert signed_request(server, "POST", "/apps/123/events", body, md5="0" * 32)[0] == 401
    big = json.dumps({"name": "e", "channels": ["c"], "data": "x" * (10 * 1024 + 1)}).encode()
    assert signed_request(server, "POST", "/apps/123/events", big)[0] == 413
    many = json.dumps({"name": "e", "channels": [f"c{i}" for i in range(101)], "data": "x"}).encode()
    assert signed_request(server, "POST", "/apps/123/events", many)[0] == 400
    bad_name = json.dumps({"name": "e", "channels": ["bad name!"], "data": "x"}).encode()
    assert signed_request(server, "POST", "/apps/123/events", bad_name)[0] == 400
    assert signed_request(server, "POST", "/apps/123/events", b"{nope")[0] == 400
    assert signed_request(server, "POST", "/apps/125/events", body)[0] in (401, 403)
    with pytest.raises(Exception):
        server.client(secret="wrong").trigger("c", "e", {})
    healthy(server)


def test_invalid_channel_names_do_not_close(server):
    client = RawClient(server.ws_url())
    for name in ["bad name", "x" * 201, "#private", "ch\u00e9"]:
        client.subscribe(name)
        client.expect("pusher:error")
        client.expect("pusher:subscription_error")
    client.send("pusher:ping")
    client.expect("pusher:pong")
    client.close()


def test_malformed_json_and_binary_frames_close_4200(server):
    ws = ws_connect(server.ws_url(), open_timeout=10)
    ws.recv(timeout=5)
    ws.send("{this is not json")
    assert json.loads(ws.recv(timeout=5))["data"]["code"] == 4200
    assert close_code(ws) == 4200
    ws = ws_connect(server.ws_url(), open_timeout=10)
    ws.recv(timeout=5)
    ws.send(b"\x00\x01binary")
    assert json.loads(ws.recv(timeout=5))["data"]["code"] == 4200
    assert close_code(ws) == 4200
    healthy(server)


def test_client_event_flood_is_rate_limited_4301(server):
    backend = server.client()
    flooder, listener = RawClient(server.ws_url()), RawClient(server.ws_url())
    for c in (flooder, listener):
        c.subscribe("private-flood", backend.authenticate("private-flood", c.socket_id))
        c.expect("pusher_internal:subscription_succeeded")
    for i in range(200):
        flooder.send("client-spam", {"i": i}, channel="private-flood")
    assert flooder.expect("pusher:error")["data"]["code"] == 4301
    received = 0
    try:
        while True:
            listener.expect("client-spam", timeout=1.0)
            received += 1
    except TimeoutError:
        pass
    assert 1 <= received <= 20  # 10 per second, the flood took at most a second or two
    healthy(server)
    flooder.close()
    listener.close()


def test_pusher_library_validates_like_the_server():
    with pytest.raises(ValueError):
        pusher.Pusher(app_id="abc", key="k", secret="s")
