#!/usr/bin/env bash
# Regenerates the README's screenshots from one end-to-end run: runs tests/e2e/run.sh (the app
# binary built with the test hooks, as that script requires), then copies a fixed list of the
# pictures the tests saved under test-output/e2e/ to docs/screenshots/ under the names README.md
# uses. Every picture the README shows must be on the list; the script checks that too.
#   scripts/screenshots.sh            run the end-to-end tests, then copy
#   scripts/screenshots.sh --reuse    copy what a just-finished run left in test-output/e2e/
set -uo pipefail
cd "$(dirname "$0")/.."
out=test-output/e2e
docs=docs/screenshots

# test-output/e2e/<source>  ->  docs/screenshots/<target>
pictures=(
  "01-demo-class.png:demo-class.png"
  "12-names.png:live-grid.png"
  "40-live-grid-dark.png:live-grid-dark.png"
  "10-help-desk-typing.png:help-desk.png"
  "20-export.png:export.png"
  "30-name-in-answer-refused.png:name-refused.png"
  "32-projector-window.png:projector.png"
  "33-projector-shown-work.png:shown-work-projector.png"
  "52-freshness-host-stopped.png:freshness-warning.png"
  "70-room-paused.png:room-paused.png"
  "80-knowledge-map.png:knowledge-map.png"
  "81-pathway-map.png:pathway-map.png"
  "90-student-page.png:student-page.png"
  "91-report.png:report.png"
  "92-group-filtered.png:group-filtered.png"
  "60-class-page-ar.png:class-page-ar.png"
  "61-class-page-es.png:class-page-es.png"
)

reuse=false
case "${1:-}" in
  --reuse) reuse=true ;;
  "") ;;
  -h | --help)
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "usage: $0 [--reuse]" >&2
    exit 2
    ;;
esac

if ! $reuse; then
  # No picture of an earlier run may pass for this one's.
  rm -f "$out"/*.png
  if ! A2LEARN_SCREENSHOTS=1 tests/e2e/run.sh; then
    echo "error: the end-to-end run failed; docs/screenshots/ left as it was" >&2
    exit 1
  fi
fi

# Every picture the README shows comes from the list.
targets=" "
for p in "${pictures[@]}"; do targets+="${p#*:} "; done
status=0
while read -r shown; do
  if [[ "$targets" != *" ${shown#"$docs"/} "* ]]; then
    echo "error: README.md shows $shown, which is not on this script's list" >&2
    status=1
  fi
done < <(grep -o "$docs/[A-Za-z0-9._-]*\.png" README.md | sort -u)

copied=0
for p in "${pictures[@]}"; do
  src=${p%%:*}
  dst=${p#*:}
  if [ -f "$out/$src" ]; then
    mkdir -p "$docs"
    cp "$out/$src" "$docs/$dst"
    copied=$((copied + 1))
    if ! grep -q "$docs/$dst" README.md; then
      echo "note: $docs/$dst is not shown in README.md"
    fi
  else
    echo "error: $out/$src is missing: no test took it (or the run stopped early)" >&2
    status=1
  fi
done
echo "copied $copied of ${#pictures[@]} pictures to $docs/"
exit "$status"
