"""Server memory per idle, subscribed Pusher connection, with and without permessage-deflate.

Starts `parley serve` (release by default) with a config of one app, opens COUNT WebSocket
connections with the `websockets` library (deflate offered as browsers do, or not), each
subscribed to a public channel, and prints the server's RSS growth per connection; then closes
them and repeats for ROUNDS rounds, printing RSS after each (it must stay flat).

    .venv-test/bin/python Benchmarks/idle_pusher_memory.py [--bin .build/release/parley] [--count 5000] [--rounds 3]
"""
import argparse
import asyncio
import json
import os
import resource
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect

APP = {"id": "1", "key": "bench-key", "secret": "bench-secret"}


def rss_kib(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def open_many(port, count, compression, channel, batch=200):
    url = f"ws://127.0.0.1:{port}/app/{APP['key']}?protocol=7&client=bench&version=1"

    async def one():
        ws = await connect(url, compression=compression, max_size=None, open_timeout=30)
        await ws.recv()
        await ws.send(json.dumps({"event": "pusher:subscribe", "data": {"channel": channel}}))
        reply = json.loads(await ws.recv())
        assert reply["event"] == "pusher_internal:subscription_succeeded", reply
        return ws

    sockets = []
    for start in range(0, count, batch):
        sockets += await asyncio.gather(*(one() for _ in range(min(batch, count - start))))
    return sockets


async def measure(pid, port, count, rounds, compression):
    label = "deflate" if compression else "plain"
    warm = await open_many(port, 100, compression, "warm")
    await asyncio.sleep(1)
    before = rss_kib(pid)
    sockets = await open_many(port, count, compression, f"idle-{label}")
    await asyncio.sleep(2)
    after = rss_kib(pid)
    print(f"{label}: {count} idle subscribed connections: RSS {before} -> {after} KiB, "
          f"{(after - before) / count:.2f} KiB per connection")
    for ws in sockets + warm:
        await ws.close()
    levels = []
    for r in range(rounds):
        sockets = await open_many(port, count, compression, f"round-{label}-{r}")
        for ws in sockets:
            await ws.close()
        await asyncio.sleep(1)
        levels.append(rss_kib(pid))
    print(f"{label}: RSS after each of {rounds} rounds of {count} connect/close (KiB): {levels}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/parley")
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    work = Path(tempfile.mkdtemp(prefix="parley-idle-"))
    config = {"apps": [dict(APP, limits={"max_connections": 100000})], "http": {"max_connections": 18000}}
    (work / "apps.json").write_text(json.dumps(config))
    for compression in ("deflate", None):
        port = free_port()
        server = subprocess.Popen([args.bin, "serve", "--config", str(work / "apps.json"), "--port", str(port),
                                   "--data-dir", str(work / f"data-{compression}")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 30
            while time.time() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    break
                except OSError:
                    time.sleep(0.1)
            asyncio.run(measure(server.pid, port, args.count, args.rounds, compression))
        finally:
            server.terminate()
            server.wait(timeout=15)


if __name__ == "__main__":
    main()
