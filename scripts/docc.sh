#!/usr/bin/env bash
# Builds ParleyKit's DocC documentation (Sources/ParleyKit/ParleyKit.docc) with the toolchain's
# own tools, from an existing debug build: swift-symbolgraph-extract reads the module, docc
# converts the catalog and the symbol graph. An unresolved ``Symbol`` or <doc:Article> link
# fails the run, so the docs cannot rot unnoticed.
#
#   scripts/docc.sh [output-dir]    (default .build/docc/ParleyKit.doccarchive)
set -euo pipefail
cd "$(dirname "$0")/.."
build=.build/debug
out=${1:-.build/docc/ParleyKit.doccarchive}
graphs=.build/docc/symbol-graphs
if ! command -v docc >/dev/null || ! command -v swift-symbolgraph-extract >/dev/null; then
  echo "docc: the toolchain has no docc or swift-symbolgraph-extract" >&2
  exit 1
fi
modules=$build/Modules
[ -d "$modules" ] || modules=$build
if [ ! -e "$modules/ParleyKit.swiftmodule" ]; then
  echo "docc: $modules/ParleyKit.swiftmodule is missing: run swift build first" >&2
  exit 1
fi
rm -rf "$graphs" "$out"
mkdir -p "$graphs"
# C modules are found through their module maps: the system libraries' own under Sources, and
# those SwiftPM writes into the build for C targets (CSignalPipe, which ParleyNet imports).
includes=()
for map in $(find Sources -name module.modulemap) $(find "$build/" -maxdepth 2 -name module.modulemap); do
  includes+=(-I "$(dirname "$map")")
done
swift-symbolgraph-extract -module-name ParleyKit -I "$modules" "${includes[@]}" \
  -experimental-allowed-reexported-modules=ParleyModel \
  -minimum-access-level public -skip-synthesized-members -output-dir "$graphs"
log=.build/docc/convert.log
docc convert Sources/ParleyKit/ParleyKit.docc --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name ParleyKit --fallback-bundle-identifier org.parley.ParleyKit \
  --output-path "$out" 2>&1 | tee "$log"
# Unresolved symbol and article links fail the run; other notes (an undocumented parameter)
# are shown but do not.
if grep -iE "warning: .*(can't be resolved|doesn't exist|not found|unresolved|ambiguous)" "$log"; then
  echo "docc: unresolved links (see above)" >&2
  exit 1
fi
echo "docc: wrote $out"
