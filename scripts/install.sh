#!/usr/bin/env bash
# Installs what building, running and testing a2learn Teacher needs on Debian bookworm (as root),
# skipping whatever is there already, so a second run is a no-op.
#   scripts/install.sh          everything (app + tests)
#   scripts/install.sh app      only what running the app needs
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}

# libdbus-1-dev: the host token's Secret Service client (keyring, sync-secret-service).
apt_packages=(libwebkit2gtk-4.1-dev build-essential curl wget file libssl-dev libxdo-dev
  libayatana-appindicator3-dev librsvg2-dev pkg-config xvfb xauth fonts-dejavu-core
  libgl1-mesa-dri libdbus-1-dev)
if [ "$what" = all ]; then
  # A real Secret Service for tests/credentials.rs (gnome-keyring under dbus-run-session, read
  # back with secret-tool), sqlite3 for its `.dump` check, and PostgreSQL for the store's tests
  # on the shared-store engine (scripts/pg-test-cluster.sh).
  apt_packages+=(webkit2gtk-driver gnome-keyring libsecret-tools dbus-bin sqlite3 postgresql)
fi

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v cargo >/dev/null || { echo "cargo (rustup) is required" >&2; exit 1; }
command -v npm >/dev/null || { echo "node and npm are required" >&2; exit 1; }

# The UI's packages, exactly as locked.
if [ ! -d ui/node_modules ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
  npm ci --prefix ui --no-audit --no-fund --loglevel=error
fi

if [ "$what" = all ]; then
  # The peers' validators (tests/peers) and axe-core for the end-to-end accessibility check
  # (tests/e2e), each exactly as locked.
  for dir in tests/peers tests/e2e; do
    if [ -f "$dir/package-lock.json" ] && { [ ! -d "$dir/node_modules" ] ||
        [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; }; then
      npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
    fi
  done
  # Ralph, the xAPI record store the export is tested against (tests/xapi_ralph.rs). Its
  # extras miss `requests`, which its CLI needs.
  ralph_venv=${A2LEARN_RALPH_VENV:-$HOME/.cache/a2learn/ralph-venv}
  if ! "$ralph_venv/bin/python" -c 'import importlib.metadata as m, requests; assert m.version("ralph-malph") == "5.1.0"' 2>/dev/null; then
    echo "installing Ralph (ralph-malph 5.1.0) into $ralph_venv"
    python3 -m venv "$ralph_venv"
    "$ralph_venv/bin/pip" install --quiet --disable-pip-version-check 'ralph-malph[cli,lrs]==5.1.0' requests
  fi
  if ! command -v tauri-driver >/dev/null; then
    cargo install tauri-driver --locked --version '^2' --quiet
  fi
fi
