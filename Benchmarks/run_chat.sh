#!/usr/bin/env bash
# Chat benchmark: acknowledged, durable message sends through `parley serve`'s REST API on SQLite
# and on PostgreSQL, history-page and room-list latency, and in the same run the raw ceiling of
# the machine — the same message rows written by a minimal program in large durable transactions.
#
#   Benchmarks/run_chat.sh                         # release build, SQLite then PostgreSQL
#   ENGINES=sqlite CLOSED_SECS=5 RATES= Benchmarks/run_chat.sh
#   REPORT_DIR=Benchmarks/out/chat-... Benchmarks/run_chat.sh   # print the tables of an earlier run
#   FSYNC_DELAY_MS=10 ENGINES=sqlite RAW=0 Benchmarks/run_chat.sh  # a slow disk: +10 ms per fsync
#
# Per engine (ENGINES, "sqlite postgres"):
#   1. raw: ParleyChatBench raw writes RAW_ROWS message rows into a fresh database migrated with
#      Parley's own schema, RAW_TXN_ROWS rows per transaction, each of RAW_STATEMENT_ROWS rows per
#      INSERT in turn (SQLite: WAL, synchronous=FULL; PostgreSQL: synchronous_commit=on, fsync=on).
#   2. parley: `parley serve --dev --send-rate 0` on a fresh SQLite data directory or on a private
#      PostgreSQL (scripts/postgres-test-instance.sh), then ParleyChatBench load: setup through the
#      API (untimed), SENDERS keep-alive connections posting to ROOMS rooms — a closed-loop run
#      (CLOSED_SECS after WARMUP_SECS), an open-loop run at each of RATES messages/s (RATE_SECS),
#      then HISTORY_SAMPLES history pages and ROOMLIST_SAMPLES room lists of a user in LIST_ROOMS rooms.
# Everything listens on 127.0.0.1 only or on a unix socket; every process is stopped at the end.
#
# Environment: ENGINES, SENDERS (1000), ROOMS (100), LIST_ROOMS (500), WARMUP_SECS (2), CLOSED_SECS (10),
# RATES (10000; comma list, empty: none), RATE_SECS (10), HISTORY_SAMPLES (2000), ROOMLIST_SAMPLES (500),
# SETTLE_SECS (0: the read probes start right after the sends; N: after an N-s pause),
# RAW_ROWS (200000), RAW_TXN_ROWS (10000), RAW_STATEMENT_ROWS (1,100), PORT (9501), BUILD (1; 0 uses
# the binaries as they are), PARLEY_BIN, BENCH_BIN, PARLEY_CHAT_ARGS (extra `parley serve` flags),
# CHAT_LOAD_ARGS (extra `ParleyChatBench load` flags, e.g. `--text-words 14`),
# CHAT_SERVER_CPUS / CHAT_LOADGEN_CPUS (taskset lists; empty, the default: no pinning — the server
# uses every core, its writer thread and event loops are separate threads), BENCH_NICE, QUIET_MAX_SECS,
# RAW (1; 0 skips the raw ceiling), DATA_ROOT (where the server's data directory goes; default the run
# directory — a tmpfs such as /dev/shm leaves only FSYNC_DELAY_MS as the disk's flush time), FSYNC_DELAY_MS (empty: none; N: every fsync/fdatasync of the SQLite
# server and the raw SQLite writer takes N ms more, through the LD_PRELOAD shim Benchmarks/c/slow_fsync.c),
# STORE_TRACE (1 when FSYNC_DELAY_MS is set, else 0: the SQLite server records its store timeline,
# PARLEY_STORE_TRACE, and the report ends with the worst stalls of the first open-loop rate and their cause).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ENGINES_GIVEN=${ENGINES:-}
ENGINES=${ENGINES:-"sqlite postgres"}
SENDERS=${SENDERS:-1000}
ROOMS=${ROOMS:-100}
LIST_ROOMS=${LIST_ROOMS:-500}
WARMUP_SECS=${WARMUP_SECS:-2}
CLOSED_SECS=${CLOSED_SECS:-10}
RATES=${RATES-10000}
RATE_SECS=${RATE_SECS:-10}
HISTORY_SAMPLES=${HISTORY_SAMPLES:-2000}
SETTLE_SECS=${SETTLE_SECS:-0}
ROOMLIST_SAMPLES=${ROOMLIST_SAMPLES:-500}
RAW_ROWS=${RAW_ROWS:-200000}
RAW_TXN_ROWS=${RAW_TXN_ROWS:-10000}
RAW_STATEMENT_ROWS=${RAW_STATEMENT_ROWS:-1,100}
PORT=${PORT:-9501}
BUILD=${BUILD:-1}
PARLEY_BIN=${PARLEY_BIN:-$REPO_DIR/.build/release/parley}
BENCH_BIN=${BENCH_BIN:-$REPO_DIR/.build/release/ParleyChatBench}
CHAT_SERVER_CPUS=${CHAT_SERVER_CPUS-}
CHAT_LOADGEN_CPUS=${CHAT_LOADGEN_CPUS-}
RAW=${RAW:-1}
FSYNC_DELAY_MS=${FSYNC_DELAY_MS:-}
STORE_TRACE=${STORE_TRACE:-$([ -n "$FSYNC_DELAY_MS" ] && echo 1 || echo 0)}
SLOW_FSYNC_LIB=
PG_INSTANCE=$REPO_DIR/scripts/postgres-test-instance.sh
PG_DIRS=()

