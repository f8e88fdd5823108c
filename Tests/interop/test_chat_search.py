"""Message search through the REST API on both engines: words of any script and emoji are
found, highlights point at them (UTF-16 offsets), pages follow the cursor, edits and deletes
change what is found, and no search ever returns a message from a room the caller cannot read:
a room they left, a private room they were never in, a deleted room, another app's room."""
import subprocess
from urllib.parse import quote

import pytest

from chat_support import APP_A, APP_B, ChatServer, basic, create_user, mint, postgres_schema_url, unique


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def chat(request):
    if request.param == "sqlite":
        server = ChatServer().start()
        yield server
        server.stop()
        return
    scoped = postgres_schema_url()
    if scoped is None:
        pytest.skip("PARLEY_TEST_POSTGRES_URL is not set (scripts/test.sh starts a private PostgreSQL instance)")
    url, schema = scoped
    server = ChatServer(database=url).start()
    yield server
    server.stop()
    base = url.split("&options=")[0].split("?options=")[0]
    subprocess.run(["psql", base, "-qc", f"DROP SCHEMA {schema} CASCADE"], check=False, capture_output=True)


class People:
    """alice, bob and carol of APP_A with tokens; a word unique to this test run."""

    def __init__(self, server):
        self.server = server
        self.alice, self.bob, self.carol = unique("alice"), unique("bob"), unique("carol")
        for user in (self.alice, self.bob, self.carol):
            create_user(server, APP_A, user)
        self.tokens = {user: mint(APP_A, user) for user in (self.alice, self.bob, self.carol)}
        self.word = "w" + unique("x").replace("-", "")

    def room(self, creator, members, kind="private"):
        return self.server.ok("POST", "/v1/rooms", token=self.tokens[creator],
                              json_body={"kind": kind, "name": "r", "member_ids": members})["id"]

    def send(self, user, room, text):
        body = {"parts": [{"type": "text", "text": text}]}
        return self.server.ok("POST", f"/v1/rooms/{room}/messages", token=self.tokens[user], json_body=body, expect=(201,))

    def search(self, user, text, room=None, expect=(200,), **query):
        path = f"/v1/rooms/{room}/search" if room else "/v1/search"
        query = {"q": text, **query}
        path += "?" + "&".join(f"{key}={quote(str(value))}" for key, value in query.items())
        return self.server.ok("GET", path, token=self.tokens[user], expect=expect)


@pytest.fixture
def people(chat):
    return People(chat)


def highlighted(hit):
    """The highlighted substrings of a hit, cut by UTF-16 offsets as a JavaScript client would."""
    texts = []
    for highlight in hit["highlights"]:
        text = hit["message"]["parts"][highlight["part"]]["text"].encode("utf-16-le")
        texts.append(text[2 * highlight["start"]:2 * highlight["end"]].decode("utf-16-le"))
    return texts


def test_any_script_and_emoji_are_found_with_highlights(people):
    room = people.room(people.alice, [people.bob])
    w = people.word
    people.send(people.alice, room, f"{w} Привет, мир! 🎉 party")
    people.send(people.bob, room, f"{w} 会議は東京で")
    people.send(people.bob, room, f"{w} Crème brûlée")

    hits = people.search(people.bob, f"{w} 🎉")["hits"]
    assert [highlighted(hit) for hit in hits] == [[w, "🎉"]]
    hits = people.search(people.bob, f"東京 {w}", room=room)["hits"]
    assert [highlighted(hit) for hit in hits] == [[w, "東京"]]
    assert people.search(people.alice, f"ПРИВЕТ {w}")["hits"][0]["message"]["sender_id"] == people.alice
    assert highlighted(people.search(people.alice, f"creme BRULEE {w}")["hits"][0]) == [w, "Crème", "brûlée"]
    assert len(people.search(people.alice, w)["hits"]) == 3


def test_pages_follow_the_cursor(people):
    room = people.room(people.alice, [])
    for index in range(5):
        people.send(people.alice, room, f"{people.word} number {index}")
    seen, cursor, pages = [], None, 0
    while True:
        query = {"limit": 2} if cursor is None else {"limit": 2, "cursor": cursor}
        page = people.search(people.alice, people.word, **query)
        seen += [hit["message"]["id"] for hit in page["hits"]]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert pages == 3 and len(seen) == 5 and len(set(seen)) == 5


