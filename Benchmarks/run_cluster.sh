#!/usr/bin/env bash
# Pusher fan-out through two nodes on Redis against one node alone, in the same run.
#
#   Benchmarks/run_cluster.sh
#   PARLEY_BIN=.build/release/parley SUBSCRIBERS=10000 Benchmarks/run_cluster.sh
#   SUBSCRIBERS=1000 TRIAL_SECS=1 FRACTION_SECS=2 Benchmarks/run_cluster.sh     # a quick check that it works
#
# Layouts (LAYOUTS, channel counts): 1 channel x SUBSCRIBERS and 1,000 channels x SUBSCRIBERS/1,000.
# For each layout, two setups, each with run_pusher.sh's workload (the C load generator in
# --mode pusher: WebSocket subscribers, signed POST /apps/1/events publishes, a saturation search,
# then FRACTION_SECS at FRACTIONS of that setup's own saturation rate):
#   single   one `parley serve` on PostgreSQL; subscribers and publishes on it;
#   cluster  two `parley serve --redis` nodes on the same PostgreSQL and a private redis-server;
#            subscribers alternate between the nodes, every publish goes to the first node, so
#            half the deliveries cross Redis.
# The CPU behind "deliveries per CPU-s" is every server process together, read from
# /proc/PID/stat: the node, or both nodes and redis-server. Redis's own CPU per delivery is
# reported apart. Everything listens on 127.0.0.1; every process this script starts is stopped
# when it ends, and the load generator is bounded in time (--max-secs), so the script ends by itself.
#
# Needs: redis-server and PostgreSQL (Debian packages, as scripts/test.sh), a built parley
# (PARLEY_BIN; default .build/release/parley, else .build/debug/parley).
# Environment: SUBSCRIBERS (10000), LAYOUTS ("1 1000"), TRIAL_SECS (4), FRACTIONS (0.5),
# FRACTION_SECS (10), PUB_CONNS (8), PORT (9401), SERVER_CPUS (empty: nodes and Redis share the
# CPUs), LOADGEN_CPUS (1), BENCH_NICE, QUIET_MAX_SECS, LOADGEN_ARGS.
set -euo pipefail
SERVER_CPUS=${SERVER_CPUS-}
source "$(dirname "$0")/lib.sh"

SUBSCRIBERS=${SUBSCRIBERS:-10000}
LAYOUTS=${LAYOUTS:-"1 1000"}
TRIAL_SECS=${TRIAL_SECS:-4}
FRACTIONS=${FRACTIONS:-0.5}
FRACTION_SECS=${FRACTION_SECS:-10}
PUB_CONNS=${PUB_CONNS:-8}
PORT=${PORT:-9401}
PARLEY_BIN=${PARLEY_BIN:-}
if [ -z "$PARLEY_BIN" ]; then
  PARLEY_BIN="$REPO_DIR/.build/release/parley"; [ -x "$PARLEY_BIN" ] || PARLEY_BIN="$REPO_DIR/.build/debug/parley"
fi
[ -x "$PARLEY_BIN" ] || { log "no parley binary at $PARLEY_BIN (swift build -c release, or set PARLEY_BIN)"; exit 1; }
REDIS_SERVER=$(command -v redis-server || true)
[ -n "$REDIS_SERVER" ] || { log "redis-server is missing: apt-get install redis-server"; exit 1; }

build_c
stamp=$(date -u +%Y%m%d-%H%M%S)
run_dir="$OUT_DIR/cluster-$stamp"; mkdir -p "$run_dir"
PIDS=()
PG_PARENT=$(mktemp -d /tmp/parley-cluster-bench-XXXXXX)
chmod 755 "$PG_PARENT" # the postgres user runs the server when this runs as root
PG_DIR="$PG_PARENT/instance"

stop_all() { # every process this script started, by its pid
  local pid
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  PIDS=()
}
finish() {
  stop_all
  [ -d "$PG_DIR" ] && "$REPO_DIR/scripts/postgres-test-instance.sh" stop "$PG_DIR" >/dev/null 2>&1 || true
  rm -rf "$PG_PARENT"
}
trap finish EXIT
trap 'exit 143' INT TERM # through the EXIT trap: everything started is stopped

# PostgreSQL for every node (a cluster needs it; the single node uses it too, so the two differ
# only in the bus).
PG_URL=$("$REPO_DIR/scripts/postgres-test-instance.sh" start "$PG_DIR")

config="$run_dir/apps.json"
printf '%s\n' '{"max_outbound_bytes": 16777216,' \
  ' "apps": [{"id": "1", "key": "bench-key", "secret": "bench-secret", "enabled": true}]}' >"$config"