cleanup() {
  stop_server
  # A data directory outside the run directory (DATA_ROOT, e.g. on tmpfs) is not kept.
  if [ -n "${DATA_ROOT:-}" ] && [ -n "${run_dir:-}" ]; then rm -rf "$DATA_ROOT/parley-bench-$(basename "$run_dir")"; fi
  local dir
  for dir in "${PG_DIRS[@]}"; do "$PG_INSTANCE" stop "$dir" >/dev/null 2>&1 || true; done
}

start_chat_server() { # start_chat_server LOGFILE ARGS... — the parley server, its pid in SERVER_PID
  local logf=$1; shift
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    log "port $PORT is already in use by another process; choose another PORT"; return 1
  fi
  log "starting parley: $*${CHAT_SERVER_CPUS:+ (CPUs $CHAT_SERVER_CPUS)}"
  (cd "$REPO_DIR" && exec bash -c "ulimit -n 20000 2>/dev/null; exec $(launch_prefix "$CHAT_SERVER_CPUS")$(printf '%q ' "$@")") >"$logf" 2>&1 &
  SERVER_PID=$!
  if ! wait_port "$PORT" 60 || ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "parley did not listen on 127.0.0.1:$PORT within 60 s; its log:"; cat "$logf" >&2
    stop_server; return 1
  fi
}

run_bench() { # run_bench OUTFILE SECONDS ARGS... — the benchmark program, bounded in time
  local out=$1 limit=$2; shift 2
  # shellcheck disable=SC2046
  timeout -k 10 "$limit" bash -c 'exec "$@"' _ $(launch_prefix "$CHAT_LOADGEN_CPUS") ${BENCH_ENV:-} "$BENCH_BIN" "$@" | tee "$out" \
    || { log "benchmark run $out failed"; return 1; }
  grep -q '^RESULT ' "$out"
}

slow_disk_env() { # slow_disk_env sqlite|postgres — `env` words that slow the fsyncs of an SQLite process
  [ "$1" = sqlite ] && [ -n "$SLOW_FSYNC_LIB" ] || return 0
  printf '%s\n' env "LD_PRELOAD=$SLOW_FSYNC_LIB" "SLOW_FSYNC_US=$((FSYNC_DELAY_MS * 1000))" "SLOW_FSYNC_LOG=$run_dir/$1.fsync.log"
}

