#!/usr/bin/env bash
# Soak run (not part of CI): `parley serve` under a steady mixed load at half of its measured
# chat saturation for SOAK_SECS, sampling its memory and descriptors, to show they stay flat and
# that nothing fails over a long run.
#
#   Benchmarks/soak.sh                                  # 30 minutes, release binaries
#   SOAK_SECS=60 Benchmarks/soak.sh                     # a short check of the script itself
#   SOAK_RATE=8000 SOAK_SECS=3600 Benchmarks/soak.sh    # a fixed chat rate, no saturation step
#
# 1. `parley serve --dev --send-rate 0 --idle-timeout 600` on a fresh data directory (under TMPDIR,
#    removed at the end unless KEEP_DATA=1) and a free port on 127.0.0.1, `ulimit -n 20000`.
# 2. Saturation: ParleyChatBench load, closed loop for SAT_SECS (SENDERS senders over ROOMS
#    rooms) -> S durable sends/s. The soak rate is S/2 (SOAK_RATE instead skips this step).
# 3. For SOAK_SECS, at once:
#    - ParleyChatBench load, open loop at the soak rate (the same senders and rooms);
#    - Benchmarks/soak_peers.py: SUBSCRIBERS Pusher subscribers on CHANNELS public channels with
#      EVENT_RATE events/s triggered through the signed HTTP API (every subscriber must get every
#      event of its channel once, in order), and DOCS documents edited by EDITORS y-websocket
#      clients each every ~EDIT_MS ms, checked for convergence every DOC_ROUND_SECS;
#    - a monitor: the server's VmRSS (and RssAnon/RssFile), open descriptors, threads, CPU time
#      and database size every MONITOR_SECS into samples.csv.
# 4. Summary: RSS and descriptors at the start of the soak window, at its end and their maximum,
#    then again AFTER_SECS after the load stopped; chat sends acknowledged and failed, fan-out
#    deliveries, document rounds; `errors=N`. Exits 1 when N > 0.
#
# Everything listens on and connects to 127.0.0.1 only; the run ends by itself (each load has its
# own deadline, the script a watchdog) and stops every process it started, also on Ctrl-C.
# Output: Benchmarks/out/soak-<UTC time>/ (summary.txt, samples.csv, the raw output of each part).
#
# Environment: SOAK_SECS (1800, at most 3600), SAT_SECS (10), SOAK_RATE (sends/s; default S/2),
# SENDERS (1000), ROOMS (100), SUBSCRIBERS (500), CHANNELS (5), EVENT_RATE (100), DOCS (2),
# EDITORS (3), EDIT_MS (50), DOC_ROUND_SECS (60), MONITOR_SECS (10), AFTER_SECS (10), PORT (a free
# one), PARLEY_BIN, BENCH_BIN (default .build/release/{parley,ParleyChatBench}; not built here),
# PYTHON (default .venv-test/bin/python: websockets, pusher, pycrdt), KEEP_DATA (0), BENCH_NICE,
# QUIET_MAX_SECS (120: the longest wait for other processes to leave the CPUs before starting).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

SOAK_SECS=${SOAK_SECS:-1800}
SAT_SECS=${SAT_SECS:-10}
SOAK_RATE=${SOAK_RATE:-}
SENDERS=${SENDERS:-1000}
ROOMS=${ROOMS:-100}
SUBSCRIBERS=${SUBSCRIBERS:-500}
CHANNELS=${CHANNELS:-5}
EVENT_RATE=${EVENT_RATE:-100}
DOCS=${DOCS:-2}
EDITORS=${EDITORS:-3}
EDIT_MS=${EDIT_MS:-50}
DOC_ROUND_SECS=${DOC_ROUND_SECS:-60}
MONITOR_SECS=${MONITOR_SECS:-10}
AFTER_SECS=${AFTER_SECS:-10}
PORT=${PORT:-}
PARLEY_BIN=${PARLEY_BIN:-$REPO_DIR/.build/release/parley}
BENCH_BIN=${BENCH_BIN:-$REPO_DIR/.build/release/ParleyChatBench}
PYTHON=${PYTHON:-$REPO_DIR/.venv-test/bin/python}
KEEP_DATA=${KEEP_DATA:-0}

