"""Message search through the REST API on both engines (docs/search.md): messages sent over REST
are found over REST by each user in their own rooms only; a removed member stops finding a room
at once; outsiders, missing tokens and other apps' tokens find nothing; edits, deletes (by the
author and by a moderator) and blocks change what is found; accents, ideographs and emoji are
words, and every highlight is checked against the message text in UTF-16; paging covers the
newest 200 matches and no more; bad queries get 400 `invalid_parameter` and the server stays up."""
from urllib.parse import quote

from chat_support import APP_A, APP_B, basic, create_user, mint, two_engine_chat_fixture, unique

APP = basic(APP_A)


chat = two_engine_chat_fixture()


def users(server, *names, app=APP_A):
    ids = [unique(name) for name in names]
    for user in ids:
        create_user(server, app, user)
    return ids


def room(server, owner, *members, kind="private"):
    """A room made by the app with `owner` as its owner and `members`."""
    made = server.ok("POST", "/v1/rooms", auth=APP,
                     json_body={"kind": kind, "creator_id": owner, "member_ids": list(members)})
    return made["id"]


def send(server, room_id, user, value):
    """Sends `value` as `user` with the app's credentials (no per-user send rate to wait for)."""
    return server.ok("POST", f"/v1/rooms/{room_id}/messages", auth=APP,
                     json_body={"sender_id": user, "parts": [{"type": "text", "text": value}]})


def search(server, user, q, path="/v1/search", app=APP_A, **params):
    """The raw answer of a search as `user` (None: no credentials)."""
    query = "q=" + quote(q, safe="") + "".join(f"&{key}={quote(str(value), safe='')}" for key, value in params.items())
    token = None if user is None else mint(app, user)
    return server.request("GET", f"{path}?{query}", token=token)


def found(server, user, q, **kwargs):
    """The message ids a search finds (all pages of it), checking every highlight on the way."""
    ids, offset = [], 0
    while offset is not None:
        response = search(server, user, q, offset=offset, limit=50, **kwargs)
        assert response.status == 200, response
        page = response.json
        for result in page["results"]:
            check_highlights(result, q)
            ids.append(result["message"]["id"])
        offset = page["next_offset"]
    assert len(ids) == len(set(ids)), "a message appears on two pages"
    return ids


def marked(result):
    """The text of each highlight, cut from its part by UTF-16 code units as a client cuts it."""
    texts = []
    for highlight in result["highlights"]:
        part = result["message"]["parts"][highlight["part"]]
        source = (part.get("text") if part["type"] == "text" else part["name"]).encode("utf-16-le")
        texts.append(source[2 * highlight["start"]:2 * highlight["end"]].decode("utf-16-le"))
    return texts


def check_highlights(result, q):
    assert set(result) == {"message", "score", "highlights"}
    assert result["highlights"], f"a hit without a highlight: {result}"
    for highlight in result["highlights"]:
        assert 0 <= highlight["start"] < highlight["end"]


def test_each_user_finds_messages_of_their_own_rooms_only(chat):
    ann, bob, cat = users(chat, "ann", "bob", "cat")
    room_a = room(chat, ann, cat)
    room_b = room(chat, bob, cat)
    in_a = send(chat, room_a, ann, "the walrus meeting is at noon")["id"]
    in_b = send(chat, room_b, bob, "secret walrus plans for room B")["id"]
    also_b = send(chat, room_b, cat, "walrus")["id"]

    assert found(chat, ann, "walrus") == [in_a]
    assert sorted(found(chat, bob, "walrus")) == sorted([in_b, also_b])
    assert sorted(found(chat, cat, "walrus")) == sorted([in_a, in_b, also_b])
    assert found(chat, cat, "walrus", room=room_a) == [in_a]
    assert found(chat, ann, "secret plans") == []

    # The room forms answer the same for a member, and refuse an outsider with not_member.
    for path in (f"/v1/rooms/{room_b}/search", f"/v1/rooms/{room_b}/messages"):
        answer = search(chat, cat, "walrus", path=path)
        assert answer.status == 200 and sorted(r["message"]["id"] for r in answer.json["results"]) == sorted([in_b, also_b])
        refused = search(chat, ann, "walrus", path=path)
        assert refused.status == 403 and refused.error_code == "not_member", refused
    refused = search(chat, ann, "walrus", room=room_b)
    assert refused.status == 403 and refused.error_code == "not_member", refused
    missing = search(chat, ann, "walrus", room=unique("nowhere"))
    assert missing.status == 404 and missing.error_code == "room_not_found", missing

    # No credentials, the app's own credentials, and a same-named user of another app.
    assert search(chat, None, "walrus").status == 401
    as_app = chat.request("GET", "/v1/search?q=walrus", auth=APP)
    assert as_app.status == 403 and as_app.error_code == "user_token_required", as_app
    create_user(chat, APP_B, cat)
    assert found(chat, cat, "walrus", app=APP_B) == []
    elsewhere = search(chat, cat, "walrus", app=APP_B, room=room_a)
    assert elsewhere.status == 404 and elsewhere.error_code == "room_not_found", elsewhere


