"""Realtime peers of the soak run (Benchmarks/soak.sh) against a running `parley serve --dev`:

- Pusher fan-out: SUBSCRIBERS WebSocket clients (the `websockets` library, permessage-deflate
  offered as browsers do) on CHANNELS public channels, and events triggered through the signed
  HTTP API with the `pusher` library at EVENT_RATE/s (open loop, event k to channel k mod
  CHANNELS; one thread and keep-alive connection per channel, one request at a time). Each event
  carries its sequence number in its channel; every subscriber must get every event of its
  channel once and in order. Server `pusher:ping`s are answered.
- Documents: DOCS documents edited at once, each by EDITORS y-websocket clients (pycrdt documents
  speaking the y-websocket sync protocol over `websockets`) that insert a token about every
  EDIT_MS ms at token boundaries and now and then delete one of their own. Every DOC_ROUND_SECS
  the editors stop, must converge on the same text holding exactly the tokens inserted and not
  deleted, a fresh client must read that text from the server, and the round's editors move to a
  new document (so the server opens and closes documents all along instead of growing one).

Errors: failed triggers, events missing, duplicated or out of order, unexpected closes or refused
connections, documents that do not converge. Prints `READY` once everything is connected (with
--go-file, the load starts when that file appears), a progress line every PROGRESS_SECS and a
final `PEERS key=value ...` line; exits 1 when any error was seen. Talks to 127.0.0.1 only and
ends by itself (a hard alarm backs the deadlines up).
"""
import argparse
import asyncio
import base64
import collections
import concurrent.futures
import http.client
import json
import os
import random
import re
import resource
import signal
import sys
import threading
import time

import pusher
from pycrdt import Doc, Text, YMessageType, YSyncMessageType, create_sync_message, create_update_message, handle_sync_message
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.protocol import State

HOST = "127.0.0.1"
EVENT = "soak"
TOKEN = re.compile(r"<\d+\.\d+\.\d+>")
# A test event as the server frames it: the data is a JSON string holding {"s":SEQ,"t":TIME}.
EVENT_DATA = re.compile(r'^\{"event":"soak".*"data":"\{\\"s\\":(\d+),\\"t\\":([0-9.]+)\}"')


class Errors:
    """Error counts by kind, with the first few messages kept for the report."""

    def __init__(self):
        self.counts = {}
        self.first = []
        self.lock = threading.Lock()

    def add(self, kind, message, count=1):
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + count
            if len(self.first) < 10:
                self.first.append(f"{kind}: {message}")
                print(f"peers error: {kind}: {message}", flush=True)

    def total(self):
        with self.lock:
            return sum(self.counts.values())


class Histogram:
    """Latencies in 0.1-ms buckets. Samples are appended to a plain list (cheap on the hot path)
    and folded into the buckets by `fold`, which also returns the folded samples' p99 and max."""

    def __init__(self):
        self.buckets = collections.Counter()
        self.pending = []
        self.count = 0
        self.max = 0.0

    def add(self, seconds):
        self.pending.append(seconds)

    def fold(self):
        pending, self.pending = self.pending, []
        if not pending:
            return 0.0, 0.0
        pending.sort()
        self.buckets.update(int(d * 1e4) for d in pending)
        self.count += len(pending)
        self.max = max(self.max, pending[-1])
        return pending[min(len(pending) - 1, int(0.99 * len(pending)))] * 1000, pending[-1] * 1000

    def quantile_ms(self, q):
        self.fold()
        rank, seen = q * self.count, 0
        for index in sorted(self.buckets):
            seen += self.buckets[index]
            if seen >= rank:
                return (index + 1) / 10
        return self.max * 1000


# ---------------------------------------------------------------- setup through the REST API

