"""A Parley cluster on one machine for the scale-out tests: a private redis-server, a private
PostgreSQL (PARLEY_TEST_POSTGRES_URL with a fresh schema, else scripts/postgres-test-instance.sh
in a temporary directory) and several `parley serve --redis` nodes on free ports."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from chat_support import ChatServer, serve_port

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "postgres-test-instance.sh"
METRICS_TOKEN = "cluster-metrics"


def redis_server_binary():
    """Debian's redis-server, or a missing-binary skip (a failure under PARLEY_TEST_NO_SKIPS=1)."""
    found = shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/local/bin/redis-server") if os.path.exists(p)), None)
    if not found:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    return found


def free_port():
    """A free 127.0.0.1 port, from PARLEY_TEST_PORTS when a run names its range."""
    if os.environ.get("PARLEY_TEST_PORTS"):
        return serve_port()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """redis-server on a free 127.0.0.1 port, no persistence; stop and start keep the port."""

    def __init__(self):
        self.binary = redis_server_binary()
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="parley-redis-")
        self.process = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.dir, "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def remove(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class PostgresInstance:
    """PARLEY_TEST_POSTGRES_URL, else a private instance started here (stopped and removed by
    `close`); `fresh_database()` gives each cluster a schema of its own."""

    def __init__(self):
        self.instance_dir = None
        self.url = os.environ.get("PARLEY_TEST_POSTGRES_URL")
        if self.url:
            return
        if not any(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
            pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
        parent = Path(tempfile.mkdtemp(prefix="parley-cluster-pg-"))
        parent.chmod(0o755)  # the postgres user runs the server when the tests run as root
        self.instance_dir = parent / "instance"
        self.url = subprocess.run([str(SCRIPT), "start", str(self.instance_dir)], check=True, capture_output=True,
                                  text=True).stdout.strip()

    def fresh_database(self):
        schema = "cluster_" + uuid.uuid4().hex[:12]
        subprocess.run(["psql", self.url, "-v", "ON_ERROR_STOP=1", "-qc", f"CREATE SCHEMA {schema}"], check=True)
        separator = "&" if "?" in self.url else "?"
        return self.url + separator + f"options=-c%20search_path%3D{schema}"

    def close(self):
        if self.instance_dir:
            subprocess.run([str(SCRIPT), "stop", str(self.instance_dir)], capture_output=True)
            shutil.rmtree(self.instance_dir.parent, ignore_errors=True)


class Cluster:
    """`count` nodes (ChatServer, apps APP_A and APP_B) over one PostgreSQL and one Redis;
    `config` (optional) replaces each node's apps.json (webhooks, limits)."""

    def __init__(self, postgres, count=3, config=None):
        self.config = config
        self.redis = RedisServer().start()
        self.database = postgres.fresh_database()
        self.nodes = []
        for _ in range(count):
            self.add_node()
        for node in self.nodes:
            self.wait_health(node, "ok")

    def add_node(self, env=None):
        """Starts one more node on the cluster's Redis and database (`env`: extra environment)."""
        node = ChatServer(database=self.database,
                          extra_args=["--redis", self.redis.url, "--node-id", f"node-{len(self.nodes)}-{uuid.uuid4().hex[:6]}",
                                      "--metrics-token", METRICS_TOKEN], env=env)
        if self.config is not None:
            (node.work / "apps.json").write_text(json.dumps(self.config))
        self.nodes.append(node.start())
        return node

    def health(self, node):
        response = node.request("GET", "/healthz")
        assert response.status == 200, response
        return response.json

    def wait_health(self, node, status, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            health = self.health(node)
            if health["status"] == status:
                return health
            time.sleep(0.05)
        raise AssertionError(f"{node.port} never reported {status}: {self.health(node)}")

    def close(self):
        for node in self.nodes:
            node.stop()
        self.redis.remove()


def wait_until(predicate, timeout=10, what="condition"):
    """Polls `predicate` until it holds (a bus round trip is a few milliseconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"{what} did not happen within {timeout}s")


def decoded(data):
    return json.loads(data) if isinstance(data, str) else data