def test_the_message_is_the_one_history_returns(chat):
    ann, = users(chat, "ann")
    room_id = room(chat, ann)
    sent = send(chat, room_id, ann, "Reaction check: pelican")
    assert chat.request("PUT", f"/v1/rooms/{room_id}/messages/{sent['id']}/reactions/{quote('🎉')}",
                        token=mint(APP_A, ann)).status in (200, 201)
    history = chat.ok("GET", f"/v1/rooms/{room_id}/messages", token=mint(APP_A, ann))["messages"]
    result, = search(chat, ann, "pelican").json["results"]
    assert result["message"] == history[-1]
    assert isinstance(result["score"], (int, float))


def test_a_removed_member_stops_finding_the_room_at_once(chat):
    owner, ann, ben, dan = users(chat, "owner", "ann", "ben", "dan")
    room_id = room(chat, owner, ann, ben, dan, kind="public")
    sent = send(chat, room_id, owner, "quarterly numbers for the otter project")["id"]
    for user in (ann, ben, dan):
        assert found(chat, user, "otter") == [sent]

    chat.ok("DELETE", f"/v1/rooms/{room_id}/members/{ann}", auth=APP)
    chat.ok("POST", f"/v1/rooms/{room_id}/kicks", auth=APP, json_body={"user_id": ben})
    chat.ok("POST", f"/v1/rooms/{room_id}/leave", token=mint(APP_A, dan))
    for user in (ann, ben, dan):
        assert found(chat, user, "otter") == [], f"{user} still finds the room"
        refused = search(chat, user, "otter", path=f"/v1/rooms/{room_id}/search")
        assert refused.status == 403 and refused.error_code == "not_member", refused
    assert found(chat, owner, "otter") == [sent]

    # Joining again finds it again: membership is checked at the time of the search.
    chat.ok("POST", f"/v1/rooms/{room_id}/join", token=mint(APP_A, dan))
    assert found(chat, dan, "otter") == [sent]


def test_edits_deletes_and_moderator_deletes_change_what_is_found(chat):
    owner, mod, ann = users(chat, "owner", "mod", "ann")
    room_id = room(chat, owner, mod, ann)
    chat.ok("PATCH", f"/v1/rooms/{room_id}/members/{mod}", auth=APP, json_body={"role": "moderator"})
    edited = send(chat, room_id, ann, "apple banana")["id"]
    own = send(chat, room_id, ann, "apple pie")["id"]
    moderated = send(chat, room_id, ann, "apple crumble")["id"]
    assert sorted(found(chat, owner, "apple")) == sorted([edited, own, moderated])

    chat.ok("PATCH", f"/v1/rooms/{room_id}/messages/{edited}", token=mint(APP_A, ann),
            json_body={"parts": [{"type": "text", "text": "cherry banana"}]})
    assert edited not in found(chat, owner, "apple"), "the old text is still found"
    result, = search(chat, owner, "cherry").json["results"]
    assert result["message"]["id"] == edited and result["message"]["parts"][0]["text"] == "cherry banana"
    assert result["message"]["edited_at"] is not None
    assert found(chat, owner, "banana") == [edited]

    chat.ok("DELETE", f"/v1/rooms/{room_id}/messages/{own}", token=mint(APP_A, ann))
    chat.ok("DELETE", f"/v1/rooms/{room_id}/messages/{moderated}", token=mint(APP_A, mod))
    for user in (owner, mod, ann):
        assert found(chat, user, "apple") == []
        assert found(chat, user, "pie") == [] and found(chat, user, "crumble") == []