def rest(port, method, path, body, authorization=None):
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"}
        if authorization:
            headers["Authorization"] = authorization
        connection.request(method, path, body=json.dumps(body).encode(), headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def setup_documents(args):
    """Dev users for the editors and the reader, their tokens, and one room they are all in."""
    users = [f"soak-editor-{i}" for i in range(args.editors)] + ["soak-doc-reader"]
    tokens = {}
    for user in users:
        status, body = rest(args.port, "POST", "/v1/dev/users", {"name": f"Soak {user}", "id": user})
        if status not in (200, 201):
            raise SystemExit(f"create user {user}: HTTP {status} {body[:200]!r}")
        status, body = rest(args.port, "POST", "/v1/dev/token", {"user_id": user})
        if status != 200:
            raise SystemExit(f"token for {user}: HTTP {status} {body[:200]!r}")
        tokens[user] = json.loads(body)["token"]
    basic = "Basic " + base64.b64encode(f"{args.key}:{args.secret}".encode()).decode()
    room = f"soak-docs-{int(time.time())}"
    status, body = rest(args.port, "POST", "/v1/rooms",
                        {"id": room, "kind": "private", "name": "Soak documents", "member_ids": users}, basic)
    if status != 201:
        raise SystemExit(f"create room {room}: HTTP {status} {body[:200]!r}")
    return room, [tokens[u] for u in users[:-1]], tokens[users[-1]]


# ---------------------------------------------------------------- Pusher fan-out

class Subscriber:
    def __init__(self, index, channel):
        self.index = index
        self.channel = channel
        self.last = -1          # last sequence number seen
        self.delivered = 0
        self.dead = False
        self.pong_due = False
        self.subscribed = asyncio.Event()
        self.websocket = None


class FanOut:
    def __init__(self, args, errors, stopping):
        self.args = args
        self.errors = errors
        self.stopping = stopping
        self.url = f"ws://{HOST}:{args.port}/app/{args.key}?protocol=7&client=parley-soak&version=1.0"
        self.subscribers = [Subscriber(i, f"soak-{i % args.channels}") for i in range(args.subscribers)]
        self.published = [0] * args.channels   # events of each channel the API accepted
        self.attempted = [0] * args.channels
        self.latency = Histogram()
        self.tasks = []

    async def start(self):
        gate = asyncio.Semaphore(64)
        self.tasks = [asyncio.create_task(self.subscriber(s, gate)) for s in self.subscribers]
        waits = [asyncio.create_task(s.subscribed.wait()) for s in self.subscribers]
        done, pending = await asyncio.wait(waits, timeout=120)
        for task in pending:
            task.cancel()
        missing = sum(1 for s in self.subscribers if not s.subscribed.is_set())
        if missing:
            self.errors.add("subscribe", f"{missing} subscribers not subscribed after 120 s")

    async def subscriber(self, sub, gate):
        try:
            async with gate:
                websocket = await connect(self.url, open_timeout=60, max_size=1 << 20)
            sub.websocket = websocket
            async with websocket:
                established = json.loads(await asyncio.wait_for(websocket.recv(), 30))
                if established.get("event") != "pusher:connection_established":
                    raise RuntimeError(f"first message {established}")
                await websocket.send(json.dumps({"event": "pusher:subscribe", "data": {"channel": sub.channel}}))
                async for raw in websocket:
                    self.message(sub, raw)
                    if sub.pong_due:
                        sub.pong_due = False
                        await websocket.send('{"event":"pusher:pong","data":{}}')
            if not self.stopping.is_set():
                self.errors.add("pusher_close", f"subscriber {sub.index} closed: {websocket.close_code} {websocket.close_reason}")
                sub.dead = True
        except ConnectionClosed as error:
            if not self.stopping.is_set():
                self.errors.add("pusher_close", f"subscriber {sub.index}: {error}")
                sub.dead = True
        except asyncio.CancelledError:
            raise
        except (InvalidHandshake, OSError, RuntimeError, asyncio.TimeoutError, ValueError) as error:
            self.errors.add("pusher_connect", f"subscriber {sub.index}: {type(error).__name__}: {error}")
            sub.dead = True

    def message(self, sub, raw):
        # A regular expression instead of two JSON parses for the test events: thousands arrive
        # each second and the host's two cores are shared with the server and the chat load.
        match = EVENT_DATA.search(raw)
        if match is not None:
            return self.delivered(sub, int(match.group(1)), float(match.group(2)))
        message = json.loads(raw)
        event = message.get("event")
        if event == EVENT:
            data = json.loads(message["data"])
            self.delivered(sub, data["s"], data["t"])
        elif event == "pusher_internal:subscription_succeeded":
            sub.subscribed.set()
        elif event == "pusher:ping":
            sub.pong_due = True
        else:
            self.errors.add("pusher_unexpected", f"subscriber {sub.index}: {raw[:200]}")

    def delivered(self, sub, seq, sent_at):
        if seq <= sub.last:
            self.errors.add("pusher_order", f"subscriber {sub.index} on {sub.channel}: event {seq} after {sub.last}")
            return
        sub.last = seq
        sub.delivered += 1
        self.latency.add(time.time() - sent_at)

    def publish(self, channel, start, deadline):
        """Runs in a thread per channel, so a slow answer holds up one channel only: event k of
        the whole stream is due at start + k/rate and goes to channel k mod CHANNELS; within a
        channel one request at a time, so its events are triggered in order."""
        client = pusher.Pusher(app_id=self.args.app_id, key=self.args.key, secret=self.args.secret,
                               host=HOST, port=self.args.port, ssl=False, timeout=30)
        seq = 0
        while True:
            due = start + (seq * self.args.channels + channel) / self.args.event_rate
            if due >= deadline:
                break
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self.attempted[channel] += 1
            try:
                client.trigger(f"soak-{channel}", EVENT, f'{{"s":{seq},"t":{time.time():.6f}}}')
                self.published[channel] += 1
            except Exception as error:  # any library or HTTP failure is an error of the run
                self.errors.add("pusher_trigger", f"event {seq} of soak-{channel}: {type(error).__name__}: {error}")
            seq += 1

    async def publish_all(self, deadline):
        loop, start = asyncio.get_running_loop(), time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.channels) as pool:
            await asyncio.gather(*(loop.run_in_executor(pool, self.publish, channel, start, deadline)
                                   for channel in range(self.args.channels)))

    def outstanding(self):
        return sum(max(0, self.published_for(s) - s.delivered) for s in self.subscribers if not s.dead)

    def published_for(self, sub):
        return self.published[int(sub.channel.rsplit("-", 1)[1])]

    async def finish(self):
        """Waits (bounded) for the last events, then closes every subscriber."""
        deadline = time.monotonic() + 30
        while self.outstanding() and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        missing = self.outstanding()
        if missing:
            self.errors.add("pusher_missing", f"{missing} deliveries never arrived", count=missing)
        self.stopping.set()
        await asyncio.gather(*(sub.websocket.close() for sub in self.subscribers
                               if sub.websocket is not None and sub.websocket.state is State.OPEN))
        await asyncio.wait(self.tasks, timeout=30)

    def fields(self):
        expected = sum(self.published_for(s) for s in self.subscribers)
        return {
            "subscribers": len(self.subscribers), "channels": self.args.channels,
            "subscribers_lost": sum(1 for s in self.subscribers if s.dead),
            "events_due": int(self.args.secs * self.args.event_rate),
            "events_triggered": sum(self.published), "trigger_attempts": sum(self.attempted),
            "deliveries": sum(s.delivered for s in self.subscribers), "deliveries_expected": expected,
            "delivery_p50_ms": f"{self.latency.quantile_ms(0.5):.1f}",
            "delivery_p99_ms": f"{self.latency.quantile_ms(0.99):.1f}",
            "delivery_max_ms": f"{self.latency.max * 1000:.1f}",
        }


