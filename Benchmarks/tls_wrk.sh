#!/usr/bin/env bash
# HTTPS against HTTP on the same `parley serve --dev`, and optionally another build's plain
# HTTP, through Benchmarks/http_wrk.sh (wrk -t1 -c64 -d10s on /healthz), three alternating
# rounds. Servers are pinned to CPU 0 at nice -20; wrk to CPU 1 (http_wrk.sh's defaults).
#
#   CERT_DIR=DIR Benchmarks/tls_wrk.sh [OTHER_PARLEY_BINARY]
#
# DIR holds server.pem and server.key (any certificate: wrk does not verify it).
set -u
cd "$(dirname "$0")/.."
C=${CERT_DIR:?CERT_DIR must name a directory with server.pem and server.key}
BR=.build/release/parley
BASE=${1:-}
run() { # label binary port extra...
  local label=$1 bin=$2 port=$3; shift 3
  rm -rf /tmp/tls-bench-data-$port
  nice -n -20 taskset -c 0 $bin serve --dev --port $port --data-dir /tmp/tls-bench-data-$port "$@" > /tmp/tls-bench-$port.log 2>&1 &
  local pid=$!
  sleep 1.5
  local scheme=http; [ $# -gt 0 ] && scheme=https
  echo "## $label"
  BENCH_NICE=-20 QUIET_MAX_SECS=5 WRK_SECS=10 Benchmarks/http_wrk.sh $scheme://127.0.0.1:$port 2>/dev/null | tail -1
  kill -TERM $pid; wait $pid 2>/dev/null
}
for round in 1 2 3; do
  [ -n "$BASE" ] && run "other plain" "$BASE" $((19100 + round))
  run "plain" $BR $((19110 + round))
  run "TLS" $BR $((19120 + round)) --tls-cert $C/server.pem --tls-key $C/server.key
done
