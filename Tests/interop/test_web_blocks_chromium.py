"""User blocks in Parley Web, in real (headless) Chromium against `parley serve --dev`: Alice
blocks Bob from his message's actions; his message goes from her page, and what he does live
(a message from his browser, typing and a reaction over REST) never shows there, while Carol's
message and typing, sent after his, do. Unblocking him (the Blocked dialog) shows his messages
again, the one sent while he was blocked too. The server keeps the list (GET /v1/me/blocks)."""
import shutil
import urllib.parse

import pytest

from chat_support import ChatServer
from conftest import free_port
from web_support import Browser, create_room, message_texts, open_room, send, wait_for_message


@pytest.fixture
def server():
    running = ChatServer(dev=True, extra_args=["--port", str(free_port())]).start()
    yield running
    running.stop()
    shutil.rmtree(running.work, ignore_errors=True)


@pytest.fixture
def browser(server):
    session = Browser(f"http://127.0.0.1:{server.port}/")
    yield session
    session.close()


def dev_token(server, user_id, name):
    server.ok("POST", "/v1/dev/users", json_body={"name": name, "id": user_id})
    return server.ok("POST", "/v1/dev/token", json_body={"user_id": user_id})["token"]


def test_a_blocked_users_live_events_are_hidden_until_unblocked(server, browser):
    carol = dev_token(server, "carol", "Carol")
    bob_token = dev_token(server, "bob", "Bob")
    alice = browser.user("Alice")
    bob = browser.user("Bob")
    create_room(alice, "general", invite=["bob", "carol"])
    room = urllib.parse.unquote(alice.evaluate("location.hash").removeprefix("#room="))
    send(alice, "hello all")
    wait_for_message(alice, "hello all", own=True)
    mine = server.ok("GET", f"/v1/rooms/{room}/messages", token=carol)["messages"][-1]["id"]
    bob.wait_for_selector("#rooms .room-name:text-is('general')")
    open_room(bob, "general")
    send(bob, "before the block")
    wait_for_message(alice, "before the block", own=False)

    alice.hover("#messages .msg:not(.own) .bubble")
    alice.click("#messages .msg:not(.own) .tools button:text-is('Block')")
    alice.wait_for_function("() => ![...document.querySelectorAll('#messages .body')].some(n => n.textContent === 'before the block')")
    alice.wait_for_selector("#blocked-users:not([hidden])")
    assert server.ok("GET", "/v1/me/blocks", token=dev_token(server, "alice", "Alice"))["user_ids"] == ["bob"]

    # Bob types, reacts and writes; then Carol types and writes. Alice sees only Carol.
    server.ok("POST", f"/v1/rooms/{room}/typing", token=bob_token, json_body={})
    server.ok("POST", f"/v1/rooms/{room}/typing", token=carol, json_body={})
    alice.wait_for_selector("#typing:text-is('Carol is typing…')")
    server.ok("PUT", f"/v1/rooms/{room}/messages/{mine}/reactions/{urllib.parse.quote('👎')}", token=bob_token)
    send(bob, "while blocked")
    wait_for_message(bob, "while blocked", own=True)
    server.ok("POST", f"/v1/rooms/{room}/messages", token=carol, json_body={"parts": [{"type": "text", "text": "carol here"}]})
    wait_for_message(alice, "carol here", own=False)
    assert message_texts(alice) == ["hello all", "carol here"]
    assert alice.locator("#messages .msg.own .chip").count() == 0, "bob's reaction is not shown"

    # Unblocked: his messages are back, the one from while he was blocked too, and new ones show.
    alice.click("#blocked-users")
    alice.fill("#dialog-input", "bob")
    alice.click("#dialog-ok")
    wait_for_message(alice, "while blocked", own=False)
    assert message_texts(alice) == ["hello all", "before the block", "while blocked", "carol here"]
    alice.wait_for_selector("#blocked-users", state="hidden")
    send(bob, "after the unblock")
    wait_for_message(alice, "after the unblock", own=False)
    browser.console.assert_clean()