# ---------------------------------------------------------------- documents

class Editor:
    """One y-websocket client: a pycrdt document synced through the server. Only local edits
    are sent as updates (remote ones are applied, never echoed)."""

    def __init__(self, number, url, errors, stopping):
        self.number = number
        self.url = url
        self.errors = errors
        self.stopping = stopping
        self.doc = Doc()
        self.text = self.doc.get("text", type=Text)
        self.synced = asyncio.Event()
        self.outbox = asyncio.Queue()
        self.local = False
        self.doc.observe(self._observed)
        self.websocket = None
        self.closed_early = False
        self.tasks = []

    def _observed(self, event):
        if self.local:
            self.outbox.put_nowait(event.update)

    async def open(self):
        self.websocket = await connect(self.url, open_timeout=30, max_size=16 << 20)
        self.tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._write())]
        await self.websocket.send(create_sync_message(self.doc))

    async def _read(self):
        try:
            async for message in self.websocket:
                if not isinstance(message, bytes) or not message:
                    continue
                if message[0] == YMessageType.SYNC:
                    reply = handle_sync_message(message[1:], self.doc)
                    if message[1] == YSyncMessageType.SYNC_STEP2:
                        self.synced.set()
                    if reply is not None:
                        await self.websocket.send(reply)
        except ConnectionClosed:
            pass
        if not self.stopping.is_set():
            self.closed_early = True
            self.errors.add("doc_close", f"editor {self.number} ({self.url.split('?')[0]}): closed "
                            f"{self.websocket.close_code} {self.websocket.close_reason}")

    async def _write(self):
        try:
            while True:
                update = await self.outbox.get()
                await self.websocket.send(create_update_message(update))
        except ConnectionClosed:
            pass

    def edit(self, fn):
        self.local = True
        try:
            fn()
        finally:
            self.local = False

    async def flushed(self):
        while not self.outbox.empty():
            await asyncio.sleep(0.02)

    async def close(self):
        for task in self.tasks[1:]:
            task.cancel()
        if self.websocket is not None:
            await self.websocket.close()
        await asyncio.wait(self.tasks[:1], timeout=10)


