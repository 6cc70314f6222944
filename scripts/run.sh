#!/usr/bin/env bash
# Builds the client and the server and runs Rinkside at http://127.0.0.1:8080
# on SQLite (./data/rinkside.db) with dev auth and, on an empty database, the
# demo (DEMO=1; docs/demo.md). Environment variables from the README override
# the defaults. The client is rebuilt only when its sources changed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d client/node_modules ] || [ client/package-lock.json -nt client/node_modules/.package-lock.json ]; then
  npm --prefix client ci --no-audit --no-fund
fi
if [ ! -f client/dist/index.html ] \
  || [ -n "$(find client/src client/public client/index.html client/package.json client/vite.config.ts \
             -newer client/dist/index.html -print -quit)" ]; then
  npm --prefix client run build
fi
cargo build --release --bin rinkside
# The demo signs its players in as dev users: only with dev auth.
if [ -z "${CLERK_JWKS_URL:-}${CLERK_JWT_KEY:-}" ] && [ "${AUTH_MODE:-dev}" = dev ]; then
  export DEMO="${DEMO:-1}"
fi
exec ./target/release/rinkside serve
