#!/usr/bin/env bash
# Chat through two nodes on PostgreSQL and Redis against one node on PostgreSQL, in the same run.
#
#   Benchmarks/run_chat_cluster.sh
#   PARLEY_BIN=.build/release/parley BENCH_BIN=.build/release/ParleyChatBench Benchmarks/run_chat_cluster.sh
#   CLOSED_SECS=3 RATES= HISTORY_SAMPLES=0 Benchmarks/run_chat_cluster.sh          # a quick check that it works
#
# Two setups, each on a fresh private PostgreSQL (scripts/postgres-test-instance.sh), with
# run_chat.sh's workload (ParleyChatBench load: SENDERS keep-alive connections, one user each,
# posting durable messages to ROOMS rooms — a closed loop, then an open loop at each of RATES):
#   single   one `parley serve --dev` on PostgreSQL; every sender on it;
#   cluster  two `parley serve --dev --redis` nodes on one PostgreSQL and a private redis-server;
#            the senders alternate between the nodes (ParleyChatBench --send-ports), so every room
#            gets sends through both, and every message's realtime event crosses the bus.
# "Server CPU" is every server process together (the node, or both nodes and redis-server), read
# from /proc/PID/stat; PostgreSQL's own CPU is in the host figure. Everything listens on 127.0.0.1;
# every process started here is stopped when the script ends, and the benchmark is bounded in time.
#
# Environment: SENDERS (1000), ROOMS (100), WARMUP_SECS (2), CLOSED_SECS (10), RATES (2000; comma
# list, empty: none), RATE_SECS (10), HISTORY_SAMPLES (500), PG_WRITERS (empty: the server's
# default), PORT (9601), PARLEY_BIN, BENCH_BIN (default .build/release/...), SERVER_CPUS,
# LOADGEN_CPUS (taskset lists; default none), BENCH_NICE, QUIET_MAX_SECS.
set -euo pipefail
SERVER_CPUS=${SERVER_CPUS-}
source "$(dirname "$0")/lib.sh"

SENDERS=${SENDERS:-1000}
ROOMS=${ROOMS:-100}
WARMUP_SECS=${WARMUP_SECS:-2}
CLOSED_SECS=${CLOSED_SECS:-10}
RATES=${RATES-2000}
RATE_SECS=${RATE_SECS:-10}
HISTORY_SAMPLES=${HISTORY_SAMPLES:-500}
PG_WRITERS=${PG_WRITERS:-}
PORT=${PORT:-9601}
PARLEY_BIN=${PARLEY_BIN:-$REPO_DIR/.build/release/parley}
BENCH_BIN=${BENCH_BIN:-$REPO_DIR/.build/release/ParleyChatBench}
LOADGEN_CPUS=${LOADGEN_CPUS-}
[ -x "$PARLEY_BIN" ] && [ -x "$BENCH_BIN" ] || {
  log "missing $PARLEY_BIN or $BENCH_BIN (swift build -c release --product parley / --product ParleyChatBench)"; exit 1; }
REDIS_SERVER=$(command -v redis-server || true)
[ -n "$REDIS_SERVER" ] || { log "redis-server is missing: apt-get install redis-server"; exit 1; }
PG_INSTANCE=$REPO_DIR/scripts/postgres-test-instance.sh

stamp=$(date -u +%Y%m%d-%H%M%S)
run_dir="$OUT_DIR/chat-cluster-$stamp"; mkdir -p "$run_dir"
PIDS=()
PG_PARENT=$(mktemp -d /tmp/parley-chat-cluster-XXXXXX)
chmod 755 "$PG_PARENT" # the postgres user runs the server when this runs as root
PG_DIR=

stop_all() { # every process this script started, by its pid, then the PostgreSQL of the setup
  local pid
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  PIDS=()
  if [ -n "$PG_DIR" ]; then "$PG_INSTANCE" stop "$PG_DIR" >/dev/null 2>&1 || true; PG_DIR=; fi
}
finish() { stop_all; rm -rf "$PG_PARENT"; }
trap finish EXIT
trap 'exit 143' INT TERM # through the EXIT trap: everything started is stopped

start_postgres() { # start_postgres NAME — a fresh instance; its URL in PG_URL
  PG_DIR="$PG_PARENT/$1"
  PG_URL=$("$PG_INSTANCE" start "$PG_DIR") || { log "could not start a private PostgreSQL (apt-get install postgresql)"; exit 1; }
}

start_node() { # start_node NAME PORT [ARGS...] — its pid in NODE_PID
  local name=$1 port=$2; shift 2
  local writers=()
  [ -z "$PG_WRITERS" ] || writers=(--pg-writers "$PG_WRITERS")
  # shellcheck disable=SC2046
  (cd "$REPO_DIR" && exec bash -c 'ulimit -n 20000 2>/dev/null; exec "$@"' _ $(launch_prefix "$SERVER_CPUS") \
    "$PARLEY_BIN" serve --dev --host 127.0.0.1 --port "$port" --database "$PG_URL" --data-dir "$run_dir/data-$name" \
    --send-rate 0 --idle-timeout 600 "${writers[@]}" "$@") >"$run_dir/$name.log" 2>&1 &
  NODE_PID=$!
  PIDS+=("$NODE_PID")
  wait_port "$port" 60 && kill -0 "$NODE_PID" 2>/dev/null || { log "$name did not listen on $port; its log:"; cat "$run_dir/$name.log" >&2; exit 1; }
}

