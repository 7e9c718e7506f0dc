#!/usr/bin/env bash
# The screen-latency benchmark: host emit -> the learner's row in the window, with the release
# app (built here with the test hooks, whose emitter puts completions on the demo feed on a fixed
# schedule), 200 events at 10 a second, then 200 at 100 a second twice (the second time in a
# 4,000 px grid box). Prints MEASURE lines: p50 / p99 per phase and the notification path's split.
# BENCHMARKS.md records its figures; the test command runs the same file at tiny sizes.
#   scripts/bench-screen.sh [PHASES]    PHASES as RATExCOUNT[:tall],... (default below)
set -euo pipefail
cd "$(dirname "$0")/.."
phases=${1:-10x200,100x200,100x200:tall}
scripts/install.sh all
npm --prefix ui run --silent build
cargo build --release --locked -p a2learn-teacher-app --features test-hooks
A2LEARN_APP=${CARGO_TARGET_DIR:-$PWD/target}/release/a2learn-teacher-app \
  A2LEARN_LATENCY_PHASES=$phases \
  xvfb-run -a -s '-screen 0 1280x800x24' node --test tests/e2e/latency.test.mjs 2>&1 |
  grep -E 'MEASURE|^# (pass|fail)'
