#!/usr/bin/env bash
# Builds a2learn Teacher's Linux packages with the Tauri CLI (the version ui/package.json locks):
# a release build with the UI embedded, then the bundles. Prints each package's path and size.
#
#   scripts/package.sh              the .deb (Debian, Ubuntu), from an optimised release build
#   scripts/package.sh --appimage   the .deb and an AppImage (the Tauri CLI downloads linuxdeploy
#                                   for it, so this needs the internet)
#   scripts/package.sh --debug      the .deb from the debug profile, unoptimised: what the test
#                                   command installs to check the installer (it reuses the test
#                                   build's compiled dependencies instead of a second, optimised
#                                   build of everything); not for teachers
#
# Packages land in ${CARGO_TARGET_DIR:-target}/<release|debug>/bundle/<kind>/. The product build
# has no test hooks (the `test-hooks` feature stays off). With A2LEARN_UI_BUILT=1 the UI is taken
# as built already (ui/dist, as scripts/test.sh builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
bundles=deb
profile=release
for arg in "$@"; do
  case "$arg" in
    --appimage) bundles=deb,appimage ;;
    --debug) profile=debug ;;
    *) echo "usage: scripts/package.sh [--appimage] [--debug]" >&2; exit 2 ;;
  esac
done
scripts/install.sh app
[ "${A2LEARN_UI_BUILT:-}" = 1 ] || npm --prefix ui run --silent build
# `tauri build`: `cargo build --release` (or the debug profile) with the UI embedded, then the
# bundles; --ci: no prompts. The UI is built above: the CLI would run tauri.conf.json's
# beforeBuildCommand in the first folder with a package.json it finds (tests/e2e here, not the
# root), so it is switched off, and the two folders it would look for are named.
debug=()
[ "$profile" = debug ] && debug=(--debug)
TAURI_APP_PATH=src-tauri TAURI_FRONTEND_PATH=ui ui/node_modules/.bin/tauri build --ci "${debug[@]}" \
  --bundles "$bundles" --config '{"build":{"beforeBuildCommand":null}}'
bundle_dir=${CARGO_TARGET_DIR:-target}/$profile/bundle
for package in "$bundle_dir"/deb/*.deb "$bundle_dir"/appimage/*.AppImage; do
  [ -e "$package" ] || continue
  echo "built $package ($(du -h "$package" | cut -f1))"
done
