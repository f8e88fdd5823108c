"""`/metrics` read as Prometheus reads it (prometheus_client's text parser): per-app labels,
request latency histograms per route template, process figures, build info, store metrics
for the engine in use only, and `--metrics-address` serving them apart from the public port."""
import socket
import time

import httpx
import pusher
import pytest
from prometheus_client.parser import text_string_to_metric_families

from chat_support import APP_A, APP_B, ChatServer, basic, create_user, mint, postgres_schema_url, unique
from test_pusher_support import RawClient, free_port

TOKEN = "scrape-token"


def scrape(port, token=TOKEN):
    headers = {"Authorization": "Bearer " + token} if token else {}
    answer = httpx.get(f"http://127.0.0.1:{port}/metrics", headers=headers, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {family.name: family for family in text_string_to_metric_families(answer.text)}


def family_of(families, name):
    """The family of a metric name (the parser files a counter `x_total` under `x`)."""
    return families.get(name) or (families.get(name[:-len("_total")]) if name.endswith("_total") else None)


def samples(families, family, name=None):
    """{frozenset(labels): value} of one family's samples named `name` (default: the family's)."""
    found = family_of(families, family)
    assert found is not None, f"no {family} family"
    return {frozenset(s.labels.items()): s.value for s in found.samples if s.name == (name or family)}


def by_app(families, family):
    return {dict(labels).get("app"): value for labels, value in samples(families, family).items()}


def eventually(condition, timeout=20.0):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def api(server, app):
    return pusher.Pusher(app_id=app["id"], key=app["key"], secret=app["secret"], host="127.0.0.1", port=server.port, ssl=False)


@pytest.fixture
def server():
    running = ChatServer(extra_args=["--metrics-token", TOKEN]).start()
    yield running
    running.stop()


def test_two_apps_with_different_traffic_have_their_own_samples(server):
    a = [RawClient(server.ws_url(APP_A)) for _ in range(2)]
    b = [RawClient(server.ws_url(APP_B))]
    try:
        for client in a:
            client.subscribe("news")
            client.expect("pusher_internal:subscription_succeeded", "news")
        for i in range(3):
            api(server, APP_A).trigger("news", "tick", {"i": i})
        api(server, APP_B).trigger("news", "tick", {"i": 0})
        with pytest.raises(Exception):
            pusher.Pusher(app_id="999", key="nobody", secret="x", host="127.0.0.1", port=server.port, ssl=False).trigger("news", "tick", {})
        for client in a:
            for _ in range(3):
                client.expect("tick", "news")

        def delivered():
            families = scrape(server.port)
            out = samples(families, "parley_channels_messages_out_total")
            return families if out.get(frozenset({("app", APP_A["id"])}), 0) >= 2 * 3 else None

        families = eventually(delivered)
        assert families, "the deliveries to app A's clients were never counted under its label"
        ids = {APP_A["id"], APP_B["id"]}
        connections = by_app(families, "parley_channels_connections")
        assert connections == {APP_A["id"]: 2, APP_B["id"]: 1}
        assert by_app(families, "parley_channels_subscriptions") == {APP_A["id"]: 2, APP_B["id"]: 0}
        assert by_app(families, "parley_channels_messages_in_total") == {APP_A["id"]: 2, APP_B["id"]: 0}
        published = by_app(families, "parley_channels_events_published_total")
        assert published == {APP_A["id"]: 3, APP_B["id"]: 1}
        # The request for an app this server does not host counts without an app label, so
        # the sum over apps is the server's total and a stranger cannot add a series.
        requests = by_app(families, "parley_channels_api_requests_total")
        assert requests == {APP_A["id"]: 3, APP_B["id"]: 1, None: 1}
        assert by_app(families, "parley_channels_api_errors_total") == {APP_A["id"]: 0, APP_B["id"]: 0, None: 1}
        for family in families.values():
            for sample in family.samples:
                if "app" in sample.labels:
                    assert sample.labels["app"] in ids
    finally:
        for client in a + b:
            client.close()


def test_latency_histograms_count_each_request_under_its_route_template(server):
    users = [unique("hist") for _ in range(3)]
    for user in users:
        create_user(server, APP_A, user)
    for user in users[:2]:
        server.ok("GET", f"/v1/users/{user}", auth=basic(APP_A))
    for i in range(4):
        api(server, APP_B).trigger("room", "tick", {"i": i})
    expected = {("POST", "/v1/users"): 3, ("GET", "/v1/users/{user_id}"): 2, ("POST", "/apps/{app_id}/events"): 4}

    def counts():
        families = scrape(server.port)
        found = {}
        for labels, value in samples(families, "parley_http_request_duration_seconds",
                                     "parley_http_request_duration_seconds_count").items():
            labels = dict(labels)
            found[(labels["method"], labels["route"])] = value
        return families if all(found.get(key) == value for key, value in expected.items()) else None

    families = eventually(counts)
    assert families, "histogram counts never matched the requests made"
    histogram = families["parley_http_request_duration_seconds"]
    assert histogram.type == "histogram"
    for (method, route), made in expected.items():
        buckets = sorted(((float(s.labels["le"]), s.value) for s in histogram.samples
                          if s.name.endswith("_bucket") and s.labels["method"] == method and s.labels["route"] == route))
        assert len(buckets) >= 10 and buckets[-1][0] == float("inf")
        values = [value for _, value in buckets]
        assert values == sorted(values), f"buckets of {route} not cumulative: {values}"
        assert values[-1] == made
        total = [s.value for s in histogram.samples if s.name.endswith("_sum") and s.labels["route"] == route
                 and s.labels["method"] == method]
        assert len(total) == 1 and total[0] > 0
    # Routes are named by their template: no user id, app id or query ever becomes a label.
    for sample in histogram.samples:
        assert not any(user in sample.labels["route"] for user in users)
        assert APP_B["id"] not in sample.labels["route"] and "?" not in sample.labels["route"]


def test_process_open_fds_rises_with_open_sockets_and_process_figures_are_there(server):
    families = scrape(server.port)
    before = samples(families, "process_open_fds")[frozenset()]
    assert samples(families, "process_max_fds")[frozenset()] >= before
    assert samples(families, "process_resident_memory_bytes")[frozenset()] > 1 << 20
    assert samples(families, "process_threads")[frozenset()] >= 2
    assert family_of(families, "process_cpu_seconds_total").type == "counter"
    started = samples(families, "process_start_time_seconds")[frozenset()]
    assert 1_600_000_000 < started <= time.time() + 1
    held = []
    try:
        for _ in range(40):
            held.append(socket.create_connection(("127.0.0.1", server.port)))
        risen = eventually(lambda: samples(scrape(server.port), "process_open_fds")[frozenset()] >= before + 40)
        assert risen, "process_open_fds did not count 40 more sockets"
    finally:
        for sock in held:
            sock.close()
    assert eventually(lambda: samples(scrape(server.port), "process_open_fds")[frozenset()] < before + 40)


def test_build_info_names_the_running_version(server):
    version = httpx.get(f"http://127.0.0.1:{server.port}/version").json()["version"]
    info = samples(scrape(server.port), "parley_build_info")
    assert len(info) == 1
    labels, value = next(iter(info.items()))
    labels = dict(labels)
    assert value == 1 and labels["version"] == version and labels["swift"][0].isdigit()


SQLITE_ONLY = ["parley_store_log_syncs_total", "parley_store_synced_batches_total", "parley_store_checkpoints_total",
               "parley_store_log_restarts_total", "parley_store_checkpoint_failures_total"]


def test_sqlite_store_metrics_are_there_on_sqlite(server):
    create_user(server, APP_A, unique("w"))
    families = scrape(server.port)
    assert samples(families, "parley_store_info") == {frozenset({("engine", "sqlite")}): 1}
    for name in SQLITE_ONLY:
        assert family_of(families, name) is not None, name
    assert family_of(families, "parley_store_round_trips_total") is None
    assert samples(families, "parley_store_transactions_total")[frozenset()] >= 1


def test_sqlite_store_metrics_are_absent_on_postgres():
    database = postgres_schema_url()
    if database is None:
        pytest.skip("PARLEY_TEST_POSTGRES_URL is not set (scripts/test.sh starts a private PostgreSQL instance)")
    url, _ = database
    running = ChatServer(database=url, extra_args=["--metrics-token", TOKEN]).start()
    try:
        create_user(running, APP_A, unique("pg"))
        families = scrape(running.port)
        assert samples(families, "parley_store_info") == {frozenset({("engine", "postgres")}): 1}
        for name in SQLITE_ONLY:
            assert family_of(families, name) is None, name
        assert samples(families, "parley_store_round_trips_total")[frozenset()] >= 1
        pool = samples(families, "parley_store_connections")
        assert pool[frozenset({("role", "reader")})] >= 1 and pool[frozenset({("role", "writer")})] == 4, "--pg-writers' default"
        queues = samples(families, "parley_store_writer_queued_operations")
        assert set(queues) == {frozenset({("writer", str(index))}) for index in range(4)}
        assert samples(families, "parley_store_read_failures_total")[frozenset()] == 0
    finally:
        running.stop()


def test_a_metrics_address_serves_them_apart_and_the_public_port_does_not():
    port = free_port()
    running = ChatServer(extra_args=["--metrics-address", f"127.0.0.1:{port}"]).start()
    try:
        public = httpx.get(f"http://127.0.0.1:{running.port}/metrics", timeout=10)
        assert public.status_code == 404
        assert running.request("GET", "/healthz").status == 200
        # On loopback and without a token set, the metrics listener answers anyone local.
        families = scrape(port, token=None)
        assert "parley_channels_connections" in families and "process_open_fds" in families
        assert httpx.get(f"http://127.0.0.1:{port}/v1/users", auth=None, timeout=10).status_code == 404
    finally:
        running.stop()


def test_a_metrics_address_still_wants_the_token_when_one_is_set():
    port = free_port()
    running = ChatServer(extra_args=["--metrics-address", f"127.0.0.1:{port}", "--metrics-token", TOKEN]).start()
    try:
        assert httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).status_code == 401
        assert "process_open_fds" in scrape(port)
        assert httpx.get(f"http://127.0.0.1:{running.port}/metrics", headers={"Authorization": "Bearer " + TOKEN}).status_code == 404
    finally:
        running.stop()


def test_a_taken_metrics_address_stops_the_start():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        running = ChatServer(extra_args=["--metrics-address", f"127.0.0.1:{port}"])
        with pytest.raises(BaseException) as failed:
            running.start()
        assert "could not listen on --metrics-address" in str(failed.value)
