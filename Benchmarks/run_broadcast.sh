#!/usr/bin/env bash
# Broadcast benchmark: the same open-loop workload, in the same run, against the C baseline,
# the Node.js `ws` baseline and (when PARLEY_BROADCAST_CMD is set) Parley; then a side-by-side
# table with ratios to C.
#
#   Benchmarks/run_broadcast.sh
#   PARLEY_BROADCAST_CMD=".build/release/ParleyBroadcastBench" Benchmarks/run_broadcast.sh
#
# For every server: N clients connect (default 10,000; source addresses 127.0.0.2..), a
# saturation search ramps the publish rate until deliveries fall behind, then a fixed run at
# HALF_RATE messages/s — by default 50% of the C server's saturation rate measured first in
# this run, so every server is compared at the same load.
# Environment: CLIENTS, TRIAL_SECS (4), HALF_SECS (10), SERVERS ("c node" + "parley" if its
# command is set), HALF_RATE (fixed rate, if C is not measured), PORT (9201), SERVER_CPUS (0),
# PARLEY_SERVER_CPUS, LOADGEN_CPUS (1), QUIET_MAX_SECS, LOADGEN_ARGS (extra loadgen flags),
# SEARCH (1; 0 skips the saturation search and only runs every server at HALF_RATE, e.g. to
# repeat a like-for-like comparison quickly), LOADGEN_PROCS (worker processes; default one per
# CPU the load generator may use, and enough to keep each under 15,000 descriptors).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

CLIENTS=${CLIENTS:-10000}
TRIAL_SECS=${TRIAL_SECS:-4}
HALF_SECS=${HALF_SECS:-10}
PORT=${PORT:-9201}
if [ -z "${SERVERS:-}" ]; then SERVERS="c node"; [ -n "${PARLEY_BROADCAST_CMD:-}" ] && SERVERS="$SERVERS parley"; fi
HALF_RATE=${HALF_RATE:-}
SEARCH=${SEARCH:-1}
if [ "$SEARCH" = 0 ] && [ -z "$HALF_RATE" ]; then log "SEARCH=0 needs HALF_RATE"; exit 2; fi

# The load generator stands in for clients on machines of their own: it gets a worker process for
# each CPU it may use, so that reading never queues on one core while another idles. With a
# single process and nothing pinned it was still reading a message's last deliveries 25-30 ms
# after the server's last send (server-side trace, 2026-12-01), and that wait was what its p99
# measured.
loadgen_cpu_count() {
  if [ -n "$LOADGEN_CPUS" ] && command -v taskset >/dev/null; then taskset -c "$LOADGEN_CPUS" nproc; else nproc; fi
}
LOADGEN_PROCS=${LOADGEN_PROCS:-$(loadgen_cpu_count)}
# Each worker must fit its share of the clients under the descriptor limit it inherits (raised
# here as far as allowed; 256 handshakes in flight and a few files besides).
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
per_proc_cap=$(( $(ulimit -n) - 64 - 256 ))
[ "$per_proc_cap" -le 15000 ] || per_proc_cap=15000
[ "$per_proc_cap" -ge 1 ] || { log "open-file limit $(ulimit -n) is too low for the load generator"; exit 1; }
min_procs=$(( (CLIENTS + per_proc_cap - 1) / per_proc_cap ))
[ "$LOADGEN_PROCS" -ge "$min_procs" ] || LOADGEN_PROCS=$min_procs
[ "$LOADGEN_PROCS" -le 15 ] || LOADGEN_PROCS=15 # the load generator's most worker processes

build_c
command -v node >/dev/null || { log "node is missing: apt-get install nodejs node-ws"; exit 1; }
[ -d /usr/share/nodejs/ws ] || { log "node-ws is missing: apt-get install node-ws"; exit 1; }
stamp=$(date -u +%Y%m%d-%H%M%S)
run_dir="$OUT_DIR/broadcast-$stamp"; mkdir -p "$run_dir"
trap 'stop_server' EXIT INT TERM

{ machine_summary; echo "workload: $CLIENTS clients, 64-byte text messages, search trials ${TRIAL_SECS}s, fixed run ${HALF_SECS}s; load generator: $LOADGEN_PROCS worker process(es)"; } | tee "$run_dir/summary.txt"