start_node() { # start_node NAME PORT [ARGS...] — prints the pid
  local name=$1 port=$2; shift 2
  (cd "$REPO_DIR" && exec bash -c 'ulimit -n 20000 2>/dev/null; exec "$@"' _ $(launch_prefix "$SERVER_CPUS") \
    "$PARLEY_BIN" serve --config "$config" --database "$PG_URL" --max-outbound 16777216 --idle-timeout 600 \
    --data-dir "$run_dir/data-$name" --port "$port" "$@") >"$run_dir/$name.log" 2>&1 &
  local pid=$!
  PIDS+=("$pid")
  wait_port "$port" 60 && kill -0 "$pid" 2>/dev/null || { log "$name did not listen on $port; its log:"; cat "$run_dir/$name.log" >&2; exit 1; }
  NODE_PID=$pid
}

start_redis() { # start_redis PORT — sets REDIS_PID
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

run_loadgen() { # run_loadgen OUTFILE CHANNELS ARGS...
  local out=$1 channels=$2; shift 2
  # shellcheck disable=SC2046
  timeout -k 10 960 $(launch_prefix "$LOADGEN_CPUS") "$BIN_DIR/loadgen" --mode pusher --clients "$SUBSCRIBERS" \
    --channels "$channels" --pub-conns "$PUB_CONNS" --app-id 1 --app-key bench-key --app-secret bench-secret \
    --search --trial-secs "$TRIAL_SECS" --fractions "$FRACTIONS" --half-secs "$FRACTION_SECS" --max-secs 900 \
    "$@" ${LOADGEN_ARGS:-} | tee "$out" || log "loadgen run $out failed"
}

{
  machine_summary
  echo "parley: $PARLEY_BIN; redis: $("$REDIS_SERVER" --version | head -1)"
  echo "workload: $SUBSCRIBERS Pusher subscribers; layouts (channels): $LAYOUTS; search trials ${TRIAL_SECS}s; runs of ${FRACTION_SECS}s at $FRACTIONS of saturation"
} | tee "$run_dir/summary.txt"

for channels in $LAYOUTS; do
  echo; echo "=== $channels channel(s) x $((SUBSCRIBERS / channels)): one node ==="
  wait_quiet
  start_node "single-c$channels" "$PORT"
  run_loadgen "$run_dir/single-c$channels.txt" "$channels" --port "$PORT" --server-pid "$NODE_PID" --label "single-c$channels"
  stop_all
  PORT=$((PORT + 1))

  echo; echo "=== $channels channel(s) x $((SUBSCRIBERS / channels)): two nodes on Redis ==="
  wait_quiet
  redis_port=$PORT; a_port=$((PORT + 1)); b_port=$((PORT + 2)); PORT=$((PORT + 3))
  start_redis "$redis_port"
  start_node "a-c$channels" "$a_port" --redis "redis://127.0.0.1:$redis_port/0" --node-id a; a_pid=$NODE_PID
  start_node "b-c$channels" "$b_port" --redis "redis://127.0.0.1:$redis_port/0" --node-id b; b_pid=$NODE_PID
  wait_bus "$a_port"; wait_bus "$b_port"
  run_loadgen "$run_dir/cluster-c$channels.txt" "$channels" --port "$a_port" --sub-ports "$a_port,$b_port" \
    --server-pid "$a_pid" --extra-pids "$b_pid,$REDIS_PID" --redis-pid "$REDIS_PID" --label "cluster-c$channels"
  stop_all
done

fmt() { if [ -n "$1" ]; then printf "%${2}" "$1"; else printf '%s' "-"; fi; }
ratio() { if [ -n "$1" ] && [ -n "$2" ] && awk -v b="$2" 'BEGIN{exit !(b>0)}'; then awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; else printf '%s' "-"; fi; }
table() {
  local channels key label f s c
  for channels in $LAYOUTS; do
    printf '\n%d channel(s) x %d subscribers\n' "$channels" "$((SUBSCRIBERS / channels))"
    printf '%-56s%14s%14s%14s\n' metric "one node" "two + Redis" "two/one"
    while IFS='|' read -r label key f; do
      s=$(result_field "$run_dir/single-c$channels.txt" "$key"); c=$(result_field "$run_dir/cluster-c$channels.txt" "$key")
      printf '%-56s%14s%14s%14s\n' "$label" "$(fmt "$s" "$f")" "$(fmt "$c" "$f")" "$(ratio "$c" "$s")"
    done <<'ROWS'
saturation (events/s)|sat_rate|.1f
deliveries/s at saturation|sat_deliv_per_s|.0f
deliveries per CPU-s of all server processes (saturation)|sat_deliv_per_cpu_s|.0f
Redis CPU per delivery at saturation (us)|sat_redis_us_per_delivery|.3f
50%: events/s|f50_rate|.1f
50%: trigger-to-delivery p50 (ms)|f50_p50_ms|.2f
50%: trigger-to-delivery p99 (ms)|f50_p99_ms|.2f
50%: deliveries per CPU-s of all server processes|f50_deliv_per_cpu_s|.0f
50%: Redis CPU per delivery (us)|f50_redis_us_per_delivery|.3f
50%: sustained (1 = yes)|f50_sustained|.0f
50%: contended (1 = yes)|f50_contended|.0f
ROWS
  done
}
table | tee "$run_dir/table.txt"
echo; echo "raw output: $run_dir"
