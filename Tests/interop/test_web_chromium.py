"""Parley Web, the browser client `parley serve` serves at `/`, in real (headless) Chromium.

Two browser contexts chat live (typing, seen marks, reactions, edits, deletes) with a third
user in `parley chat` inside tmux; an image keeps its aspect ratio before and after it loads
and a non-image is refused readably; messages written offline are delivered exactly once and
in order (also when a response is lost), and the page reconnects by itself after a server
restart; XSS payloads stay inert under the page's CSP; screenshots at desktop and 360 px.
Every test ends with no console error the test did not provoke on purpose."""
import io
import os
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest

from chat_support import ChatServer
from conftest import free_port
from web_support import Browser, create_room, message_texts, open_room, send, wait_for_message

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("PARLEY_WEB_SCREENSHOTS", ROOT / ".build" / "web-screenshots"))


@pytest.fixture
def server():
    """`parley serve --dev` on a fixed free port, so a restarted server has the page's origin."""
    running = ChatServer(dev=True, extra_args=["--port", str(free_port())]).start()
    yield running
    running.stop()
    shutil.rmtree(running.work, ignore_errors=True)


@pytest.fixture
def browser(server):
    session = Browser(f"http://127.0.0.1:{server.port}/")
    yield session
    session.close()


def png(width, height, color=(59, 91, 219)):
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, "PNG")
    return buffer.getvalue()


def settle(page):
    """No hover or focus left on a message, so its action bar is not in the picture."""
    page.mouse.move(0, page.viewport_size["height"] - 1)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")


def test_two_browsers_and_a_terminal_chat_live(server, browser):
    from test_chat_tui import Tmux
    from conftest import binary
    tmux = Tmux()
    try:
        # Carol uses the terminal client; signing in creates her user.
        tmux.type("alice", f"{binary('parley')} chat --dev --name carol --server http://127.0.0.1:{server.port}")
        tmux.wait_text("alice", "parley · carol · rooms")

        alice = browser.user("Alice")
        bob = browser.user("Bob")
        create_room(alice, "general", invite=["bob", "carol"])
        bob.wait_for_selector("#rooms .room-name:text-is('general')")

        send(alice, "Hello Bob, see https://example.org/docs.")
        # Bob's list shows the room with an unread badge, and the tab title counts it.
        bob.wait_for_selector("#rooms button:has(.room-name:text-is('general')) .badge:text-is('1')")
        assert bob.title() == "(1) Parley"
        link = alice.locator("#messages .msg.own a")
        assert link.get_attribute("href") == "https://example.org/docs"
        assert "noopener" in link.get_attribute("rel")

        open_room(bob, "general")
        wait_for_message(bob, "Hello Bob, see https://example.org/docs.", own=False)
        bob.wait_for_function("() => document.title === 'Parley'")
        # Bob read it: Alice's message is marked seen.
        alice.wait_for_selector("#messages .msg.own .status.seen")

        # Typing shows on the other side.
        bob.type("#text", "hi Alice")
        alice.wait_for_selector("#typing:text-is('Bob is typing…')")
        bob.press("#text", "Enter")
        wait_for_message(alice, "hi Alice", own=False)
        alice.wait_for_selector("#typing:text-is('')", state="attached")

        # Shift+Enter breaks the line; Enter sends both lines as one message.
        alice.fill("#text", "line one")
        alice.press("#text", "Shift+Enter")
        alice.type("#text", "line two")
        alice.press("#text", "Enter")
        wait_for_message(bob, "line one\nline two", own=False)

        # A reaction from Bob shows on Alice's message.
        bob_first = bob.locator("#messages .msg:not(.own)").first
        bob_first.locator(".bubble").click()
        bob_first.get_by_role("button", name="React 👍").click()
        alice.wait_for_selector("#messages .msg.own .chip:text-is('👍 1')")

        # Alice edits, then deletes, her first message; Bob sees both.
        first = alice.locator("#messages .msg.own").first
        first.locator(".bubble").click()
        first.get_by_role("button", name="Edit").click()
        alice.fill("#text", "Hello Bob (edited text)")
        alice.press("#text", "Enter")
        wait_for_message(bob, "Hello Bob (edited text)", own=False)
        bob.wait_for_selector("#messages .msg:not(.own) .edited")
        first = alice.locator("#messages .msg.own").first
        first.locator(".bubble").click()
        delete = first.get_by_role("button", name="Delete")
        delete.click()
        first.get_by_role("button", name="Delete?").click()
        wait_for_message(bob, "This message was deleted.", own=False)

        # Carol, in the terminal, sees the same conversation and answers it.
        tmux.wait_text("alice", "general")
        tmux.keys("alice", "Enter")
        tmux.wait_text("alice", "parley · carol · general", "hi Alice", "line two")
        tmux.type("alice", "hello from the terminal")
        wait_for_message(alice, "hello from the terminal", own=False)
        wait_for_message(bob, "hello from the terminal", own=False)
        assert message_texts(bob) == message_texts(alice)
        tmux.type("alice", "/quit")
    finally:
        tmux.close()
    browser.console.assert_clean()