def test_messages_of_blocked_users_are_not_found(chat):
    ann, ben, cy = users(chat, "ann", "ben", "cy")
    room_id = room(chat, cy, ann, ben)
    from_ben = send(chat, room_id, ben, "llama llama")["id"]
    from_cy = send(chat, room_id, cy, "llama")["id"]
    assert chat.request("PUT", f"/v1/me/blocks/{ben}", token=mint(APP_A, ann)).status == 201
    assert found(chat, ann, "llama") == [from_cy]
    assert found(chat, ann, "llama", path=f"/v1/rooms/{room_id}/search") == [from_cy]
    assert sorted(found(chat, cy, "llama")) == sorted([from_ben, from_cy]), "only the blocker's view is filtered"
    assert chat.request("DELETE", f"/v1/me/blocks/{ben}", token=mint(APP_A, ann)).status == 204
    assert sorted(found(chat, ann, "llama")) == sorted([from_ben, from_cy])


def test_accents_ideographs_and_emoji_are_words_with_utf16_highlights(chat):
    ann, = users(chat, "ann")
    room_id = room(chat, ann)
    text = "😀 Café crème à ZÜRICH, naïve 👍🏽 東京 Cafe\u0301 🎉"
    sent = send(chat, room_id, ann, text)["id"]
    other = send(chat, room_id, ann, "plain cafe")["id"]

    def only(q):
        results = search(chat, ann, q).json["results"]
        assert [r["message"]["id"] for r in results] == [sent], (q, results)
        return marked(results[0])

    assert sorted(found(chat, ann, "CAFÉ")) == sorted([sent, other])
    assert marked(next(r for r in search(chat, ann, "cafe ").json["results"] if r["message"]["id"] == sent)) == \
        ["Café", "Cafe\u0301"]
    assert only("zurich") == ["ZÜRICH"]
    assert only("NAIVE creme") == ["crème", "naïve"]
    assert only("👍") == ["👍"]
    assert only("👍🏿") == ["👍"], "skin tones are not part of the word"
    assert only("京") == ["京"]
    assert only("東京") == ["東", "京"]
    assert only("🎉 😀") == ["😀", "🎉"]
    assert found(chat, ann, "🚀") == []
    assert found(chat, ann, "東京 rocket") == [], "every word must match"


def test_the_last_word_is_a_prefix_while_it_is_typed(chat):
    ann, = users(chat, "ann")
    room_id = room(chat, ann)
    sent = send(chat, room_id, ann, "Hello helicopter, help!")["id"]
    result, = search(chat, ann, "hel").json["results"]
    assert result["message"]["id"] == sent and marked(result) == ["Hello", "helicopter", "help"]
    assert found(chat, ann, "hel ") == [], "a trailing space asks for the whole word"
    assert found(chat, ann, "he") == [], "two characters are no prefix"
    result, = search(chat, ann, "help heli").json["results"]
    assert marked(result) == ["helicopter", "help"]
    assert found(chat, ann, "heli help") == [], "only the last word is a prefix"