def test_edits_and_deletes_change_what_is_found(people):
    room = people.room(people.alice, [people.bob])
    message = people.send(people.alice, room, f"{people.word} before")
    people.server.ok("PATCH", f"/v1/rooms/{room}/messages/{message['id']}", token=people.tokens[people.alice],
                     json_body={"parts": [{"type": "text", "text": f"{people.word} after"}]})
    assert people.search(people.bob, f"{people.word} before")["hits"] == []
    assert len(people.search(people.bob, f"{people.word} after")["hits"]) == 1
    people.server.ok("DELETE", f"/v1/rooms/{room}/messages/{message['id']}", token=people.tokens[people.alice])
    assert people.search(people.bob, people.word)["hits"] == []


def test_search_never_returns_a_room_the_caller_cannot_read(people):
    server, w = people.server, people.word
    shared = people.room(people.alice, [people.bob])
    secret = people.room(people.carol, [])
    left = people.room(people.alice, [people.bob], kind="public")
    doomed = people.room(people.alice, [people.bob])
    for room in (shared, secret, left, doomed):
        people.send(people.carol if room == secret else people.alice, room, f"{w} in {room}")
    create_user(server, APP_B, people.bob)
    other = server.ok("POST", "/v1/rooms", token=mint(APP_B, people.bob), json_body={"kind": "private", "name": "b"})["id"]
    server.ok("POST", f"/v1/rooms/{other}/messages", token=mint(APP_B, people.bob),
              json_body={"parts": [{"type": "text", "text": f"{w} in another app"}]}, expect=(201,))

    def rooms(found):
        return sorted(hit["message"]["room_id"] for hit in found["hits"])

    assert rooms(people.search(people.bob, w)) == sorted([shared, left, doomed])
    server.ok("POST", f"/v1/rooms/{left}/leave", token=people.tokens[people.bob])
    server.ok("DELETE", f"/v1/rooms/{doomed}", token=people.tokens[people.alice])
    assert rooms(people.search(people.bob, w)) == [shared]
    assert people.search(people.carol, w)["hits"][0]["message"]["room_id"] == secret

    refused = server.request("GET", f"/v1/rooms/{secret}/search?q={w}", token=people.tokens[people.bob])
    assert (refused.status, refused.error_code) == (403, "not_member")
    refused = server.request("GET", f"/v1/rooms/{left}/search?q={w}", token=people.tokens[people.bob])
    assert (refused.status, refused.error_code) == (403, "not_member")
    gone = server.request("GET", f"/v1/rooms/{doomed}/search?q={w}", token=people.tokens[people.alice])
    assert (gone.status, gone.error_code) == (404, "room_not_found")
    # Another app's room: not found from APP_A, and APP_A's messages not found from APP_B.
    foreign = server.request("GET", f"/v1/rooms/{other}/search?q={w}", token=people.tokens[people.bob])
    assert (foreign.status, foreign.error_code) == (404, "room_not_found")
    in_b = server.ok("GET", f"/v1/search?q={w}", token=mint(APP_B, people.bob))
    assert rooms(in_b) == [other]
    # The app's backend sees its own rooms, or one user's with user_id.
    app_wide = server.ok("GET", f"/v1/search?q={w}", auth=basic(APP_A))
    assert rooms(app_wide) == sorted([shared, secret, left])
    as_carol = server.ok("GET", f"/v1/search?q={w}&user_id={people.carol}", auth=basic(APP_A))
    assert rooms(as_carol) == [secret]


def test_bad_queries_get_clear_errors(people):
    for query, status, code in [
        ("", 400, "invalid_parameter"), ("q=", 400, "invalid_parameter"),
        ("q=" + "a" * 257, 400, "invalid_parameter"), ("q=%20%20", 422, "validation_failed"), ("q=ok&cursor=-1", 400, "invalid_parameter"),
        ("q=ok&cursor=abc", 400, "invalid_parameter"), ("q=ok&cursor=1001", 400, "invalid_parameter"), ("q=ok&limit=0", 400, "invalid_parameter"),
        ("q=%3F%21", 422, "validation_failed"),
    ]:
        response = people.server.request("GET", "/v1/search?" + query, token=people.tokens[people.alice])
        assert (response.status, response.error_code) == (status, code), query
    assert people.server.request("GET", "/v1/search?q=x").status == 401
