"""Must show 4: webhooks accepted by `pusher.validate_webhook`, retried after a 500, and no
vacated/removed pair for a quick leave-and-return."""
import time

from test_pusher_support import APP, RawClient, server  # noqa: F401


def test_webhooks_validate_and_retry_after_500(server):
    server.hooks.fail_next = 1
    client = RawClient(server.ws_url())
    client.subscribe("hooked-1")
    client.expect("pusher_internal:subscription_succeeded")
    assert server.hooks.wait_for(lambda events: any(e["name"] == "channel_occupied" and e["channel"] == "hooked-1" for e in events))
    with server.hooks.lock:
        statuses = [r["status"] for r in server.hooks.requests]
        accepted = [r for r in server.hooks.requests if r["status"] == 200]
    assert 500 in statuses  # the first attempt failed and was retried
    backend = server.client()
    for request in accepted:
        body = request["body"].decode()
        headers = {k.lower(): v for k, v in request["headers"].items()}
        assert headers["x-pusher-key"] == APP["key"]
        assert backend.validate_webhook(headers["x-pusher-key"], headers["x-pusher-signature"], body) is not None
    client.close()
    assert server.hooks.wait_for(lambda events: any(e["name"] == "channel_vacated" and e["channel"] == "hooked-1" for e in events))


def test_quick_leave_and_return_sends_no_vacated_or_removed(server):
    backend = server.client()
    channel = "presence-flaky"
    first = RawClient(server.ws_url())
    first.subscribe(channel, backend.authenticate(channel, first.socket_id, {"user_id": "flaky"}))
    first.expect("pusher_internal:subscription_succeeded")
    assert server.hooks.wait_for(lambda ev: any(e["name"] == "member_added" and e["channel"] == channel for e in ev))
    first.close()
    time.sleep(0.3)  # well inside the configured 1.5 s leave delay
    again = RawClient(server.ws_url())
    again.subscribe(channel, backend.authenticate(channel, again.socket_id, {"user_id": "flaky"}))
    again.expect("pusher_internal:subscription_succeeded")
    time.sleep(2.5)
    names = [e["name"] for e in server.hooks.events() if e["channel"] == channel]
    assert "channel_vacated" not in names and "member_removed" not in names
    assert names.count("member_added") == 1 and names.count("channel_occupied") == 1
    again.close()
    assert server.hooks.wait_for(lambda ev: any(e["name"] == "member_removed" and e["channel"] == channel for e in ev))
