"""`parley` and the example token backend carry the Swift runtime and Foundation inside them
(Package.swift links them with -static-stdlib): `readelf -d` lists no Swift or Foundation
library and no run path into the toolchain, and the binary copied alone into an empty
directory serves `parley serve --dev` with a minimal environment (no LD_LIBRARY_PATH)."""
import http.client
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import binary, free_port

SWIFT_LIBRARY = re.compile(r"libswift|libFoundation|libdispatch|libBlocksRuntime|lib_FoundationICU|libicu")


def dynamic_section(path):
    if shutil.which("readelf") is None:
        pytest.skip("readelf is not installed (apt-get install binutils)")
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=True, timeout=30).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)
    paths = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]+)\]", out)
    return needed, [entry for found in paths for entry in found.split(":")]


@pytest.mark.parametrize("name", ["parley", "TokenBackend"])
def test_no_swift_library_is_needed_and_no_run_path_leads_to_the_toolchain(name):
    needed, run_paths = dynamic_section(binary(name))
    assert needed, "readelf found no NEEDED entries at all"
    assert not [library for library in needed if SWIFT_LIBRARY.search(library)], needed
    # $ORIGIN (the binary's own directory) is harmless; an absolute path into a Swift
    # installation would make the binary depend on one.
    assert all(entry == "$ORIGIN" for entry in run_paths), run_paths


def test_the_binary_alone_in_an_empty_directory_serves(tmp_path):
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy2(binary("parley"), alone / "parley")
    port = free_port()
    process = subprocess.Popen(["./parley", "serve", "--dev", "--port", str(port), "--data-dir", "data"], cwd=alone,
                               env={"PATH": "/usr/bin:/bin"}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        status = None
        while status is None and time.monotonic() < deadline and process.poll() is None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            try:
                connection.request("GET", "/healthz")
                status = connection.getresponse().status
            except OSError:
                time.sleep(0.1)
            finally:
                connection.close()
        assert status == 200, process.stdout.read() if process.poll() is not None else "no answer"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        assert (alone / "data" / "parley.sqlite").exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
