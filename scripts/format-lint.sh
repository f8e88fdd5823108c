#!/usr/bin/env bash
# Checks the Swift sources against the repository's .swift-format configuration with the
# toolchain's own `swift format`. Strict: any finding fails the run, so once the tree is
# formatted it stays formatted.
#
#   scripts/format-lint.sh            lint (exit 1 on any finding)
#   scripts/format-lint.sh --fix      rewrite the files in place, then lint
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
paths=(Sources Tests Benchmarks Fuzz Plugins Examples Package.swift)
if [ "${1:-}" = "--fix" ]; then
  swift format format --configuration .swift-format --parallel --in-place --recursive "${paths[@]}"
fi
swift format lint --configuration .swift-format --strict --parallel --recursive "${paths[@]}"