for name in $SERVERS; do
  echo; echo "=== $name ==="
  wait_quiet
  start_server "$name" "$PORT" "$run_dir/$name.server.log"
  args=(--port "$PORT" --server-pid "$SERVER_PID" --label "$name" --clients "$CLIENTS" --procs "$LOADGEN_PROCS" --max-secs 900)
  [ "$SEARCH" = 0 ] || args+=(--search --trial-secs "$TRIAL_SECS")
  if [ -z "$HALF_RATE" ]; then
    args+=(--half --half-secs "$HALF_SECS")
  else
    args+=(--fixed-rate "$HALF_RATE" --fixed-secs "$HALF_SECS" --warmup-secs 2)
  fi
  # shellcheck disable=SC2086
  timeout -k 10 960 bash -c 'exec "$@"' _ $(launch_prefix "$LOADGEN_CPUS") \
    "$BIN_DIR/loadgen" "${args[@]}" ${LOADGEN_ARGS:-} | tee "$run_dir/$name.txt" || log "loadgen against $name failed"
  stop_server
  if [ -z "$HALF_RATE" ] && [ "$name" = c ]; then
    HALF_RATE=$(result_field "$run_dir/c.txt" half_rate)
    [ -n "$HALF_RATE" ] || { log "C saturation not found; cannot fix the comparison rate"; exit 1; }
  fi
  PORT=$((PORT + 1)) # a fresh port: no TIME_WAIT leftovers in the way
done

# Side-by-side table. The fixed-rate run is "half" for C and "fixed" for the others.
table() {
  local names=($SERVERS)
  printf '\n%-44s' "metric"; for n in "${names[@]}"; do printf '%14s' "$n"; done
  for n in "${names[@]}"; do [ "$n" = c ] || printf '%14s' "$n/C"; done; echo
  row() { # row LABEL SAT_KEY FIXED_KEY FORMAT
    local label=$1 key=$2 fmt=$3 n v vals=()
    printf '%-44s' "$label"
    for n in "${names[@]}"; do
      local k=$key
      if [[ $k == fixed_* ]] && [ "$n" = c ] && [ -n "$(result_field "$run_dir/c.txt" half_rate)" ]; then k=half_${k#fixed_}; fi
      v=$(result_field "$run_dir/$n.txt" "$k"); vals+=("${v:-}")
      if [ -n "$v" ]; then printf "%14${fmt}" "$v"; else printf '%14s' "-"; fi
    done
    local c=${vals[0]:-}
    for i in "${!names[@]}"; do
      [ "${names[$i]}" = c ] && continue
      if [ -n "$c" ] && [ -n "${vals[$i]}" ] && awk -v c="$c" 'BEGIN{exit !(c>0)}'; then
        printf '%14s' "$(awk -v a="${vals[$i]}" -v c="$c" 'BEGIN{printf "%.2f", a/c}')"
      else printf '%14s' "-"; fi
    done; echo
  }
  row "saturation rate (msg/s)" sat_rate .2f
  row "saturation deliveries/s" sat_deliv_per_s .0f
  row "deliveries per server CPU-s (at saturation)" sat_deliv_per_cpu_s .0f
  row "server CPU at saturation (% of a core)" sat_server_cpu_pct .0f
  row "loadgen CPU at saturation (% of a core)" sat_loadgen_cpu_pct .0f
  row "server waited for a CPU at saturation (%)" sat_server_wait_pct .0f
  row "fixed-rate run: rate (msg/s)" fixed_rate .2f
  row "fixed-rate run: deliveries/s" fixed_deliv_per_s .0f
  row "fixed-rate run: p50 latency (ms)" fixed_p50_ms .2f
  row "fixed-rate run: p99 latency (ms)" fixed_p99_ms .2f
  row "fixed-rate run: max latency (ms)" fixed_max_ms .2f
  row "fixed-rate run: deliveries per server CPU-s" fixed_deliv_per_cpu_s .0f
  row "fixed-rate run: loadgen CPU (% of a core)" fixed_loadgen_cpu_pct .0f
  row "fixed-rate run: server waited for a CPU (%)" fixed_server_wait_pct .0f
  row "fixed-rate run: contended (1 = yes)" fixed_contended .0f
}
table | tee "$run_dir/table.txt"
echo; echo "raw output: $run_dir"
