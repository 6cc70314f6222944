#!/usr/bin/env bash
# Issue 28's measurements in one go (docs/loadtest.md › Game night): starts
# release nodes itself, runs the scenarios against them, keeps every JSON
# report in $OUT and prints a summary line per run.
#
#   loadtest/game-night.sh [clock1|clock2|goal|all]   (default all)
#
#   clock1  `clock`, 10,000 displays on one node (SQLite), with --baseline
#   clock2  `clock`, 10,000 displays over two nodes (PostgreSQL + Redis),
#           console on the first, with --baseline
#   goal    `scoreboard`, 60,000 displays over four nodes (PostgreSQL +
#           Redis) held by four generator processes (--processes 4: one
#           process may open 20,000 descriptors here), goals with a scorer
#           and two assists through the first node, RSS of every node
#
# Environment: BIN (target/release), OUT (a fresh temp folder), PG_URL
# (postgres://postgres@127.0.0.1:5432/test; a fresh schema gn_<time> per
# run, dropped after), REDIS_URL (redis://127.0.0.1:6379), DISPLAYS (10000),
# GOAL_DISPLAYS (60000), GOALS (10), RATE (0.2 a second: one goal's fan-out
# to 60,000 displays takes seconds on a shared 2-core box, and a goal that
# starts before the last one reached everybody measures the queue),
# GOAL_CONCURRENCY (100 handshakes in flight per generator process). Nodes listen on 127.0.0.1:
# 18181–18184 and log to $OUT/node-N.log.
set -euo pipefail
what=${1:-all}
bin=${BIN:-target/release}
out=${OUT:-$(mktemp -d /tmp/game-night.XXXX)}
pg=${PG_URL:-postgres://postgres@127.0.0.1:5432/test}
redis=${REDIS_URL:-redis://127.0.0.1:6379}
displays=${DISPLAYS:-10000}
goal_displays=${GOAL_DISPLAYS:-60000}
goals=${GOALS:-10}
rate=${RATE:-0.2}
goal_concurrency=${GOAL_CONCURRENCY:-100}
lt=$bin/rinkside-loadtest
mkdir -p "$out"
# As many descriptors as this machine allows (the nodes inherit it).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

pids=() schema=""
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
  if [ -n "$schema" ]; then PGOPTIONS="-c client_min_messages=warning" psql -q "$pg" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null || true; fi
  schema=""
}
trap stop_all EXIT

# start N DATABASE_URL [REDIS_URL]: node N on port 1818N.
start() {
  local n=$1 db=$2 bus=${3:-}
  env DATABASE_URL="$db" ${bus:+REDIS_URL=$bus} BIND=127.0.0.1:$((18180 + n)) AUTH_MODE=dev \
    CLIENT_DIST=/nonexistent RUST_LOG=warn DATABASE_MAX_CONNECTIONS=5 \
    HTTP_ADDRESS_RATE_PER_SEC=0 HTTP_USER_RATE_PER_SEC=0 WS_HANDSHAKE_RATE_PER_SEC=0 \
    "$bin/rinkside" serve >/dev/null 2>>"$out/node-$n.log" &
  pids+=($!)
  for _ in $(seq 300); do curl -sf "http://127.0.0.1:$((18180 + n))/healthz" >/dev/null && return; sleep 0.1; done
  echo "node $n did not start; see $out/node-$n.log" >&2
  exit 2
}
url() { echo "http://127.0.0.1:$((18180 + $1))"; }
cluster() { # N: N nodes on a fresh schema and Redis
  schema="gn_$(date +%s%N)"
  PGOPTIONS="-c client_min_messages=warning" psql -q "$pg" -c "CREATE SCHEMA $schema" >/dev/null
  for n in $(seq "$1"); do start "$n" "$pg?options=-c%20search_path%3D$schema" "$redis"; done
}

# run NAME scenario args…: the JSON report to $OUT/NAME.json, progress to
# $OUT/NAME.log; a run that fails its checks is kept and reported.
run() {
  local name=$1; shift
  echo "== $name: $lt $*" >&2
  "$lt" "$@" --json >"$out/$name.json" 2>"$out/$name.log" || echo "   ($name exited $?)" >&2
}

clock_summary() {
  jq -r '"\(.scenario) passed=\(.passed) | stop→stopped time to last p50 \(.report.stopToStopped.timeToLast.p50Ms) p99 \(.report.stopToStopped.timeToLast.p99Ms) max \(.report.stopToStopped.timeToLast.maxMs) ms; floor p50 \(.report.baseline.deliveries.timeToLast.p50Ms // "-") ms (ratio \(.report.baseline.ratioTimeToLastP50 // "-")) | skew spread p50 \(.report.skew.acrossNodes.spreadP50Ms) max \(.report.skew.acrossNodes.spreadMaxMs) ms | reconnected spread max \(.report.reconnect.reconnected.spreadMaxMs // "-") ms | stop frame \(.report.stopFrames.meanBytes) B"' "$1"
}

if [ "$what" = clock1 ] || [ "$what" = all ]; then
  start 1 "sqlite://$out/clock1.db"
  run clock-1node clock --url "$(url 1)" --displays "$displays" --baseline
  stop_all
  clock_summary "$out/clock-1node.json"
fi

if [ "$what" = clock2 ] || [ "$what" = all ]; then
  cluster 2
  run clock-2nodes clock --url "$(url 1)" --url "$(url 2)" --displays "$displays" --baseline
  stop_all
  clock_summary "$out/clock-2nodes.json"
fi

if [ "$what" = goal ] || [ "$what" = all ]; then
  cluster 4
  run goal-4nodes scoreboard --url "$(url 1)" \
    --subscribe-url "$(url 1)" --subscribe-url "$(url 2)" --subscribe-url "$(url 3)" --subscribe-url "$(url 4)" \
    --server-pid "${pids[0]}" --server-pid "${pids[1]}" --server-pid "${pids[2]}" --server-pid "${pids[3]}" \
    --subscribers "$goal_displays" --processes 4 --concurrency "$goal_concurrency" \
    --assists 2 --goals "$goals" --rate "$rate" --settle-timeout 60
  stop_all
  jq -r '"\(.scenario) passed=\(.passed) | \(.report.open.subscribed) of \(.report.open.requested) displays | time to last p50 \(.report.deliveries.timeToLast.p50Ms) p99 \(.report.deliveries.timeToLast.p99Ms) max \(.report.deliveries.timeToLast.maxMs) ms | goal frame \(.report.updateFrames.meanBytes) B (max \(.report.updateFrames.maxBytes)) | \(.report.nodesMemory.bytesPerConnection / 1024 * 10 | round / 10) KiB per connection | missed \(.report.deliveries.missed)"' "$out/goal-4nodes.json"
fi
echo "reports in $out" >&2
