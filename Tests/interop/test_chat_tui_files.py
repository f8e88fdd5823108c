"""`parley chat` and files of any type, in tmux against one `parley serve --dev`: Alice sends a
PDF with `/file PATH`; Bob's screen shows it as a file with its name, type and size, and the
attachment the server stored has the PDF's bytes and name; when Alice deletes it, Bob's open
conversation shows it as deleted."""
from test_chat_tui import chat_command, server, tmux  # noqa: F401 (fixtures)
from test_chat_tui_moderation import rest


def test_a_file_is_sent_with_slash_file_and_shown_with_name_and_size(server, tmux, tmp_path):
    report = tmp_path / "report.pdf"
    content = b"%PDF-1.4\n" + bytes(i % 251 for i in range(2990)) + b"\n%%EOF\n"
    report.write_bytes(content)
    tmux.type("alice", chat_command(server, "alice"))
    tmux.type("bob", chat_command(server, "bob"))
    tmux.wait_text("alice", "parley · alice · rooms", "● connected")
    tmux.wait_text("bob", "parley · bob · rooms")
    tmux.type("alice", "/create papers")
    tmux.wait_text("alice", "parley · alice · papers")
    tmux.type("alice", "/invite bob")
    tmux.wait_text("alice", "Invited bob")
    tmux.wait_text("bob", "papers")
    tmux.keys("bob", "Enter")
    tmux.wait_text("bob", "parley · bob · papers")

    tmux.type("alice", f"/file {report}")
    tmux.wait_text("alice", "Sent report.pdf")
    label = f"[file report.pdf application/pdf, {len(content) / 1024:.1f} KB]"
    tmux.wait_text("bob", "alice: " + label)

    rooms = rest(server, "GET", "/v1/me/rooms", "bob")[1]["rooms"]
    message = next(r for r in rooms if r["room"]["name"] == "papers")["last_message"]
    part = message["parts"][0]
    assert (part["type"], part["name"], part["size"], part["content_type"]) == ("file", "report.pdf", len(content), "application/pdf")

    # Alice deletes the file: Bob's open conversation stops offering it at once.
    status, _ = rest(server, "DELETE", f"/v1/attachments/{part['attachment_id']}", "alice")
    assert status == 204
    tmux.wait_text("bob", "alice: [file report.pdf deleted]")
    assert label not in tmux.screen("bob")
    tmux.type("alice", "/quit")
    tmux.keys("bob", "C-c")