class Documents:
    def __init__(self, args, errors, room, tokens, reader_token):
        self.args = args
        self.errors = errors
        self.room = room
        self.tokens = tokens
        self.reader_token = reader_token
        self.rounds = 0
        self.converged = 0
        self.inserts = 0
        self.deletes = 0
        self.converge_max = 0.0

    def url(self, name, token):
        return f"ws://{HOST}:{self.args.port}/v1/rooms/{self.room}/docs/{name}/ws?token={token}"

    async def run(self, group, deadline):
        round_number = 0
        while deadline - time.monotonic() >= 5:
            end = min(deadline, time.monotonic() + self.args.doc_round_secs)
            await self.round(f"soak-d{group}-r{round_number}", end)
            round_number += 1

    async def round(self, name, end):
        self.rounds += 1
        stopping = asyncio.Event()
        editors = [Editor(i, self.url(name, token), self.errors, stopping) for i, token in enumerate(self.tokens)]
        try:
            await asyncio.gather(*(e.open() for e in editors))
            await asyncio.wait_for(asyncio.gather(*(e.synced.wait() for e in editors)), 30)
        except (InvalidHandshake, OSError, asyncio.TimeoutError) as error:
            self.errors.add("doc_connect", f"{name}: {type(error).__name__}: {error}")
            stopping.set()
            await asyncio.gather(*(e.close() for e in editors if e.websocket is not None), return_exceptions=True)
            await asyncio.sleep(1)
            return
        alive = set()  # tokens present now (inserted and not deleted), over all editors
        await asyncio.gather(*(self.edit(e, name, end, alive) for e in editors))
        await asyncio.gather(*(e.flushed() for e in editors))
        started = time.monotonic()
        expected = sorted(alive)

        def agreed():
            texts = [str(e.text) for e in editors]
            return all(t == texts[0] for t in texts) and sorted(TOKEN.findall(texts[0])) == expected

        while not agreed() and time.monotonic() - started < 30:
            await asyncio.sleep(0.05)
        if agreed():
            self.converge_max = max(self.converge_max, time.monotonic() - started)
            if await self.fresh_read_matches(name, str(editors[0].text)):
                self.converged += 1
        else:
            texts = [str(e.text) for e in editors]
            self.errors.add("doc_diverged", f"{name}: lengths {[len(t) for t in texts]}, tokens "
                            f"{[len(TOKEN.findall(t)) for t in texts]}, expected {len(expected)}")
        stopping.set()
        await asyncio.gather(*(e.close() for e in editors))

    async def edit(self, editor, name, end, alive):
        mine = []
        n = 0
        rng = random.Random(hash((name, editor.number)))
        while time.monotonic() < end and not editor.closed_early:
            await asyncio.sleep(self.args.edit_ms / 1000 * rng.uniform(0.5, 1.5))
            text = str(editor.text)
            if mine and rng.random() < 0.1:
                token = mine.pop(rng.randrange(len(mine)))
                at = text.find(token)
                if at < 0:
                    self.errors.add("doc_lost", f"{name}: editor {editor.number} cannot find its own {token}")
                    continue
                editor.edit(lambda: editor.text.__delitem__(slice(at, at + len(token))))
                alive.discard(token)
                self.deletes += 1
            else:
                token = f"<{editor.number}.{n}.{self.rounds}>"
                n += 1
                # Only at token boundaries, so no one's insert ever splits another's token.
                at = text.find(">", rng.randint(0, len(text))) + 1 if text else 0
                editor.edit(lambda: editor.text.insert(at, token))
                mine.append(token)
                alive.add(token)
                self.inserts += 1

    async def fresh_read_matches(self, name, final):
        stopping = asyncio.Event()
        reader = Editor(-1, self.url(name, self.reader_token), self.errors, stopping)
        try:
            await reader.open()
            await asyncio.wait_for(reader.synced.wait(), 30)
            deadline = time.monotonic() + 10
            while str(reader.text) != final and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            if str(reader.text) != final:
                self.errors.add("doc_reread", f"{name}: a fresh client read {len(str(reader.text))} chars, "
                                f"the editors agree on {len(final)}")
                return False
            return True
        except (InvalidHandshake, OSError, asyncio.TimeoutError) as error:
            self.errors.add("doc_connect", f"{name} reader: {type(error).__name__}: {error}")
            return False
        finally:
            stopping.set()
            if reader.websocket is not None:
                await reader.close()

    def fields(self):
        return {"doc_rounds": self.rounds, "doc_rounds_converged": self.converged,
                "doc_inserts": self.inserts, "doc_deletes": self.deletes,
                "doc_converge_max_ms": f"{self.converge_max * 1000:.0f}"}


