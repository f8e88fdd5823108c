#!/bin/bash
# Prints a close_guard log (scripts/lib/close_guard.c) with each frame of the test binary
# turned into a function name and source line (addr2line, then swift demangle).
set -u
log=$1
while IFS= read -r line; do
  if [[ $line =~ ^(.+\.xctest)\(\+(0x[0-9a-f]+)\) ]]; then
    binary=${BASH_REMATCH[1]} offset=${BASH_REMATCH[2]}
    where=$(addr2line -f -e "$binary" "$offset" 2>/dev/null | paste -sd ' ' | swift demangle --simplified 2>/dev/null)
    echo "  ${where:-$line}"
  else
    echo "$line"
  fi
done < "$log"
