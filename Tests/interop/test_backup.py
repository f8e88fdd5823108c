"""`parley backup DEST` copies a running server's embedded database and attachments while
messages keep arriving; a server started on DEST has the original history up to the
moment of the copy, message for message, and the attachments byte for byte."""
import subprocess
import threading
import time

from chat_support import APP_A, ChatServer, create_user, mint, unique


def history(server, token, room):
    """Every message of the room, oldest first."""
    messages, after = [], 0
    while True:
        page = server.ok("GET", f"/v1/rooms/{room}/messages?after={after}&limit=100", token=token)
        messages += page["messages"]
        if not page["has_more"]:
            return messages
        after = page["messages"][-1]["seq"]


def test_backup_under_write_load_restores_to_an_identical_history():
    server = ChatServer(extra_args=["--send-rate", "0"]).start()
    restored = None
    stop = threading.Event()
    sent = []
    try:
        alice = unique("alice")
        create_user(server, APP_A, alice)
        token = mint(APP_A, alice)
        room = server.ok("POST", "/v1/rooms", token=token, json_body={"kind": "private", "name": "log"})["id"]
        files = {}
        for i in range(3):
            body = bytes([i]) * (1000 + i) + b"attachment"
            upload = server.ok("POST", f"/v1/rooms/{room}/attachments", token=token, body=body,
                               headers={"Content-Type": "application/octet-stream"})
            files[upload["id"]] = body

        failures = []

        def write():
            n = 0
            while not stop.is_set():
                answer = server.request("POST", f"/v1/rooms/{room}/messages", token=token,
                                        json_body={"parts": [{"type": "text", "text": f"message {n}"}]})
                if answer.status != 201:
                    failures.append(answer)
                    return
                sent.append(n)
                n += 1

        def wait_for_sent(count):
            deadline = time.monotonic() + 60
            while len(sent) < count:
                assert not failures and time.monotonic() < deadline, f"the writer stopped: {failures}"
                time.sleep(0.05)

        writer = threading.Thread(target=write)
        writer.start()
        wait_for_sent(50)
        destination = server.work / "backup"
        out = subprocess.run([str(server.binary), "backup", str(destination), "--data-dir", str(server.work / "data")],
                             capture_output=True, text=True, timeout=120)
        during = len(sent)
        wait_for_sent(during + 50)
        stop.set()
        writer.join(30)
        assert out.returncode == 0, out.stderr
        assert "3 attachment file(s)" in out.stdout

        original = history(server, token, room)
        restored = ChatServer()
        (restored.work / "data").rmdir() if (restored.work / "data").exists() else None
        destination.rename(restored.work / "data")
        restored.start()
        copy = history(restored, token, room)
        # A prefix of the original, cut at one commit: nothing missing or torn in between.
        assert 50 <= len(copy) < len(original)
        assert copy == original[:len(copy)]
        assert [m["seq"] for m in copy] == list(range(copy[0]["seq"], copy[0]["seq"] + len(copy)))
        for id, body in files.items():
            download = restored.request("GET", f"/v1/attachments/{id}/content", token=token)
            assert download.status == 200 and download.body == body
    finally:
        stop.set()
        server.stop()
        if restored is not None:
            restored.stop()


def test_backup_refuses_an_existing_destination_and_a_directory_without_a_database(tmp_path):
    binary = ChatServer().binary
    out = subprocess.run([str(binary), "backup", str(tmp_path), "--data-dir", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 1 and "no database" in out.stderr
    server = ChatServer().start()
    try:
        out = subprocess.run([str(binary), "backup", str(tmp_path), "--data-dir", str(server.work / "data")],
                             capture_output=True, text=True)
        assert out.returncode == 1 and "must not exist" in out.stderr
    finally:
        server.stop()
