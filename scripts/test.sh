#!/usr/bin/env bash
# Runs every Parley test: Swift unit and loopback tests, Python interop tests against
# peers nobody here wrote, and the libFuzzer targets for a bounded time.
# Installs what the tests need first: Debian packages (apt-get) and a pinned Python
# venv under .venv-test/ (git-ignored). Safe to run again; installs are skipped when done.
#
#   scripts/test.sh            everything
#   FUZZ_SECONDS=0 scripts/test.sh    skip the fuzzers
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

say() { printf '\n== %s\n' "$*"; }

. scripts/lib/deps.sh
test_packages=(curl openssl tmux python3-venv postgresql redis-server chromium fonts-noto-color-emoji nginx-light binutils)

install_python_venv() {
  local venv="$root/.venv-test" stamp="$root/.venv-test/.requirements.sha256"
  local want; want=$(sha256sum requirements-test.txt | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  say "creating Python venv with pinned test peers (.venv-test)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r requirements-test.txt
  echo "$want" > "$stamp"
}

install_apt_packages "${build_packages[@]}" "${test_packages[@]}"
install_python_venv
find_swift

say "swift-format lint (the repository's .swift-format; scripts/format-lint.sh --fix formats)"
scripts/format-lint.sh

say "building (debug)"
swift build --build-tests

say "starting a private PostgreSQL instance for the storage conformance suite"
trap 'scripts/postgres-test-instance.sh stop >/dev/null 2>&1 || true' EXIT
# A plain assignment, so that a failed start stops the run (`export X=$(...)` would hide it).
postgres_url=$(scripts/postgres-test-instance.sh start)
export PARLEY_TEST_POSTGRES_URL=$postgres_url
# Every test must run here: a skip (a missing instance, binary or tool) fails the run.
export PARLEY_TEST_NO_SKIPS=1

say "Swift tests (a descriptor closed twice fails them: scripts/lib/close_guard.c)"
clang -shared -fPIC -O2 -o "$root/.build/close_guard.so" scripts/lib/close_guard.c -ldl
close_log="$root/.build/close_guard.log"
rm -f "$close_log"
PARLEY_CLOSE_GUARD_LOG="$close_log" LD_PRELOAD="$root/.build/close_guard.so" swift test --skip-build
if [ -s "$close_log" ]; then
  echo "error: descriptors were closed twice during the Swift tests (backtraces below)" >&2
  scripts/lib/symbolize_close_log.sh "$close_log" >&2
  exit 1
fi

say "ParleyKit documentation (DocC)"
scripts/docc.sh

say "Python interop tests"
export PARLEY_BIN_DIR="$root/.build/debug"
"$root/.venv-test/bin/python" -m pytest -q -rs Tests/interop

fuzz_seconds=${FUZZ_SECONDS:-30}
if [ "$fuzz_seconds" -gt 0 ]; then
  say "fuzzing each target for ${fuzz_seconds}s"
  scripts/fuzz.sh "$fuzz_seconds"
fi
say "all tests passed"
