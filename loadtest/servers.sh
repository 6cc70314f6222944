# Sourced by compare.sh and race-tiers.sh: a fresh database for each run of
# the server under test (a PostgreSQL schema or a SQLite file), the server
# started on it with the rate limits off, and stopped again.
#
# Expects: backend (sqlite|postgres), pg (the PostgreSQL URL), port.

# fresh_database PREFIX: sets database_url to a fresh schema PREFIX_<time>
# of $pg (postgres; sets schema) or a SQLite file in a fresh folder (sets dir).
fresh_database() {
  if [ "$backend" = postgres ]; then
    schema="${1}_$(date +%s%N)"
    psql -q "$pg" -c "CREATE SCHEMA $schema" >/dev/null
    database_url="$pg?options=-c%20search_path%3D$schema"
  else
    dir=$(mktemp -d)
    database_url="sqlite://$dir/lt.db"
  fi
}

# drop_database: drops the schema, or removes the SQLite folder.
drop_database() {
  if [ "$backend" = postgres ]; then psql -q "$pg" -c "DROP SCHEMA $schema CASCADE" >/dev/null; else rm -rf "$dir"; fi
}

# start_server BINARY TRIES: BINARY on $database_url at $port (sets server);
# fails unless it answers /healthz within TRIES × 0.1 s.
start_server() {
  DATABASE_URL=$database_url BIND=127.0.0.1:$port AUTH_MODE=dev CLIENT_DIST=/nonexistent RUST_LOG=warn \
    HTTP_ADDRESS_RATE_PER_SEC=0 HTTP_USER_RATE_PER_SEC=0 WS_HANDSHAKE_RATE_PER_SEC=0 "$1" >/dev/null 2>&1 &
  server=$!
  for _ in $(seq "$2"); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return 0; sleep 0.1; done
  return 1
}

# stop_server: stops the server and waits for it.
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; }
