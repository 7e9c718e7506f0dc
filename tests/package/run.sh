#!/usr/bin/env bash
# The installer as a teacher meets it: build the .deb (scripts/package.sh), look inside it,
# install it with dpkg -i, start the installed app under Xvfb and check its window over WebDriver
# (installed.test.mjs), then remove the package again. Needs root (or sudo) for dpkg.
#
#   tests/package/run.sh            the release package, as teachers get it
#   tests/package/run.sh --debug    the same package from the debug profile (scripts/test.sh:
#                                   the checks are the same; the build reuses the test build's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
fail() {
  echo "package check: $*" >&2
  exit 1
}
version=$(node -p "require('./src-tauri/tauri.conf.json').version")
profile=release
[ "${1:-}" = --debug ] && profile=debug
scripts/package.sh "$@"
deb=$(ls -t "${CARGO_TARGET_DIR:-target}/$profile"/bundle/deb/*_"${version}"_amd64.deb | head -n 1)
echo "package: $deb ($(stat -c %s "$deb") bytes; installed size $(dpkg-deb -f "$deb" Installed-Size) KiB)"

# Inside: the app, its desktop entry and icons; the window's libraries as dependencies.
contents=$(dpkg-deb -c "$deb")
for want in 'usr/bin/a2learn-teacher-app$' 'usr/share/applications/.*\.desktop$' \
  'usr/share/icons/hicolor/128x128/apps/a2learn-teacher-app\.png$'; do
  grep -qE " (\./)?$want" <<<"$contents" || fail "$deb lacks $want"
done
depends=$(dpkg-deb -f "$deb" Depends)
grep -q 'libwebkit2gtk-4.1' <<<"$depends" || fail "Depends names no webkit2gtk 4.1: $depends"
package=$(dpkg-deb -f "$deb" Package)

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo dpkg -i "$deb"
trap '$sudo dpkg -r "$package" >/dev/null 2>&1 || true' EXIT
[ "$(dpkg-query -W -f='${Status} ${Version}' "$package")" = "install ok installed $version" ] ||
  fail "dpkg does not list $package $version as installed"
app=$(command -v a2learn-teacher-app) || fail "a2learn-teacher-app is not on PATH after dpkg -i"
# The product build has no test hooks; the debug build the end-to-end tests run has them.
if grep -qa A2LEARN_DEMO_INJECT_QUESTION "$app"; then
  fail "the installed app carries the test hooks"
fi
A2LEARN_APP=$app A2LEARN_PACKAGE_VERSION=$version \
  xvfb-run -a -s '-screen 0 1280x800x24' node --test "$here/installed.test.mjs"

$sudo dpkg -r "$package"
trap - EXIT
[ ! -e "$app" ] || fail "$app is still there after dpkg -r"
echo "package check: $package $version built, installed, opened and removed"
