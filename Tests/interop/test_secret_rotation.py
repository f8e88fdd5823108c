"""Rotating an app's secret without a flag day: `"secrets"` beside `"secret"` are accepted
too (the first signs), and SIGHUP reloads the apps file while connections stay up. A pysher
client connected before the reload stays connected through it and can then subscribe with
an authorisation signed by the new secret; user tokens signed with the old and the new
secret both work; an app added by the reload serves at once; a broken file is refused and
the apps in service stay."""
import hashlib
import hmac
import json
import signal
import threading
import time

import pusher
import pysher
import pytest

from chat_support import APP_A, APP_B, ChatServer, basic, mint
from log_tail import LogTail
from test_pusher_support import RawClient

NEW_SECRET = "chat-a-rotated-secret"
APP_C = {"id": "303", "key": "chat-c-key", "secret": "chat-c-secret"}


def write_apps(server, apps):
    config = {"apps": [dict(app, client_events=True, user_authentication=True) for app in apps]}
    (server.work / "apps.json").write_text(json.dumps(config))


def reload(server, tail, expect):
    """Sends SIGHUP and returns the next log line containing `expect`."""
    mark = tail.mark()
    server.process.send_signal(signal.SIGHUP)
    line = tail.wait_for(expect, after=mark)
    assert line is not None, f"no {expect!r} line after SIGHUP"
    return line


def api(app, secret=None):
    return pusher.Pusher(app_id=app["id"], key=app["key"], secret=secret or app["secret"], host="127.0.0.1",
                         port=SERVER_PORT[0], ssl=False)


SERVER_PORT = [0]


class PysherClient:
    """A pysher connection that subscribes to private channels with a given signer. A
    subscription counts as made once an event triggered on the channel arrives (pysher
    offers no reliable hook for the acknowledgement); a refusal is the 4009 error."""

    def __init__(self, server, app):
        self.app = app
        self.client = pysher.Pusher(app["key"], secure=False, custom_host="127.0.0.1", port=server.port)
        self.connected = threading.Event()
        self.socket_id = None
        self.events = []
        self.errors = []
        self.client.connection.bind("pusher:connection_established", self._established)
        self.client.connection.bind("pusher:error", lambda d: self.errors.append(d))
        self.client.connect()
        assert self.connected.wait(10), "pysher did not connect"

    def _established(self, data):
        self.socket_id = json.loads(data)["socket_id"]
        self.connected.set()

    def subscribe(self, channel, signer, publisher):
        """Subscribes with `signer`'s authorisation; True once an event `publisher` triggers
        there arrives, False on a pusher:error."""
        errors_before = len(self.errors)
        auth = signer.authenticate(channel, self.socket_id)["auth"]
        subscription = self.client.subscribe(channel, auth=auth)
        subscription.bind("saved", lambda d: self.events.append((channel, json.loads(d))))
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if len(self.errors) > errors_before:
                return False
            publisher.trigger(channel, "saved", {"probe": channel})
            if self.wait_for((channel, {"probe": channel}), timeout=0.3):
                return True
        return False

    def wait_for(self, item, timeout=5):
        deadline = time.monotonic() + timeout
        while item not in self.events and time.monotonic() < deadline:
            time.sleep(0.05)
        return item in self.events


def refused_with(server, signer):
    """The pusher:error code a fresh raw connection gets for a private subscription signed
    by `signer` (pysher itself disconnects on such an error), or None when it succeeds."""
    raw = RawClient(server.ws_url(APP_A))
    try:
        raw.subscribe("private-probe", signer.authenticate("private-probe", raw.socket_id))
        while True:
            message = raw.next()
            if message["event"] == "pusher:error":
                return message["data"]["code"]
            if message["event"] == "pusher_internal:subscription_succeeded":
                return None
    finally:
        raw.close()