def test_an_image_keeps_its_aspect_ratio_and_a_non_image_is_a_download(server, browser, tmp_path):
    alice = browser.user("Alice")
    bob = browser.user("Bob")
    create_room(alice, "photos", invite=["bob"])
    bob.wait_for_selector("#rooms .room-name:text-is('photos')")
    open_room(bob, "photos")

    # Hold Bob's image download so the box can be measured before the image has loaded.
    held = []
    bob.route("**/v1/attachments/*/content*", lambda route: held.append(route))
    wide = tmp_path / "wide.png"
    wide.write_bytes(png(400, 100))
    alice.set_input_files("#file", str(wide))
    image = bob.locator("#messages .msg:not(.own) figure.image img")
    image.wait_for()
    bob.wait_for_function("() => document.querySelector('#messages figure.image img') !== null")
    assert held, "the image request should be held"
    before = image.bounding_box()
    assert image.evaluate("img => img.naturalWidth") == 0, "the image should not have loaded yet"
    assert before["width"] / before["height"] == pytest.approx(4.0, rel=0.02)
    row_before = bob.locator("#messages .msg:not(.own)").last.bounding_box()
    for route in held:
        route.continue_()
    bob.wait_for_function("() => { const i = document.querySelector('#messages figure.image img'); return i && i.complete && i.naturalWidth > 0; }")
    after = image.bounding_box()
    assert image.evaluate("img => [img.naturalWidth, img.naturalHeight]") == [400, 100]
    assert after["width"] / after["height"] == pytest.approx(4.0, rel=0.02)
    assert (after["width"], after["height"]) == (before["width"], before["height"]), "the image box moved when it loaded"
    assert bob.locator("#messages .msg:not(.own)").last.bounding_box() == row_before
    # The sender's own copy has the same shape.
    own = alice.locator("#messages .msg.own figure.image img")
    own.wait_for()
    box = own.bounding_box()
    assert box["width"] / box["height"] == pytest.approx(4.0, rel=0.02)

    # A file that is not an image is sent as a download link (test_web_files_chromium.py has more).
    notes = tmp_path / "notes.txt"
    notes.write_text("just text")
    alice.set_input_files("#file", str(notes))
    bob.wait_for_selector("#messages .msg:not(.own) .file a.download:has-text('notes.txt')")
    # One that claims to be a PNG but is HTML is refused by the server; the page says why.
    fake = tmp_path / "fake.png"
    fake.write_text("<html><script>alert(1)</script></html>")
    with browser.console.expecting(r"Failed to load resource: the server responded with a status of 422"):
        alice.set_input_files("#file", str(fake))
        alice.wait_for_selector("#composer-error:has-text('Could not send “fake.png”')")
    assert "image" in alice.text_content("#composer-error").lower() or "type" in alice.text_content("#composer-error").lower()
    assert alice.locator("#messages .msg figure.image").count() == 1
    browser.console.assert_clean()


