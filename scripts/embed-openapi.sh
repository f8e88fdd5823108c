#!/usr/bin/env bash
# Regenerates Sources/ParleyChat/OpenAPIDocument.swift from docs/openapi.json, so the
# service serves exactly the document kept in the repo (a test checks the two agree).
set -euo pipefail
cd "$(dirname "$0")/.."
source=docs/openapi.json
target=Sources/ParleyChat/OpenAPIDocument.swift
if grep -q '"""##' "$source"; then
  echo "embed-openapi: $source contains the raw-string terminator" >&2
  exit 1
fi
{
  echo '// Generated from docs/openapi.json by scripts/embed-openapi.sh; do not edit.'
  echo
  echo '/// The OpenAPI 3.1 document of the chat REST API.'
  echo 'enum OpenAPIDocument {'
  echo '    /// The document'"'"'s JSON text.'
  echo '    static let json = ##"""'
  cat "$source"
  echo '"""##'
  echo '}'
} > "$target"
echo "wrote $target"
