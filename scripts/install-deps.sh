#!/usr/bin/env bash
# Installs the Debian packages Riffle's build needs, only those missing.
# Fast (one dpkg query) when everything is present; uses sudo only when not
# root. Extra package names may be given as arguments.
set -euo pipefail

# Fyne's cgo build (go-gl/glfw, go-gl/gl) and go-sqlite3 need these, and
# bench/'s DuckDB (a C++ library linked by cgo) g++.
pkgs=(gcc g++ pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev
      libxinerama-dev libxi-dev libxxf86vm-dev "$@")

missing=()
for p in "${pkgs[@]}"; do
  # dpkg -s succeeds for removed-but-configured packages too; check the status.
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: missing packages ${missing[*]}, and apt-get is not available; install them by hand" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "install-deps: need root or sudo to install ${missing[*]}" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
