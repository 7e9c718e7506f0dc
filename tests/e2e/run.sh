#!/usr/bin/env bash
# Runs the end-to-end tests: the real app window under a virtual X display, driven over WebDriver.
# Expects tauri-driver installed and the app binary built with the test hooks, as the cargo test
# step of scripts/test.sh builds it (`--features a2learn-teacher-app/test-hooks`): the tests
# inject a question through A2LEARN_DEMO_INJECT_QUESTION, which a product build ignores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=${A2LEARN_APP:-${CARGO_TARGET_DIR:-$here/../../target}/debug/a2learn-teacher-app}
if ! grep -qa A2LEARN_DEMO_INJECT_QUESTION "$app"; then
  echo "$app has no test hooks: build it with cargo test --features a2learn-teacher-app/test-hooks" >&2
  exit 1
fi
exec xvfb-run -a -s '-screen 0 1280x800x24' node --test --test-concurrency=1 "$here"/*.test.mjs
