#!/usr/bin/env bash
# Installs what is missing, builds the UI and the app, and opens the window.
# Extra arguments go to the app (e.g. --db /tmp/try.db).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh app
npm --prefix ui run build --silent
cargo build -p a2learn-teacher-app
app=${CARGO_TARGET_DIR:-target}/debug/a2learn-teacher-app
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "no display found: running under a virtual one (xvfb-run)"
  exec xvfb-run -a -s '-screen 0 1280x800x24' "$app" "$@"
fi
exec "$app" "$@"
