#!/usr/bin/env bash
# Runs every test of a2learn Teacher, installing what is missing first. Each step prints its
# elapsed time; the last line counts the steps that passed and failed.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
passed=0
failed=0
failures=()

step() {
  local name=$1
  shift
  local t0
  t0=$(date +%s)
  echo "==> $name"
  if "$@"; then
    passed=$((passed + 1))
    echo "<== $name: ok in $(($(date +%s) - t0)) s (total $(($(date +%s) - start)) s)"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "<== $name: FAILED in $(($(date +%s) - t0)) s (total $(($(date +%s) - start)) s)"
  fi
}

# Files that tests generate and git tracks: a difference after the tests means they were stale.
generated=(ui/src/ipc/bindings.ts crates/a2learn-contract/schema)

step "install" scripts/install.sh all || true
if [ "$failed" -gt 0 ]; then
  echo "steps: $passed passed, $failed failed"
  exit 1
fi
step "ui typecheck" npm --prefix ui run --silent typecheck
step "ui format and lint (biome)" npm --prefix ui run --silent lint
step "ui unit tests (vitest)" npm --prefix ui run --silent test
step "ui build" npm --prefix ui run --silent build
step "cargo fmt" cargo fmt --all -- --check
# The shell's test hooks (the demo's injected question, src-tauri/src/demo/test_hook.rs) are
# compiled in only with its `test-hooks` feature, which the product build leaves off. Clippy and
# cargo test both turn it on: one feature set and package selection, so nothing compiles twice,
# and the app binary cargo test builds (target/debug/a2learn-teacher-app) is the one, hook
# included, that the end-to-end step runs.
features=(--features a2learn-teacher-app/test-hooks)
step "cargo clippy" cargo clippy --workspace --all-targets --locked "${features[@]}" -- -D warnings
# The core stays free of the shell, the CLI and the demo host (ARCHITECTURE.md, "Dependencies").
step "core dependencies" scripts/check-deps.sh
# CI=true turns the peers that tests start (Ralph, the xAPI record store, in tests/xapi_ralph.rs;
# the PostgreSQL cluster) from "skip when missing" into "fail when missing": install.sh has put
# them there. The same package selection and features as clippy, so nothing compiles twice.
# A throwaway PostgreSQL cluster (scripts/pg-test-cluster.sh) for the store's tests on the shared
# engine: started here, its URL passed to the tests, stopped and deleted when this script ends.
start_postgres() {
  local url
  url=$(scripts/pg-test-cluster.sh start) || return 1
  export A2LEARN_TEST_PG_URL=$url
}
trap 'scripts/pg-test-cluster.sh stop' EXIT
step "PostgreSQL (a throwaway test cluster)" start_postgres
step "cargo test (with Ralph, the xAPI peer, and PostgreSQL)" \
  env CI=true cargo test --workspace --locked "${features[@]}" --no-fail-fast
step "generated files are current" git diff --exit-code --stat -- "${generated[@]}"
step "contract peers (AG-UI, A2UI, MCP Apps validators)" npm --prefix tests/peers test --silent
# cargo test captured a live feed from the reference host; the AG-UI peers judge it here too,
# so a missing node_modules cannot turn that check into a silent skip.
step "captured feed (AG-UI EventSchema + verifyEvents)" \
  node crates/pathway-host/tests/peers/check-feed.mjs test-output/feed-capture.jsonl
# Every fuzz target for a minute each (fuzz/run.sh): a panic, leak or timeout fails the step.
step "fuzzing (60 s a target)" bash fuzz/run.sh 60
step "end to end (real window, WebDriver)" tests/e2e/run.sh
# The installer: a release build packaged as a .deb (scripts/package.sh), installed with dpkg -i,
# the installed app opened under Xvfb and checked over WebDriver, then removed again.
step "installer (.deb: build, dpkg -i, open the installed app)" tests/package/run.sh

echo "total $(($(date +%s) - start)) s"
if [ "$failed" -gt 0 ]; then
  echo "failed steps: ${failures[*]}"
fi
echo "steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