measure_engine() { # measure_engine sqlite|postgres
  local engine=$1 database raw_database pg_raw pg_server
  [ "$RAW" = 1 ] || { measure_server "$engine"; return; }
  echo; echo "=== $engine: raw ceiling ==="
  if [ "$engine" = postgres ]; then
    pg_raw="$run_dir/pg-raw"; PG_DIRS+=("$pg_raw")
    if ! raw_database=$("$PG_INSTANCE" start "$pg_raw"); then
      log "could not start a private PostgreSQL (apt-get install postgresql); skipping postgres"; return 0
    fi
  else
    mkdir -p "$run_dir/raw-sqlite"; raw_database="$run_dir/raw-sqlite/raw.sqlite"
  fi
  wait_quiet
  # shellcheck disable=SC2046
  BENCH_ENV=$(slow_disk_env "$engine" | sed "s/$engine.fsync.log/raw-$engine.fsync.log/") run_bench "$run_dir/raw-$engine.txt" 1800 raw --database "$raw_database" --rows "$RAW_ROWS" \
    --txn-rows "$RAW_TXN_ROWS" --statement-rows "$RAW_STATEMENT_ROWS" --rooms "$ROOMS" --senders "$SENDERS" \
    --label "raw-$engine" || true
  if [ "$engine" = postgres ]; then "$PG_INSTANCE" stop "$pg_raw" >/dev/null; fi
  measure_server "$engine"
}

