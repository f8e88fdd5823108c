"""Threads and mentions in Parley Web, in real (headless) Chromium against `parley serve --dev`:
Bob opens the thread of Alice's message and replies there; Alice's conversation shows the
root's reply count and last replier live (from `thread.updated`) but not the thread-only reply;
opening the thread shows root and replies and takes Alice's reply live on Bob's side; a
mention of Bob is marked as his in his page, counted on his room list until he reads it."""
import shutil

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


def thread_texts(page):
    return page.eval_on_selector_all("#thread-messages .msg .body", "nodes => nodes.map(n => n.textContent)")


def test_threads_and_mentions_in_two_browsers(server, browser):
    alice = browser.user("Alice")
    bob = browser.user("Bob")
    create_room(alice, "general", invite=["bob"])
    bob.wait_for_selector("#rooms .room-name:text-is('general')")
    send(alice, "lunch today?")
    open_room(bob, "general")
    wait_for_message(bob, "lunch today?", own=False)

    # Bob replies in the thread of Alice's message (the Reply action opens it).
    bob.hover("#messages .msg:not(.own) .bubble")
    bob.click("#messages .msg:not(.own) .tools button:text-is('Reply')")
    bob.wait_for_selector("#thread:not([hidden]) #thread-root .text:text-is('lunch today?')")
    assert bob.text_content("#thread-count") == "0 replies"
    bob.fill("#thread-text", "pizza at noon")
    bob.press("#thread-text", "Enter")
    bob.wait_for_function("() => document.querySelector('#thread-count').textContent === '1 reply'")
    assert thread_texts(bob) == ["pizza at noon"]

    # Alice sees the count under her message, live; the thread-only reply is not in the room.
    alice.wait_for_selector("#messages .msg.own .replies:text-is('1 reply · Bob')")
    assert message_texts(alice) == ["lunch today?"]
    alice.click("#messages .msg.own .replies")
    alice.wait_for_selector("#thread:not([hidden]) #thread-messages .text:text-is('pizza at noon')")
    alice.fill("#thread-text", "sounds good")
    alice.press("#thread-text", "Enter")
    bob.wait_for_function("() => document.querySelector('#thread-count').textContent === '2 replies'")
    bob.wait_for_selector("#thread-messages .text:text-is('sounds good')")
    assert thread_texts(bob) == ["pizza at noon", "sounds good"]
    alice.wait_for_selector("#messages .msg.own .replies:text-is('2 replies · Alice, Bob')")
    alice.press("#thread-text", "Escape")
    alice.wait_for_selector("#thread", state="hidden")

    # A mention of Bob: his room list counts it while he is elsewhere, his page marks it as his.
    bob.click("#thread-close")
    bob.wait_for_selector("#thread", state="hidden")
    create_room(bob, "elsewhere")
    send(alice, "@bob see you there")
    bob.wait_for_selector("#rooms button:has(.room-name:text-is('general')) .badge.mentions:text-is('@1')")
    open_room(bob, "general")
    wait_for_message(bob, "@bob see you there", own=False)
    mention = bob.locator("#messages .msg:not(.own) .mention.me")
    assert mention.text_content() == "@bob"
    assert alice.locator("#messages .msg.own .mention:not(.me)").text_content() == "@bob"
    bob.wait_for_selector("#rooms button:has(.room-name:text-is('general')) .badge.mentions", state="detached")
    browser.console.assert_clean()
