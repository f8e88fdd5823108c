"""Helpers for the browser tests of Parley Web: Debian's chromium driven by Playwright (the
pinned PyPI package, pointed at /usr/bin/chromium — nothing is downloaded), one page per
signed-in user, and a console watch that fails a test on any error the test did not cause on
purpose."""
import re
import shutil
from contextlib import contextmanager

import pytest

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # scripts/test.sh installs it from requirements-test.txt
    sync_playwright = None

WAIT_MS = 15000
CHROMIUM = shutil.which("chromium")


def require_browser():
    if sync_playwright is None:
        pytest.skip("playwright is not installed (requirements-test.txt)")
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (Debian package chromium; scripts/test.sh installs it)")


class Console:
    """Every console error and uncaught exception of the pages it watches. Network failures
    the test provokes itself (offline, a server restart, a refused upload) are allowed only
    inside `expecting(...)`, and only when they match the patterns given there."""

    def __init__(self):
        self.errors = []
        self.allowed = []

    def watch(self, name, page):
        page.on("console", lambda message: self._console(name, message))
        page.on("pageerror", lambda error: self.errors.append(f"{name}: uncaught {error}"))

    def _console(self, name, message):
        if message.type not in ("error", "assert"):
            return
        text = message.text
        if any(re.search(pattern, text) for pattern in self.allowed):
            return
        self.errors.append(f"{name}: {text}")

    @contextmanager
    def expecting(self, *patterns):
        self.allowed = list(patterns)
        try:
            yield
        finally:
            self.allowed = []

    def assert_clean(self):
        assert not self.errors, "console errors:\n" + "\n".join(self.errors)


class Browser:
    """One headless chromium; `user(name)` opens a context (its own storage) signed in."""

    def __init__(self, base_url):
        require_browser()
        self.base_url = base_url
        self.console = Console()
        self._playwright = sync_playwright().start()
        self.chromium = self._playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        self.contexts = []

    def page(self, name, width=1200, height=800):
        context = self.chromium.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(WAIT_MS)
        self.contexts.append(context)
        page = context.new_page()
        self.console.watch(name, page)
        return page

    def user(self, name, width=1200, height=800):
        page = self.page(name, width, height)
        page.goto(self.base_url)
        sign_in(page, name)
        return page

    def close(self):
        for context in self.contexts:
            context.close()
        self.chromium.close()
        self._playwright.stop()


def sign_in(page, name):
    page.fill("#signin-name", name)
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#app:not([hidden])")


def create_room(page, name, invite=()):
    page.click("#new-room")
    page.fill("#dialog-input", name)
    page.click("#dialog-ok")
    page.wait_for_selector(f"#room-title:text-is('{name}')")
    for user in invite:
        page.click("#invite")
        page.fill("#dialog-input", user)
        page.click("#dialog-ok")
        page.wait_for_selector("#dialog:not([open])", state="attached")


def open_room(page, label):
    page.click(f"#rooms button:has(.room-name:text-is('{label}'))")
    page.wait_for_selector(f"#room-title:text-is('{label}')")


def send(page, text):
    page.fill("#text", text)
    page.press("#text", "Enter")


def message_texts(page):
    """The text of every delivered (not pending) message, in the order shown."""
    return page.eval_on_selector_all("#messages .msg:not(.pending) .body", "nodes => nodes.map(n => n.textContent)")


def wait_for_message(page, text, own=None):
    """Waits until a delivered message whose whole text is `text` shows (own: sent by this page's user)."""
    selector = "#messages .msg:not(.pending)" + {True: ".own", False: ":not(.own)", None: ""}[own] + " .body"
    page.wait_for_function("([selector, text]) => [...document.querySelectorAll(selector)].some(n => n.textContent === text)",
                           arg=[selector, text])