def test_sighup_adds_a_secret_and_an_app_while_a_pysher_client_stays_connected():
    server = ChatServer().start()
    tail = LogTail(server.process)
    SERVER_PORT[0] = server.port
    client = None
    try:
        server.ok("POST", "/v1/users", auth=basic(APP_A), json_body={"id": "alice", "name": "Alice"})
        old_token, new_token = mint(APP_A, "alice"), mint(APP_A, "alice", secret=NEW_SECRET)
        assert server.request("GET", "/v1/me", token=old_token).status == 200
        assert server.request("GET", "/v1/me", token=new_token).status == 401
        assert server.request("GET", "/v1/users", auth=basic(APP_C)).status == 401

        client = PysherClient(server, APP_A)
        assert client.subscribe("private-before", api(APP_A), publisher=api(APP_A))
        assert refused_with(server, api(APP_A, secret=NEW_SECRET)) == 4009

        write_apps(server, [dict(APP_A, secrets=[NEW_SECRET]), APP_B, APP_C])
        line = reload(server, tail, "apps reloaded")
        assert refused_with(server, api(APP_A, secret=NEW_SECRET)) is None
        assert "added=303" in line and "changed=301" in line

        # The connection made before the reload is still up and takes the new secret.
        assert client.client.connection.state == "connected"
        assert client.subscribe("private-after", api(APP_A, secret=NEW_SECRET), publisher=api(APP_A, secret=NEW_SECRET))
        api(APP_A, secret=NEW_SECRET).trigger("private-before", "saved", {"rev": 1})
        api(APP_A).trigger("private-after", "saved", {"rev": 2})
        assert client.wait_for(("private-before", {"rev": 1})) and client.wait_for(("private-after", {"rev": 2}))

        # Tokens signed with either secret work; so does the new app.
        assert server.request("GET", "/v1/me", token=old_token).status == 200
        assert server.request("GET", "/v1/me", token=new_token).status == 200
        server.ok("POST", "/v1/users", auth=basic(APP_C), json_body={"id": "carol", "name": "Carol"})
        assert server.request("GET", "/v1/me", token=mint(APP_C, "carol")).json["id"] == "carol"
        other = PysherClient(server, APP_C)
        assert other.subscribe("private-c", api(APP_C), publisher=api(APP_C))
        other.client.disconnect(timeout=5)

        # The rotation completes: the new secret signs, the old one is dropped; a broken
        # file is refused whole and changes nothing.
        write_apps(server, [dict(APP_A, secret=NEW_SECRET), APP_B, APP_C])
        reload(server, tail, "apps reloaded")
        assert server.request("GET", "/v1/me", token=old_token).status == 401
        assert server.request("GET", "/v1/me", token=new_token).status == 200
        (server.work / "apps.json").write_text('{"apps": [{"id": "301", "key": "chat-a-key", "secrett": "x"}]}')
        refused = reload(server, tail, "apps reload refused")
        assert 'did you mean \\"secret\\"' in refused or "did you mean" in refused
        assert server.request("GET", "/v1/me", token=new_token).status == 200
        assert client.client.connection.state == "connected"
        assert server.process.poll() is None
    finally:
        if client is not None:
            client.client.disconnect(timeout=5)
        server.stop()


def test_what_the_server_signs_uses_the_first_secret_and_either_verifies():
    server = ChatServer()
    write_apps(server, [dict(APP_A, secret=NEW_SECRET, secrets=[APP_A["secret"]]), APP_B])
    server.start()
    try:
        server.ok("POST", "/v1/users", auth=basic(APP_A), json_body={"id": "bob", "name": "Bob"})
        server.ok("POST", "/v1/users", auth=basic(dict(APP_A, secret=NEW_SECRET)), json_body={"id": "eve", "name": "Eve"})
        token = mint(APP_A, "bob", secret=NEW_SECRET)
        assert server.request("GET", "/v1/me", token=mint(APP_A, "bob")).status == 200
        answer = server.request("POST", "/v1/channels/user-auth", token=token, body=b"socket_id=1.2",
                                headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert answer.status == 200, answer
        signed = f"1.2::user::{answer.json['user_data']}".encode()
        expected = hmac.new(NEW_SECRET.encode(), signed, hashlib.sha256).hexdigest()
        assert answer.json["auth"] == f"{APP_A['key']}:{expected}"
    finally:
        server.stop()