def test_paging_ranks_the_newest_200_matches(chat):
    ann, *senders = users(chat, "ann", "s1", "s2", "s3", "s4", "s5", "s6")
    room_id = room(chat, ann, *senders)
    # Spread over six senders: each stays within the per-user send burst.
    ids = [send(chat, room_id, senders[n % 6], f"kiwi number {n}")["id"] for n in range(205)]
    best = send(chat, room_id, ann, "kiwi kiwi kiwi")["id"]

    pages, offset = [], 0
    while offset is not None:
        page = search(chat, ann, "kiwi", limit=30, offset=offset).json
        assert len(page["results"]) == 30 or page["next_offset"] is None
        pages.append(page)
        offset = page["next_offset"]
    assert [p["next_offset"] for p in pages] == [30, 60, 90, 120, 150, 180, None]
    results = [r for p in pages for r in p["results"]]
    assert len(results) == 200
    seen = [r["message"]["id"] for r in results]
    assert set(seen) == set(ids[-199:] + [best]), "the candidates are the newest 200 matches"
    assert seen[0] == best, "the message with the word three times ranks first"
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)
    assert search(chat, ann, "kiwi", offset=200).json == {"results": [], "next_offset": None}
    # The default page, and the room forms with the same paging.
    assert len(search(chat, ann, "kiwi").json["results"]) == 20
    room_page = search(chat, ann, "kiwi", path=f"/v1/rooms/{room_id}/messages", limit=5, offset=5).json
    assert [r["message"]["id"] for r in room_page["results"]] == seen[5:10] and room_page["next_offset"] == 10


def test_bad_queries_are_refused_and_the_server_stays_up(chat):
    ann, = users(chat, "ann")
    room_id = room(chat, ann)
    send(chat, room_id, ann, "still searchable afterwards")
    bad = [
        "/v1/search", "/v1/search?q=", "/v1/search?q=%20%20", "/v1/search?q=" + "a" * 300,
        "/v1/search?q=" + quote("one two three four five six seven eight nine"),
        "/v1/search?q=" + quote("?!… --- ..."), "/v1/search?q=ok&limit=0", "/v1/search?q=ok&limit=51",
        "/v1/search?q=ok&limit=x", "/v1/search?q=ok&offset=-1", "/v1/search?q=ok&offset=201", "/v1/search?q=ok&room=",
        f"/v1/rooms/{room_id}/search", f"/v1/rooms/{room_id}/search?q=ok&limit=51",
        f"/v1/rooms/{room_id}/messages?q=", f"/v1/rooms/{room_id}/messages?q=ok&before=3",
        f"/v1/rooms/{room_id}/messages?offset=1",
    ]
    for path in bad:
        refused = chat.request("GET", path, token=mint(APP_A, ann))
        assert refused.status == 400 and refused.error_code == "invalid_parameter", (path, refused)
    assert chat.request("GET", "/healthz").status == 200
    assert len(found(chat, ann, "searchable")) == 1
    # At the limits, accepted.
    assert search(chat, ann, "a" * 256).status == 200
    assert search(chat, ann, "one two three four five six seven eight").status == 200
    assert search(chat, ann, "ok", limit=50, offset=200).status == 200
    # Without q the messages route is history as before.
    history = chat.ok("GET", f"/v1/rooms/{room_id}/messages", token=mint(APP_A, ann))
    assert set(history) == {"messages", "has_more"}


def test_file_names_are_searched_and_links_are_not(chat):
    ann, = users(chat, "ann")
    room_id = room(chat, ann)
    name = "Budget Été 2026.txt"
    uploaded = chat.request("POST", f"/v1/rooms/{room_id}/attachments?name={quote(name, safe='')}",
                            token=mint(APP_A, ann), body=b"numbers\n", headers={"Content-Type": "text/plain"})
    assert uploaded.status == 201, uploaded
    sent = chat.ok("POST", f"/v1/rooms/{room_id}/messages", token=mint(APP_A, ann), json_body={"parts": [
        {"type": "url", "url": "https://example.com/budget"},
        {"type": "text", "text": "the budget, see the file"},
        {"type": "file", "attachment_id": uploaded.json["id"]}]})["id"]
    result, = search(chat, ann, "ete budget").json["results"]
    assert result["message"]["id"] == sent
    assert [(h["part"], text) for h, text in zip(result["highlights"], marked(result))] == \
        [(1, "budget"), (2, "Budget"), (2, "Été")]
    assert found(chat, ann, "example") == [], "a link's words are not searched"
