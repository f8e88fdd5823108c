"""Issue 19, Must survive: PostgreSQL is restarted under load. While senders post chat messages
without pause, the server's PostgreSQL (a private instance, so nothing else is disturbed) is
restarted with `pg_ctl restart -m fast`, then stopped for about five seconds and started again.
Throughout, every send is answered promptly: 201, or 503 with `Retry-After` while the database
is away (never a hang); the sends succeed again by themselves once it is back, without a server
restart; and afterwards every acknowledged message is in its room's history exactly once.

Each sender retries a refused send with the same client id (as ParleyKit's outbox does), so a
send whose commit raced the restart is stored once and acknowledged with the original."""
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from chat_support import APP_A, ROOT, ChatServer, create_user, mint, unique

SCRIPT = ROOT / "scripts" / "postgres-test-instance.sh"
SENDERS = 12
ROOMS = 4
# Longest any single answer may take: well past a commit's time, far below "hung".
ANSWER_TIMEOUT = 10


def pg_bin():
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    if not found:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    return found[-1].parent


class PrivatePostgres:
    """A PostgreSQL instance of this test alone (scripts/postgres-test-instance.sh in a temp
    directory), which the test may restart and stop at will."""

    def __init__(self):
        self.bin = pg_bin()
        parent = Path(tempfile.mkdtemp(prefix="parley-pg-restart-"))
        parent.chmod(0o755)  # the postgres user runs the server when the tests run as root
        self.dir = parent / "instance"
        self.url = self.script("start")

    def script(self, command):
        return subprocess.run([str(SCRIPT), command, str(self.dir)], check=True, capture_output=True, text=True).stdout.strip()

    def pg_ctl(self, *args):
        owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(owner + [str(self.bin / "pg_ctl"), *args, "--pgdata", str(self.dir / "data"), "--wait", "--silent"],
                       check=True, capture_output=True, timeout=60)

    def restart_fast(self):
        # With a log file the restarted server does not hold this process's pipes open.
        self.pg_ctl("restart", "-m", "fast", "--log", str(self.dir / "server.log"))

    def halt(self):
        self.script("halt")

    def start(self):
        self.script("start")

    def close(self):
        subprocess.run([str(SCRIPT), "stop", str(self.dir)], capture_output=True)
        shutil.rmtree(self.dir.parent, ignore_errors=True)


class Load:
    """Sender threads posting to the rooms round-robin; a refused send is retried with the same
    client id until acknowledged. Records acknowledgements and every answer that was not one."""

    def __init__(self, server, users, rooms):
        self.server = server
        self.users = users
        self.rooms = rooms
        self.lock = threading.Lock()
        self.acknowledged = {}  # (room, client_id) -> (id, seq)
        self.unavailable = 0
        self.rate_limited = 0
        self.problems = []  # answers that break the rules: hangs, 503 without Retry-After, other errors
        self.stop = threading.Event()

    def run_sender(self, index, user):
        token = mint(APP_A, user)
        n = 0
        while not self.stop.is_set():
            room = self.rooms[(index + n) % len(self.rooms)]
            client_id = f"{user}-{n}"
            body = {"client_id": client_id, "parts": [{"type": "text", "text": f"load {user} {n}"}]}
            while True:
                started = time.monotonic()
                try:
                    response = self.server.request("POST", f"/v1/rooms/{room}/messages", token=token, timeout=ANSWER_TIMEOUT,
                                                   json_body=body)
                except OSError as error:
                    with self.lock:
                        self.problems.append(f"{client_id}: no answer within {ANSWER_TIMEOUT} s ({error!r})")
                    return
                if response.status in (200, 201):
                    with self.lock:
                        self.acknowledged[(room, client_id)] = (response.json["id"], response.json["seq"])
                    break
                if response.status == 503 and response.headers.get("Retry-After", "").isdigit():
                    with self.lock:
                        self.unavailable += 1
                    # Retry-After says 1 s; a shorter pause keeps the test quick and still proves the retry works.
                    time.sleep(0.2)
                    continue
                if response.status == 429 and response.headers.get("Retry-After", "").isdigit():
                    # The quick retries above spend the sender's message rate while the database is
                    # away; a client honours the wait it is told, as ParleyKit's outbox does.
                    with self.lock:
                        self.rate_limited += 1
                    time.sleep(int(response.headers["Retry-After"]))
                    continue
                with self.lock:
                    self.problems.append(f"{client_id}: {response} after {time.monotonic() - started:.1f} s")
                return
            n += 1

    def ack_count(self):
        with self.lock:
            return len(self.acknowledged)

    def wait_for_acks(self, more, timeout):
        """Waits until `more` sends beyond those acknowledged now are acknowledged; False on timeout."""
        target = self.ack_count() + more
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.ack_count() >= target:
                return True
            with self.lock:
                if self.problems:
                    return False
            time.sleep(0.05)
        return False


def full_history(server, room, token):
    messages, after = [], 0
    while True:
        page = server.ok("GET", f"/v1/rooms/{room}/messages?after={after}&limit=100", token=token)
        messages += page["messages"]
        if not page["has_more"]:
            return messages
        after = page["messages"][-1]["seq"]


@pytest.fixture
def postgres():
    instance = PrivatePostgres()
    yield instance
    instance.close()


def test_acknowledged_messages_survive_postgres_restarts(postgres):
    server = ChatServer(database=postgres.url).start()
    try:
        admin = unique("owner")
        users = [unique(f"s{i}") for i in range(SENDERS)]
        for user in [admin, *users]:
            create_user(server, APP_A, user)
        admin_token = mint(APP_A, admin)
        rooms = [server.ok("POST", "/v1/rooms", token=admin_token, json_body={"kind": "private", "member_ids": users})["id"]
                 for _ in range(ROOMS)]

        load = Load(server, users, rooms)
        threads = [threading.Thread(target=load.run_sender, args=(i, user), daemon=True) for i, user in enumerate(users)]
        for thread in threads:
            thread.start()
        try:
            assert load.wait_for_acks(200, timeout=60), f"the load never got going: {load.problems}"

            postgres.restart_fast()
            assert load.wait_for_acks(200, timeout=30), f"sends did not recover after pg_ctl restart -m fast: {load.problems}"

            postgres.halt()
            time.sleep(5)
            refused_while_down = load.unavailable
            postgres.start()
            assert load.wait_for_acks(200, timeout=30), f"sends did not recover after a 5 s stop: {load.problems}"
        finally:
            load.stop.set()
            for thread in threads:
                thread.join(timeout=2 * ANSWER_TIMEOUT)
        assert not load.problems, load.problems
        assert refused_while_down > 0, "sends made while PostgreSQL was down were answered 503"

        found = {}
        for room in rooms:
            history = full_history(server, room, admin_token)
            seqs = [m["seq"] for m in history]
            assert seqs == list(range(1, len(history) + 1)), f"room {room}: seqs have gaps or repeats"
            client_ids = [m["client_id"] for m in history]
            assert len(client_ids) == len(set(client_ids)), f"room {room}: a client id is stored twice"
            for message in history:
                found[(room, message["client_id"])] = (message["id"], message["seq"])
        for key, stored in load.acknowledged.items():
            assert found.get(key) == stored, f"acknowledged message {key} lost or changed"
        print(f"acknowledged {len(load.acknowledged)}, answered 503 {load.unavailable} times")
    finally:
        server.stop()
