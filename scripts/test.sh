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

apt_packages=(libsqlite3-dev libpq-dev libssl-dev zlib1g-dev pkg-config curl tmux
              python3-venv postgresql redis-server node-ws wrk)
install_apt_packages() {
  local missing=()
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

install_python_venv() {
  local venv="$root/.venv-test" stamp="$root/.venv-test/.requirements.sha256"
  local want; want=$(sha256sum requirements-test.txt | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  say "creating Python venv with pinned test peers (.venv-test)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r requirements-test.txt
  echo "$want" > "$stamp"
}

find_swift() {
  command -v swift >/dev/null 2>&1 && return 0
  [ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH && return 0
  echo "error: a Swift 6 toolchain is required (swift not on PATH)" >&2; exit 1
}

install_apt_packages
install_python_venv
find_swift

say "building (debug)"
swift build --build-tests

say "Swift tests"
swift test --skip-build

say "Python interop tests"
export PARLEY_BIN_DIR="$root/.build/debug"
"$root/.venv-test/bin/python" -m pytest -q Tests/interop

fuzz_seconds=${FUZZ_SECONDS:-30}
if [ "$fuzz_seconds" -gt 0 ]; then
  say "fuzzing each target for ${fuzz_seconds}s"
  scripts/fuzz.sh "$fuzz_seconds"
fi
say "all tests passed"
