"""Data rights through the REST API on both engines: a user's export (paged, with signed
attachment URLs), erasure in both modes with a live signed-in Pusher connection that is cut
off at once, the old token refused, idempotent repeats, and the app-level audit log."""

import pytest

from chat_support import APP_A, basic, create_user, mint, two_engine_chat_fixture, unique

REVOKED = "parley:subscription_revoked"


chat = two_engine_chat_fixture()


def populate(chat, messages=5):
    alice, bob = unique("alice"), unique("bob")
    for user in (alice, bob):
        create_user(chat, APP_A, user)
    room = chat.ok("POST", "/v1/rooms", token=mint(APP_A, alice), json_body={"kind": "private", "member_ids": [bob]})["id"]
    sent = [chat.ok("POST", f"/v1/rooms/{room}/messages", token=mint(APP_A, alice),
                    json_body={"parts": [{"type": "text", "text": f"alice says {i}"}]}) for i in range(messages)]
    chat.ok("PUT", f"/v1/rooms/{room}/messages/{sent[0]['id']}/reactions/%F0%9F%8E%89", token=mint(APP_A, alice))
    upload = chat.request("POST", f"/v1/rooms/{room}/attachments?name=notes.txt", token=mint(APP_A, alice),
                          body=b"private notes", headers={"Content-Type": "text/plain"})
    assert upload.status == 201, upload
    return alice, bob, room, sent, upload.json


def audit_entries(chat):
    entries, after = [], 0
    while True:
        page = chat.ok("GET", f"/v1/audit?after={after}&limit=50", auth=basic(APP_A))
        entries += page["entries"]
        if page["next_after"] is None:
            return entries
        after = page["next_after"]


def test_export_pages_through_everything_the_user_wrote(chat):
    alice, bob, room, sent, attachment = populate(chat)
    assert chat.request("GET", f"/v1/users/{alice}/export", token=mint(APP_A, bob)).error_code == "not_self"
    first = chat.ok("GET", f"/v1/users/{alice}/export?limit=2", token=mint(APP_A, alice))
    assert first["profile"]["id"] == alice
    assert [m["room_id"] for m in first["memberships"]] == [room]
    assert first["read_cursors"][0]["seq"] == sent[-1]["seq"]
    assert first["reactions"] == [{"room_id": room, "seq": sent[0]["seq"], "emoji": "🎉",
                                   "created_at": first["reactions"][0]["created_at"]}]
    assert first["attachments"][0]["id"] == attachment["id"]
    assert chat.request("GET", first["attachments"][0]["download_url"]).body == b"private notes"
    texts = [m["parts"][0]["text"] for m in first["messages"]]
    after = first["next_after"]
    while after is not None:
        page = chat.ok("GET", f"/v1/users/{alice}/export?limit=2&after={after}", auth=basic(APP_A))
        assert "profile" not in page
        texts += [m["parts"][0]["text"] for m in page["messages"]]
        after = page["next_after"]
    assert texts == [f"alice says {i}" for i in range(5)]
    exports = [e for e in audit_entries(chat) if e["target"] == alice]
    assert [(e["action"], e["actor"]) for e in exports] == [("user.export", f"user:{alice}")]


@pytest.mark.parametrize("mode", ["delete", "anonymise"])
def test_erase_cuts_access_at_once_and_is_idempotent(chat, mode):
    alice, bob, room, sent, attachment = populate(chat, messages=3)
    token = mint(APP_A, alice)
    socket = chat.realtime(token, sign_in=True).join(f"private-room-{room}")
    watcher = chat.realtime(mint(APP_A, bob)).join(f"private-room-{room}")
    try:
        assert chat.request("POST", f"/v1/users/{alice}/erase", token=token, json_body={"mode": mode}).error_code \
            == "app_credentials_required"
        erased = chat.ok("POST", f"/v1/users/{alice}/erase", auth=basic(APP_A), json_body={"mode": mode})
        assert (erased["mode"], erased["messages"], erased["reactions"], erased["user_removed"]) == (mode, 3, 1, True)
        assert socket.event(REVOKED, f"private-room-{room}") == {"channel": f"private-room-{room}", "reason": "user_deleted"}
        assert socket.expect("pusher:error", timeout=5)["data"]["code"] == 4009
        assert watcher.event("member.left", f"private-room-{room}")["user_id"] == alice
    finally:
        socket.close()
        watcher.close()
    assert chat.request("GET", "/v1/me", token=token).error_code == "token_revoked"
    history = chat.ok("GET", f"/v1/rooms/{room}/messages", token=mint(APP_A, bob))["messages"]
    assert alice.encode() not in json_bytes(history)
    assert {m["sender_id"] for m in history} == {"~erased"}
    if mode == "delete":
        assert all(m["parts"] == [] and m["deleted_at"] is not None for m in history)
        assert chat.request("GET", f"/v1/attachments/{attachment['id']}", token=mint(APP_A, bob)).error_code \
            == "attachment_not_found"
    else:
        assert [m["parts"][0]["text"] for m in history] == [f"alice says {i}" for i in range(3)]
        kept = chat.ok("GET", f"/v1/attachments/{attachment['id']}", token=mint(APP_A, bob))
        assert kept["uploader_id"] == "~erased"
    again = chat.ok("POST", f"/v1/users/{alice}/erase", auth=basic(APP_A), json_body={"mode": mode})
    assert (again["messages"], again["reactions"], again["user_removed"]) == (0, 0, False)
    erasures = [e for e in audit_entries(chat) if e["target"] == alice]
    assert [(e["action"], e["actor"], e["detail"]["mode"]) for e in erasures] == [("user.erase", "app", mode)] * 2
    assert chat.request("GET", "/v1/audit", token=mint(APP_A, bob)).error_code == "app_credentials_required"


def json_bytes(value):
    import json
    return json.dumps(value, ensure_ascii=False).encode()
