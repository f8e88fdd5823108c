#!/usr/bin/env bash
# Instructions per chat send, free of the host's load: runs `parley serve --dev` under callgrind,
# drives it with `ParleyChatBench load` (20 senders over 10 rooms, 64-byte texts, 30 s closed loop),
# zeroes the counters once the senders are connected and dumps them when the loop ends, so the
# profile holds the sends only (no start-up, migrations or setup). Prints Ir / acknowledged sends.
#
#   Benchmarks/callgrind_send.sh NAME PARLEY_BIN [PORT]
#
# valgrind 3.19 cannot read DWARF 5: give it a copy made with `objcopy --strip-debug`.
# CHAT_BENCH names the ParleyChatBench binary (default .build/release/ParleyChatBench); CHAT_LOAD_ARGS
# adds `ParleyChatBench load` flags (e.g. `--text-words 14`).
# Per function: callgrind_annotate --threshold=100 OUT_DIR/NAME.out.1
set -euo pipefail
name=$1 bin=$2 port=${3:-9861}
out=${OUT_DIR:-/tmp/callgrind-send}
bench=${CHAT_BENCH:-.build/release/ParleyChatBench}
rm -rf "$out/data-$name" "$out/$name".out*
mkdir -p "$out/data-$name"
valgrind --tool=callgrind --callgrind-out-file="$out/$name.out" --separate-threads=no \
  "$bin" serve --dev --host 127.0.0.1 --port "$port" --data-dir "$out/data-$name" --send-rate 0 --idle-timeout 600 \
  >"$out/$name.log" 2>&1 &
server=$!
for _ in $(seq 600); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.2; done
timeout 600 "$bench" load --port "$port" --senders 20 --rooms 10 --list-rooms 0 --warmup-secs 0 --closed-secs 30 \
  --history-samples 0 --room-list-samples 0 ${CHAT_LOAD_ARGS:-} >"$out/$name.bench" 2>&1 &
load=$!
for _ in $(seq 1200); do grep -q "connections open" "$out/$name.bench" && break; sleep 0.1; done
callgrind_control -z "$server" >/dev/null
wait "$load"
callgrind_control -d "$server" >/dev/null
sleep 1
kill -TERM "$server"
wait "$server" || true
acked=$(grep -o 'closed_acked=[0-9]*' "$out/$name.bench" | cut -d= -f2)
ir=$(grep -m1 '^summary:' "$out/$name.out.1" | awk '{print $2}')
echo "$name: $acked sends acknowledged, $ir instructions, $((ir / acked)) per send ($out/$name.out.1)"
