"""Must show 2: private and presence channels authorised with `pusher.authenticate`,
sign-in with `authenticate_user`, presence member events, client event rules."""
import json
import threading

import pysher

from test_pusher_support import APP, NO_CLIENT_EVENTS, RawClient, server  # noqa: F401


def presence_join(server, channel, user_id, name, key=APP["key"], app=APP):
    client = RawClient(server.ws_url(key))
    auth = server.client(app).authenticate(channel, client.socket_id, {"user_id": user_id, "user_info": {"name": name}})
    client.subscribe(channel, auth)
    return client


def test_private_channel_with_pysher_and_authenticate(server):
    backend = server.client()
    got, ready = [], threading.Event()
    client = pysher.Pusher(APP["key"], secure=False, custom_host="127.0.0.1", port=server.port)

    def on_connected(data):
        socket_id = json.loads(data)["socket_id"]
        auth = backend.authenticate("private-docs", socket_id)["auth"]
        channel = client.subscribe("private-docs", auth=auth)
        channel.bind("pusher_internal:subscription_succeeded", lambda _d: ready.set())
        channel.bind("saved", lambda d: got.append(json.loads(d)))

    client.connection.bind("pusher:connection_established", on_connected)
    client.connect()
    try:
        assert ready.wait(10)
        backend.trigger("private-docs", "saved", {"rev": 1})
        for _ in range(100):
            if got:
                break
            threading.Event().wait(0.05)
        assert got == [{"rev": 1}]
    finally:
        # websocket-client can miss its own close when close() races the reader thread;
        # bound the join instead of waiting for the next server ping.
        client.disconnect(timeout=5)


def test_bad_private_signature_is_refused_4009(server):
    client = RawClient(server.ws_url())
    wrong = server.client(secret="not-the-secret").authenticate("private-x", client.socket_id)
    client.subscribe("private-x", wrong)
    error = client.expect("pusher:error")
    assert error["data"]["code"] == 4009
    assert client.expect("pusher:subscription_error")["data"]["status"] == 401
    client.send("pusher:ping")
    client.expect("pusher:pong")  # the connection stays usable
    client.close()


def test_presence_members_join_leave_disconnect(server):
    channel = "presence-room-1"
    alice = presence_join(server, channel, "alice", "Alice")
    ok = alice.expect("pusher_internal:subscription_succeeded", channel)
    presence = json.loads(ok["data"])["presence"]
    assert presence["ids"] == ["alice"] and presence["count"] == 1
    assert presence["hash"]["alice"] == {"name": "Alice"}

    bob = presence_join(server, channel, "bob", "Bob")
    presence = json.loads(bob.expect("pusher_internal:subscription_succeeded", channel)["data"])["presence"]
    assert sorted(presence["ids"]) == ["alice", "bob"] and presence["count"] == 2
    added = json.loads(alice.expect("pusher_internal:member_added", channel)["data"])
    assert added == {"user_id": "bob", "user_info": {"name": "Bob"}}
    assert bob.nothing("pusher_internal:member_added")

    # A second connection of bob adds no member; its leaving removes none.
    bob2 = presence_join(server, channel, "bob", "Bob")
    bob2.expect("pusher_internal:subscription_succeeded", channel)
    assert alice.nothing("pusher_internal:member_added")
    bob2.send("pusher:unsubscribe", {"channel": channel})
    assert alice.nothing("pusher_internal:member_removed")
    assert [u["id"] for u in server.client().users_info(channel)["users"]] == ["alice", "bob"]

    # Bob's last connection disconnects: member_removed.
    bob.close()
    removed = json.loads(alice.expect("pusher_internal:member_removed", channel)["data"])
    assert removed == {"user_id": "bob"}
    alice.close()


def test_client_events_reach_others_never_echoed_with_user_id(server):
    channel = "presence-chat-2"
    alice = presence_join(server, channel, "alice", "A")
    bob = presence_join(server, channel, "bob", "B")
    carol = presence_join(server, channel, "carol", "C")
    for c in (alice, bob, carol):
        c.expect("pusher_internal:subscription_succeeded", channel)
    alice.send("client-typing", {"typing": True}, channel=channel)
    for other in (bob, carol):
        event = other.expect("client-typing", channel)
        assert event["user_id"] == "alice"
        data = event["data"] if isinstance(event["data"], dict) else json.loads(event["data"])
        assert data == {"typing": True}
    assert alice.nothing("client-typing")
    for c in (alice, bob, carol):
        c.close()


def test_client_events_refused_on_public_and_when_disabled(server):
    client = RawClient(server.ws_url())
    client.subscribe("public-room")
    client.expect("pusher_internal:subscription_succeeded")
    client.send("client-x", {}, channel="public-room")
    assert client.expect("pusher:error")["data"]["code"] == 4301
    client.close()

    quiet = RawClient(server.ws_url(NO_CLIENT_EVENTS["key"]))
    quiet.subscribe("private-q", server.client(NO_CLIENT_EVENTS).authenticate("private-q", quiet.socket_id))
    quiet.expect("pusher_internal:subscription_succeeded")
    quiet.send("client-x", {}, channel="private-q")
    assert quiet.expect("pusher:error")["data"]["code"] == 4301
    quiet.close()


def test_signin_server_to_user_and_terminate(server):
    backend = server.client()
    first, second, other = RawClient(server.ws_url()), RawClient(server.ws_url()), RawClient(server.ws_url())
    for client, user in ((first, "u-1"), (second, "u-1"), (other, "u-2")):
        client.send("pusher:signin", backend.authenticate_user(client.socket_id, {"id": user, "name": user}))
        success = client.expect("pusher:signin_success")
        assert json.loads(success["data"]["user_data"])["id"] == user
        client.subscribe(f"#server-to-user-{user}", {"auth": ""})
        client.expect("pusher_internal:subscription_succeeded")
    # Someone else's personal channel is refused.
    other.subscribe("#server-to-user-u-1", {"auth": ""})
    assert other.expect("pusher:error")["data"]["code"] == 4009

    backend.trigger("#server-to-user-u-1", "notice", {"n": 1})
    for client in (first, second):
        assert json.loads(client.expect("notice")["data"]) == {"n": 1}
    assert other.nothing("notice")

    backend.terminate_user_connections("u-1")
    for client in (first, second):
        assert client.expect("pusher:error")["data"]["code"] == 4009
    other.send("pusher:ping")
    other.expect("pusher:pong")
    for c in (first, second, other):
        c.close()


def test_bad_signin_is_4009(server):
    client = RawClient(server.ws_url())
    bad = server.client(secret="wrong").authenticate_user(client.socket_id, {"id": "x"})
    client.send("pusher:signin", bad)
    assert client.expect("pusher:error")["data"]["code"] == 4009
    client.close()
