#!/usr/bin/env bash
# Builds the client and the server and runs Rinkside at http://127.0.0.1:8080
# on SQLite (./data/rinkside.db) with dev auth. Environment variables from the
# README override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d client/node_modules ] || [ client/package-lock.json -nt client/node_modules/.package-lock.json ]; then
  npm --prefix client ci --no-audit --no-fund
fi
npm --prefix client run build
cargo build --release --bin rinkside
exec ./target/release/rinkside serve
