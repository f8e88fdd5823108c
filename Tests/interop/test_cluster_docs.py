"""Collaborative documents across `parley serve --redis` nodes, seen by pycrdt peers speaking
y-websocket to different nodes: concurrent edits converge on every node, awareness (carets)
crosses nodes and ends with its client, a node that opens a document late misses nothing
published while it loaded, and every accepted update is stored once in PostgreSQL and
outlives the node that accepted it. Each test gets its own redis-server, PostgreSQL schema and
nodes (cluster_support.py)."""
import asyncio
import random
import subprocess

import pytest
from pycrdt import Awareness, Doc, Provider, Text, YMessageType, create_awareness_message, read_message
from websockets.asyncio.client import connect

from chat_support import APP_A, create_user, mint, unique
from cluster_support import Cluster, PostgresInstance
from test_docs_ywebsocket import WebsocketChannel, wait_for

LOAD_DELAY_MS = 2500


@pytest.fixture(scope="module")
def postgres():
    instance = PostgresInstance()
    yield instance
    instance.close()


@pytest.fixture
def cluster(postgres):
    c = Cluster(postgres, count=3)
    yield c
    c.close()


class AwareChannel(WebsocketChannel):
    """A y-websocket channel that also keeps the awareness messages it receives in a pycrdt
    `Awareness`; the Provider only sees the sync messages."""

    def __init__(self, websocket, path, awareness):
        super().__init__(websocket, path)
        self.awareness = awareness

    async def recv(self):
        while True:
            message = await super().recv()
            if message[0] == YMessageType.AWARENESS:
                self.awareness.apply_awareness_update(read_message(message[1:]), "remote")
                continue
            return message


class Peer:
    """A pycrdt document synced with one node through y-websocket, with its awareness."""

    def __init__(self, node, room, name, user):
        self.url = f"ws://127.0.0.1:{node.port}/v1/rooms/{room}/docs/{name}/ws?token={mint(APP_A, user)}"
        self.name = name
        self.doc = Doc()
        self.text = self.doc.get("text", type=Text)
        self.awareness = Awareness(self.doc)

    async def __aenter__(self):
        self.websocket = await connect(self.url)
        self.channel = AwareChannel(self.websocket, self.name, self.awareness)
        self.provider = Provider(self.doc, self.channel)
        await self.provider.__aenter__()
        await asyncio.wait_for(self.provider.synced.wait(), 15)
        return self

    async def __aexit__(self, *exc):
        await self.websocket.close()
        await self.provider.__aexit__(None, None, None)

    async def announce(self, state):
        """Sets this peer's awareness state and sends it (pycrdt's Provider does not)."""
        self.awareness.set_local_state(state)
        client = self.doc.client_id
        await self.websocket.send(create_awareness_message(self.awareness.encode_awareness_update([client])))


def setup_room(node):
    alice, bob = unique("alice"), unique("bob")
    for user in (alice, bob):
        create_user(node, APP_A, user)
    room = node.ok("POST", "/v1/rooms", token=mint(APP_A, alice), json_body={"kind": "private", "member_ids": [bob]})
    return room["id"], alice, bob


def stored_updates(cluster, name):
    """How many updates the document `name` has in PostgreSQL's log."""
    query = ("SELECT count(*) FROM document_updates u JOIN documents d ON d.app_id = u.app_id AND d.id = u.document_id "
             f"WHERE d.name = '{name}'")
    return int(subprocess.run(["psql", cluster.database, "-Atc", query], check=True, capture_output=True,
                              text=True).stdout.strip())


async def converged(*peers, timeout=15):
    return await wait_for(lambda: len({str(p.text) for p in peers}) == 1, timeout=timeout)


async def random_edits(peer, rng, count):
    """`count` transactions of random inserts and deletes, each one update on the wire;
    returns how many were inserts (a delete may add nothing when the other peer deleted the
    same text first, and is then not stored)."""
    inserts = 0
    for i in range(count):
        length = len(str(peer.text))
        if length > 4 and rng.random() < 0.3:
            start = rng.randrange(length - 1)
            del peer.text[start:start + rng.randint(1, min(3, length - start))]
        else:
            peer.text.insert(rng.randint(0, length), rng.choice("abcdefghij") * rng.randint(1, 3) + str(i % 10))
            inserts += 1
        await asyncio.sleep(rng.random() * 0.01)
    return inserts


