#!/usr/bin/env bash
# Runs the RSVP scenarios against two server builds, alternating, in one
# invocation (absolute times drift on a shared machine; compare only within
# one run). Each round starts a fresh server on a fresh database.
#
#   loadtest/compare.sh OLD_BINARY NEW_BINARY [sqlite|postgres] [ROUNDS]
#
# Needs a release build of the load generator (target/release/rinkside-loadtest)
# and, for postgres, PostgreSQL at $PG_URL (default postgres://postgres@127.0.0.1:5432/test).
# Prints one JSON report per scenario and build to stdout, labelled.
set -euo pipefail
old=${1:?old server binary}
new=${2:?new server binary}
backend=${3:-sqlite}
rounds=${4:-2}
lt=${LOADTEST:-target/release/rinkside-loadtest}
pg=${PG_URL:-postgres://postgres@127.0.0.1:5432/test}
port=8391
ulimit -n 65536 2>/dev/null || true

# shellcheck source=loadtest/servers.sh
. "$(dirname "$0")/servers.sh"
start() { # binary
  fresh_database lt
  start_server "$1" 100 || { echo "server $1 did not start" >&2; exit 2; }
}
stop() { stop_server; }

run() { # label scenario args...
  local label=$1; shift
  printf '%s %s ' "$label" "$1"
  "$lt" "$@" --url "http://127.0.0.1:$port" --json 2>/dev/null | tail -1
}

for round in $(seq "$rounds"); do
  for build in old new; do
    bin=$old; [ "$build" = new ] && bin=$new
    start "$bin"; run "$build/$round" race --clients 5000 --skaters 10 --goalies 1; stop
    start "$bin"; run "$build/$round" steady --events 100 --users 1000 --rate 1000 --seconds 10; stop
    start "$bin"; run "$build/$round" steady --events 100 --users 1000 --rate 5000 --seconds 10; stop
  done
done
