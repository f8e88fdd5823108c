#!/usr/bin/env bash
# Pusher fan-out benchmark: subscribers on the Pusher WebSocket protocol, events published
# through the signed HTTP API, the same open-loop workload in the same run against the Node.js
# `ws` baseline (Benchmarks/node/pusher_server.js) and, when PARLEY_PUSHER_CMD is set, Parley;
# then side-by-side tables with ratios to Node and to the raw broadcast figures.
#
#   Benchmarks/run_pusher.sh
#   PARLEY_PUSHER_CMD=".build/release/parley serve" Benchmarks/run_pusher.sh
#
# Layouts (LAYOUTS, channel counts): 1 channel x 10,000 subscribers and 1,000 channels x 10.
# For each layout and server: SUBSCRIBERS WebSockets connect to /app/bench-key?protocol=7 and
# subscribe (spread evenly over bench-0..bench-(C-1)); a publisher process POSTs signed
# /apps/1/events requests at a fixed open-loop rate, round-robin over the channels; a saturation
# search ramps the event rate until deliveries fall behind; then runs of FRACTION_SECS at each of
# FRACTIONS (50% and 90%) of that server's own saturation rate.
#
# Parley is started from the repository root as
#   $PARLEY_PUSHER_CMD --config FILE $PARLEY_PUSHER_ARGS --port N
# (or with {config} and {port} replaced, if the command contains {port}); FILE is an apps file
# this script writes: app id 1, key bench-key, secret bench-secret.
#
# Raw broadcast reference (RAW_BROADCAST=1, the default): the same run also measures the
# broadcast benchmark of run_broadcast.sh (SUBSCRIBERS clients) on RAW_SERVERS (c, node, and
# parley if PARLEY_BROADCAST_CMD is set), so the Pusher figures can be set against the raw ones
# measured under the same conditions. RAW_BROADCAST=0 reads them from the newest
# Benchmarks/out/broadcast-*/ instead, if there is one.
#
# Environment: SUBSCRIBERS (10000), LAYOUTS ("1 1000"), TRIAL_SECS (4), FRACTIONS (0.5,0.9),
# FRACTION_SECS (10), PUB_CONNS (8), SERVERS ("node" + "parley" if PARLEY_PUSHER_CMD is set),
# PARLEY_PUSHER_ARGS, RAW_BROADCAST (1), RAW_SERVERS, PORT (9301), SERVER_CPUS (0),
# PARLEY_SERVER_CPUS, LOADGEN_CPUS (1), BENCH_NICE, QUIET_MAX_SECS, LOADGEN_ARGS.
# SAME_LOAD=R (events/s, unset by default): every raw broadcast run and every 1 x N Pusher run
# also runs FRACTION_SECS at exactly R, so latency can be compared at one offered load as well
# as at each server's own fractions of saturation (a server that batches writes under overload
# "saturates" at a rate it cannot serve with low latency, which moves its 50% point).
# REPORT_DIR=Benchmarks/out/pusher-...: measure nothing, print the tables of that earlier run.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

SUBSCRIBERS=${SUBSCRIBERS:-10000}
LAYOUTS=${LAYOUTS:-"1 1000"}
TRIAL_SECS=${TRIAL_SECS:-4}
FRACTIONS=${FRACTIONS:-0.5,0.9}
FRACTION_SECS=${FRACTION_SECS:-10}
PUB_CONNS=${PUB_CONNS:-8}
PORT=${PORT:-9301}
RAW_BROADCAST=${RAW_BROADCAST:-1}
SERVERS_GIVEN=${SERVERS:-}
if [ -z "${SERVERS:-}" ]; then SERVERS="node"; [ -n "${PARLEY_PUSHER_CMD:-}" ] && SERVERS="$SERVERS parley"; fi
if [ -z "${RAW_SERVERS:-}" ]; then RAW_SERVERS="c node"; [ -n "${PARLEY_BROADCAST_CMD:-}" ] && RAW_SERVERS="$RAW_SERVERS parley"; fi
[ "$RAW_BROADCAST" = 1 ] || RAW_SERVERS=""

