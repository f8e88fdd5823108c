#!/usr/bin/env bash
# Regenerates Sources/ParleyServer/WebAssetFiles.swift from the browser client's files in
# Web/, so `parley serve` carries the page in its binary (no resource bundle to install or
# find at run time). A test checks the generated file matches Web/. Run it after editing Web/.
set -euo pipefail
cd "$(dirname "$0")/.."
target=Sources/ParleyServer/WebAssetFiles.swift
files=$(cd Web && find . -type f \( -name '*.html' -o -name '*.js' -o -name '*.css' -o -name '*.svg' \) | sed 's|^\./||' | LC_ALL=C sort)
{
  echo '// Generated from Web/ by scripts/embed-web.sh; do not edit.'
  echo
  echo '/// The browser client'"'"'s files (path under Web/, text), embedded at build time.'
  echo 'enum WebAssetFiles {'
  echo '    static let files: [(name: String, text: String)] = ['
  for file in $files; do
    if grep -q '"""####' "Web/$file"; then
      echo "embed-web: Web/$file contains the raw-string terminator" >&2
      exit 1
    fi
    echo "        (\"$file\", ####\"\"\""
    cat "Web/$file"
    # The literal drops the newline before its closing delimiter; keep the file's own last one.
    echo
    echo '"""####),'
  done
  echo '    ]'
  echo '}'
} > "$target"
echo "wrote $target"
