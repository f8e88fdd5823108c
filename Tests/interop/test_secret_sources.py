"""App secrets kept out of the config file: `"secret_file"` (a file's contents, trailing line
end dropped) and `"secret_env"` (an environment variable of the server). The Pusher server
library signs HTTP API calls and pysher subscribes with authorisations made with those
secrets; SIGHUP reads the file again (a rotated secret applies, a vanished file or unset
variable is refused and the apps in service stay); at start a missing one stops the server
with the JSON path that names it."""
import json
import os
import signal
import subprocess

import pusher
import pytest

from chat_support import APP_A, APP_B, ChatServer, basic
from conftest import binary, free_port
from log_tail import LogTail
from test_secret_rotation import PysherClient

FILE_SECRET = "a-secret-from-a-file"
ROTATED_SECRET = "a-rotated-secret-from-the-file"
ENV_SECRET = "b-secret-from-the-environment"
ENV_NAME = "PARLEY_TEST_APP_B_SECRET"
UNSET_NAME = "PARLEY_TEST_NEVER_SET"


def apps_config(secret_path, env_name=ENV_NAME):
    return {"apps": [
        {"id": APP_A["id"], "key": APP_A["key"], "secret_file": str(secret_path), "client_events": True},
        {"id": APP_B["id"], "key": APP_B["key"], "secret_env": env_name},
    ]}


def write_secret(path, text, mode=0o600):
    path.write_text(text)
    os.chmod(path, mode)


def api(server, app, secret):
    return pusher.Pusher(app_id=app["id"], key=app["key"], secret=secret, host="127.0.0.1", port=server.port, ssl=False)


def accepted(server, app, secret):
    """Whether the HTTP API takes a call the Pusher server library signed with `secret`."""
    try:
        api(server, app, secret).channels_info()
        return True
    except pusher.errors.PusherBadAuth:
        return False


def reload(server, tail, expect):
    mark = tail.mark()
    server.process.send_signal(signal.SIGHUP)
    line = tail.wait_for(expect, after=mark)
    assert line is not None, f"no {expect!r} line after SIGHUP: {tail.lines[mark:]}"
    return line


def test_secrets_from_a_file_and_the_environment_serve_and_are_read_again_on_sighup():
    server = ChatServer(env={ENV_NAME: ENV_SECRET})
    secret_path = server.work / "app-a.secret"
    write_secret(secret_path, FILE_SECRET + "\n", mode=0o644)
    (server.work / "apps.json").write_text(json.dumps(apps_config(secret_path)))
    server.start()
    tail = LogTail(server.process)
    client = None
    try:
        warning = tail.wait_for("config setting needs attention")
        assert warning is not None and "setting=$.apps[0].secret_file" in warning and "readable by every user" in warning

        assert accepted(server, APP_A, FILE_SECRET) and not accepted(server, APP_A, FILE_SECRET + "\n")
        assert accepted(server, APP_B, ENV_SECRET) and not accepted(server, APP_B, APP_B["secret"])
        server.ok("POST", "/v1/users", auth=basic(dict(APP_A, secret=FILE_SECRET)), json_body={"id": "ann", "name": "Ann"})

        client = PysherClient(server, APP_A)
        signer = api(server, APP_A, FILE_SECRET)
        assert client.subscribe("private-filed", signer, publisher=signer)

        # The file is rewritten and read again on SIGHUP; the connection stays.
        write_secret(secret_path, ROTATED_SECRET + "\n")
        line = reload(server, tail, "apps reloaded")
        assert "changed=301" in line
        assert accepted(server, APP_A, ROTATED_SECRET) and not accepted(server, APP_A, FILE_SECRET)
        rotated = api(server, APP_A, ROTATED_SECRET)
        rotated.trigger("private-filed", "saved", {"rev": 1})
        assert client.wait_for(("private-filed", {"rev": 1}))

        # A vanished file or an unset variable is refused whole; what serves stays.
        secret_path.unlink()
        refused = reload(server, tail, "apps reload refused")
        assert "$.apps[0].secret_file: cannot read secret file" in refused and "No such file or directory" in refused
        write_secret(secret_path, ROTATED_SECRET)
        (server.work / "apps.json").write_text(json.dumps(apps_config(secret_path, env_name=UNSET_NAME)))
        refused = reload(server, tail, "apps reload refused")
        assert f"$.apps[1].secret_env: environment variable {UNSET_NAME} is not set" in refused
        assert accepted(server, APP_A, ROTATED_SECRET) and accepted(server, APP_B, ENV_SECRET)
        assert client.client.connection.state == "connected"
        rotated.trigger("private-filed", "saved", {"rev": 2})
        assert client.wait_for(("private-filed", {"rev": 2}))
        assert server.process.poll() is None
    finally:
        if client is not None:
            client.client.disconnect(timeout=5)
        server.stop()


def serve(config_path, tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in (ENV_NAME, UNSET_NAME)}
    return subprocess.run([str(binary("parley")), "serve", "--config", str(config_path), "--port", str(free_port()),
                           "--data-dir", str(tmp_path / "data")], capture_output=True, text=True, timeout=20, env=env)


@pytest.mark.parametrize("case", ["file", "empty file", "env"])
def test_a_missing_secret_stops_the_start_with_the_setting_that_names_it(tmp_path, case):
    secret_path = tmp_path / "app-a.secret"
    if case == "empty file":
        write_secret(secret_path, "\n")
    elif case == "env":
        write_secret(secret_path, FILE_SECRET)
    config_path = tmp_path / "apps.json"
    config_path.write_text(json.dumps(apps_config(secret_path, env_name=UNSET_NAME)))
    expected = {
        "file": f"$.apps[0].secret_file: cannot read secret file {secret_path}: No such file or directory",
        "empty file": f"$.apps[0].secret_file: secret file {secret_path} is empty",
        "env": f"$.apps[1].secret_env: environment variable {UNSET_NAME} is not set",
    }[case]
    started = serve(config_path, tmp_path)
    assert started.returncode == 2, started.stderr
    assert expected in started.stderr and "parley listening" not in started.stderr
    checked = subprocess.run([str(binary("parley")), "check-config", str(config_path)], capture_output=True, text=True,
                             timeout=20, env={key: value for key, value in os.environ.items() if key != UNSET_NAME})
    assert checked.returncode == 1 and expected in checked.stderr