def test_offline_messages_arrive_exactly_once_in_order_and_the_page_survives_a_restart(server, browser):
    alice = browser.user("Alice")
    bob = browser.user("Bob")
    create_room(alice, "outbox", invite=["bob"])
    bob.wait_for_selector("#rooms .room-name:text-is('outbox')")
    open_room(bob, "outbox")
    send(alice, "before")
    wait_for_message(bob, "before")

    # Alice loses the network and writes three messages.
    alice.context.set_offline(True)
    alice.wait_for_selector("#banner:has-text('You are offline')")
    for text in ("one", "two", "three"):
        send(alice, text)
    alice.wait_for_selector("#messages .msg.pending >> nth=2")
    assert alice.locator("#messages .msg.pending .status").all_text_contents() == ["waiting to send"] * 3
    alice.wait_for_selector("#banner:has-text('3 messages waiting to be sent')")

    # The answer to the first send is lost after the server stored it: the page must resend
    # with the same client_id and get the original back, not a copy.
    lost = []

    def lose_first_answer(route):
        if not lost and "one" in (route.request.post_data or ""):
            lost.append(route.fetch().status)
            route.abort()
        else:
            route.continue_()

    alice.route("**/v1/rooms/*/messages", lose_first_answer)
    with browser.console.expecting(r"Failed to load resource: net::ERR_FAILED"):
        alice.context.set_offline(False)
        for page in (alice, bob):
            wait_for_message(page, "three")
    assert lost == [201]
    expected = ["before", "one", "two", "three"]
    assert message_texts(alice) == expected
    assert message_texts(bob) == expected
    alice.wait_for_selector("#banner", state="hidden")
    alice.unroute("**/v1/rooms/*/messages")

    # The server restarts; both pages reconnect by themselves and the chat goes on live.
    with browser.console.expecting(r"WebSocket connection to .* failed", r"Failed to load resource: net::ERR_CONNECTION_REFUSED"):
        server.stop()
        alice.wait_for_selector("#banner:has-text('Reconnecting')")
        server.start()
        for page in (alice, bob):
            page.wait_for_selector("body[data-connection='connected']", timeout=30000)
    send(bob, "after the restart")
    wait_for_message(alice, "after the restart", own=False)
    assert message_texts(alice) == expected + ["after the restart"]
    browser.console.assert_clean()


XSS_NAME = "<img src=x onerror=window.__xss=1>"
XSS_ROOM = "<img src=x onerror=window.__xss=2><script>window.__xss=3</script>"
XSS_TEXT = '<img src=x onerror="window.__xss=4"> javascript:window.__xss=5 <a href="javascript:window.__xss=6">x</a>'
XSS_REACTION = "<img src=x onerror=window.__xss=7>"


def test_xss_payloads_stay_inert_under_a_strict_csp(server, browser):
    page_answer = server.request("GET", "/")
    policy = page_answer.headers.get("Content-Security-Policy", "")
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy and "unsafe-inline" not in policy, policy

    mallory = browser.user(XSS_NAME)
    bob = browser.user("Bob")
    create_room(mallory, XSS_ROOM, invite=["bob"])
    send(mallory, XSS_TEXT)
    wait_for_message(mallory, XSS_TEXT, own=True)
    message = mallory.locator("#messages .msg.own").last
    message.locator(".bubble").click()
    message.get_by_role("button", name="React 👍").click()
    mallory.wait_for_selector("#messages .chip:text-is('👍 1')")
    # A reaction with markup for an emoji, and a javascript: URL part, straight at the API.
    room = mallory.evaluate("() => decodeURIComponent(location.hash.slice(6))")
    from chat_support import mint
    dev_app = {"id": "1", "secret": "dev-secret"}
    user_token = mint(dev_app, "img-src-x-onerror-window-xss-1")
    seq_message = server.ok("GET", f"/v1/rooms/{room}/messages", token=user_token)["messages"][-1]
    server.ok("PUT", f"/v1/rooms/{room}/messages/{seq_message['id']}/reactions/{quote(XSS_REACTION, safe='')}", token=user_token)
    refused = server.request("POST", f"/v1/rooms/{room}/messages", token=user_token,
                             json_body={"parts": [{"type": "url", "url": "javascript:window.__xss=8"}]})
    assert refused.status == 422

    bob.wait_for_selector("#rooms .badge")
    bob.click("#rooms button")
    bob.wait_for_selector(f"#messages .chip:text-is({(XSS_REACTION + ' 1')!r})")
    for page in (mallory, bob):
        assert page.evaluate("window.__xss") is None
        assert page.locator("img[src='x'], script:not([src])").count() == 0
        assert page.locator("a[href^='javascript']").count() == 0
        assert page.text_content("#room-title") == XSS_ROOM
        assert XSS_TEXT in page.locator("#messages .body").all_text_contents()
    assert bob.locator(f"#messages .sender:text-is({XSS_NAME!r})").count() == 1
    # Inline script is refused by the policy even when injected from the page itself.
    with browser.console.expecting(r"(Executing|Refused to execute) inline script"):
        bob.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.body.append(s); }")
        bob.wait_for_timeout(100)
    assert bob.evaluate("window.__inline") is None
    browser.console.assert_clean()