LOAD_PID= PEERS_PID= MONITOR_PID= TAIL_PID= DATA_DIR=

# ---------------------------------------------------------------- processes

stop_pid() { # stop_pid PID — SIGTERM, SIGKILL after 5 s; only a process this script started
  local pid=$1 i
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  trap - EXIT INT TERM
  [ -n "${run_dir:-}" ] && touch "$run_dir/monitor.stop"
  stop_pid "$LOAD_PID"; LOAD_PID=
  stop_pid "$PEERS_PID"; PEERS_PID=
  stop_pid "$MONITOR_PID"; MONITOR_PID=
  stop_pid "$TAIL_PID"; TAIL_PID=
  stop_server
  if [ -n "$DATA_DIR" ] && [ "$KEEP_DATA" != 1 ]; then rm -rf "$DATA_DIR"; fi
  [ -n "${run_dir:-}" ] && rm -f "$run_dir/go" "$run_dir/phase" "$run_dir/monitor.stop" "$run_dir/monitor.sample"
  return 0
}

free_port() {
  "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_parley() {
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    log "port $PORT is already in use by another process; choose another PORT"; return 1
  fi
  local args=("$PARLEY_BIN" serve --dev --host 127.0.0.1 --port "$PORT" --data-dir "$DATA_DIR"
              --send-rate 0 --idle-timeout 600)
  log "starting parley: ${args[*]}"
  (cd "$REPO_DIR" && exec bash -c "ulimit -n 20000 2>/dev/null; exec $(launch_prefix "")$(printf '%q ' "${args[@]}")") \
    >"$run_dir/server.log" 2>&1 &
  SERVER_PID=$!
  if ! wait_port "$PORT" 60 || ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "parley did not listen on 127.0.0.1:$PORT within 60 s; its log:"; cat "$run_dir/server.log" >&2
    return 1
  fi
}

# ---------------------------------------------------------------- the monitor

