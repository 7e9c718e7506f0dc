#!/usr/bin/env bash
# Builds a2learn Teacher's Linux packages with the Tauri CLI (the version ui/package.json locks):
# a release build with the UI embedded, then the bundles. Prints each package's path and size.
#
#   scripts/package.sh              the .deb (Debian, Ubuntu)
#   scripts/package.sh --appimage   the .deb and an AppImage (the Tauri CLI downloads linuxdeploy
#                                   for it, so this needs the internet)
#
# Packages land in ${CARGO_TARGET_DIR:-target}/release/bundle/<kind>/. The product build has no
# test hooks (the `test-hooks` feature stays off).
set -euo pipefail
cd "$(dirname "$0")/.."
bundles=deb
case "${1:-}" in
  "") ;;
  --appimage) bundles=deb,appimage ;;
  *) echo "usage: scripts/package.sh [--appimage]" >&2; exit 2 ;;
esac
scripts/install.sh app
npm --prefix ui run --silent build
# `tauri build`: `cargo build --release` with the UI embedded, then the bundles; --ci: no prompts.
# The UI is built above: the CLI would run tauri.conf.json's beforeBuildCommand in the first
# folder with a package.json it finds (tests/e2e here, not the root), so it is switched off, and
# the two folders it would look for are named.
TAURI_APP_PATH=src-tauri TAURI_FRONTEND_PATH=ui ui/node_modules/.bin/tauri build --ci --bundles "$bundles" \
  --config '{"build":{"beforeBuildCommand":null}}'
bundle_dir=${CARGO_TARGET_DIR:-target}/release/bundle
for package in "$bundle_dir"/deb/*.deb "$bundle_dir"/appimage/*.AppImage; do
  [ -e "$package" ] || continue
  echo "built $package ($(du -h "$package" | cut -f1))"
done
