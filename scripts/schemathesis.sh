#!/usr/bin/env bash
# Fuzzes the API against its own OpenAPI document with Schemathesis
# (docs/openapi.md): starts the server on a fresh SQLite database with dev
# auth on a free port, signs a user in, creates a few records for path ids to
# name (scripts/schemathesis_fixtures.py), and runs every Schemathesis check
# over every operation, with a bounded number of examples each
# (scripts/schemathesis.toml says what is narrowed, and why). Any finding
# fails the run. About a minute.
#
#   ST_SEED          the generation seed (default fixed, so a build is repeatable)
#   ST_MAX_EXAMPLES  examples per operation and phase (default 30)
#   ST_PHASES        default examples,coverage,fuzzing,stateful
#   ST_WORKERS       default 2
#   ST_EXTRA         more `st run` options, e.g. "--output-sanitize false"
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { printf '\n\033[1;31mFAILED: %s\033[0m\n' "$*" >&2; exit 1; }

# Schemathesis, at the version the checks were written for: the one on PATH
# if it is that version, else a virtualenv under target/.
want=$(sed -n 's/^schemathesis==//p' scripts/schemathesis-requirements.txt)
version_of() { "$1" --version 2>/dev/null | sed -n 's/^st, version //p'; }
venv=target/schemathesis-venv
if [ -x "$venv/bin/st" ] && [ "$(version_of "$venv/bin/st")" = "$want" ]; then
  st="$venv/bin/st"
elif command -v st >/dev/null && [ "$(version_of st)" = "$want" ]; then
  st=st
else
  echo "Installing schemathesis==$want into $venv"
  python3 -m venv "$venv" || fail "could not create a Python virtualenv in $venv (python3-venv missing?)"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/schemathesis-requirements.txt \
    || fail "could not install schemathesis==$want from PyPI"
  st="$venv/bin/st"
  [ "$(version_of "$st")" = "$want" ] || fail "schemathesis $want did not install"
fi

cargo build --quiet --bin rinkside

work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

# Rate limits off: the fuzzer sends thousands of requests from one address
# and token (the limits have their own tests in tests/api/http_edges.rs). A
# webhook secret, so the webhook checks signatures instead of answering 404.
DATABASE_URL="sqlite://$work/st.db?mode=rwc" BIND="127.0.0.1:$port" AUTH_MODE=dev \
  CLERK_WEBHOOK_SECRET="whsec_$(head -c 24 /dev/urandom | base64)" \
  HTTP_ADDRESS_RATE_PER_SEC=0 HTTP_USER_RATE_PER_SEC=0 DEV_TOKEN_RATE_PER_MIN=0 \
  CLIENT_DIST="$work/no-client" RUST_LOG="${RUST_LOG:-warn}" \
  target/debug/rinkside serve >"$work/server.log" 2>&1 &
server=$!

for _ in $(seq 1 100); do
  curl -fs "$base/healthz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; fail "the server did not start"; }
  sleep 0.2
done
curl -fs "$base/healthz" >/dev/null || fail "the server did not answer /healthz"

token=$(curl -fs -X POST "$base/api/v1/dev/token" -H 'content-type: application/json' \
  -d '{"clerkId":"schemathesis","username":"schemathesis"}' \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])') \
  || fail "could not get a dev token"

# Real records for the path ids to name (scripts/schemathesis_fixtures.py),
# appended to the checked-in settings.
cp scripts/schemathesis.toml "$work/schemathesis.toml"
python3 scripts/schemathesis_fixtures.py "$base" "$token" >>"$work/schemathesis.toml" \
  || fail "could not create the records to fuzz against"

status=0
timeout 900 "$st" --config-file "$work/schemathesis.toml" run "$base/api/openapi.json" --url "$base" \
  -H "Authorization: Bearer $token" \
  --checks all \
  --phases "${ST_PHASES:-examples,coverage,fuzzing,stateful}" \
  --max-examples "${ST_MAX_EXAMPLES:-30}" \
  --seed "${ST_SEED:-20260513}" \
  --workers "${ST_WORKERS:-2}" \
  ${ST_EXTRA:-} || status=$?

if [ "$status" -ne 0 ]; then
  if grep -qE ' (ERROR|WARN) ' "$work/server.log"; then
    echo "--- server log (errors and warnings) ---" >&2
    grep -E ' (ERROR|WARN) ' "$work/server.log" | tail -40 >&2
  fi
  [ "$status" -eq 124 ] && fail "Schemathesis took longer than 15 minutes"
  fail "Schemathesis found the API and its OpenAPI document disagreeing (see above)"
fi
