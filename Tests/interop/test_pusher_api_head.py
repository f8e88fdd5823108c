"""The signed Pusher HTTP API judges a request by its head before reading its body: a stranger
announcing a large body is refused at once and the server holds none of it. A request signed
by the real `pusher` library (which signs body_md5 into the head) still goes through."""
import hashlib
import hmac
import socket
import time

from test_pusher_support import APP, server  # noqa: F401


def held_back_post(port, target, length):
    """Sends a POST head announcing `length` bytes and only part of the body; returns the
    socket, whose answer must come without the rest."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall((f"POST {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               f"Content-Length: {length}\r\n\r\n").encode() + b"{" + b" " * 60_000)
    s.settimeout(5)
    return s


def status_of(s):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else None


def signed_target(path, body_md5, secret=APP["secret"], key=APP["key"]):
    params = {"auth_key": key, "auth_timestamp": str(int(time.time())), "auth_version": "1.0", "body_md5": body_md5}
    query = "&".join(f"{k}={params[k]}" for k in sorted(params))
    signature = hmac.new(secret.encode(), f"POST\n{path}\n{query}".encode(), hashlib.sha256).hexdigest()
    return f"{path}?{query}&auth_signature={signature}"


def test_forged_or_unsigned_heads_are_refused_before_the_body(server):
    path = f"/apps/{APP['id']}/events"
    md5 = hashlib.md5(b"whatever").hexdigest()
    cases = {
        "unsigned": path,
        "wrong secret": signed_target(path, md5, secret="not-the-secret"),
        "unknown key": signed_target(path, md5, key="nobody"),
        "unknown app": signed_target("/apps/999/events", md5),
    }
    rss_before = server.rss_kb()
    sockets = {name: held_back_post(server.port, target, 1_000_000) for name, target in cases.items()}
    answers = {name: status_of(s) for name, s in sockets.items()}
    assert answers == {"unsigned": 401, "wrong secret": 401, "unknown key": 401, "unknown app": 404}
    assert server.rss_kb() - rss_before < 16 * 1024
    for s in sockets.values():
        s.close()


def test_a_correctly_signed_head_has_its_body_read_and_checked(server):
    path = f"/apps/{APP['id']}/events"
    body = b'{"name":"e","channels":["c"],"data":"{}"}'
    # The head's signature is right but the body does not match its body_md5: read, then refused.
    target = signed_target(path, hashlib.md5(body).hexdigest())
    s = socket.create_connection(("127.0.0.1", server.port))
    tampered = body.replace(b'"e"', b'"f"')
    s.sendall((f"POST {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(tampered)}\r\n\r\n").encode() + tampered)
    s.settimeout(5)
    assert status_of(s) == 401
    s.close()
    # And the real library's request goes through.
    assert server.client().trigger("c", "e", {}) == {}
