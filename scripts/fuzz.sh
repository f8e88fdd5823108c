#!/usr/bin/env bash
# Builds every libFuzzer target in Fuzz/ and runs each for a bounded time.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# A target is Fuzz/<Name>Fuzz.swift linked against ParleyWire (ParleyWireCore's and ParleyWire's
# sources compiled once, as one instrumented module, for all targets), or compiled together with
# the source directory its first line names (`// fuzz-sources: Sources/ParleyText`);
# its seed corpus is Fuzz/corpus/<Name>/. A target whose second line is `// fuzz-max-seconds: N` runs
# at most N seconds (keeps CI's total down). Exits non-zero if any target crashes.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}; shift || true
export PATH=/opt/swift/usr/bin:$PATH
out=Fuzz/out; mkdir -p "$out" Fuzz/artifacts
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in Fuzz/*Fuzz.swift; do n=$(basename "$f" .swift); targets+=("${n%Fuzz}"); done
fi
flags=(-swift-version 6 -O -sanitize=fuzzer,address -parse-as-library -package-name parley -I Sources/CCrypto -I Sources/CZlib -I Sources/CPNG -I Sources/CTurboJPEG -I Sources/CGIF -I Sources/CWebP)

# ParleyWire re-exports ParleyWireCore; compiled as one module here, so the re-export is left out.
wire_sources=$(find Sources/ParleyWireCore Sources/ParleyWire -name '*.swift' ! -name 'ParleyWire+Core.swift' | sort)
wire="$out/ParleyWire"
build_wire() {
  mkdir -p "$wire"
  # shellcheck disable=SC2086
  swiftc "${flags[@]}" -module-name ParleyWire -enable-testing -emit-module -emit-module-path "$wire/ParleyWire.swiftmodule" \
    -emit-library -static -o "$wire/libParleyWire.a" $wire_sources >"$out/ParleyWire.build.log" 2>&1 \
    || { echo "fuzz: ParleyWire failed to build"; grep -E "error" "$out/ParleyWire.build.log"; exit 1; }
}

status=0
for name in "${targets[@]}"; do
  bin="$out/$name"
  own=$(sed -n '1s|^// fuzz-sources: ||p' "Fuzz/${name}Fuzz.swift")
  if [ -n "$own" ]; then
    inputs=($(find "$own" -name '*.swift' | sort) "Fuzz/${name}Fuzz.swift")
    link=()
  else
    [ -f "$wire/libParleyWire.a" ] && [ "${wire_built:-}" = 1 ] || { build_wire; wire_built=1; }
    inputs=("Fuzz/${name}Fuzz.swift")
    link=(-I "$wire" -L "$wire" -lParleyWire)
  fi
  swiftc "${flags[@]}" -module-name "${name}Fuzz" "${inputs[@]}" "${link[@]}" -lcrypto -lz -lpng16 -lturbojpeg -lgif -lwebpdemux -lwebp -o "$bin" \
    >"$out/$name.build.log" 2>&1 || { echo "fuzz: $name failed to build"; grep -E "error" "$out/$name.build.log"; exit 1; }
  work="$out/$name-corpus"; mkdir -p "$work"
  log="$out/$name.log"
  run=$seconds
  cap=$(sed -n '2s|^// fuzz-max-seconds: ||p' "Fuzz/${name}Fuzz.swift")
  if [ -n "$cap" ] && [ "$cap" -lt "$run" ]; then run=$cap; fi
  echo "fuzz: $name for ${run}s"
  if timeout -k 10 $((run + 60)) "$bin" "$work" "Fuzz/corpus/$name" -max_total_time="$run" \
      -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="Fuzz/artifacts/$name-" >"$log" 2>&1; then
    grep -E "^(#[0-9]+\s+DONE|Done)" "$log" | tail -1 || true
  else
    echo "fuzz: $name FAILED — see $log"; tail -30 "$log"; status=1
  fi
done
exit $status
