#!/usr/bin/env bash
# Builds the contract fuzz target. Idempotent: installs cargo-fuzz when missing.
# Only the stable toolchain exists here, so RUSTC_BOOTSTRAP=1 unlocks the nightly flags
# cargo-fuzz passes (-Z sanitizer=...). Run a session with:
#   RUSTC_BOOTSTRAP=1 cargo fuzz run parse_message --fuzz-dir fuzz -- -max_total_time=240
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1
cargo fuzz build parse_message --fuzz-dir fuzz "$@"

# Seed the corpus (gitignored) with every fixture, one message per file, so the fuzzer
# starts from real messages of all three transports.
corpus=fuzz/corpus/parse_message
mkdir -p "$corpus"
python3 - "$corpus" <<'PY'
import hashlib, json, pathlib, sys
out = pathlib.Path(sys.argv[1])
for path in sorted(pathlib.Path("tests/fixtures/contract").rglob("*.json*")):
    text = path.read_text()
    docs = [text] if path.suffix == ".json" else text.splitlines()
    for doc in docs:
        if doc.strip():
            line = json.dumps(json.loads(doc), separators=(",", ":"), ensure_ascii=False)
            (out / hashlib.sha1(line.encode()).hexdigest()).write_text(line)
PY
