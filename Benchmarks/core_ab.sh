#!/usr/bin/env bash
# The core figures of two builds side by side, in one run: raw broadcast, Pusher fan-out (1 x 10,000
# and 1,000 x 10), durable chat sends on SQLite and HTTP keep-alive. For a change meant to move code
# without changing its speed: each benchmark runs the two builds one after the other, the order
# alternating between rounds, and the table gives the medians and the after/before ratio.
#
#   Benchmarks/core_ab.sh BEFORE_DIR AFTER_DIR
#   ROUNDS=3 BENCH_NICE=-20 Benchmarks/core_ab.sh .build/ab-before .build/release
#
# Each directory holds a release build's `parley`, `ParleyBroadcastBench` and `ParleyChatBench`.
# Environment: ROUNDS (2), BENCHES ("broadcast pusher chat http"), and what the scripts underneath
# take (CLIENTS, SUBSCRIBERS, TRIAL_SECS, BENCH_NICE, QUIET_MAX_SECS, ...). Runs stay in
# Benchmarks/out/; the summary goes to Benchmarks/out/core-ab-<time>.txt.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || { log "usage: $0 BEFORE_DIR AFTER_DIR"; exit 2; }
BEFORE=$(cd "$1" && pwd)
AFTER=$(cd "$2" && pwd)
ROUNDS=${ROUNDS:-2}
BENCHES=${BENCHES:-"broadcast pusher chat http"}
for d in "$BEFORE" "$AFTER"; do
  for b in parley ParleyBroadcastBench ParleyChatBench; do
    [ -x "$d/$b" ] || { log "$d/$b is missing (swift build -c release, then copy)"; exit 2; }
  done
done
summary="$OUT_DIR/core-ab-$(date -u +%Y%m%d-%H%M%S).txt"
rows="$summary.runs"
mkdir -p "$OUT_DIR"
: >"$rows"

newest() { ls -1d "$OUT_DIR"/"$1"-* 2>/dev/null | sort | tail -1 || true; }

record() { # record LABEL METRIC VALUE
  [ -n "$3" ] && printf '%s %s %s\n' "$1" "$2" "$3" >>"$rows" || log "no $2 for $1"
}

bench_broadcast() { # bench_broadcast LABEL DIR
  SERVERS=parley PARLEY_BROADCAST_CMD="$2/ParleyBroadcastBench" PORT=$PORT \
    "$BENCH_DIR/run_broadcast.sh" >/dev/null 2>&1 || log "broadcast $1 failed"
  local f; f="$(newest broadcast)/parley.txt"
  record "$1" broadcast_sat_msgs_per_s "$(result_field "$f" sat_rate)"
  record "$1" broadcast_deliveries_per_cpu_s "$(result_field "$f" sat_deliv_per_cpu_s)"
  record "$1" broadcast_half_p99_ms "$(result_field "$f" half_p99_ms)"
}

bench_pusher() {
  SERVERS=parley RAW_BROADCAST=0 FRACTIONS=0.5 FRACTION_SECS=${FRACTION_SECS:-8} PORT=$PORT \
    PARLEY_PUSHER_CMD="$2/parley serve" "$BENCH_DIR/run_pusher.sh" >/dev/null 2>&1 || log "pusher $1 failed"
  local d c; d=$(newest pusher)
  for c in 1 1000; do
    record "$1" "pusher_c${c}_sat_events_per_s" "$(result_field "$d/parley-c$c.txt" sat_rate)"
    record "$1" "pusher_c${c}_deliveries_per_cpu_s" "$(result_field "$d/parley-c$c.txt" sat_deliv_per_cpu_s)"
    record "$1" "pusher_c${c}_f50_p99_ms" "$(result_field "$d/parley-c$c.txt" f50_p99_ms)"
  done
}

bench_chat() {
  ENGINES=sqlite RAW=0 BUILD=0 LIST_ROOMS=0 HISTORY_SAMPLES=0 ROOMLIST_SAMPLES=0 CLOSED_SECS=${CLOSED_SECS:-5} \
    RATES=10000 RATE_SECS=${RATE_SECS:-10} PORT=$PORT PARLEY_BIN="$2/parley" BENCH_BIN="$2/ParleyChatBench" \
    "$BENCH_DIR/run_chat.sh" >/dev/null 2>&1 || log "chat $1 failed"
  local f; f="$(newest chat)/sqlite.txt"
  record "$1" chat_closed_sends_per_s "$(result_field "$f" closed_sends_per_s)"
  record "$1" chat_r10000_ack_p99_ms "$(result_field "$f" r10000_ack_p99_ms)"
}

bench_http() {
  local data; data=$(mktemp -d)
  PARLEY_BROADCAST_CMD="$2/parley serve --dev --data-dir $data"
  start_server parley "$PORT" "$OUT_DIR/core-ab-http-$1.server.log" || { log "http $1: no server"; return; }
  record "$1" http_keepalive_requests_per_s \
    "$("$BENCH_DIR/http_wrk.sh" "http://127.0.0.1:$PORT" 2>/dev/null | awk '$1=="given"{print $2; exit}')"
  stop_server
  rm -rf "$data"
}

{
  machine_summary
  echo "before: $BEFORE"
  echo "after:  $AFTER"
  echo "rounds: $ROUNDS; benchmarks: $BENCHES"
} | tee "$summary"

run_bench() { # run_bench LABEL ROUND BENCH
  local dir=$BEFORE
  [ "$1" = after ] && dir=$AFTER
  log "round $2: $3, $1"
  "bench_$3" "$1" "$dir"
  PORT=$((PORT + 20))
}

PORT=${PORT:-9801}
# shellcheck disable=SC2086  # BENCHES is a list of words
ab_rounds "$ROUNDS" "before after" run_bench $BENCHES

python3 - "$rows" <<'EOF' | tee -a "$summary"
import collections, statistics, sys
values = collections.defaultdict(list)
order = []
for line in open(sys.argv[1]):
    label, metric, value = line.split()
    if metric not in order:
        order.append(metric)
    values[(label, metric)].append(float(value))
print(f"\n{'metric':<36} {'before':>12} {'after':>12} {'after/before':>13}  each run (before | after)")
for metric in order:
    b, a = values.get(("before", metric), []), values.get(("after", metric), [])
    mb = statistics.median(b) if b else None
    ma = statistics.median(a) if a else None
    ratio = f"{ma / mb:.2f}" if mb and ma is not None else "-"
    fmt = lambda v: "-" if v is None else f"{v:,.1f}"
    runs = " ".join(f"{v:g}" for v in b) + " | " + " ".join(f"{v:g}" for v in a)
    print(f"{metric:<36} {fmt(mb):>12} {fmt(ma):>12} {ratio:>13}  {runs}")
EOF
echo "runs: $rows"