# The measurements; skipped when REPORT_DIR names an earlier run to print the tables of.
measure() {
  build_c
  command -v node >/dev/null || { log "node is missing: apt-get install nodejs node-ws"; exit 1; }
  [ -d /usr/share/nodejs/ws ] || { log "node-ws is missing: apt-get install node-ws"; exit 1; }
  stamp=$(date -u +%Y%m%d-%H%M%S)
  run_dir="$OUT_DIR/pusher-$stamp"; mkdir -p "$run_dir"
  trap 'stop_server' EXIT INT TERM

  export PUSHER_CONFIG="$run_dir/parley-apps.json"
  # An outbound bound large enough that no subscriber is closed for lagging during a saturation
  # search (4-s trials of ~110-byte frames queue far less), so every trial keeps all its
  # subscribers; keep-alive beyond pauses between trials; the embedded database in the run's directory.
  PARLEY_PUSHER_ARGS=${PARLEY_PUSHER_ARGS-"--max-outbound 16777216 --idle-timeout 600 --data-dir $run_dir/parley-data"}
  export PARLEY_PUSHER_ARGS
  printf '%s\n' '{"max_outbound_bytes": 16777216,' \
    ' "apps": [{"id": "1", "key": "bench-key", "secret": "bench-secret", "enabled": true}]}' >"$PUSHER_CONFIG"

  {
    machine_summary
    echo "workload: $SUBSCRIBERS Pusher subscribers; layouts (channels): $LAYOUTS; events of 64-byte data through POST /apps/1/events ($PUB_CONNS keep-alive connections); search trials ${TRIAL_SECS}s; runs of ${FRACTION_SECS}s at $FRACTIONS of saturation"
    if [ -n "$RAW_SERVERS" ]; then echo "raw broadcast reference in this run: $RAW_SERVERS ($SUBSCRIBERS clients)"; fi
  } | tee "$run_dir/summary.txt"

  same_load_args() { # same_load_args CHANNELS — the extra fixed-rate run for 1 x N, if SAME_LOAD is set
    if [ -n "${SAME_LOAD:-}" ] && [ "$1" = 1 ]; then echo "--fixed-rate $SAME_LOAD --fixed-secs $FRACTION_SECS"; fi
  }

  run_loadgen() { # run_loadgen OUTFILE ARGS... — the load generator, pinned and bounded in time
    local out=$1; shift
    # shellcheck disable=SC2086
    timeout -k 10 960 bash -c 'exec "$@"' _ $(launch_prefix "$LOADGEN_CPUS") \
      "$BIN_DIR/loadgen" "$@" --max-secs 900 ${LOADGEN_ARGS:-} | tee "$out" || log "loadgen run $out failed"
  }

  for name in $RAW_SERVERS; do
    echo; echo "=== raw broadcast: $name ==="
    wait_quiet
    start_server "$name" "$PORT" "$run_dir/raw-$name.server.log" || { PORT=$((PORT + 1)); continue; }
    run_loadgen "$run_dir/raw-$name.txt" --port "$PORT" --server-pid "$SERVER_PID" --label "raw-$name" \
      --clients "$SUBSCRIBERS" --search --trial-secs "$TRIAL_SECS" --fractions "$FRACTIONS" --half-secs "$FRACTION_SECS" \
      $(same_load_args 1)
    stop_server
    PORT=$((PORT + 1)) # a fresh port: no TIME_WAIT leftovers in the way
  done

  for channels in $LAYOUTS; do
    for name in $SERVERS; do
      echo; echo "=== pusher, $channels channel(s) x $((SUBSCRIBERS / channels)) subscribers: $name ==="
      wait_quiet
      start_server "$name-pusher" "$PORT" "$run_dir/$name-c$channels.server.log" || { PORT=$((PORT + 1)); continue; }
      run_loadgen "$run_dir/$name-c$channels.txt" --mode pusher --port "$PORT" --server-pid "$SERVER_PID" \
        --label "$name-c$channels" --clients "$SUBSCRIBERS" --channels "$channels" --pub-conns "$PUB_CONNS" \
        --app-id 1 --app-key bench-key --app-secret bench-secret \
        --search --trial-secs "$TRIAL_SECS" --fractions "$FRACTIONS" --half-secs "$FRACTION_SECS" \
        $(same_load_args "$channels")
      stop_server
      PORT=$((PORT + 1))
    done
  done
}

