#!/usr/bin/env bash
# HTTP keep-alive throughput: wrk against GET /healthz.
#
#   Benchmarks/http_wrk.sh http://127.0.0.1:6001     # a server that is already running
#   Benchmarks/http_wrk.sh                           # starts the C and Node baselines (+ Parley if
#                                                    #   PARLEY_HTTP_CMD or PARLEY_BROADCAST_CMD is set)
# Environment: WRK_THREADS (1), WRK_CONNECTIONS (64), WRK_SECS (10), SERVER_CPUS, LOADGEN_CPUS
# (wrk is pinned like the load generator), PARLEY_HTTP_CMD (a command that starts a server
# answering /healthz; "--port N" is appended unless it contains {port}).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
command -v wrk >/dev/null || { log "wrk is missing: apt-get install wrk"; exit 1; }

WRK_THREADS=${WRK_THREADS:-1}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-64}
WRK_SECS=${WRK_SECS:-10}
PORT=${PORT:-9401}

run_wrk() { # run_wrk LABEL URL
  local out
  wait_quiet
  out=$(timeout -k 5 $((WRK_SECS + 30)) bash -c 'exec "$@"' _ \
        $(launch_prefix "$LOADGEN_CPUS") \
        wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"${WRK_SECS}s" --latency "$2/healthz")
  echo "$out" >&2
  local rps p50 p99
  rps=$(awk '/^Requests\/sec/{print $2}' <<<"$out")
  p50=$(awk '$1=="50%"{print $2}' <<<"$out")
  p99=$(awk '$1=="99%"{print $2}' <<<"$out")
  printf '%-10s %14s %10s %10s\n' "$1" "$rps" "$p50" "$p99"
}

if [ $# -ge 1 ]; then
  printf '%-10s %14s %10s %10s\n' server "requests/s" p50 p99
  run_wrk given "${1%/}"
  exit 0
fi

build_c
trap 'stop_server' EXIT INT TERM
machine_summary
echo "wrk: $WRK_THREADS thread(s), $WRK_CONNECTIONS keep-alive connections, ${WRK_SECS}s, GET /healthz"
servers="c node"
if [ -n "${PARLEY_HTTP_CMD:-}" ]; then PARLEY_BROADCAST_CMD=$PARLEY_HTTP_CMD; servers="$servers parley"
elif [ -n "${PARLEY_BROADCAST_CMD:-}" ]; then servers="$servers parley"; fi
results=()
for name in $servers; do
  start_server "$name" "$PORT" "$OUT_DIR/wrk-$name.server.log"
  results+=("$(run_wrk "$name" "http://127.0.0.1:$PORT")")
  stop_server
  PORT=$((PORT + 1))
done
echo
printf '%-10s %14s %10s %10s\n' server "requests/s" p50 p99
printf '%s\n' "${results[@]}"
