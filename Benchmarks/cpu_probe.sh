#!/usr/bin/env bash
# How fast the host is right now: the seconds one core takes to hash 400 MB of zeros (SHA-256).
# Run between benchmark rounds; these shared 2-core machines change speed by up to 2.5 times
# within an hour, so wall-clock figures compare only between rounds of similar probe times.
#
#   Benchmarks/cpu_probe.sh          # prints: cpu probe 1.42 s
set -euo pipefail
start=$(date +%s%N)
head -c 400000000 /dev/zero | sha256sum > /dev/null
end=$(date +%s%N)
awk -v ns=$((end - start)) 'BEGIN { printf "cpu probe %.2f s\n", ns / 1e9 }'
