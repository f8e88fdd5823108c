#!/usr/bin/env bash
# The full-text index's cost on the send path: run_chat.sh's closed loop of durable sends on SQLite
# (or PostgreSQL, ENGINE=postgres) (1,000 senders over 100 rooms, each sending its next message as soon as the last is acknowledged)
# against two server binaries — BEFORE built from the commit before search (e7c11c5), AFTER with
# the index kept in the send transaction — in interleaved rounds, alternating which goes first;
# then each binary's median sends/s and the ratio after/before (issue 22 asks for >= 0.90), and the
# same for sends per second of the server's own CPU time (steadier on a shared host).
#
#   git worktree add /work/wt/before e7c11c5 && (cd /work/wt/before && swift build -c release --product parley)
#   ROUNDS=5 Benchmarks/search_send_ab.sh /work/wt/before/.build/release/parley .build/release/parley
#
# Environment: ENGINE (sqlite, or postgres: each run on a new private PostgreSQL), TEXT_WORDS (empty: run_chat.sh's 64-character text of three long words; N: each sender's
# text is N words of the search benchmark's Zipf vocabulary, `ParleyChatBench load --text-words N`), ROUNDS (5), CLOSED_SECS (10), WARMUP_SECS (2), SENDERS (1000), ROOMS (100), PORT (9801),
# BENCH_BIN (.build/release/ParleyChatBench: the same load generator for both), and whatever
# run_chat.sh takes (BENCH_NICE, QUIET_MAX_SECS, DATA_ROOT). Each run's output stays in
# Benchmarks/out/chat-*; the summary goes to Benchmarks/out/search-send-ab-<time>.txt.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || { log "usage: $0 BEFORE_BIN AFTER_BIN"; exit 2; }
BEFORE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
AFTER=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
ROUNDS=${ROUNDS:-5}
ENGINE=${ENGINE:-sqlite}
PORT=${PORT:-9801}
BENCH_BIN=${BENCH_BIN:-$REPO_DIR/.build/release/ParleyChatBench}
[ -x "$BEFORE" ] && [ -x "$AFTER" ] && [ -x "$BENCH_BIN" ] || { log "missing $BEFORE, $AFTER or $BENCH_BIN"; exit 1; }
summary="$OUT_DIR/search-send-ab-$(date -u +%Y%m%d-%H%M%S).txt"
results="$summary.runs"
mkdir -p "$OUT_DIR"
: > "$results"

one_run() { # one_run LABEL BIN ROUND — appends "label round sends/s p50 p99 server_cpu dir" to $results
  local label=$1 bin=$2 round=$3 previous latest f
  previous=$(ls -d "$OUT_DIR"/chat-[0-9]* 2>/dev/null | sort | tail -1 || true)
  ENGINES=$ENGINE RAW=0 BUILD=0 LIST_ROOMS=0 HISTORY_SAMPLES=0 ROOMLIST_SAMPLES=0 RATES= \
    CLOSED_SECS=${CLOSED_SECS:-10} WARMUP_SECS=${WARMUP_SECS:-2} SENDERS=${SENDERS:-1000} ROOMS=${ROOMS:-100} \
    CHAT_LOAD_ARGS=${TEXT_WORDS:+--text-words $TEXT_WORDS} PORT=$PORT PARLEY_BIN=$bin BENCH_BIN=$BENCH_BIN "$BENCH_DIR/run_chat.sh" >/dev/null 2>&1 || log "run $label $round failed"
  PORT=$((PORT + 1))
  latest=$(ls -d "$OUT_DIR"/chat-[0-9]* | sort | tail -1)
  [ "$latest" != "$previous" ] || { log "no output for $label $round"; return; }
  f="$latest/$ENGINE.txt"
  printf '%s %s %s %s %s %s %s\n' "$label" "$round" "$(result_field "$f" closed_sends_per_s)" \
    "$(result_field "$f" closed_ack_p50_ms)" "$(result_field "$f" closed_ack_p99_ms)" \
    "$(result_field "$f" closed_server_cpu_pct)" "$latest" | tee -a "$results"
}

{
  machine_summary
  echo "before: $BEFORE"
  echo "after:  $AFTER"
  echo "rounds: $ROUNDS; closed loop ${CLOSED_SECS:-10} s after ${WARMUP_SECS:-2} s warm-up, ${SENDERS:-1000} senders over ${ROOMS:-100} rooms, $ENGINE"
  if [ -n "${TEXT_WORDS:-}" ]; then echo "message text: $TEXT_WORDS words of the Zipf vocabulary"; else echo "message text: 64 characters (run_chat.sh)"; fi
} | tee "$summary"

run_binary() { # run_binary LABEL ROUND
  if [ "$1" = before ]; then one_run before "$BEFORE" "$2"; else one_run after "$AFTER" "$2"; fi
}

ab_rounds "$ROUNDS" "before after" run_binary

python3 - "$results" "$ENGINE" <<'PY' | tee -a "$summary"
import statistics, sys
runs = {"before": [], "after": []}
per_cpu = {"before": [], "after": []}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) >= 3 and parts[0] in runs and parts[2]:
        runs[parts[0]].append(float(parts[2]))
        if len(parts) >= 6 and parts[5] and float(parts[5]) > 0:
            per_cpu[parts[0]].append(float(parts[2]) / (float(parts[5]) / 100))
print(f"\nclosed-loop durable sends/s on {sys.argv[2]}, every run in order:")
for label in ("before", "after"):
    print(f"  {label:>6}: " + " ".join(f"{x:.0f}" for x in runs[label]))
if runs["before"] and runs["after"]:
    before, after = statistics.median(runs["before"]), statistics.median(runs["after"])
    ratio = after / before
    print(f"medians: before {before:.0f}/s, after {after:.0f}/s; after/before = {ratio:.3f} "
          f"({'met' if ratio >= 0.9 else 'MISSED'}: the target is >= 0.90)")
# On a shared host the server gets a different share of the CPU in every run; sends per second of
# the server's own CPU time is the steadier figure of what a send costs.
if per_cpu["before"] and per_cpu["after"]:
    for label in ("before", "after"):
        print(f"  {label:>6} sends per server CPU-second: " + " ".join(f"{x:.0f}" for x in per_cpu[label]))
    before, after = statistics.median(per_cpu["before"]), statistics.median(per_cpu["after"])
    print(f"medians per server CPU-second: before {before:.0f}, after {after:.0f}; after/before = {after / before:.3f}")
PY
echo "runs: $results"