def test_concurrent_edits_through_two_nodes_converge_everywhere_and_are_stored_once(cluster):
    a, b, c = cluster.nodes
    room, alice, bob = setup_room(a)
    seed = random.randrange(1 << 30)
    print("seed", seed)
    rng_a, rng_b = random.Random(seed), random.Random(seed + 1)
    edits = 120

    async def scenario():
        async with Peer(a, room, "plan", alice) as on_a, Peer(b, room, "plan", bob) as on_b:
            inserts = sum(await asyncio.gather(random_edits(on_a, rng_a, edits), random_edits(on_b, rng_b, edits)))
            assert await converged(on_a, on_b), (str(on_a.text), str(on_b.text))
            final = str(on_a.text)
            async with Peer(c, room, "plan", bob) as on_c:
                assert await converged(on_a, on_c), (final, str(on_c.text))
            return final, inserts

    final, inserts = asyncio.run(scenario())
    assert len(final) > 0
    # Each client transaction is one update, stored by the node that accepted it alone (and
    # not at all when it added nothing); node B and C store none of node A's, and so on.
    stored = stored_updates(cluster, "plan")
    print("inserts", inserts, "stored", stored)
    assert inserts <= stored <= 2 * edits


def test_awareness_crosses_nodes_and_leaves_with_its_client(cluster):
    a, b, c = cluster.nodes
    room, alice, bob = setup_room(a)

    async def scenario():
        async with Peer(b, room, "carets", bob) as on_b:
            async with Peer(a, room, "carets", alice) as on_a:
                await on_a.announce({"user": {"name": "Alice"}, "cursor": 3})
                alice_client = on_a.doc.client_id
                assert await wait_for(lambda: alice_client in on_b.awareness.states, timeout=10), on_b.awareness.states
                assert on_b.awareness.states[alice_client]["cursor"] == 3
                # The server wrote the verified user id into the state on node A.
                assert on_b.awareness.states[alice_client]["user"]["id"] == alice
                await on_b.announce({"user": {"name": "Bob"}, "cursor": 0})
                bob_client = on_b.doc.client_id
                assert await wait_for(lambda: bob_client in on_a.awareness.states, timeout=10), on_a.awareness.states
                # A node that opens the document later asks the others who is there.
                async with Peer(c, room, "carets", bob) as on_c:
                    assert await wait_for(
                        lambda: {alice_client, bob_client} <= set(on_c.awareness.states), timeout=10), on_c.awareness.states
            # Alice left through node A: node B removes her caret.
            assert await wait_for(lambda: alice_client not in on_b.awareness.states, timeout=10), on_b.awareness.states

    asyncio.run(scenario())


def test_a_node_opening_a_document_late_misses_nothing_published_while_it_loaded(postgres):
    cluster = Cluster(postgres, count=2)
    try:
        # The third node waits LOAD_DELAY_MS after reading a document before taking it into use.
        slow = cluster.add_node(env={"PARLEY_TEST_DOCUMENT_LOAD_DELAY_MS": str(LOAD_DELAY_MS)})
        cluster.wait_health(slow, "ok")
        a = cluster.nodes[0]
        room, alice, bob = setup_room(a)

        async def scenario():
            async with Peer(a, room, "late", alice) as on_a:
                on_a.text.insert(0, "before. ")
                await asyncio.sleep(0.3)

                async def edit_while_loading():
                    await asyncio.sleep(0.5)  # the slow node has read the store by now
                    for i in range(20):
                        on_a.text.insert(len(str(on_a.text)), f"w{i} ")
                        await asyncio.sleep(LOAD_DELAY_MS / 1000 / 40)

                edits = asyncio.create_task(edit_while_loading())
                async with Peer(slow, room, "late", bob) as on_slow:
                    await edits
                    assert await converged(on_a, on_slow), (str(on_a.text), str(on_slow.text))
                    on_a.text.insert(len(str(on_a.text)), "after.")
                    assert await converged(on_a, on_slow), (str(on_a.text), str(on_slow.text))
                    return str(on_slow.text)

        final = asyncio.run(scenario())
        assert final.startswith("before. w0 ") and "w19 " in final and final.endswith("after."), final
    finally:
        cluster.close()


def test_an_acknowledged_edit_survives_the_death_of_the_node_that_accepted_it(cluster):
    a, b, c = cluster.nodes
    room, alice, bob = setup_room(a)

    async def edit_and_see_it_elsewhere():
        async with Peer(a, room, "durable", alice) as on_a, Peer(b, room, "durable", bob) as on_b:
            on_a.text.insert(0, "kept after the crash")
            # Another node's peer has it: node A published it, which it does only once stored.
            assert await converged(on_a, on_b), (str(on_a.text), str(on_b.text))
            cluster.nodes[0].kill()
            return str(on_a.text)

    async def read(node):
        async with Peer(node, room, "durable", bob) as peer:
            await wait_for(lambda: len(str(peer.text)) > 0, timeout=5)
            return str(peer.text)

    text = asyncio.run(edit_and_see_it_elsewhere())
    # Node B holds the document open; node C never did and reads it from PostgreSQL.
    assert asyncio.run(read(b)) == text
    assert asyncio.run(read(c)) == text
