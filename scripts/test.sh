#!/usr/bin/env bash
# Runs every test: the OpenAPI document's validator and linter, Rust unit +
# integration tests on SQLite and PostgreSQL,
# the two-node cluster tests on PostgreSQL + Redis, Schemathesis against the
# OpenAPI document, the client's unit tests (Vitest) and the Playwright
# end-to-end tests in headless Chromium.
# Any part that cannot run (a service down, a missing browser that cannot be
# installed) FAILS the run: nothing is skipped silently.
set -euo pipefail
cd "$(dirname "$0")/.."

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"

step() { printf '\n\033[1;34m==> %s\033[0m\n' "$*"; }
fail() { printf '\n\033[1;31mFAILED: %s\033[0m\n' "$*" >&2; exit 1; }

step "Checking services (PostgreSQL, Redis)"
psql "$TEST_DATABASE_URL" -Atc 'select 1' >/dev/null 2>&1 \
  || fail "PostgreSQL is not reachable at $TEST_DATABASE_URL (start it: pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main start)"
redis-cli -u "$TEST_REDIS_URL" ping 2>/dev/null | grep -q PONG \
  || fail "Redis is not reachable at $TEST_REDIS_URL (start it: redis-server --daemonize yes --port 6379 ...)"

step "Clearing schemas left by earlier test runs"
psql "$TEST_DATABASE_URL" -Atc "select 'drop schema ' || nspname || ' cascade;' from pg_namespace where nspname ~ '^[tc]_[0-9a-f]{32}$'" \
  | PGOPTIONS="-c client_min_messages=warning" psql -q "$TEST_DATABASE_URL" >/dev/null

step "Structure: layers point one way, files and functions stay small (scripts/layers.py)"
python3 scripts/layers.py || fail "an import points up or closes a circle, or a file or function grew too big (docs/architecture.md › layers)"

step "Chromium for the browser tests"
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium \
    || fail "could not install Debian's chromium package"
fi
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is missing"

step "Client: install, type-check, build"
npm --prefix client ci --no-audit --no-fund
npm --prefix client run build

step "API: the OpenAPI document validates and lints; the client's types are generated from it"
./scripts/openapi-validate.sh || fail "the OpenAPI document or the types generated from it"

step "Client: unit tests (Vitest)"
npm --prefix client test
npm --prefix client run lint

step "Rust: build"
cargo build --workspace --all-targets

step "Rust: unit tests (server, actors, load generator), the fuzz targets among them"
cargo test --workspace --lib --bins

step "Rust: actors integration tests"
cargo test -p rinkside-actors --tests

step "Rust: integration tests on SQLite"
TEST_DB=sqlite cargo test --test api

step "Rust: integration tests on PostgreSQL"
# One process per test module: every test app's actor arbiters (OS threads)
# keep its connection pool, and so its PostgreSQL connections, until the
# process exits, and the whole suite in one process outgrows the server's
# 100 connections. Every module of tests/api/main.rs runs; the count of
# tests run must equal the suite's, so nothing is skipped.
total=$(TEST_DB=postgres cargo test -q --test api -- --list 2>/dev/null | grep -c ': test$')
ran=0
for module in $(sed -n 's/^mod \([a-z_]*\);$/\1/p' tests/api/main.rs | grep -v '^helpers$'); do
  out=$(TEST_DB=postgres cargo test --test api -- "${module}::" 2>&1) || { printf '%s\n' "$out"; fail "PostgreSQL integration tests in ${module}"; }
  printf '%s\n' "$out" | grep -E '^test result' || true
  n=$(printf '%s\n' "$out" | sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p')
  ran=$((ran + ${n:-0}))
done
[ "$ran" -eq "$total" ] || fail "PostgreSQL integration tests: ran $ran of $total"
echo "PostgreSQL integration tests: $ran of $total passed"

step "Rust: two-node cluster tests on PostgreSQL + Redis"
cargo test --test cluster -- --test-threads=1

step "API: Schemathesis against the served OpenAPI document (SQLite, dev auth)"
./scripts/schemathesis.sh || fail "Schemathesis"

step "Browser: Playwright end-to-end tests (headless Chromium)"
npm --prefix client run e2e:only

printf '\n\033[1;32mAll tests passed.\033[0m\n'