def test_screenshots_at_desktop_and_phone_width(server, browser):
    from PIL import Image
    alice = browser.user("Alice", width=1280, height=800)
    bob = browser.user("Bob")
    create_room(alice, "design review", invite=["bob"])
    bob.wait_for_selector("#rooms .room-name:text-is('design review')")
    open_room(bob, "design review")
    send(alice, "Morning! The new layout is up on staging: https://staging.example.com/chat")
    wait_for_message(bob, "Morning! The new layout is up on staging: https://staging.example.com/chat")
    send(bob, "Looks great. The room list reads much better.")
    wait_for_message(alice, "Looks great. The room list reads much better.")
    screenshot = SCREENSHOTS / "wide.png"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    wide_image = SCREENSHOTS / "wide-image.png"
    wide_image.write_bytes(png(480, 270, (230, 119, 0)))
    alice.set_input_files("#file", str(wide_image))
    bob.locator("#messages .msg:not(.own) figure.image img").wait_for()
    send(bob, "👍 shipping it")
    wait_for_message(alice, "👍 shipping it", own=False)
    alice.wait_for_function("() => [...document.querySelectorAll('#messages img')].every(i => i.complete && i.naturalWidth > 0)")
    alice.wait_for_selector("#messages .msg.own .status.seen")
    settle(alice)
    alice.screenshot(path=str(screenshot))

    phone = browser.page("Alice on a phone", width=360, height=740)
    phone.goto(browser.base_url)
    from web_support import sign_in
    sign_in(phone, "Alice")
    open_room(phone, "design review")
    phone.wait_for_function("() => [...document.querySelectorAll('#messages img')].every(i => i.complete && i.naturalWidth > 0)")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360, "the page scrolls sideways at 360 px"
    assert phone.locator("#sidebar").is_hidden() and phone.locator("#composer").is_visible()
    narrow = SCREENSHOTS / "narrow.png"
    settle(phone)
    phone.screenshot(path=str(narrow))
    with Image.open(screenshot) as shot:
        assert shot.size == (1280, 800)
    with Image.open(narrow) as shot:
        assert shot.size == (360, 740)
    browser.console.assert_clean()


def test_with_a_config_the_page_gets_tokens_from_the_app_backend():
    """No dev endpoints: the page asks the example TokenBackend (another origin, allowed by
    CORS there and by the page's CSP here) for the user's token, then chats as usual."""
    from chat_support import APP_A
    from conftest import start_binary
    from test_chat_tui import BACKEND_LINE
    port, backend_port = free_port(), free_port()
    backend_url = f"http://127.0.0.1:{backend_port}"
    server = ChatServer(extra_args=["--port", str(port), "--web-app", APP_A["id"], "--web-token-url", backend_url + "/token"]).start()
    backend = start_binary("TokenBackend", ["--port", str(backend_port), "--parley", f"http://127.0.0.1:{port}",
                                            "--app-id", APP_A["id"], "--app-key", APP_A["key"], "--app-secret", APP_A["secret"],
                                            "--allow-origin", f"http://127.0.0.1:{port}"], ready=BACKEND_LINE)
    browser = Browser(f"http://127.0.0.1:{port}/")
    try:
        dana = browser.page("dana")
        dana.goto(browser.base_url)
        assert dana.text_content("#signin-label") == "Your user id"
        from web_support import sign_in
        sign_in(dana, "dana")
        assert dana.text_content("#me") == "dana"
        erin = browser.user("erin")
        create_room(dana, "backend", invite=["erin"])
        send(dana, "tokens from the app's backend")
        erin.wait_for_selector("#rooms .room-name:text-is('backend')")
        open_room(erin, "backend")
        wait_for_message(erin, "tokens from the app's backend", own=False)
        # The dev endpoints are not there; the page never called them.
        assert server.request("POST", "/v1/dev/users", json_body={"name": "x"}).status == 404
        browser.console.assert_clean()
    finally:
        browser.close()
        backend.stop()
        server.stop()
