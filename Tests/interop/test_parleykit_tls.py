"""Issue 18: ParleyKit over https:// and wss:// against `parley serve --tls-cert/--tls-key`.

The server's certificate comes from a throwaway CA (test_tls.Certificates); each client is a
`ParleyKitPeer` process (see test_parleykit_reliability.Peer). On Linux ParleyKit's default
transports are the ParleyNet sockets with OpenSSL: the peer trusts the test CA through
`--ca` and must both talk to the server and refuse it when it trusts only the system's CAs.
Linux's URLSession cannot be given a CA file (FoundationNetworking reads none outside
Android), so over https it is shown refusing the unknown CA."""
import json
import re
import shutil
import ssl
import subprocess
import tempfile
import time
import http.client
from pathlib import Path

import pytest

from conftest import binary
from test_parleykit_reliability import DEADLINE, Peer
from test_tls import Certificates

LISTENING = re.compile(r"address=https://(\S+):(\d+)")


class TLSDevServer:
    """`parley serve --dev` serving https and wss on one port with the test CA's certificate."""

    def __init__(self, work, certs):
        self.work, self.certs = work, certs
        self.log = work / "server.log"
        with open(self.log, "w") as out:
            self.process = subprocess.Popen(
                [str(binary("parley")), "serve", "--dev", "--port", "0", "--data-dir", str(work / "data"),
                 "--tls-cert", str(certs.cert), "--tls-key", str(certs.key)],
                stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + DEADLINE
        while (match := LISTENING.search(self.log.read_text())) is None:
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail("parley serve --tls-cert did not start:\n" + self.log.read_text())
            time.sleep(0.05)
        self.port = int(match.group(2))

    @property
    def url(self):
        return f"https://127.0.0.1:{self.port}"

    def request(self, method, path, token=None, body=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=30, context=self.certs.context())
        try:
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            response = connection.getresponse()
            data = response.read()
            assert 200 <= response.status < 300, f"{method} {path}: {response.status} {data[:300]!r}"
            return json.loads(data) if data else None
        finally:
            connection.close()

    def sign_up(self, name):
        self.request("POST", "/v1/dev/users", body={"name": name, "id": name})
        return self.request("POST", "/v1/dev/token", body={"user_id": name})["token"]

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def tls_world():
    work = Path(tempfile.mkdtemp(prefix="parleykit-tls-"))
    certs = Certificates(work)
    server = TLSDevServer(work, certs)
    tokens = {name: server.sign_up(name) for name in ("alice", "bob")}
    room = server.request("POST", "/v1/rooms", token=tokens["alice"],
                          body={"name": "tls", "kind": "private", "member_ids": ["bob"]})["id"]
    peers = []

    def peer(name, *extra_args):
        started = Peer(name, server, tokens[name], work / f"{name}-{len(peers)}.sqlite", extra_args)
        peers.append(started)
        return started

    yield server, tokens, room, peer, certs
    for started in peers:
        started.close()
    server.stop()
    shutil.rmtree(work, ignore_errors=True)


def attempt(peer, line):
    """Sends a command and returns its reply, `done` or `error`."""
    peer.process.stdin.write(line + "\n")
    peer.process.stdin.flush()
    return peer.replies.get(timeout=DEADLINE)


def test_messages_go_both_ways_over_https_and_wss(tls_world):
    server, tokens, room, peer, certs = tls_world
    alice, bob = peer("alice", "--ca", certs.ca), peer("bob", "--ca", certs.ca)
    for client in (alice, bob):
        client.command("connect")
        client.command(f"watch {room} 0")
        client.wait_online()
    sent = [alice.send(room, "over TLS from alice")]
    bob.wait_for_messages(room, sent)
    sent.append(bob.send(room, "and back from bob"))
    for client in (alice, bob):
        client.wait_for_messages(room, sent)
        assert [m["text"] for m in client.feed(room)] == ["over TLS from alice", "and back from bob"]
    history = alice.command(f"history {room}")["messages"]
    assert [m["client_id"] for m in history] == sent
    stored = server.request("GET", f"/v1/rooms/{room}/messages?after=0&limit=10", token=tokens["bob"])["messages"]
    assert [m["client_id"] for m in stored] == sent


def test_a_server_certificate_from_an_unknown_ca_is_refused(tls_world):
    server, tokens, room, peer, certs = tls_world
    trusting_system = peer("alice")  # the system's CAs only
    reply = attempt(trusting_system, f"history {room}")
    assert reply["event"] == "error" and "certificate verify failed" in reply["message"], reply
    trusting_system.command("connect")
    trusting_system.wait(lambda reports: sum(r.get("state") == "offline" for r in reports) >= 1
                         or sum(r.get("state") == "reconnecting" for r in reports) >= 1, "a failed connection")
    assert not any(r.get("state") == "online" for r in trusting_system.reports)


def test_urlsession_on_linux_speaks_tls_and_refuses_the_unknown_ca(tls_world):
    server, tokens, room, peer, certs = tls_world
    client = peer("alice", "--http", "urlsession")
    reply = attempt(client, f"history {room}")
    assert reply["event"] == "error" and "parley.network" in reply["message"], reply
