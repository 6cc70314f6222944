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

start() { # binary label
  local url
  if [ "$backend" = postgres ]; then
    local schema="lt_$(date +%s%N)"
    psql -q "$pg" -c "CREATE SCHEMA $schema" >/dev/null
    url="$pg?options=-c%20search_path%3D$schema"
  else
    local dir; dir=$(mktemp -d)
    url="sqlite://$dir/lt.db"
  fi
  DATABASE_URL=$url BIND=127.0.0.1:$port AUTH_MODE=dev CLIENT_DIST=/nonexistent RUST_LOG=warn \
    HTTP_ADDRESS_RATE_PER_SEC=0 HTTP_USER_RATE_PER_SEC=0 WS_HANDSHAKE_RATE_PER_SEC=0 "$1" >/dev/null 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return; sleep 0.1; done
  echo "server $1 did not start" >&2; exit 2
}
stop() { kill "$server"; wait "$server" 2>/dev/null || true; }

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