# ---------------------------------------------------------------- main

class Starvation:
    """How late this process's event loop wakes up (a 100-ms timer), and its CPU use: when the
    host is short of CPU, latencies measured here include this client's own waiting."""

    def __init__(self):
        self.lag_max = 0.0
        self.cpu_start, self.wall_start = time.process_time(), time.monotonic()

    async def watch(self):
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.1)
            self.lag_max = max(self.lag_max, time.monotonic() - before - 0.1)

    def fields(self):
        wall = time.monotonic() - self.wall_start
        return {"peers_cpu_pct": f"{100 * (time.process_time() - self.cpu_start) / max(wall, 1e-9):.0f}",
                "peers_loop_lag_max_ms": f"{self.lag_max * 1000:.0f}"}


async def progress(args, fanout, documents, errors, started, deadline, starvation):
    while time.monotonic() < deadline:
        await asyncio.sleep(args.progress_secs)
        p99, worst = fanout.latency.fold()
        print(f"peers t={time.monotonic() - started:.0f}s loop_lag_max_ms={starvation.lag_max * 1000:.0f} "
              f"events={sum(fanout.published)} "
              f"deliveries={sum(s.delivered for s in fanout.subscribers)} "
              f"delivery_p99_ms={p99:.1f} delivery_max_ms={worst:.1f} "
              f"doc_rounds={documents.rounds} doc_edits={documents.inserts + documents.deletes} errors={errors.total()}",
              flush=True)


async def wait_for_go(path):
    """With --go-file, the load starts once that file exists (the chat load is connected by
    then, so both run over the same window); after 300 s it starts anyway."""
    if not path:
        return
    deadline = time.monotonic() + 300
    while not os.path.exists(path) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)


async def main(args):
    errors = Errors()
    room, tokens, reader_token = setup_documents(args)
    stopping = asyncio.Event()
    fanout = FanOut(args, errors, stopping)
    await fanout.start()
    documents = Documents(args, errors, room, tokens, reader_token)
    print("READY", flush=True)
    await wait_for_go(args.go_file)
    started = time.monotonic()
    deadline = started + args.secs
    starvation = Starvation()
    watcher = asyncio.create_task(starvation.watch())
    publisher = asyncio.create_task(fanout.publish_all(deadline))
    reporter = asyncio.create_task(progress(args, fanout, documents, errors, started, deadline, starvation))
    await asyncio.gather(*(documents.run(group, deadline) for group in range(args.docs)))
    await publisher
    reporter.cancel()
    watcher.cancel()
    load = starvation.fields()
    await fanout.finish()
    fields = {"secs": args.secs, "event_rate": args.event_rate, **fanout.fields(), **documents.fields(), **load}
    for kind, count in sorted(errors.counts.items()):
        fields[f"err_{kind}"] = count
    fields["errors"] = errors.total()
    print("PEERS " + " ".join(f"{k}={v}" for k, v in fields.items()), flush=True)
    for line in errors.first:
        print(f"  first errors: {line}", flush=True)
    return 1 if errors.total() else 0


def parse():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secs", type=int, default=60, help="length of the load after READY")
    parser.add_argument("--subscribers", type=int, default=500)
    parser.add_argument("--channels", type=int, default=5)
    parser.add_argument("--event-rate", type=float, default=100.0)
    parser.add_argument("--docs", type=int, default=2, help="documents edited at once")
    parser.add_argument("--editors", type=int, default=3, help="editors of each document")
    parser.add_argument("--edit-ms", type=float, default=50.0)
    parser.add_argument("--doc-round-secs", type=int, default=60)
    parser.add_argument("--progress-secs", type=int, default=10)
    parser.add_argument("--go-file", help="wait for this file to exist before starting the load")
    parser.add_argument("--app-id", default="1")
    parser.add_argument("--key", default="dev-key")
    parser.add_argument("--secret", default="dev-secret")
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    # Backstop: setup, the load, the final waits and the closes fit well inside this.
    signal.alarm(arguments.secs + 600)
    sys.exit(asyncio.run(main(arguments)))
