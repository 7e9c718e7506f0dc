#!/usr/bin/env bash
# Runs the end-to-end tests: the real app window under a virtual X display, driven over WebDriver.
# Expects the app binary built (target/debug/a2learn-teacher-app) and tauri-driver installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec xvfb-run -a -s '-screen 0 1280x800x24' node --test --test-concurrency=1 "$here"/*.test.mjs
