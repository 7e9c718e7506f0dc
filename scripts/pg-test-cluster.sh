#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, from Debian's `postgresql` package:
#   scripts/pg-test-cluster.sh start   initdb in a new folder under /tmp, start it on a free
#                                       loopback port with a password, print its URL (also
#                                       written to test-output/pg/url)
#   scripts/pg-test-cluster.sh stop    stop it and delete it
# The tests read the URL from A2LEARN_TEST_PG_URL (scripts/test.sh sets it) and make a database
# of their own in it for each test. Run as root, the server runs as the `postgres` user (initdb
# refuses root).
set -euo pipefail
umask 077 # the password file and the data are the server user's alone
cd "$(dirname "$0")/.."
# What this script keeps of the cluster: its URL and where its data is.
state=$PWD/test-output/pg
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "PostgreSQL is not installed (Debian's postgresql package)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

stop() {
  local dir
  dir=$(cat "$state/dir" 2>/dev/null) || dir=
  if [ -n "$dir" ] && [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  [ -n "$dir" ] && rm -rf "$dir"
  rm -rf "$state"
}

case "${1:-}" in
  start)
    stop
    mkdir -p "$state"
    # The data lives under /tmp, not in the checkout: the server's user must reach it, and a
    # checkout may sit in a folder only its owner can open.
    dir=$(mktemp -d /tmp/a2learn-test-pg.XXXXXX)
    echo "$dir" > "$state/dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    password=$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')
    echo "$password" > "$dir/pwfile"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir/pwfile"
    # C collation: text sorts by code point, as in SQLite, so both engines list in one order.
    as_owner "$bin/initdb" -D "$dir/data" -U a2learn --pwfile="$dir/pwfile" \
      --auth=scram-sha-256 --locale=C -E UTF8 >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # Durability off: a test database is thrown away, and fsync costs the suite minutes.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
      "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    url="postgres://a2learn:$password@127.0.0.1:$port/postgres"
    echo "$url" > "$state/url"
    echo "$url"
    ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
