#!/usr/bin/env bash
# Builds Benchmarks/bin/slow_fsync.so, the LD_PRELOAD shim that adds a fixed delay to every
# fsync/fdatasync of a process (see Benchmarks/c/slow_fsync.c), and prints its path.
#
#   SLOW_FSYNC_US=10000 LD_PRELOAD=$(Benchmarks/build_slow_fsync.sh) .build/release/parley serve ...
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir/bin"
cc -O2 -Wall -Wextra -shared -fPIC -o "$dir/bin/slow_fsync.so" "$dir/c/slow_fsync.c" -ldl -lpthread
echo "$dir/bin/slow_fsync.so"
