"""Must show 1: the collaborative-editor flow — a backend triggers text_update on collabo
through `pusher`; three `pysher` clients receive every update, in order."""
import json
import threading
import time

import pysher

from test_pusher_support import APP, server  # noqa: F401  (fixture)


def pysher_client(server, received, ready):
    client = pysher.Pusher(APP["key"], secure=False, custom_host="127.0.0.1", port=server.port, secret=APP["secret"])

    def on_connected(_data):
        channel = client.subscribe("collabo")
        channel.bind("text_update", lambda data: received.append(json.loads(data)))
        channel.bind("pusher_internal:subscription_succeeded", lambda _d: ready.set())

    client.connection.bind("pusher:connection_established", on_connected)
    client.connect()
    return client


def test_three_editors_receive_every_update_in_order(server):
    backend = server.client()
    clients, inboxes = [], []
    for _ in range(3):
        received, ready = [], threading.Event()
        clients.append(pysher_client(server, received, ready))
        inboxes.append(received)
        assert ready.wait(10), "pysher never got subscription_succeeded"
    try:
        updates = [{"text": f"draft {i}", "deviceId": f"device-{i % 2}"} for i in range(25)]
        for update in updates:
            assert backend.trigger("collabo", "text_update", update) == {}
        deadline = time.time() + 10
        while time.time() < deadline and any(len(inbox) < len(updates) for inbox in inboxes):
            time.sleep(0.05)
        for inbox in inboxes:
            assert inbox == updates
    finally:
        for c in clients:
            # websocket-client can miss its own close when close() races the reader thread;
            # bound the join instead of waiting for the next server ping.
            c.disconnect(timeout=5)
