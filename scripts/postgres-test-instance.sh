#!/usr/bin/env bash
# A private, throw-away PostgreSQL instance for the storage tests, built from Debian's
# postgresql binaries (initdb + pg_ctl). It listens only on a unix socket inside its own
# directory (no TCP port, trust authentication) and holds one database, parley_test.
#
#   scripts/postgres-test-instance.sh start [DIR]   initialise if needed, start, print the URL
#   scripts/postgres-test-instance.sh url [DIR]     print the URL of a running instance
#   scripts/postgres-test-instance.sh stop [DIR]    stop the instance and delete DIR
#   scripts/postgres-test-instance.sh halt [DIR]    stop the server but keep DIR (start resumes it)
#
# DIR defaults to .build-pg/instance in the repository (git-ignored) — or, when running as root
# in a checkout the `postgres` user cannot reach (e.g. under a mode-700 temp directory), to
# /tmp/parley-pg-<hash of the checkout path>. The printed URL is
# what the tests read from PARLEY_TEST_POSTGRES_URL:
#
#   export PARLEY_TEST_POSTGRES_URL=$(scripts/postgres-test-instance.sh start)
#   swift test --filter ParleyStoreTests
#   scripts/postgres-test-instance.sh stop
#
# initdb refuses to run as root, so as root every server command runs as the `postgres`
# user (created by Debian's postgresql package) and DIR is handed to that user.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

command=${1:-}
port=54329
database=parley_test
user=postgres

default_dir() {
  if [ "$(id -u)" -eq 0 ] && ! runuser -u "$user" -- test -x "$root" 2>/dev/null; then
    echo "/tmp/parley-pg-$(printf '%s' "$root" | sha256sum | cut -c1-12)"
  else
    echo "$root/.build-pg/instance"
  fi
}
dir=${2:-$(default_dir)}

find_bin() {
  local candidate
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return 0; fi
  for candidate in /usr/lib/postgresql/*/bin; do
    [ -x "$candidate/initdb" ] && { echo "$candidate"; return 0; }
  done
  echo "error: PostgreSQL server binaries not found (apt-get install postgresql)" >&2
  exit 1
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

print_url() {
  echo "postgresql:///$database?host=$dir/socket&port=$port&user=$user"
}

start() {
  local bin; bin=$(find_bin)
  [ "$(id -u)" -eq 0 ] || user=$(id -un)
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    mkdir -p "$dir/socket"
    [ "$(id -u)" -eq 0 ] && chown -R "$user" "$dir"
    as_owner "$bin/initdb" --pgdata="$dir/data" --username="$user" --auth=trust \
      --encoding=UTF8 --locale=C.UTF-8 --no-instructions >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
  fi
  if ! as_owner "$bin/pg_ctl" status --pgdata="$dir/data" >/dev/null 2>&1; then
    as_owner "$bin/pg_ctl" start --pgdata="$dir/data" --wait --silent --log="$dir/server.log" \
      -o "-c listen_addresses='' -c unix_socket_directories='$dir/socket' -p $port -c max_connections=1000 -c fsync=on -c synchronous_commit=on" \
      >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  fi
  if ! as_owner "$bin/psql" -h "$dir/socket" -p "$port" -U "$user" -d postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname = '$database'" | grep -q 1; then
    as_owner "$bin/createdb" -h "$dir/socket" -p "$port" -U "$user" "$database"
  fi
  print_url
}

stop() {
  local bin; bin=$(find_bin)
  [ "$(id -u)" -eq 0 ] || user=$(id -un)
  if [ -f "$dir/data/PG_VERSION" ]; then
    as_owner "$bin/pg_ctl" stop --pgdata="$dir/data" --mode=fast --wait --silent >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

halt() {
  local bin; bin=$(find_bin)
  [ "$(id -u)" -eq 0 ] || user=$(id -un)
  as_owner "$bin/pg_ctl" stop --pgdata="$dir/data" --mode=fast --wait --silent >/dev/null
}

case "$command" in
  start) start ;;
  halt) halt ;;
  stop) stop ;;
  url) print_url ;;
  *) echo "usage: $0 start|url|stop|halt [DIR]" >&2; exit 2 ;;
esac
