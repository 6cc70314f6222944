#!/usr/bin/env bash
# Issue 31's measurement: the 5,000-client race without tiers (A) and with
# regulars first (B, `--regulars-share 0.2`), alternating A B A B … in one
# invocation, because absolute times drift on a shared machine. Each run
# starts a fresh server on a fresh database (SQLite file or PostgreSQL
# schema), as loadtest/compare.sh does.
#
#   loadtest/race-tiers.sh [sqlite|postgres] [ROUNDS] [extra race options…]
#
# Needs release builds (target/release/rinkside, …/rinkside-loadtest: `cargo build
# --release -p rinkside --bin rinkside && cargo build --release -p rinkside-loadtest`) and,
# for postgres, PostgreSQL at $PG_URL (default postgres://postgres@127.0.0.1:5432/test).
# Prints one labelled JSON report per run to stdout (A/1, B/1, A/2, …).
set -euo pipefail
backend=${1:-sqlite}
rounds=${2:-2}
shift $(( $# < 2 ? $# : 2 ))
server_bin=${SERVER:-target/release/rinkside}
lt=${LOADTEST:-target/release/rinkside-loadtest}
pg=${PG_URL:-postgres://postgres@127.0.0.1:5432/test}
port=${PORT:-8392}
share=${REGULARS_SHARE:-0.2}
for bin in "$server_bin" "$lt"; do
  [ -x "$bin" ] || { echo "race-tiers: $bin is missing; build it first (see above)" >&2; exit 2; }
done
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# shellcheck source=loadtest/servers.sh
. "$(dirname "$0")/servers.sh"
start() {
  fresh_database lt_tiers
  start_server "$server_bin" 300 || { echo "server did not start" >&2; exit 2; }
}
stop() { stop_server; drop_database; }

for round in $(seq "$rounds"); do
  for tiers in A B; do
    extra=(); [ "$tiers" = B ] && extra=(--regulars-share "$share")
    start
    printf '%s/%s load=%s ' "$tiers" "$round" "$(cut -d' ' -f1 /proc/loadavg)"
    "$lt" race --url "http://127.0.0.1:$port" --clients 5000 --skaters 10 --goalies 1 "${extra[@]}" "$@" --json 2>/dev/null | tail -1 || true
    stop
  done
done
