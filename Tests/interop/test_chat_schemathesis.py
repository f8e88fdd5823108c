"""Issue 4, Must show: schemathesis (PyPI) against `/v1/openapi.json` of a running `parley serve --dev`.
Every generated request, valid and invalid, gets no 5xx and an answer that matches the document
(status, content type, headers, body schema); schema-valid requests are accepted and invalid
ones refused. It runs once as a signed-in user and once with the app's key and secret, with a
fixed seed and a small number of examples per operation so the whole run stays bounded.

Two documented allowances, written into the generated config:
- 422 counts as accepting a schema-valid request: it is the document's status for requests that
  are well-formed but break a rule a schema can't state (an attachment id that does not exist in
  the room, a direct room with oneself).
- No NUL characters in generated text: the HTTP layer refuses a percent-encoded NUL anywhere in
  a path or query with 400 `encoded_nul` (a TransportError, as the document says).
- `Allow` on /v1/rooms/direct also lists the methods of /v1/rooms/{room_id}, since `direct` is
  a possible room id there; that path alone skips the Allow-header comparison.
- An upload's body is bytes of any media type, so a "schema-violating" body (a JSON `null` sent
  as the four bytes `null` with `image/webp`) is a valid file; uploads skip that one check.
  Empty and oversized uploads are refused and covered by the chat tests.
- A search's `q` must hold 1–8 words by the tokenizer's rules (docs/search.md), and on the
  messages route `q` narrows `limit` to 50 and refuses `before`/`after` (`offset` needs `q`): a
  schema can't state these, so the three search operations may answer a schema-valid request
  with 400 `invalid_parameter` (test_chat_search.py checks each refusal)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chat_support import ChatServer, basic, create_user, mint

# `parley serve --dev` runs this app and mounts the dev endpoints, so every documented operation exists.
DEV_APP = {"id": "1", "key": "dev-key", "secret": "dev-secret"}

EXAMPLES = int(os.environ.get("PARLEY_SCHEMATHESIS_EXAMPLES", "12"))
SEED = int(os.environ.get("PARLEY_SCHEMATHESIS_SEED", "20261130"))

CONFIG = """
# Every check is on by default; only the allowances below differ.
[generation]
allow-x00 = false

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

[[operations]]
include-path = "/v1/rooms/direct"
checks.allow_header_conformance.enabled = false

[[operations]]
include-path = "/v1/rooms/{room_id}/attachments"
checks.negative_data_rejection.enabled = false

[[operations]]
include-operation-id-regex = "^(searchMessages|searchRoom|listMessages)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "422", "429"]
"""


def schemathesis_binary():
    """The CLI next to this interpreter (the test venv), else on PATH."""
    beside = Path(sys.executable).parent / "schemathesis"
    found = str(beside) if beside.exists() else shutil.which("schemathesis")
    if found is None:
        pytest.fail("schemathesis is not installed (pip install -r requirements-test.txt)")
    return found


@pytest.fixture(scope="module")
def api():
    server = ChatServer(dev=True).start()
    yield server
    server.stop()


@pytest.mark.parametrize("caller", ["user token", "app credentials"])
def test_api_conforms_to_its_openapi_document(api, caller, tmp_path):
    user = "schema-user"
    if api.request("GET", f"/v1/users/{user}", auth=basic(DEV_APP)).status == 404:
        create_user(api, DEV_APP, user)
    # Something to find: a room with a message, so generated calls reach more than 404s.
    room = api.ok("POST", "/v1/rooms", token=mint(DEV_APP, user), json_body={"kind": "public", "name": "lobby"})
    api.ok("POST", f"/v1/rooms/{room['id']}/messages", token=mint(DEV_APP, user),
           json_body={"parts": [{"type": "text", "text": "hello"}]})
    authorization = "Bearer " + mint(DEV_APP, user) if caller == "user token" else basic(DEV_APP)
    (tmp_path / "schemathesis.toml").write_text(CONFIG)
    command = [
        schemathesis_binary(), "--config-file", str(tmp_path / "schemathesis.toml"), "--no-color",
        "run", f"http://127.0.0.1:{api.port}/v1/openapi.json",
        "-H", f"Authorization: {authorization}",
        "--phases", "examples,coverage,fuzzing",
        "--max-examples", str(EXAMPLES), "--seed", str(SEED),
        # One worker: hypothesis' lambda inspection is not thread-safe on CPython 3.11.
        "--workers", "1", "--request-timeout", "10", "--output-truncate", "true",
    ]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    report = result.stdout + result.stderr
    assert result.returncode == 0, report[-12000:]
    assert "generated" in report, report[-3000:]
    assert api.process.poll() is None, "the server died under schemathesis"
