# Shared helpers for the benchmark scripts (sourced, not run).
# Servers are named: c, node, parley (broadcast protocol) and node-pusher, parley-pusher (Pusher
# protocol, run_pusher.sh). A server is started with its port and must listen on
# 127.0.0.1:PORT; its pid is the process the command execs (CPU and RSS are read from /proc/PID).

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)
BIN_DIR="$BENCH_DIR/bin"
OUT_DIR="$BENCH_DIR/out"
SERVER_CPUS=${SERVER_CPUS-0}        # taskset list for the server under test; empty: no pinning
LOADGEN_CPUS=${LOADGEN_CPUS-1}      # taskset list for the load generator / wrk; empty: no pinning
PARLEY_SERVER_CPUS=${PARLEY_SERVER_CPUS-$SERVER_CPUS}
QUIET_MAX_SECS=${QUIET_MAX_SECS:-120}   # longest wait for other processes to go quiet
QUIET_BUSY_PCT=${QUIET_BUSY_PCT:-15}    # "quiet": whole-host CPU busy below this
SERVER_PID=

log() { printf '%s\n' "$*" >&2; }

build_c() {
  mkdir -p "$BIN_DIR" "$OUT_DIR"
  local cflags="-O2 -Wall -Wextra"
  cc $cflags -o "$BIN_DIR/broadcast_server" "$BENCH_DIR/c/broadcast_server.c" -lcrypto
  cc $cflags -o "$BIN_DIR/loadgen" "$BENCH_DIR/c/loadgen.c" -lcrypto -lm
}

BENCH_NICE=${BENCH_NICE:-}           # e.g. -10: run server and load generator ahead of other processes

# With autogroup scheduling (the Linux default) a process's nice value only ranks it within its
# autogroup (one per setsid() group); so the script re-executes itself under setsid, which gives it
# an autogroup of its own, and raises that group's priority. Only benchmark processes are in it.
if [ -n "$BENCH_NICE" ] && [ -z "${BENCH_OWN_GROUP:-}" ] && command -v setsid >/dev/null; then
  export BENCH_OWN_GROUP=1
  exec setsid --wait "$0" "$@"
fi
if [ -n "$BENCH_NICE" ] && [ -w /proc/self/autogroup ]; then
  echo "$BENCH_NICE" > /proc/self/autogroup 2>/dev/null || true
fi

launch_prefix() { # launch_prefix CPUS — words to put before a command: nice and taskset (both exec)
  if [ -n "$BENCH_NICE" ]; then printf 'nice -n %q ' "$BENCH_NICE"; fi
  if [ -n "$1" ] && command -v taskset >/dev/null; then printf 'taskset -c %q ' "$1"; fi
}

server_command() { # server_command NAME PORT — prints the shell command that execs the server
  local name=$1 port=$2
  case $name in
    c) printf '%q --port %q' "$BIN_DIR/broadcast_server" "$port" ;;
    node) printf 'node %q --port %q' "$BENCH_DIR/node/broadcast_server.js" "$port" ;;
    parley)
      local cmd=${PARLEY_BROADCAST_CMD:?set PARLEY_BROADCAST_CMD to run the Parley server}
      if [[ $cmd == *"{port}"* ]]; then printf '%s' "${cmd//\{port\}/$port}"; else printf '%s --port %q' "$cmd" "$port"; fi ;;
    node-pusher) printf 'node %q --port %q --app-id 1 --key bench-key --secret bench-secret' "$BENCH_DIR/node/pusher_server.js" "$port" ;;
    parley-pusher) # PUSHER_CONFIG: the apps file run_pusher.sh writes; PARLEY_PUSHER_ARGS: extra flags
      local cmd=${PARLEY_PUSHER_CMD:?set PARLEY_PUSHER_CMD to run the Parley server} conf=${PUSHER_CONFIG:?}
      if [[ $cmd == *"{port}"* ]]; then
        cmd=${cmd//\{port\}/$port}; printf '%s' "${cmd//\{config\}/$conf}"
      else
        printf '%s --config %q %s --port %q' "$cmd" "$conf" "${PARLEY_PUSHER_ARGS-}" "$port"
      fi ;;
    *) log "unknown server $name"; return 1 ;;
  esac
}

