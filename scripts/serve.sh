#!/usr/bin/env bash
# Builds Parley (release) and runs `parley serve` with the given options.
#   scripts/serve.sh [--dev] [--port 6001] ...      (see: scripts/serve.sh --help)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/deps.sh
install_apt_packages "${build_packages[@]}"
find_swift
swift build -c release --product parley >&2
exec .build/release/parley serve "$@"
