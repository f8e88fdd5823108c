#!/usr/bin/env bash
# The chat hook outbox's cost on the send path: ParleyChatBench load's closed loop against
# `parley serve` on SQLite with a config-file app, without ("off") and with ("on") a chat webhook
# configured for it, in interleaved rounds (off, on, off, on, ...), each server on a fresh data
# directory. The webhook endpoint is a local sink answering 204 to every POST; it prints how many
# events it received, so a run shows the deliveries kept up.
#
#   ROUNDS=3 SENDERS=200 ROOMS=50 CLOSED_SECS=10 Benchmarks/hooks_outbox_ab.sh
#
# Environment: ROUNDS (3), SENDERS (200), ROOMS (50), WARMUP_SECS (2), CLOSED_SECS (10), PORT (9601),
# SINK_PORT (9699), PARLEY_BIN, BENCH_BIN (release builds; `swift build -c release --product parley`
# and `--product ParleyChatBench`). Everything listens on 127.0.0.1 and is stopped at the end.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-3}
SENDERS=${SENDERS:-200}
ROOMS=${ROOMS:-50}
WARMUP_SECS=${WARMUP_SECS:-2}
CLOSED_SECS=${CLOSED_SECS:-10}
PORT=${PORT:-9601}
SINK_PORT=${SINK_PORT:-9699}
PARLEY_BIN=${PARLEY_BIN:-$REPO_DIR/.build/release/parley}
BENCH_BIN=${BENCH_BIN:-$REPO_DIR/.build/release/ParleyChatBench}
[ -x "$PARLEY_BIN" ] && [ -x "$BENCH_BIN" ] || { log "missing $PARLEY_BIN or $BENCH_BIN"; exit 1; }

run_dir="$OUT_DIR/hooks-outbox-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$run_dir"
SINK_PID=
cleanup() {
  stop_server
  if [ -n "$SINK_PID" ]; then kill -TERM "$SINK_PID" 2>/dev/null || true; wait "$SINK_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT INT TERM

python3 -u - "$SINK_PORT" >"$run_dir/sink.log" 2>&1 <<'PY' &
import json, signal, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
events = 0
class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def do_POST(self):
        global events
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        events += len(json.loads(body).get("events", []))
        self.send_response(204); self.send_header("Content-Length", "0"); self.end_headers()
server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink)
def report(*_):
    print(f"events received: {events}", flush=True); sys.exit(0)
signal.signal(signal.SIGTERM, report)
signal.signal(signal.SIGUSR1, lambda *_: print(f"events received: {events}", flush=True))
server.serve_forever()
PY
SINK_PID=$!

write_apps() { # write_apps off|on FILE
  local hooks=""
  [ "$1" = on ] && hooks=", \"chat_webhooks\": [{\"url\": \"http://127.0.0.1:$SINK_PORT/events\"}]"
  printf '{"apps": [{"id": "1", "key": "bench-key", "secret": "bench-secret", "user_authentication": true%s}]}\n' "$hooks" >"$2"
}

{ machine_summary; echo "workload: $SENDERS senders over $ROOMS rooms, closed loop ${CLOSED_SECS}s after ${WARMUP_SECS}s warm-up, $ROUNDS rounds of off/on"; } | tee "$run_dir/summary.txt"
run_mode() { # run_mode off|on ROUND
  local mode=$1 name="$1-$2"
  write_apps "$mode" "$run_dir/$name.apps.json"
  wait_quiet
  (exec "$PARLEY_BIN" serve --config "$run_dir/$name.apps.json" --host 127.0.0.1 --port "$PORT" \
    --data-dir "$run_dir/$name-data" --send-rate 0 --idle-timeout 600) >"$run_dir/$name.server.log" 2>&1 &
  SERVER_PID=$!
  wait_port "$PORT" 60 || { log "parley did not start"; cat "$run_dir/$name.server.log" >&2; exit 1; }
  timeout -k 10 600 "$BENCH_BIN" load --port "$PORT" --server-pid "$SERVER_PID" --label "$name" --senders "$SENDERS" \
    --rooms "$ROOMS" --list-rooms 0 --warmup-secs "$WARMUP_SECS" --closed-secs "$CLOSED_SECS" --rate-secs 1 \
    --history-samples 0 --room-list-samples 0 --config-app 1 --app-key bench-key --app-secret bench-secret \
    >"$run_dir/$name.txt" 2>&1 || { log "benchmark $name failed"; cat "$run_dir/$name.txt" >&2; }
  grep '^RESULT ' "$run_dir/$name.txt" | tee -a "$run_dir/results.txt" || true
  sleep 1
  stop_server
  PORT=$((PORT + 1))
}

ab_rounds --fixed-order "$ROUNDS" "off on" run_mode
kill -USR1 "$SINK_PID"; sleep 0.5
echo "sink: $(tail -1 "$run_dir/sink.log")" | tee -a "$run_dir/summary.txt"
echo "results in $run_dir"