wait_port() { # wait_port PORT SECONDS
  local port=$1 deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}

start_server() { # start_server NAME PORT LOGFILE — sets SERVER_PID
  local name=$1 port=$2 logf=$3 cmd cpus=$SERVER_CPUS
  [[ $name == parley* ]] && cpus=$PARLEY_SERVER_CPUS
  cmd=$(server_command "$name" "$port") || return 1
  # Another process on the port would answer for ours (shared machines run several benchmarks).
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    log "port $port is already in use by another process; choose another PORT"; return 1
  fi
  log "starting $name: $cmd${cpus:+ (CPUs $cpus)}"
  (cd "$REPO_DIR" && exec bash -c "ulimit -n 20000 2>/dev/null; exec $(launch_prefix "$cpus")$cmd") >"$logf" 2>&1 &
  SERVER_PID=$!
  if ! wait_port "$port" 30 || ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "$name did not listen on 127.0.0.1:$port within 30 s; its log:"; cat "$logf" >&2
    stop_server; return 1
  fi
}

stop_server() {
  [ -n "$SERVER_PID" ] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  local i
  for i in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
}

host_busy_pct() { # whole-host CPU busy % over one second
  local a b
  a=($(head -1 /proc/stat)); sleep 1; b=($(head -1 /proc/stat))
  local busy=$(( (b[1]+b[2]+b[3]+b[6]+b[7]+b[8]) - (a[1]+a[2]+a[3]+a[6]+a[7]+a[8]) ))
  local idle=$(( (b[4]+b[5]) - (a[4]+a[5]) ))
  echo $(( 100 * busy / (busy + idle + 1) ))
}

wait_quiet() { # waits (bounded) until other processes leave the CPUs alone
  local deadline=$((SECONDS + QUIET_MAX_SECS)) busy
  while :; do
    busy=$(host_busy_pct)
    [ "$busy" -lt "$QUIET_BUSY_PCT" ] && return 0
    if [ $SECONDS -ge $deadline ]; then
      log "warning: host still ${busy}% busy with other processes after ${QUIET_MAX_SECS}s; measuring anyway"
      return 0
    fi
    log "host ${busy}% busy with other processes; waiting for quiet"
    sleep 4
  done
}

machine_summary() {
  echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, $(free -g | awk '/Mem:/{print $2}') GiB RAM, kernel $(uname -r), $(. /etc/os-release; echo "$PRETTY_NAME")"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); ulimit -n $(ulimit -n); node $(node --version 2>/dev/null || echo n/a), ws $(node -p "require('/usr/share/nodejs/ws/package.json').version" 2>/dev/null || echo n/a); $(cc --version | head -1)"
  echo "pinning: server CPUs '${SERVER_CPUS}', load generator CPUs '${LOADGEN_CPUS}'; nice '${BENCH_NICE:-0}'"
}

result_field() { # result_field FILE KEY — value of KEY in the RESULT line
  grep -h '^RESULT ' "$1" 2>/dev/null | tail -1 | tr ' ' '\n' | awk -F= -v k="$2" '$1==k{print $2}'
}

ab_rounds() { # ab_rounds [--fixed-order] ROUNDS "FIRST SECOND" STEP [ITEM...]
  # The A/B scripts' interleaved rounds: for each round and each ITEM (once, without one, when none
  # are given), runs `STEP LABEL ROUND [ITEM]` for both labels. FIRST goes first in odd rounds and
  # SECOND in even ones, so neither always runs on the warmer (or busier) machine; --fixed-order
  # keeps FIRST first in every round.
  local alternate=1
  if [ "$1" = --fixed-order ]; then alternate=0; shift; fi
  local rounds=$1 step=$3 round item label
  local -a labels=($2) order items
  shift 3
  items=("$@")
  [ ${#items[@]} -gt 0 ] || items=("")
  for round in $(seq 1 "$rounds"); do
    for item in "${items[@]}"; do
      order=("${labels[@]}")
      if [ "$alternate" = 1 ] && [ $((round % 2)) = 0 ]; then order=("${labels[1]}" "${labels[0]}"); fi
      for label in "${order[@]}"; do "$step" "$label" "$round" ${item:+"$item"}; done
    done
  done
}