if [ -n "${REPORT_DIR:-}" ]; then
  run_dir=$(cd "$REPORT_DIR" && pwd)
  # what that run measured, unless told
  if [ -z "${SERVERS_GIVEN:-}" ]; then
    SERVERS=""; for n in node parley; do compgen -G "$run_dir/$n-c*.txt" >/dev/null && SERVERS="$SERVERS $n"; done
    LAYOUTS=$(cd "$run_dir" && ls -1 | sed -n 's/^[a-z]*-c\([0-9]*\)\.txt$/\1/p' | sort -nu | tr '\n' ' ')
  fi
else
  measure
fi

# Where the raw broadcast figures come from: this run, or the newest broadcast run on record.
raw_file() { # raw_file NAME — prints the file holding NAME's raw broadcast RESULT line, if any
  local f="$run_dir/raw-$1.txt"
  if [ -s "$f" ]; then echo "$f"; return; fi
  local d
  d=$(ls -1d "$OUT_DIR"/broadcast-* 2>/dev/null | sort | tail -1) || true
  [ -n "$d" ] && [ -s "$d/$1.txt" ] && echo "$d/$1.txt"
  return 0
}

fmt() { # fmt VALUE FORMAT — '-' for a missing value
  if [ -n "$1" ]; then printf "%${2}" "$1"; else printf '%s' "-"; fi
}
ratio() { # ratio A B — A/B with two decimals, or '-'
  if [ -n "$1" ] && [ -n "$2" ] && awk -v b="$2" 'BEGIN{exit !(b>0)}'; then awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; else printf '%s' "-"; fi
}
fraction_keys() { # f50 f90 ... from FRACTIONS
  local f
  for f in ${FRACTIONS//,/ }; do printf 'f%s ' "$(awk -v f="$f" 'BEGIN{printf "%.0f", f*100}')"; done
}

layout_table() { # layout_table CHANNELS
  local channels=$1 names=($SERVERS) n
  printf '\n%d channel(s) x %d subscribers\n' "$channels" "$((SUBSCRIBERS / channels))"
  printf '%-50s' "metric"; for n in "${names[@]}"; do printf '%14s' "$n"; done
  [[ " $SERVERS " == *" parley "* ]] && [[ " $SERVERS " == *" node "* ]] && printf '%14s' "parley/node"
  echo
  row() { # row LABEL KEY FORMAT
    local label=$1 key=$2 f=$3 v vals=()
    printf '%-50s' "$label"
    for n in "${names[@]}"; do
      v=$(result_field "$run_dir/$n-c$channels.txt" "$key"); vals+=("$v")
      printf '%14s' "$(fmt "$v" "$f")"
    done
    if [[ " $SERVERS " == *" parley "* ]] && [[ " $SERVERS " == *" node "* ]]; then
      printf '%14s' "$(ratio "$(result_field "$run_dir/parley-c$channels.txt" "$key")" "$(result_field "$run_dir/node-c$channels.txt" "$key")")"
    fi
    echo
  }
  row "saturation (events/s)" sat_rate .1f
  row "deliveries/s at saturation" sat_deliv_per_s .0f
  row "deliveries per server CPU-s at saturation" sat_deliv_per_cpu_s .0f
  row "server CPU at saturation (% of a core)" sat_server_cpu_pct .0f
  row "loadgen CPU at saturation (% of a core)" sat_loadgen_cpu_pct .0f
  local k pct
  for k in $(fraction_keys); do
    pct=${k#f}
    row "${pct}% of saturation: events/s" "${k}_rate" .1f
    row "${pct}%: deliveries/s" "${k}_deliv_per_s" .0f
    row "${pct}%: trigger-to-delivery p50 (ms)" "${k}_p50_ms" .2f
    row "${pct}%: trigger-to-delivery p99 (ms)" "${k}_p99_ms" .2f
    row "${pct}%: max (ms)" "${k}_max_ms" .2f
    row "${pct}%: deliveries per server CPU-s" "${k}_deliv_per_cpu_s" .0f
    row "${pct}%: sustained (1 = yes)" "${k}_sustained" .0f
    row "${pct}%: contended (1 = yes)" "${k}_contended" .0f
  done
  row "HTTP answers other than 200" pub_failed .0f
  row "subscribers closed by the server" closed_by_server .0f
}

raw_table() { # Pusher 1 x N against the raw broadcast of the same server (and of C)
  local names=($SERVERS) n
  [[ " $LAYOUTS " == *" 1 "* ]] || return 0
  printf '\nPusher 1 channel x %d subscribers against the raw broadcast to %d clients\n' "$SUBSCRIBERS" "$SUBSCRIBERS"
  printf '%-14s%16s%16s%12s%16s%16s%12s%14s%14s%12s\n' server "pusher deliv/s" "raw deliv/s" ratio \
    "pusher /CPU-s" "raw /CPU-s" ratio "pusher p99@50" "raw p99@50" "vs C /CPU-s"
  local craw
  craw=$(raw_file c)
  for n in "${names[@]}"; do
    local pf="$run_dir/$n-c1.txt" rf pd rd pc rc pp rp cc
    rf=$(raw_file "$n")
    pd=$(result_field "$pf" sat_deliv_per_s); pc=$(result_field "$pf" sat_deliv_per_cpu_s); pp=$(result_field "$pf" f50_p99_ms)
    rd=""; rc=""; rp=""; cc=""
    if [ -n "$rf" ]; then
      rd=$(result_field "$rf" sat_deliv_per_s); rc=$(result_field "$rf" sat_deliv_per_cpu_s)
      rp=$(result_field "$rf" f50_p99_ms); [ -n "$rp" ] || rp=$(result_field "$rf" half_p99_ms)
    fi
    [ -n "$craw" ] && cc=$(result_field "$craw" sat_deliv_per_cpu_s)
    printf '%-14s%16s%16s%12s%16s%16s%12s%14s%14s%12s\n' "$n" "$(fmt "$pd" .0f)" "$(fmt "$rd" .0f)" "$(ratio "$pd" "$rd")" \
      "$(fmt "$pc" .0f)" "$(fmt "$rc" .0f)" "$(ratio "$pc" "$rc")" "$(fmt "$pp" .2f)" "$(fmt "$rp" .2f)" "$(ratio "$pc" "$cc")"
  done
  local sl
  sl=$(result_field "$run_dir/${names[0]}-c1.txt" fixed_rate)
  if [ -n "$sl" ]; then
    printf '\nAt one offered load, %s events/s to 1 x %d (raw broadcast: %s messages/s to %d clients)\n' "$sl" "$SUBSCRIBERS" "$sl" "$SUBSCRIBERS"
    printf '%-14s%14s%14s%14s%16s\n' run "p50 (ms)" "p99 (ms)" "max (ms)" "deliv/CPU-s"
    for n in "${names[@]}"; do
      local f="$run_dir/$n-c1.txt"
      printf '%-14s%14s%14s%14s%16s\n' "pusher $n" "$(fmt "$(result_field "$f" fixed_p50_ms)" .2f)" "$(fmt "$(result_field "$f" fixed_p99_ms)" .2f)" \
        "$(fmt "$(result_field "$f" fixed_max_ms)" .2f)" "$(fmt "$(result_field "$f" fixed_deliv_per_cpu_s)" .0f)"
    done
    for n in $RAW_SERVERS c node parley; do
      local f="$run_dir/raw-$n.txt"
      [ -s "$f" ] && [ -n "$(result_field "$f" fixed_p99_ms)" ] || continue
      printf '%-14s%14s%14s%14s%16s\n' "raw $n" "$(fmt "$(result_field "$f" fixed_p50_ms)" .2f)" "$(fmt "$(result_field "$f" fixed_p99_ms)" .2f)" \
        "$(fmt "$(result_field "$f" fixed_max_ms)" .2f)" "$(fmt "$(result_field "$f" fixed_deliv_per_cpu_s)" .0f)"
    done | awk '!seen[$0]++'
  fi
  for n in c node parley; do
    local rf; rf=$(raw_file "$n")
    [ -n "$rf" ] && echo "raw $n: $rf"
  done
  return 0
}

{
  for channels in $LAYOUTS; do layout_table "$channels"; done
  raw_table
} | tee "$run_dir/table.txt"
echo; echo "raw output: $run_dir"
