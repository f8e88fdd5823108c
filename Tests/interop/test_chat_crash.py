"""Issue 4, Must show: crash safety. While many clients send at once, `parley serve` is killed
with SIGKILL; after a restart over the same database every acknowledged message is there
exactly once (same id and seq), seqs have no gaps, and retrying the sends whose answer was
lost yields each message once. On SQLite (the data directory), on SQLite behind a slow disk
(every fsync 5 ms longer, through the LD_PRELOAD shim of Benchmarks/c/slow_fsync.c, so sends
pile up behind the log's fsyncs and checkpoints when the server dies), and on PostgreSQL
(`--database`, a fresh schema in the instance PARLEY_TEST_POSTGRES_URL names)."""
import shutil
import subprocess
import threading
import time

import pytest

from chat_support import APP_A, ROOT, ChatServer, create_user, engine_database, mint, unique

SENDERS = 48
ROOMS = 4
MIN_ACKNOWLEDGED = 1000


def slow_fsync_env(delay_us):
    """The environment that makes every fsync of the server `delay_us` longer (the shim is built here)."""
    if shutil.which("cc") is None:
        pytest.skip("no C compiler for the slow-fsync shim")
    built = subprocess.run([str(ROOT / "Benchmarks" / "build_slow_fsync.sh")], capture_output=True, text=True)
    if built.returncode != 0:
        pytest.skip(f"the slow-fsync shim did not build: {built.stderr}")
    return {"LD_PRELOAD": built.stdout.strip(), "SLOW_FSYNC_US": str(delay_us)}


@pytest.fixture(params=["sqlite", "sqlite-slow-fsync", "postgres"])
def crash_server(request):
    env = slow_fsync_env(5000) if request.param == "sqlite-slow-fsync" else None
    with engine_database("postgres" if request.param == "postgres" else "sqlite") as database:
        server = ChatServer(database=database, env=env)
        yield server
        server.stop()


class Burst:
    """Sender threads, one user each, sending to the rooms round-robin with unique client ids
    until the server goes away. Records what was acknowledged and what was merely attempted."""

    def __init__(self, server, users, rooms):
        self.server = server
        self.users = users
        self.rooms = rooms
        self.lock = threading.Lock()
        self.acknowledged = {}  # (room, client_id) -> (id, seq)
        self.attempted = {}  # (room, client_id) -> (user, text)
        self.refused = 0
        self.stop = threading.Event()

    def run_sender(self, index, user):
        token = mint(APP_A, user)
        n = 0
        while not self.stop.is_set():
            room = self.rooms[(index + n) % len(self.rooms)]
            client_id = f"{user}-{n}"
            text = f"burst {user} {n}"
            with self.lock:
                self.attempted[(room, client_id)] = (user, text)
            try:
                response = self.server.request("POST", f"/v1/rooms/{room}/messages", token=token, timeout=10,
                                               json_body={"client_id": client_id, "parts": [{"type": "text", "text": text}]})
            except OSError:
                return  # the server is gone: this send's outcome is unknown
            if response.status == 201:
                with self.lock:
                    self.acknowledged[(room, client_id)] = (response.json["id"], response.json["seq"])
            elif response.status == 429:
                with self.lock:
                    self.refused += 1
                time.sleep(0.05)
            else:
                raise AssertionError(f"unexpected answer to a send: {response}")
            n += 1

    def ack_count(self):
        with self.lock:
            return len(self.acknowledged)


def full_history(server, room, token):
    messages, after = [], 0
    while True:
        page = server.ok("GET", f"/v1/rooms/{room}/messages?after={after}&limit=100", token=token)
        messages += page["messages"]
        if not page["has_more"]:
            return messages
        after = page["messages"][-1]["seq"]


def test_acknowledged_messages_survive_sigkill_exactly_once(crash_server):
    server = crash_server.start()
    admin = unique("owner")
    users = [unique(f"s{i}") for i in range(SENDERS)]
    for user in [admin, *users]:
        create_user(server, APP_A, user)
    admin_token = mint(APP_A, admin)
    rooms = [server.ok("POST", "/v1/rooms", token=admin_token, json_body={"kind": "private", "member_ids": users})["id"]
             for _ in range(ROOMS)]

    burst = Burst(server, users, rooms)
    threads = [threading.Thread(target=burst.run_sender, args=(i, user), daemon=True) for i, user in enumerate(users)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while burst.ack_count() < MIN_ACKNOWLEDGED and time.monotonic() < deadline:
        time.sleep(0.02)
    assert burst.ack_count() >= MIN_ACKNOWLEDGED, "the burst never got going"
    server.kill()  # mid-burst: sends are in flight on every thread
    burst.stop.set()
    for thread in threads:
        thread.join(timeout=15)
    acknowledged = dict(burst.acknowledged)
    in_doubt = set(burst.attempted) - set(acknowledged)
    print(f"acknowledged {len(acknowledged)}, in doubt {len(in_doubt)}, refused {burst.refused}")

    server.start()
    found = {}
    for room in rooms:
        history = full_history(server, room, admin_token)
        seqs = [m["seq"] for m in history]
        assert seqs == list(range(1, len(history) + 1)), f"room {room}: seqs have gaps or repeats"
        client_ids = [m["client_id"] for m in history]
        assert len(client_ids) == len(set(client_ids)), f"room {room}: a client id appears twice"
        for message in history:
            found[(room, message["client_id"])] = (message["id"], message["seq"])
    for key, (message_id, seq) in acknowledged.items():
        assert found.get(key) == (message_id, seq), f"acknowledged message {key} lost or changed"
    # Nothing appeared that was never sent.
    assert set(found) <= set(burst.attempted)

    # Retrying every send whose answer was lost: each ends up in the room exactly once.
    for room, client_id in sorted(in_doubt):
        user, text = burst.attempted[(room, client_id)]
        response = server.request("POST", f"/v1/rooms/{room}/messages", token=mint(APP_A, user),
                                  json_body={"client_id": client_id, "parts": [{"type": "text", "text": text}]})
        assert response.status == (200 if (room, client_id) in found else 201), response
    for room in rooms:
        client_ids = [m["client_id"] for m in full_history(server, room, admin_token)]
        assert len(client_ids) == len(set(client_ids))
        assert set(client_ids) == {c for (r, c) in burst.attempted if r == room}
