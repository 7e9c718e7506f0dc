#!/usr/bin/env bash
# Builds every fuzz target, seeds its corpus from the fixtures, and runs each for SECONDS (default
# 60), two at a time. Fails on any finding: libFuzzer exits non-zero on a crash (panic), a leak,
# a timeout or running out of memory, and keeps the input in fuzz/artifacts/<target>/ (replay it
# with `cargo fuzz run <target> --fuzz-dir fuzz <file>`).
#
# The targets drive the core's I/O-free crate (crates/a2learn-proto) and the contract, so the
# fuzz build compiles those two and a few dependencies, not the core's runtime, database and
# network stack.
#
#   bash fuzz/run.sh [SECONDS]
#
# Idempotent: installs cargo-fuzz when missing. Only the stable toolchain exists here, so
# RUSTC_BOOTSTRAP=1 unlocks the nightly flags cargo-fuzz passes (-Z sanitizer=...). The corpora
# (fuzz/corpus/<target>/, gitignored) grow from run to run; seeding only adds files.
#
# Negative control: `FUZZ_NEGATIVE_CONTROL=1 bash fuzz/run.sh 60` must fail, on sse_parser,
# which then panics on an event named `x` that the fuzzer has to find by itself (no seed holds
# it; found in 10 s here). Nothing here sets that variable.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=(parse_message sse_parser agui_frame roster_csv)

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1
# cargo-fuzz builds for an explicit --target, so its instrumented artifacts sit in their own
# subdirectory and can share a CARGO_TARGET_DIR with ordinary builds.
# No sanitizer: the fuzzed code is safe Rust (the workspace forbids `unsafe`), so a finding is a
# panic, which libFuzzer catches without one; AddressSanitizer would instead instrument SQLite's
# C code that the core links, which made a cold build take 35 minutes on this kind of machine.
fuzz_args=(--fuzz-dir fuzz --target-dir "${CARGO_TARGET_DIR:-fuzz/target}" --sanitizer none)
cargo fuzz build "${fuzz_args[@]}"

# Seeds: real messages and feeds from the fixtures, so the fuzzer starts from inputs that reach
# deep into the parsers rather than from random bytes. File names are content hashes, so seeding
# again adds nothing twice.
python3 - fuzz/corpus <<'PY'
import hashlib, json, pathlib, sys

root = pathlib.Path(sys.argv[1])

def seed(target, data):
    out = root / target
    out.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (out / hashlib.sha1(data).hexdigest()).write_bytes(data)

def docs(path):
    text = path.read_text()
    lines = [text] if path.suffix == ".json" else text.splitlines()
    return [json.dumps(json.loads(l), separators=(",", ":"), ensure_ascii=False)
            for l in lines if l.strip()]

def sse(events, first_seq=1, eol="\n"):
    """Frames as the reference host writes them (pathway-host's sse_frame): id, then data."""
    out = ""
    for i, data in enumerate(events):
        out += f"id: {first_seq + i}{eol}data: {data}{eol}{eol}"
    return out

fixtures = pathlib.Path("tests/fixtures/contract")
# parse_message: every fixture of every transport, one message per file.
for path in sorted(fixtures.rglob("*.json*")):
    if path.name != "registry.json":
        for doc in docs(path):
            seed("parse_message", doc)

# agui_frame: each AG-UI fixture file as one feed (a sequence file is one feed of several
# frames), all valid ones as one long feed, and the frames the feed reader treats specially.
agui = sorted((fixtures / "agui").rglob("*.json*"))
valid = []
for path in agui:
    events = docs(path)
    seed("agui_frame", sse(events))
    if "/valid/" in str(path):
        valid += events
