"""Must show 3: the HTTP API through the `pusher` server library."""
import json

import pysher  # noqa: F401  (the peers are the libraries themselves)

from test_pusher_support import RawClient, server  # noqa: F401


def public(server, *channels):
    client = RawClient(server.ws_url())
    for channel in channels:
        client.subscribe(channel)
        client.expect("pusher_internal:subscription_succeeded", channel)
    return client


def test_trigger_several_channels_with_socket_exclusion(server):
    backend = server.client()
    a, b, sender = public(server, "news-a", "news-b"), public(server, "news-b"), public(server, "news-a")
    assert backend.trigger(["news-a", "news-b"], "headline", {"t": "x"}, socket_id=sender.socket_id) == {}
    assert [a.expect("headline")["channel"], a.expect("headline")["channel"]] == ["news-a", "news-b"]
    assert json.loads(b.expect("headline", "news-b")["data"]) == {"t": "x"}
    assert sender.nothing("headline")
    for c in (a, b, sender):
        c.close()


def test_batch_events_in_order(server):
    backend = server.client()
    client = public(server, "batch-1", "batch-2")
    backend.trigger_batch([
        {"channel": "batch-1", "name": "first", "data": {"n": 1}},
        {"channel": "batch-2", "name": "second", "data": {"n": 2}},
    ])
    assert client.next()["event"] == "first"
    assert client.next()["event"] == "second"
    client.close()


def test_channels_channel_info_and_users(server):
    backend = server.client()
    watchers = [public(server, "listing-public")]
    for user in ("p1", "p2"):
        c = RawClient(server.ws_url())
        c.subscribe("presence-listing", backend.authenticate("presence-listing", c.socket_id, {"user_id": user}))
        c.expect("pusher_internal:subscription_succeeded")
        watchers.append(c)
    channels = backend.channels_info()["channels"]
    assert "listing-public" in channels and "presence-listing" in channels
    presence = backend.channels_info(prefix_filter="presence-", attributes=["user_count"])["channels"]
    assert presence["presence-listing"] == {"user_count": 2}
    info = backend.channel_info("presence-listing", attributes=["user_count", "subscription_count"])
    assert info == {"occupied": True, "user_count": 2, "subscription_count": 2}
    assert backend.channel_info("listing-public", attributes=["subscription_count"]) == {"occupied": True, "subscription_count": 1}
    assert backend.channel_info("nobody-here") == {"occupied": False}
    assert sorted(u["id"] for u in backend.users_info("presence-listing")["users"]) == ["p1", "p2"]
    for c in watchers:
        c.close()


def test_terminate_user_connections_library_path(server):
    backend = server.client()
    client = RawClient(server.ws_url())
    client.send("pusher:signin", backend.authenticate_user(client.socket_id, {"id": "to-terminate"}))
    client.expect("pusher:signin_success")
    assert backend.terminate_user_connections("to-terminate") == {}
    assert client.expect("pusher:error")["data"]["code"] == 4009