sample() { # one CSV row: seconds, phase, VmRSS/RssAnon/RssFile (KiB), descriptors, threads, CPU s, database MiB
  local pid=$1 phase=$2 key value rest rss=0 anon=0 file=0 threads=0 fds stat cpu db
  while read -r key value rest; do
    case $key in
      VmRSS:) rss=$value ;; RssAnon:) anon=$value ;; RssFile:) file=$value ;; Threads:) threads=$value ;;
    esac
  done <"/proc/$pid/status" || return 1
  fds=(/proc/"$pid"/fd/*)
  read -r stat <"/proc/$pid/stat" || return 1
  stat=(${stat##*) })  # fields from 3 on; utime and stime are fields 14 and 15
  cpu=$(( (stat[11] + stat[12]) * 100 / CLK_TCK ))
  db=$(du -sm "$DATA_DIR" 2>/dev/null | cut -f1)
  printf '%d,%s,%d,%d,%d,%d,%d,%d.%02d,%s\n' $((SECONDS - T0)) "$phase" "$rss" "$anon" "$file" "${#fds[@]}" \
    "$threads" $((cpu / 100)) $((cpu % 100)) "${db:-0}"
}

monitor() { # every MONITOR_SECS, at once when the phase changes or when asked, until told to stop
  local pid=$1 phase last_phase= next=0
  echo "t_s,phase,vmrss_kb,rss_anon_kb,rss_file_kb,fds,threads,cpu_s,data_mb"
  while [ ! -e "$run_dir/monitor.stop" ] && kill -0 "$pid" 2>/dev/null; do
    phase=$(cat "$run_dir/phase" 2>/dev/null || echo "?")
    if [ "$phase" != "$last_phase" ] || [ $SECONDS -ge $next ] || [ -e "$run_dir/monitor.sample" ]; then
      rm -f "$run_dir/monitor.sample"
      sample "$pid" "$phase" || break
      last_phase=$phase; next=$((SECONDS + MONITOR_SECS))
    fi
    sleep 0.5
  done
}

set_phase() { echo "$1" >"$run_dir/phase"; log "--- phase: $1"; sleep 1; }

# ---------------------------------------------------------------- the loads

bench() { # bench OUTFILE ARGS... — ParleyChatBench load in the background (LOAD_PID)
  local out=$1; shift
  "$BENCH_BIN" load --port "$PORT" --server-pid "$SERVER_PID" --senders "$SENDERS" --rooms "$ROOMS" \
    --list-rooms 0 --history-samples 0 --room-list-samples 0 "$@" >"$out" 2>&1 &
  LOAD_PID=$!
}

wait_pid() { # wait_pid PID DEADLINE(SECONDS) — its exit status; 124 when it outlived the deadline
  local pid=$1 deadline=$2 rc=0
  while kill -0 "$pid" 2>/dev/null; do
    if [ $SECONDS -ge "$deadline" ]; then log "process $pid still running at its deadline; stopping it"; stop_pid "$pid"; return 124; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then log "the server exited during the run"; stop_pid "$pid"; return 125; fi
    sleep 1
  done
  wait "$pid" || rc=$?
  return $rc
}

wait_line() { # wait_line FILE PATTERN PID SECONDS — until FILE has a line matching PATTERN
  local deadline=$((SECONDS + $4))
  until grep -q "$2" "$1" 2>/dev/null; do
    if ! kill -0 "$3" 2>/dev/null || [ $SECONDS -ge $deadline ]; then return 1; fi
    sleep 0.2
  done
}

measure_saturation() {
  set_phase saturation
  bench "$run_dir/saturation.txt" --label soak-saturation --warmup-secs 2 --closed-secs "$SAT_SECS" --max-secs $((SAT_SECS + 600))
  local rc=0
  wait_pid "$LOAD_PID" $((SECONDS + SAT_SECS + 660)) || rc=$?
  LOAD_PID=
  cat "$run_dir/saturation.txt"
  SAT_RATE=$(result_field "$run_dir/saturation.txt" closed_sends_per_s)
  if [ "$rc" != 0 ] || [ -z "$SAT_RATE" ]; then log "the saturation measurement failed (exit $rc)"; exit 1; fi
  SOAK_RATE=$(awk -v s="$SAT_RATE" 'BEGIN{printf "%d", s / 2}')
  [ "$SOAK_RATE" -ge 1 ] || { log "measured saturation $SAT_RATE sends/s is too low to soak at"; exit 1; }
}

run_soak() {
  set_phase soak-setup
  rm -f "$run_dir/go"
  "$PYTHON" "$BENCH_DIR/soak_peers.py" --port "$PORT" --secs "$SOAK_SECS" --subscribers "$SUBSCRIBERS" \
    --channels "$CHANNELS" --event-rate "$EVENT_RATE" --docs "$DOCS" --editors "$EDITORS" --edit-ms "$EDIT_MS" \
    --doc-round-secs "$DOC_ROUND_SECS" --progress-secs "$MONITOR_SECS" --go-file "$run_dir/go" >"$run_dir/peers.txt" 2>&1 &
  PEERS_PID=$!
  if ! wait_line "$run_dir/peers.txt" '^READY' "$PEERS_PID" 300; then
    log "the Pusher and document peers did not get ready; their output:"; cat "$run_dir/peers.txt" >&2; exit 1
  fi
  # The open loop starts with a 1-s warm-up at the rate once its senders are connected.
  bench "$run_dir/load.txt" --label soak --warmup-secs 0 --closed-secs 0 --rates "$SOAK_RATE" \
    --rate-secs "$SOAK_SECS" --max-secs $((SOAK_SECS + 600))
  if ! wait_line "$run_dir/load.txt" 'sender connections open' "$LOAD_PID" 300; then
    log "the chat load did not connect; its output:"; cat "$run_dir/load.txt" >&2; exit 1
  fi
  touch "$run_dir/go"
  set_phase soak
  log "soaking for ${SOAK_SECS}s: chat at $SOAK_RATE sends/s, $SUBSCRIBERS subscribers at $EVENT_RATE events/s, $DOCS x $EDITORS editors"
  tail -n +1 -f "$run_dir/peers.txt" --pid "$PEERS_PID" | grep --line-buffered '^peers ' >&2 &
  TAIL_PID=$!
  local deadline=$((SECONDS + SOAK_SECS + 900)) last_sample=$((SECONDS + SOAK_SECS - 2))
  # The window's last sample is taken just before the loads stop; once either has stopped, the
  # samples belong to the drain.
  while kill -0 "$LOAD_PID" 2>/dev/null && kill -0 "$PEERS_PID" 2>/dev/null && kill -0 "$SERVER_PID" 2>/dev/null \
        && [ $SECONDS -lt $deadline ]; do
    if [ -n "$last_sample" ] && [ $SECONDS -ge "$last_sample" ]; then touch "$run_dir/monitor.sample"; last_sample=; fi
    sleep 0.5
  done
  set_phase drain
  LOAD_RC=0; wait_pid "$LOAD_PID" $deadline || LOAD_RC=$?
  LOAD_PID=
  PEERS_RC=0; wait_pid "$PEERS_PID" $deadline || PEERS_RC=$?
  PEERS_PID=
  stop_pid "$TAIL_PID"; TAIL_PID=
  set_phase after
  sleep "$AFTER_SECS"
  set_phase end
}

# ---------------------------------------------------------------- summary

col_stats() { # col_stats PHASE COLUMN — "first last max" of that column over the phase's samples
  awk -F, -v p="$1" -v c="$2" 'NR>1 && $2==p { if (!n++) f=$c; l=$c; if ($c+0>m) m=$c } END { if (n) print f, l, m; else print "- - -" }' \
    "$run_dir/samples.csv"
}

col_quarters() { # col_quarters PHASE COLUMN — the column at 0, 25, 50, 75 and 100% of the phase's time
  awk -F, -v p="$1" -v c="$2" 'NR>1 && $2==p { t[n+0]=$1; v[n+0]=$c; n++ }
    END { if (!n) { print "- - - - -"; exit } for (q = 0; q <= 4; q++) { want = t[0] + q * (t[n-1] - t[0]) / 4
      for (i = 0; i < n - 1 && t[i] < want; i++); printf "%s%s", v[i], (q < 4 ? " " : "\n") } }' "$run_dir/samples.csv"
}

mib() { awk -v k="$1" 'BEGIN{ if (k ~ /^[0-9]+$/) printf "%.1f", k/1024; else printf "-" }'; }

summary() {
  set +e  # report whatever is there: a part that died leaves fields missing
  local rss fds anon threads after_rss after_fds f="$run_dir/load.txt" p="$run_dir/peers.txt" r="r$SOAK_RATE"
  read -r -a rss <<<"$(col_stats soak 3)"; read -r -a anon <<<"$(col_stats soak 4)"
  read -r -a fds <<<"$(col_stats soak 6)"; read -r -a threads <<<"$(col_stats soak 7)"
  read -r -a after_rss <<<"$(col_stats after 3)"; read -r -a after_fds <<<"$(col_stats after 6)"
  peer() { grep -h '^PEERS ' "$p" 2>/dev/null | tail -1 | tr ' ' '\n' | awk -F= -v k="$1" '$1==k{print $2}'; }
  local sat_failed chat_failed chat_limited peers_errors server_errors=0 errors
  sat_failed=$(result_field "$run_dir/saturation.txt" closed_failed); sat_failed=${sat_failed:-0}
  chat_failed=$(result_field "$f" "${r}_failed"); chat_limited=$(result_field "$f" "${r}_rate_limited")
  peers_errors=$(peer errors)
  errors=$(( sat_failed + ${chat_failed:-0} + ${chat_limited:-0} + ${peers_errors:-0} ))
  # A load that crashed or stalled, or a server that died or failed to stop, is an error of its own.
  [ "$LOAD_RC" = 0 ] && [ -n "$chat_failed" ] || errors=$((errors + 1))
  [ -n "$peers_errors" ] || errors=$((errors + 1))
  [ "$SERVER_RC" = 0 ] || { server_errors=1; errors=$((errors + 1)); }
  echo
  echo "soak: ${SOAK_SECS}s on 127.0.0.1:$PORT"
  printf '  chat rate               %s sends/s (%s)\n' "$SOAK_RATE" \
    "$(if [ -n "$SAT_RATE" ]; then echo "half of $SAT_RATE sends/s measured in a ${SAT_SECS}-s closed loop"; else echo "given as SOAK_RATE"; fi)"
  printf '  server RSS (MiB)        start %s  end %s  max %s   (anonymous: start %s  end %s  max %s)\n' \
    "$(mib "${rss[0]}")" "$(mib "${rss[1]}")" "$(mib "${rss[2]}")" "$(mib "${anon[0]}")" "$(mib "${anon[1]}")" "$(mib "${anon[2]}")"
  printf '  RSS over the window     %s MiB at 0/25/50/75/100%% (anonymous: %s)\n' \
    "$(for k in $(col_quarters soak 3); do mib "$k"; echo -n ' '; done | sed 's/ $//; s/ / \/ /g')" \
    "$(for k in $(col_quarters soak 4); do mib "$k"; echo -n ' '; done | sed 's/ $//; s/ / \/ /g')"
  echo "                          (anonymous memory includes SQLite's page caches, up to 64 MiB for the writer and 16 MiB"
  echo "                          per reader, which fill as the database grows: flat means flat once they are full)"
  printf '  server descriptors      start %s  end %s  max %s\n' "${fds[0]}" "${fds[1]}" "${fds[2]}"
  printf '  server threads          start %s  end %s  max %s\n' "${threads[0]}" "${threads[1]}" "${threads[2]}"
  printf '  %ss after the load     RSS %s MiB, %s descriptors\n' "$AFTER_SECS" "$(mib "${after_rss[1]}")" "${after_fds[1]}"
  printf '  chat                    %s acked of %s offered (%s/s), %s failed, %s rate-limited, %s unsent, sustained %s; ack p50 %s p99 %s max %s ms\n' \
    "$(result_field "$f" "${r}_acked")" "$(result_field "$f" "${r}_offered")" "$(result_field "$f" "${r}_sends_per_s")" \
    "${chat_failed:-?}" "${chat_limited:-?}" "$(result_field "$f" "${r}_unsent")" \
    "$( [ "$(result_field "$f" "${r}_sustained")" = 1 ] && echo yes || echo NO)" \
    "$(result_field "$f" "${r}_ack_p50_ms")" "$(result_field "$f" "${r}_ack_p99_ms")" "$(result_field "$f" "${r}_ack_max_ms")"
  printf '  CPU over the window     server %s%% of a core, ParleyChatBench %s%%, whole host %s%% busy\n' \
    "$(result_field "$f" "${r}_server_cpu_pct")" "$(result_field "$f" "${r}_bench_cpu_pct")" "$(result_field "$f" "${r}_host_cpu_pct")"
  printf '  chat (saturation step)  %s failed\n' "$sat_failed"
  printf '  fan-out                 %s of %s events due triggered, to %s subscribers on %s channels: %s of %s deliveries, %s subscribers lost; trigger-to-delivery p50 %s p99 %s max %s ms\n' \
    "$(peer events_triggered)" "$(peer events_due)" "$(peer subscribers)" "$(peer channels)" "$(peer deliveries)" "$(peer deliveries_expected)" \
    "$(peer subscribers_lost)" "$(peer delivery_p50_ms)" "$(peer delivery_p99_ms)" "$(peer delivery_max_ms)"
  printf '  documents               %s of %s rounds converged (and re-read by a fresh client), %s inserts, %s deletes\n' \
    "$(peer doc_rounds_converged)" "$(peer doc_rounds)" "$(peer doc_inserts)" "$(peer doc_deletes)"
  printf '  peers process           %s%% of a core, its event loop up to %s ms late (latencies above include that)\n' \
    "$(peer peers_cpu_pct)" "$(peer peers_loop_lag_max_ms)"
  printf '  peers                   %s errors%s\n' "${peers_errors:-?}" \
    "$(grep -h '^PEERS ' "$p" 2>/dev/null | tail -1 | tr ' ' '\n' | grep '^err_' | tr '\n' ' ' | sed 's/^/: /')"
  printf '  database                %s MiB at the end\n' "$(tail -1 "$run_dir/samples.csv" | cut -d, -f9)"
  printf '  server log              %s warn / %s error lines; exit status after SIGTERM %s\n' \
    "$(grep -c 'level=warn' "$run_dir/server.log" || true)" "$(grep -c 'level=error' "$run_dir/server.log" || true)" "$SERVER_RC"
  [ "$LOAD_RC" = 0 ] || echo "  ParleyChatBench exited with status $LOAD_RC: $(grep -h 'ParleyChatBench:' "$f" | head -1)"
  [ "$PEERS_RC" = 0 ] || echo "  soak_peers.py exited with status $PEERS_RC"
  [ "$server_errors" = 0 ] || echo "  the server did not exit cleanly (status $SERVER_RC): $(tail -3 "$run_dir/server.log")"
  echo "errors=$errors"
}

# ---------------------------------------------------------------- main

[ -x "$PARLEY_BIN" ] && [ -x "$BENCH_BIN" ] || { log "missing $PARLEY_BIN or $BENCH_BIN (swift build -c release)"; exit 1; }
[ -x "$PYTHON" ] || { log "missing $PYTHON (a Python with websockets, pusher and pycrdt; see requirements-test.txt)"; exit 1; }
[ "$SOAK_SECS" -ge 10 ] && [ "$SOAK_SECS" -le 3600 ] || { log "SOAK_SECS must be 10..3600"; exit 1; }
CLK_TCK=$(getconf CLK_TCK)
T0=$SECONDS
stamp=$(date -u +%Y%m%d-%H%M%S)
run_dir="$OUT_DIR/soak-$stamp"; mkdir -p "$run_dir"
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
DATA_DIR=$(mktemp -d "${TMPDIR:-/tmp}/parley-soak.XXXXXX")
PORT=${PORT:-$(free_port)}
SAT_RATE= LOAD_RC=1 PEERS_RC=1 SERVER_RC=1
{
  machine_summary | grep -v '^pinning:'
  echo "binaries: $PARLEY_BIN ($(date -u -r "$PARLEY_BIN" '+%Y-%m-%d %H:%M UTC')), $BENCH_BIN; python: $PYTHON"
  echo "soak: ${SOAK_SECS}s; chat $SENDERS senders over $ROOMS rooms at ${SOAK_RATE:-half of saturation} sends/s; $SUBSCRIBERS Pusher subscribers on $CHANNELS channels at $EVENT_RATE events/s; $DOCS documents x $EDITORS editors every ~${EDIT_MS} ms, new documents every ${DOC_ROUND_SECS}s; samples every ${MONITOR_SECS}s"
} | tee "$run_dir/summary.txt"

wait_quiet  # a saturation measured next to other work would set the soak rate too low
echo idle >"$run_dir/phase"
start_parley
monitor "$SERVER_PID" >"$run_dir/samples.csv" &
MONITOR_PID=$!
if [ -z "$SOAK_RATE" ]; then measure_saturation; fi
run_soak
touch "$run_dir/monitor.stop"
stop_pid "$MONITOR_PID"; MONITOR_PID=
SERVER_RC=0
kill -TERM "$SERVER_PID" 2>/dev/null || true
for _ in $(seq 150); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$SERVER_PID" 2>/dev/null; then SERVER_RC=timeout; stop_server; else wait "$SERVER_PID" || SERVER_RC=$?; SERVER_PID=; fi
summary >"$run_dir/result.txt"
cat "$run_dir/result.txt" >>"$run_dir/summary.txt"
cat "$run_dir/result.txt"
echo "raw output: $run_dir"
[ "$(sed -n 's/^errors=//p' "$run_dir/result.txt")" = 0 ]
