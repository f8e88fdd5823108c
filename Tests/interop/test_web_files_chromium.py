"""Files of any type in Parley Web, in real (headless) Chromium against `parley serve` with a
configuration whose app takes attachments of at most 4096 bytes (tokens from the example
TokenBackend, as a deployment has them): a PDF attached in one browser shows in the other as a
download link with its name and size, and the link returns the very bytes; an upload over the
app's limit is refused by the server (413) and the page shows the server's reason."""
import json
import urllib.request

import pytest

from chat_support import APP_A, APP_B, ChatServer
from conftest import free_port, start_binary
from web_support import Browser, create_room, open_room

LIMIT = 4096


@pytest.fixture
def deployment():
    from test_chat_tui import BACKEND_LINE
    port, backend_port = free_port(), free_port()
    backend_url = f"http://127.0.0.1:{backend_port}"
    server = ChatServer(extra_args=["--port", str(port), "--web-app", APP_A["id"], "--web-token-url", backend_url + "/token"])
    # APP_B keeps the default limit, so the upload route reads bodies past APP_A's and answers its 413 in JSON.
    apps = [dict(APP_A, client_events=True, user_authentication=True, limits={"max_attachment_bytes": LIMIT}),
            dict(APP_B, client_events=True, user_authentication=True)]
    (server.work / "apps.json").write_text(json.dumps({"apps": apps}))
    server.start()
    backend = start_binary("TokenBackend", ["--port", str(backend_port), "--parley", f"http://127.0.0.1:{port}",
                                            "--app-id", APP_A["id"], "--app-key", APP_A["key"], "--app-secret", APP_A["secret"],
                                            "--allow-origin", f"http://127.0.0.1:{port}"], ready=BACKEND_LINE)
    browser = Browser(f"http://127.0.0.1:{port}/")
    try:
        yield server, browser
    finally:
        browser.close()
        backend.stop()
        server.stop()


def pdf_bytes(size):
    head = b"%PDF-1.4\n% a test document\n"
    tail = b"\n%%EOF\n"
    body = bytes((i * 7 + 3) % 256 for i in range(size - len(head) - len(tail)))
    return head + body + tail


def test_a_pdf_becomes_a_download_link_and_an_oversized_file_shows_the_servers_error(deployment, tmp_path):
    server, browser = deployment
    dana = browser.user("dana")
    erin = browser.user("erin")
    create_room(dana, "papers", invite=["erin"])
    erin.wait_for_selector("#rooms .room-name:text-is('papers')")
    open_room(erin, "papers")

    report = tmp_path / "quarterly report.pdf"
    content = pdf_bytes(3000)
    report.write_bytes(content)
    dana.set_input_files("#file", str(report))
    link = erin.locator("#messages .msg:not(.own) .file a.download")
    link.wait_for()
    assert link.text_content() == "📎 quarterly report.pdf (3 KB)"
    assert link.get_attribute("download") == "quarterly report.pdf"
    assert link.get_attribute("title") == "application/pdf"
    # The signed URL needs no credentials: fetched as is, it returns the bytes, as a download.
    href = link.evaluate("a => a.href")
    with urllib.request.urlopen(href, timeout=10) as answer:
        assert answer.read() == content
        assert answer.headers["Content-Type"] == "application/pdf"
        assert answer.headers["Content-Disposition"].startswith("attachment")
    # A click downloads it in the browser too.
    with erin.expect_download() as download_info:
        link.click()
    download = download_info.value
    assert download.suggested_filename == "quarterly report.pdf"
    assert (tmp_path / "saved.pdf").write_bytes(open(download.path(), "rb").read()) == len(content)
    assert (tmp_path / "saved.pdf").read_bytes() == content
    # The sender's own message shows the same link.
    dana.wait_for_selector("#messages .msg.own .file a.download:text-is('📎 quarterly report.pdf (3 KB)')")

    big = tmp_path / "archive.bin"
    big.write_bytes(bytes(range(256)) * (LIMIT // 256 + 4))
    with browser.console.expecting(r"Failed to load resource: the server responded with a status of 413"):
        dana.set_input_files("#file", str(big))
        dana.wait_for_selector("#composer-error:has-text('Could not send “archive.bin”')")
    assert f"at most {LIMIT} bytes" in dana.text_content("#composer-error")
    assert dana.locator("#messages .msg .file").count() == 1 and dana.locator("#messages .msg.pending").count() == 0
    browser.console.assert_clean()
