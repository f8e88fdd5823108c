#!/usr/bin/env bash
# Idle capacity: server RSS per idle WebSocket connection at 1k, 5k, 10k and 19k connections
# (cumulative), RSS once they are closed, and RSS after 100,000 connect/handshake/close cycles.
#
#   Benchmarks/idle_capacity.sh                 # the C and Node servers (+ Parley if its command is set)
#   SERVERS=parley PARLEY_BROADCAST_CMD=".build/release/ParleyBroadcastBench" Benchmarks/idle_capacity.sh
#   Benchmarks/idle_capacity.sh --pid PID --port PORT   # a server that is already running
#
# Environment: STEPS (1000,5000,10000,19000), CYCLES (100000), SERVERS, PORT (9301),
# SERVER_CPUS, LOADGEN_CPUS, PARLEY_BROADCAST_CMD (see Benchmarks/README.md).
# The load generator spreads the connections over as many processes as keep each under
# 15,000 descriptors and its source addresses over 127.0.0.2..127.0.0.17.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

STEPS=${STEPS:-1000,5000,10000,19000}
CYCLES=${CYCLES:-100000}
PORT=${PORT:-9301}
if [ -z "${SERVERS:-}" ]; then SERVERS="c node"; [ -n "${PARLEY_BROADCAST_CMD:-}" ] && SERVERS="$SERVERS parley"; fi
ext_pid=
while [ $# -gt 0 ]; do
  case $1 in
    --pid) ext_pid=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    *) log "usage: $0 [--pid PID --port PORT]"; exit 2 ;;
  esac
done

build_c
stamp=$(date -u +%Y%m%d-%H%M%S)
run_dir="$OUT_DIR/idle-$stamp"; mkdir -p "$run_dir"
trap 'stop_server' EXIT INT TERM
{ machine_summary; echo "workload: idle connections $STEPS (cumulative), then $CYCLES connect/close cycles"; } | tee "$run_dir/summary.txt"

measure() { # measure LABEL PID PORT
  timeout -k 10 900 bash -c 'exec "$@"' _ $(launch_prefix "$LOADGEN_CPUS") \
    "$BIN_DIR/loadgen" --mode idle --port "$3" --server-pid "$2" --label "$1" --steps "$STEPS" --cycles "$CYCLES" \
    --max-secs 880 | tee "$run_dir/$1.txt"
}

if [ -n "$ext_pid" ]; then
  measure external "$ext_pid" "$PORT"
  exit 0
fi

for name in $SERVERS; do
  echo; echo "=== $name ==="
  start_server "$name" "$PORT" "$run_dir/$name.server.log"
  measure "$name" "$SERVER_PID" "$PORT" || log "idle measurement of $name failed"
  stop_server
  PORT=$((PORT + 1))
done

echo
IFS=, read -ra steps <<<"$STEPS"
printf '%-34s' "metric"; for n in $SERVERS; do printf '%12s' "$n"; done; echo
printf '%-34s' "baseline RSS (KiB)"; for n in $SERVERS; do printf '%12s' "$(result_field "$run_dir/$n.txt" baseline_kb)"; done; echo
for s in "${steps[@]}"; do
  printf '%-34s' "KiB per idle connection at $s"
  for n in $SERVERS; do printf '%12s' "$(result_field "$run_dir/$n.txt" "idle_${s}_kb_per_conn")"; done; echo
done
printf '%-34s' "RSS at ${steps[-1]} connections (KiB)"; for n in $SERVERS; do printf '%12s' "$(result_field "$run_dir/$n.txt" "idle_${steps[-1]}_kb")"; done; echo
printf '%-34s' "RSS after closing them (KiB)"; for n in $SERVERS; do printf '%12s' "$(result_field "$run_dir/$n.txt" after_close_kb)"; done; echo
printf '%-34s' "RSS after $CYCLES cycles (KiB)"; for n in $SERVERS; do printf '%12s' "$(result_field "$run_dir/$n.txt" after_cycles_kb)"; done; echo
echo; echo "raw output: $run_dir"