measure_server() { # measure_server sqlite|postgres — parley serve under the load
  local engine=$1 database pg_server env_words=()
  echo; echo "=== $engine: parley ==="
  mapfile -t env_words < <(slow_disk_env "$engine")
  if [ "$engine" = sqlite ] && [ "$STORE_TRACE" = 1 ]; then
    [ ${#env_words[@]} -gt 0 ] || env_words=(env)
    env_words+=("PARLEY_STORE_TRACE=$run_dir/$engine.trace")
  fi
  local data_root=${DATA_ROOT:-$run_dir}
  [ "$data_root" = "$run_dir" ] || { data_root="$data_root/parley-bench-$(basename "$run_dir")"; mkdir -p "$data_root"; }
  local args=("${env_words[@]}" "$PARLEY_BIN" serve --dev --host 127.0.0.1 --port "$PORT" --data-dir "$data_root/$engine-data"
              --send-rate 0 --idle-timeout 600)
  if [ "$engine" = postgres ]; then
    pg_server="$run_dir/pg-server"; PG_DIRS+=("$pg_server")
    if ! database=$("$PG_INSTANCE" start "$pg_server"); then
      log "could not start a private PostgreSQL for the server; skipping it"; return 0
    fi
    args+=(--database "$database")
  fi
  # shellcheck disable=SC2206
  args+=(${PARLEY_CHAT_ARGS:-})
  wait_quiet
  if start_chat_server "$run_dir/$engine.server.log" "${args[@]}"; then
    local rate_secs=0 rate
    for rate in ${RATES//,/ }; do rate_secs=$((rate_secs + RATE_SECS + 2)); done
    run_bench "$run_dir/$engine.txt" $((600 + WARMUP_SECS + CLOSED_SECS + rate_secs)) load --port "$PORT" \
      --server-pid "$SERVER_PID" --label "parley-$engine" --senders "$SENDERS" --rooms "$ROOMS" --list-rooms "$LIST_ROOMS" \
      --warmup-secs "$WARMUP_SECS" --closed-secs "$CLOSED_SECS" --rates "$RATES" --rate-secs "$RATE_SECS" \
      --history-samples "$HISTORY_SAMPLES" --room-list-samples "$ROOMLIST_SAMPLES" --settle-secs "$SETTLE_SECS" --max-secs $((540 + CLOSED_SECS + rate_secs)) ${CHAT_LOAD_ARGS:-} || true
    stop_server
  fi
  if [ "$engine" = postgres ]; then "$PG_INSTANCE" stop "$pg_server" >/dev/null; fi
  PORT=$((PORT + 1))  # a fresh port for the next server: no TIME_WAIT leftovers in the way
}

measure() {
  if [ "$BUILD" = 1 ]; then
    export PATH=/opt/swift/usr/bin:$PATH
    (cd "$REPO_DIR" && swift build -c release --product parley && swift build -c release --product ParleyChatBench) >&2
  fi
  [ -x "$PARLEY_BIN" ] && [ -x "$BENCH_BIN" ] || { log "missing $PARLEY_BIN or $BENCH_BIN (BUILD=1 builds them)"; exit 1; }
  if [ -n "$FSYNC_DELAY_MS" ]; then SLOW_FSYNC_LIB=$("$BENCH_DIR/build_slow_fsync.sh"); fi
  stamp=$(date -u +%Y%m%d-%H%M%S)
  run_dir="$OUT_DIR/chat-$stamp"; mkdir -p "$run_dir"
  trap cleanup EXIT INT TERM
  {
    machine_summary
    echo "disk: $(df -h "$run_dir" | awk 'NR==2{print $1", "$2" ("$6")"}'); sqlite $(pkg-config --modversion sqlite3 2>/dev/null || echo '?'); postgres $(ls /usr/lib/postgresql 2>/dev/null | tr '\n' ' ')"
    echo "workload: $SENDERS senders (one keep-alive connection and user each) over $ROOMS rooms; closed loop ${CLOSED_SECS}s after ${WARMUP_SECS}s warm-up; open loop at '${RATES}'/s for ${RATE_SECS}s each; $HISTORY_SAMPLES history pages; $ROOMLIST_SAMPLES room lists of a user in $LIST_ROOMS rooms"
    echo "raw: $RAW_ROWS rows, $RAW_TXN_ROWS rows per transaction, $RAW_STATEMENT_ROWS rows per INSERT"
    echo "pinning: server CPUs '${CHAT_SERVER_CPUS:-any}', benchmark CPUs '${CHAT_LOADGEN_CPUS:-any}'"
    echo "disk: ${FSYNC_DELAY_MS:-no} added fsync delay (ms, SQLite only); server binary $PARLEY_BIN"
  } | tee "$run_dir/summary.txt"
  local engine
  for engine in $ENGINES; do measure_engine "$engine"; done
}

if [ -n "${REPORT_DIR:-}" ]; then
  run_dir=$(cd "$REPORT_DIR" && pwd)
  [ -n "${ENGINES_GIVEN:-}" ] || ENGINES=$(for e in sqlite postgres; do [ -s "$run_dir/$e.txt" ] || [ -s "$run_dir/raw-$e.txt" ] && echo "$e"; done | tr '\n' ' ')
else
  measure
fi

fmt() { if [ -n "$1" ]; then printf "%${2}" "$1"; else printf '%s' "-"; fi; }
ratio() { # A/B with two decimals, or '-'
  if [ -n "$1" ] && [ -n "$2" ] && awk -v b="$2" 'BEGIN{exit !(b>0)}'; then awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; else printf '%s' "-"; fi
}
best_raw() { # the highest rows/s of any statement size in FILE
  grep -h '^RESULT ' "$1" 2>/dev/null | tail -1 | tr ' ' '\n' | awk -F= '$1 ~ /_rows_per_s$/ && $2+0 > best {best=$2+0} END{if (best) print best}'
}
check() { # check VALUE OP LIMIT — "met", "missed" or "-"
  if [ -z "$1" ]; then printf '%s' "-"; return; fi
  if awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN{exit !((op==">=" && v>=l) || (op=="<=" && v<=l))}'; then printf 'met'; else printf 'MISSED'; fi
}

table() {
  local engines=($ENGINES) e first_rate
  first_rate=${RATES%%,*}
  printf '\n%-58s' "chat benchmark ($SENDERS senders, $ROOMS rooms)"; for e in "${engines[@]}"; do printf '%14s' "$e"; done; echo
  row() { # row LABEL KEY FORMAT [raw]
    local label=$1 key=$2 f=$3 file
    printf '%-58s' "$label"
    for e in "${engines[@]}"; do
      file="$run_dir/$e.txt"; [ "${4:-}" = raw ] && file="$run_dir/raw-$e.txt"
      printf '%14s' "$(fmt "$(result_field "$file" "$key")" "$f")"
    done
    echo
  }
  row "durable sends/s, closed loop" closed_sends_per_s .0f
  row "  ack p50 (ms)" closed_ack_p50_ms .2f
  row "  ack p99 (ms)" closed_ack_p99_ms .2f
  row "  answers other than 201 (failed)" closed_failed .0f
  row "  answered 429 (rate-limited)" closed_rate_limited .0f
  row "  server CPU (% of one core)" closed_server_cpu_pct .0f
  row "  benchmark CPU (% of one core)" closed_bench_cpu_pct .0f
  row "  host CPU busy (% of all cores)" closed_host_cpu_pct .0f
  local rate
  for rate in ${RATES//,/ }; do
    row "open loop at $rate/s: acknowledged/s" "r${rate}_sends_per_s" .0f
    row "  sustained (1 = yes)" "r${rate}_sustained" .0f
    row "  ack p50 (ms)" "r${rate}_ack_p50_ms" .2f
    row "  ack p99 (ms)" "r${rate}_ack_p99_ms" .2f
    row "  ack max (ms)" "r${rate}_ack_max_ms" .2f
    row "  send lateness p99 (ms, included above)" "r${rate}_late_p99_ms" .2f
    row "  server CPU (% of one core)" "r${rate}_server_cpu_pct" .0f
  done
  row "history page (50 messages) p50 (ms)" history_p50_ms .3f
  row "history page p99 (ms)" history_p99_ms .3f
  row "room list ($LIST_ROOMS rooms, all unread) p50 (ms)" roomlist_p50_ms .3f
  row "room list (all unread) p99 (ms)" roomlist_p99_ms .3f
  row "room list ($LIST_ROOMS rooms, all read) p50 (ms)" roomlist_read_p50_ms .3f
  row "room list (all read) p99 (ms)" roomlist_read_p99_ms .3f
  local s
  for s in ${RAW_STATEMENT_ROWS//,/ }; do
    row "raw rows/s, $s row(s) per INSERT, $RAW_TXN_ROWS per COMMIT" "s${s}_rows_per_s" .0f raw
  done
  printf '%-58s' "parley closed-loop sends/s / best raw rows/s"
  for e in "${engines[@]}"; do
    printf '%14s' "$(ratio "$(result_field "$run_dir/$e.txt" closed_sends_per_s)" "$(best_raw "$run_dir/raw-$e.txt")")"
  done
  echo
  echo
  echo "targets (issue 4, 2-core machine):"
  local f="$run_dir/sqlite.txt"
  printf '  %-52s %10s  %s\n' ">= 20,000 durable sends/s on SQLite" "$(fmt "$(result_field "$f" closed_sends_per_s)" .0f)" \
    "$(check "$(result_field "$f" closed_sends_per_s)" '>=' 20000)"
  for e in "${engines[@]}"; do
    f="$run_dir/$e.txt"
    if [ -n "$first_rate" ]; then
      printf '  %-52s %10s  %s\n' "p99 ack <= 25 ms at $first_rate/s ($e)" "$(fmt "$(result_field "$f" "r${first_rate}_ack_p99_ms")" .2f)" \
        "$(check "$(result_field "$f" "r${first_rate}_ack_p99_ms")" '<=' 25)$([ "$(result_field "$f" "r${first_rate}_sustained")" = 0 ] && echo ' (rate not sustained)')"
    fi
    printf '  %-52s %10s  %s\n' "history page p99 <= 2 ms ($e)" "$(fmt "$(result_field "$f" history_p99_ms)" .3f)" \
      "$(check "$(result_field "$f" history_p99_ms)" '<=' 2)"
  done
}

table | tee "$run_dir/table.txt"
stalls() { # the worst stalls of the SQLite store in the first open-loop window, from its trace
  local trace="$run_dir/sqlite.trace" f="$run_dir/sqlite.txt" key=closed from to
  [ -s "$trace" ] || return 0
  [ -n "${RATES%%,*}" ] && key="r${RATES%%,*}"
  from=$(result_field "$f" "${key}_from_ns"); to=$(result_field "$f" "${key}_to_ns")
  echo; echo "SQLite store timeline, $key window (Benchmarks/store_trace.py):"
  python3 "$BENCH_DIR/store_trace.py" "$trace" ${from:+--from-ns "$from"} ${to:+--to-ns "$to"} \
    $([ -s "$run_dir/sqlite.fsync.log" ] && printf -- '--fsync-log %s' "$run_dir/sqlite.fsync.log") --worst "${STALLS:-8}"
}
stalls | tee "$run_dir/stalls.txt"
echo; echo "raw output: $run_dir"
