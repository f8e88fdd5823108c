"""Compressed WebSockets cost the server little memory while idle, and connections coming and
going do not make it grow.

Every browser offers permessage-deflate. Holding a zlib stream pair per connection cost about
100 KiB of server memory per idle subscribed connection, and rounds of compressed connections
connecting and closing kept raising the server's RSS. The peer here is the `websockets`
library, which offers permessage-deflate as browsers do."""
import asyncio
import json
import os
import resource

import pytest
from websockets.asyncio.client import connect

from test_pusher_support import APP, server  # noqa: F401

CONNECTIONS = 600


async def open_subscribed(port, count, channel):
    """Opens `count` compressed Pusher connections, each subscribed to `channel`."""
    url = f"ws://127.0.0.1:{port}/app/{APP['key']}?protocol=7&client=pytest&version=1.0"
    sockets = []
    for _ in range(count):
        ws = await connect(url, max_size=None, compression="deflate")
        assert ws.response.headers.get("Sec-WebSocket-Extensions", "").startswith("permessage-deflate")
        assert json.loads(await ws.recv())["event"] == "pusher:connection_established"
        await ws.send(json.dumps({"event": "pusher:subscribe", "data": {"channel": channel}}))
        assert json.loads(await ws.recv())["event"] == "pusher_internal:subscription_succeeded"
        sockets.append(ws)
    return sockets


async def settle():
    await asyncio.sleep(0.5)


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * CONNECTIONS)), hard))


def test_idle_compressed_connection_holds_at_most_16_kib(server):
    raise_fd_limit()

    async def run():
        warm = await open_subscribed(server.port, 50, "warm-up")  # first-use allocations, pools
        await settle()
        before = server.rss_kb()
        sockets = await open_subscribed(server.port, CONNECTIONS, "idle-deflate")
        await settle()
        after = server.rss_kb()
        for ws in sockets + warm:
            await ws.close()
        return (after - before) / CONNECTIONS

    per_connection_kib = asyncio.run(run())
    print(f"server RSS per idle compressed subscribed connection: {per_connection_kib:.1f} KiB")
    assert per_connection_kib <= 16, f"{per_connection_kib:.1f} KiB per idle compressed connection"
    assert server.alive()


def test_rounds_of_compressed_connections_do_not_grow_the_server(server):
    raise_fd_limit()

    async def run():
        levels = []
        for round_number in range(4):
            sockets = await open_subscribed(server.port, CONNECTIONS, f"round-{round_number}")
            for ws in sockets:
                await ws.close()
            await settle()
            levels.append(server.rss_kb())
        return levels

    levels = asyncio.run(run())
    print("server RSS after each round (KiB):", levels)
    # The first round may leave allocator caches behind; later rounds must reuse them.
    growth_kib = levels[-1] - levels[1]
    assert growth_kib < 4 * 1024, f"RSS grew {growth_kib} KiB over rounds 2-4: {levels}"
    assert server.alive()