seed("agui_frame", sse(valid))
snapshot = '{"type":"STATE_SNAPSHOT","snapshot":{"learners":["anon_k3x9q2","Jane Doe"],"assignments":[{"assignment_id":"a1","pathway_id":"p-fractions-4"}],"paused":true,"pacing":{"p-fractions-4":"w-fractions-1"}}}'
paused = '{"type":"CUSTOM","name":"a2learn.host.class_paused","value":{"class_id":"class-fuzz","message":"Eyes up here"}}'
pacing = '{"type":"CUSTOM","name":"a2learn.host.pacing","value":{"class_id":"class-fuzz","pathway_id":"p","up_to":null}}'
claimed = '{"type":"CUSTOM","name":"a2learn.host.call_claimed","value":{"call_id":"call-score-1","claimed_by":"teacher"}}'
seed("agui_frame", f"data: {snapshot}\n\n" + sse([paused, pacing, claimed], 5)
     + "id: 5\ndata: {\"type\":\"RUN_STARTED\"}\n\nid: x7\ndata: {}\n\ndata: " + valid[0] + "\n\n")

# sse_parser: the same feeds with other line endings, comments, a byte-order mark and
# multi-line data, each behind a few chunkings (first byte: how many size bytes follow).
streams = [sse(valid[:4]), sse(valid[4:8], 10, "\r\n"), sse(valid[8:10], 20, "\r"),
           "\ufeff: ping\n\nretry: 10\nevent: CUSTOM\nid: 3\ndata: {\ndata:  \"a\": 1}\n\n"
           "id: 4\0x\ndata\n\n: bye\r\n"]
for stream in streams:
    body = stream.encode()
    for sizes in ([], [1], [7, 0, 13], [255, 2, 2, 2, 40]):
        seed("sse_parser", bytes([len(sizes)] + sizes) + body)

# roster_csv: the spellings and mistakes the parser's tests name, written out.
for csv in [
    "anonymous_id,display_name\nanon_aaaa1111,Ada Lovelace\n\nanon_bbbb2222,\"Grace, Hopper\"\n",
    "\ufeffLearner,Name\r\nanon_aaaa1111,Ada\r\n",
    "display_name,anonymous_id,class\n Ada , anon_aaaa1111 ,4b\n\"Grace \"\"G\"\" H\",anon_bbbb2222\n",
    "learner_id,name\nanon_aaaa1111,Ada\njane.doe@school.org,Jane\nanon_cccc3333,\nanon_aaaa1111,Ada again\n12345678,Numbers\n",
    "id,email\nanon_aaaa1111,x@y.z\n",
    "anonymous_id,display_name\n",
    "anonymous_id,display_name\nanon_aaaa1111,<b>Ada</b>\nanon_dddd4444,Zoë Ångström-李\n",
]:
    seed("roster_csv", csv)
PY

# The targets run two at a time (this kind of machine has two cores), each its own libFuzzer
# process on the binary cargo-fuzz built, exactly as `cargo fuzz run` would start it.
bin_dir=${CARGO_TARGET_DIR:-fuzz/target}/x86_64-unknown-linux-gnu/release
mkdir -p fuzz/artifacts
run_target() {
  local target=$1
  mkdir -p "fuzz/artifacts/$target" "fuzz/corpus/$target"
  # -timeout: an input that takes 10 s is a finding (the feed reads frames in milliseconds).
  "$bin_dir/$target" -artifact_prefix="fuzz/artifacts/$target/" -max_total_time="$seconds" \
    -timeout=10 -print_final_stats=1 "fuzz/corpus/$target" >"fuzz/artifacts/$target.log" 2>&1
}
failed=()
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pair=("${targets[@]:i:2}")
  pids=()
  for target in "${pair[@]}"; do
    run_target "$target" &
    pids+=($!)
  done
  for j in "${!pair[@]}"; do
    target=${pair[$j]}
    log=fuzz/artifacts/$target.log
    if wait "${pids[$j]}"; then
      status=ok
    else
      status=FAILED
      failed+=("$target")
      tail -n 40 "$log"
    fi
    execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
    corpus=$(find "fuzz/corpus/$target" -type f | wc -l)
    echo "fuzz $target: $status, ${execs:-?} execs in $seconds s, corpus $corpus inputs (log $log)"
  done
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz findings in: ${failed[*]} (inputs in fuzz/artifacts/<target>/)"
  exit 1
fi
