#!/usr/bin/env bash
# Durable sends on a slow disk, two server binaries side by side: for each round, each added fsync
# delay and each binary, one short SQLite run of run_chat.sh (closed loop, then an open loop at
# RATE/s); then a table of medians, with every run's figures to show how noisy the machine was.
#
#   Benchmarks/fsync_ab.sh BEFORE_BIN AFTER_BIN
#   ROUNDS=3 DELAYS="0 10 30" BENCH_NICE=-20 Benchmarks/fsync_ab.sh .build/ab/parley-before .build/release/parley
#
# Environment: ROUNDS (3), DELAYS ("0 10 30", ms added to every fsync/fdatasync of the server through
# Benchmarks/c/slow_fsync.c; 0: none), RATE (10000), CLOSED_SECS (5), RATE_SECS (10), BENCH_BIN
# (.build/release/ParleyChatBench), PORT (9701), and whatever run_chat.sh takes (BENCH_NICE, QUIET_MAX_SECS,
# DATA_ROOT=/dev/shm: the databases on tmpfs, so the added delay is the disk's whole flush time and
# other processes' disk traffic does not reach the figures).
# Each run's output stays in Benchmarks/out/chat-*; the summary goes to Benchmarks/out/fsync-ab-<time>.txt.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || { log "usage: $0 BEFORE_BIN AFTER_BIN"; exit 2; }
BEFORE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
AFTER=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
ROUNDS=${ROUNDS:-3}
DELAYS=${DELAYS:-"0 10 30"}
RATE=${RATE:-10000}
PORT=${PORT:-9701}
BENCH_BIN=${BENCH_BIN:-$REPO_DIR/.build/release/ParleyChatBench}
summary="$OUT_DIR/fsync-ab-$(date -u +%Y%m%d-%H%M%S).txt"
results="$summary.runs"
mkdir -p "$OUT_DIR"
: > "$results"

one_run() { # one_run LABEL BIN DELAY — appends "label delay closed p50 p90 p99 max sustained dir" to $results
  local label=$1 bin=$2 delay=$3 before_dirs after_dir f
  before_dirs=$(ls -d "$OUT_DIR"/chat-[0-9]* 2>/dev/null | sort | tail -1 || true)
  ENGINES=sqlite RAW=0 BUILD=0 LIST_ROOMS=0 HISTORY_SAMPLES=0 ROOMLIST_SAMPLES=0 STORE_TRACE=1 \
    CLOSED_SECS=${CLOSED_SECS:-5} RATES=$RATE RATE_SECS=${RATE_SECS:-10} PORT=$PORT \
    FSYNC_DELAY_MS=$([ "$delay" = 0 ] || echo "$delay") PARLEY_BIN=$bin BENCH_BIN=$BENCH_BIN \
    "$BENCH_DIR/run_chat.sh" >/dev/null 2>&1 || log "run $label +${delay} ms failed"
  PORT=$((PORT + 1))
  after_dir=$(ls -d "$OUT_DIR"/chat-[0-9]* | sort | tail -1)
  [ "$after_dir" != "$before_dirs" ] || { log "no output for $label +${delay} ms"; return; }
  f="$after_dir/sqlite.txt"
  printf '%s %s %s %s %s %s %s %s %s\n' "$label" "$delay" \
    "$(result_field "$f" closed_sends_per_s)" "$(result_field "$f" "r${RATE}_ack_p50_ms")" \
    "$(result_field "$f" "r${RATE}_ack_p90_ms")" "$(result_field "$f" "r${RATE}_ack_p99_ms")" \
    "$(result_field "$f" "r${RATE}_ack_max_ms")" "$(result_field "$f" "r${RATE}_sustained")" "$after_dir" | tee -a "$results"
}

{
  machine_summary
  echo "before: $BEFORE"
  echo "after:  $AFTER"
  echo "rounds: $ROUNDS; delays (ms): $DELAYS; open loop at $RATE/s for ${RATE_SECS:-10} s after a ${CLOSED_SECS:-5}-s closed loop"
  echo "databases in: ${DATA_ROOT:-the run directories, on this machine disk}"
} | tee "$summary"

run_binary() { # run_binary LABEL ROUND DELAY
  if [ "$1" = before ]; then one_run before "$BEFORE" "$3"; else one_run after "$AFTER" "$3"; fi
}

# The after binary goes first in odd rounds, the before binary in even ones, at every delay.
# shellcheck disable=SC2086  # DELAYS is a list of words
ab_rounds "$ROUNDS" "after before" run_binary $DELAYS

python3 - "$results" "$RATE" <<'EOF' | tee -a "$summary"
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 8 or "" in parts[2:7]:
        continue
    rows[(parts[0], int(parts[1]))].append([float(x) for x in parts[2:8]])
rate = sys.argv[2]
print(f"\nmedians (runs), at {rate}/s: ack p50 / p90 / p99 / max in ms")
print(f"{'fsync delay':>12} {'binary':>7} {'runs':>4} {'closed sends/s':>15} {'p50':>8} {'p90':>8} {'p99':>8} {'max':>8}  sustained  p99 of each run")
for delay in sorted({d for _, d in rows}):
    for label in ("before", "after"):
        runs = rows.get((label, delay), [])
        if not runs:
            continue
        med = [statistics.median(r[i] for r in runs) for i in range(5)]
        sustained = sum(int(r[5]) for r in runs)
        each = " ".join(f"{r[3]:.1f}" for r in runs)
        print(f"{'+' + str(delay) + ' ms':>12} {label:>7} {len(runs):>4} {med[0]:>15.0f} {med[1]:>8.1f} {med[2]:>8.1f} {med[3]:>8.1f} {med[4]:>8.1f}  {sustained}/{len(runs):<7}  {each}")
EOF
echo "runs: $results"
