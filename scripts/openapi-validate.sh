#!/usr/bin/env bash
# Checks the committed OpenAPI document (client/src/lib/api/openapi.json,
# which tests/api/openapi.rs holds to the one the server serves) and the
# client types generated from it (docs/openapi.md › How it is checked):
#
#   1. openapi-spec-validator, at the version in
#      scripts/openapi-requirements.txt (a virtualenv under target/);
#   2. Redocly CLI's lint (client devDependency; client/src/lib/api/redocly.yaml);
#   3. client/src/lib/api/schema.d.ts is what openapi-typescript makes of it.
#
# A missing tool FAILS the run: nothing is skipped. Needs `npm ci` in client/.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { printf '\n\033[1;31mFAILED: %s\033[0m\n' "$*" >&2; exit 1; }

doc=client/src/lib/api/openapi.json
[ -f "$doc" ] || fail "$doc is missing (UPDATE_OPENAPI=1 cargo test --test api -- openapi::the_committed writes it)"

want=$(sed -n 's/^openapi-spec-validator==//p' scripts/openapi-requirements.txt)
venv=target/openapi-venv
validator="$venv/bin/openapi-spec-validator"
version_of() { "$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("openapi-spec-validator"))' 2>/dev/null; }
if [ ! -x "$validator" ] || [ "$(version_of)" != "$want" ]; then
  echo "Installing openapi-spec-validator==$want into $venv"
  python3 -m venv "$venv" || fail "could not create a Python virtualenv in $venv (python3-venv missing?)"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/openapi-requirements.txt \
    || fail "could not install openapi-spec-validator==$want from PyPI"
  [ "$(version_of)" = "$want" ] || fail "openapi-spec-validator $want did not install"
fi

echo "openapi-spec-validator $want:"
"$validator" "$doc" || fail "openapi-spec-validator refuses $doc"

[ -x client/node_modules/.bin/redocly ] || fail "Redocly CLI is not installed: run npm ci in client/"
[ -x client/node_modules/.bin/openapi-typescript ] || fail "openapi-typescript is not installed: run npm ci in client/"
npm --prefix client run -s api:lint || fail "Redocly's lint refuses $doc"
npm --prefix client run -s api:check || fail "client/src/lib/api/schema.d.ts is stale"
