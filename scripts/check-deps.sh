#!/usr/bin/env bash
# Dependencies point one way: contract <- core <- {CLI, shell}. Fails when the core crate
# (`a2learn-teacher`) has tauri, clap, pathway-host or tracing-subscriber among its normal
# dependencies, direct or transitive, and prints what it found and through which path.
# Dev-dependencies (the tests' reference host) do not count.
set -euo pipefail
cd "$(dirname "$0")/.."

forbidden='^(tauri|clap|pathway-host|tracing-subscriber)$'
tree=$(cargo tree -p a2learn-teacher -e normal --prefix none --locked --offline 2>/dev/null ||
  cargo tree -p a2learn-teacher -e normal --prefix none --locked)
found=$(awk '{print $1}' <<<"$tree" | grep -E "$forbidden" | sort -u || true)
if [ -n "$found" ]; then
  echo "check-deps: the core crate a2learn-teacher must not depend on these (normal deps):" >&2
  for name in $found; do
    echo "  $name, reached by:" >&2
    cargo tree -p a2learn-teacher -e normal --invert "$name" --locked 2>/dev/null | sed 's/^/    /' >&2
  done
  exit 1
fi
echo "check-deps: ok, the core crate's $(wc -l <<<"$tree") normal dependency lines hold no tauri, clap, pathway-host or tracing-subscriber"