start_redis() { # start_redis PORT — its pid in REDIS_PID
  # shellcheck disable=SC2046
  $(launch_prefix "$SERVER_CPUS") "$REDIS_SERVER" --port "$1" --bind 127.0.0.1 --save "" --appendonly no \
    --dir "$run_dir" --protected-mode no >"$run_dir/redis.log" 2>&1 &
  REDIS_PID=$!
  PIDS+=("$REDIS_PID")
  wait_port "$1" 20 || { log "redis-server did not start"; exit 1; }
}

wait_bus() { # wait_bus PORT — until the node reports the bus connected
  for _ in $(seq 100); do
    curl -s "http://127.0.0.1:$1/healthz" | grep -q '"bus":"connected"' && return 0
    sleep 0.1
  done
  log "node on $1 never connected to Redis"; exit 1
}

run_load() { # run_load OUTFILE ARGS... — the benchmark program, bounded in time
  local out=$1 rate_secs=0 rate; shift
  for rate in ${RATES//,/ }; do rate_secs=$((rate_secs + RATE_SECS + 2)); done
  # shellcheck disable=SC2046
  timeout -k 10 $((600 + WARMUP_SECS + CLOSED_SECS + rate_secs)) $(launch_prefix "$LOADGEN_CPUS") "$BENCH_BIN" load \
    --senders "$SENDERS" --rooms "$ROOMS" --list-rooms "$ROOMS" --warmup-secs "$WARMUP_SECS" --closed-secs "$CLOSED_SECS" \
    --rates "$RATES" --rate-secs "$RATE_SECS" --history-samples "$HISTORY_SAMPLES" --room-list-samples 0 \
    --max-secs $((540 + CLOSED_SECS + rate_secs)) "$@" | tee "$out" || log "benchmark run $out failed"
}

{
  machine_summary
  echo "parley: $PARLEY_BIN; redis: $("$REDIS_SERVER" --version | head -1); postgres $(ls /usr/lib/postgresql 2>/dev/null | tr '\n' ' ')"
  echo "workload: $SENDERS senders over $ROOMS rooms; closed loop ${CLOSED_SECS}s after ${WARMUP_SECS}s warm-up; open loop at '${RATES}'/s for ${RATE_SECS}s each; pg writers ${PG_WRITERS:-default}"
} | tee "$run_dir/summary.txt"

echo; echo "=== one node on PostgreSQL ==="
start_postgres single
wait_quiet
start_node single "$PORT"
run_load "$run_dir/single.txt" --port "$PORT" --server-pid "$NODE_PID" --label single
stop_all

echo; echo "=== two nodes on PostgreSQL and Redis, senders alternating ==="
start_postgres cluster
redis_port=$((PORT + 1)); a_port=$((PORT + 2)); b_port=$((PORT + 3))
start_redis "$redis_port"
start_node a "$a_port" --redis "redis://127.0.0.1:$redis_port/0" --node-id a; a_pid=$NODE_PID
start_node b "$b_port" --redis "redis://127.0.0.1:$redis_port/0" --node-id b; b_pid=$NODE_PID
wait_bus "$a_port"; wait_bus "$b_port"
wait_quiet
run_load "$run_dir/cluster.txt" --port "$a_port" --send-ports "$a_port,$b_port" --server-pid "$a_pid,$b_pid,$REDIS_PID" --label cluster
stop_all

fmt() { if [ -n "$1" ]; then printf "%${2}" "$1"; else printf '%s' "-"; fi; }
ratio() { if [ -n "$1" ] && [ -n "$2" ] && awk -v b="$2" 'BEGIN{exit !(b>0)}'; then awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; else printf '%s' "-"; fi; }
table() {
  local label key f s c rate rows
  rows=$'durable sends/s, closed loop|closed_sends_per_s|.0f\n  ack p50 (ms)|closed_ack_p50_ms|.2f\n  ack p99 (ms)|closed_ack_p99_ms|.2f\n  answers other than 201|closed_failed|.0f\n  server CPU, every node and Redis (% of one core)|closed_server_cpu_pct|.0f\n  host CPU busy (% of all cores)|closed_host_cpu_pct|.0f'
  for rate in ${RATES//,/ }; do
    rows+=$'\n'"open loop at $rate/s: acknowledged/s|r${rate}_sends_per_s|.0f"
    rows+=$'\n'"  sustained (1 = yes)|r${rate}_sustained|.0f"
    rows+=$'\n'"  ack p50 (ms)|r${rate}_ack_p50_ms|.2f"
    rows+=$'\n'"  ack p99 (ms)|r${rate}_ack_p99_ms|.2f"
    rows+=$'\n'"  server CPU, every node and Redis (% of one core)|r${rate}_server_cpu_pct|.0f"
  done
  rows+=$'\n'"history page (50 messages) p99 (ms)|history_p99_ms|.3f"
  printf '\n%-56s%14s%14s%14s\n' "chat ($SENDERS senders, $ROOMS rooms)" "one node" "two + Redis" "two/one"
  while IFS='|' read -r label key f; do
    s=$(result_field "$run_dir/single.txt" "$key"); c=$(result_field "$run_dir/cluster.txt" "$key")
    printf '%-56s%14s%14s%14s\n' "$label" "$(fmt "$s" "$f")" "$(fmt "$c" "$f")" "$(ratio "$c" "$s")"
  done <<<"$rows"
}
table | tee "$run_dir/table.txt"
echo; echo "raw output: $run_dir"
