#!/usr/bin/env bash
# Runs the end-to-end tests: the real app window under a virtual X display, driven over WebDriver.
# Expects tauri-driver installed and the app binary built with the test hooks, as the cargo test
# step of scripts/test.sh builds it (`--features a2learn-teacher-app/test-hooks`): the tests
# inject a question through A2LEARN_DEMO_INJECT_QUESTION, which a product build ignores.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=${A2LEARN_APP:-${CARGO_TARGET_DIR:-$here/../../target}/debug/a2learn-teacher-app}
if ! grep -qa A2LEARN_DEMO_INJECT_QUESTION "$app"; then
  echo "$app has no test hooks: build it with cargo test --features a2learn-teacher-app/test-hooks" >&2
  exit 1
fi
# Its own process group, so a window or driver that a failed test could not close is ended here
# (and named) instead of outliving the run with the terminal's output still open; also when this
# script is itself stopped.
set -m
group=
end_leftovers() {
  if [ -n "$group" ] && left=$(pgrep -a -g "$group"); then
    echo "ending processes the end-to-end tests left running:" >&2
    echo "$left" >&2
    kill -KILL -- "-$group" 2>/dev/null || true
  fi
}
trap end_leftovers EXIT
trap 'exit 143' TERM INT
# The tests read the window in English, the language it takes from the system when no choice is
# stored; i18n.test.mjs chooses the others (and starts one app with LANG=es_ES.UTF-8).
export LANG=C.UTF-8 LANGUAGE=
unset LC_ALL LC_MESSAGES
# A2LEARN_E2E_ONLY=app runs app.test.mjs alone (while working on one view); unset, every file.
xvfb-run -a -s '-screen 0 1280x800x24' node --test --test-concurrency=1 "$here"/${A2LEARN_E2E_ONLY:-*}.test.mjs &
group=$!
wait "$group"
