"""`parley check-config FILE` checks a config file without starting a server, and
`parley serve --config FILE` refuses the same mistakes: unknown settings with the nearest
known name, JSON syntax errors with line and column."""
import json
import subprocess

from conftest import binary, free_port

VALID = {"apps": [{"id": "301", "key": "ok-key", "secret": "ok-secret", "limits": {"max_connections": 10}}],
         "http": {"max_connections": 100}}


def check(path):
    return subprocess.run([str(binary("parley")), "check-config", str(path)], capture_output=True, text=True, timeout=20)


def serve(path, tmp_path):
    return subprocess.run([str(binary("parley")), "serve", "--config", str(path), "--port", str(free_port()),
                           "--data-dir", str(tmp_path / "data")], capture_output=True, text=True, timeout=20)


def test_a_valid_file_passes(tmp_path):
    path = tmp_path / "apps.json"
    path.write_text(json.dumps(VALID))
    out = check(path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"{path}: ok (apps: 301)"


def test_a_misspelt_key_is_refused_with_the_key_it_meant_and_where(tmp_path):
    path = tmp_path / "apps.json"
    path.write_text('{\n  "apps": [{"id": "301", "key": "k", "secret": "s",\n'
                    '            "limits": {"max_connectionz": 10}}]\n}\n')
    expected = 'line 3, column 24: $.apps[0].limits.max_connectionz: unknown setting; did you mean "max_connections"?'
    out = check(path)
    assert out.returncode == 1
    assert out.stderr.strip() == f"{path}: {expected}"
    started = serve(path, tmp_path)
    assert started.returncode == 2
    assert expected in started.stderr and "parley listening" not in started.stderr


def test_a_syntax_error_gives_line_and_column(tmp_path):
    path = tmp_path / "apps.json"
    path.write_text('{\n  "apps": [\n    {"id": "301", "key": "k", "secret": "s"},\n  ]\n}\n')
    out = check(path)
    assert out.returncode == 1
    assert out.stderr.strip() == f"{path}: line 4, column 3: $: not valid JSON (unexpected_byte)"
    started = serve(path, tmp_path)
    assert started.returncode == 2 and "line 4, column 3" in started.stderr


def test_every_problem_is_listed_and_reader_rules_apply_too(tmp_path):
    path = tmp_path / "apps.json"
    path.write_text(json.dumps({"apps": [{"id": "301", "key": "k", "secret": "s", "colour": "red"}],
                                "http": {"head_timeout": 0}, "activity_timout": 5}))
    lines = check(path).stderr.strip().splitlines()
    assert len(lines) == 3
    assert "$.apps[0].colour: unknown setting (known here: id, key, secret" in lines[0]
    assert "$.http.head_timeout: must be an integer in 1...3600" in lines[1]
    assert '$.activity_timout: unknown setting; did you mean "activity_timeout"?' in lines[2]
    # Rules the table cannot express still come from the section readers.
    path.write_text(json.dumps({"apps": [{"id": "abc", "key": "k", "secret": "s"}]}))
    out = check(path)
    assert out.returncode == 1 and "$.apps[0].id: must be digits" in out.stderr and "line 1, column 12" in out.stderr


def test_a_missing_file_and_a_bad_command_line(tmp_path):
    assert check(tmp_path / "absent.json").returncode == 1
    out = subprocess.run([str(binary("parley")), "check-config"], capture_output=True, text=True, timeout=20)
    assert out.returncode == 2
