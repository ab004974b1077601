#!/usr/bin/env bash
# Tests the .deb (issue 21), run by `make test`: builds it with
# scripts/package.sh --deb-only into a scratch folder (uncompressed, the Go
# build cache makes the build a link), unpacks it with dpkg -x into a scratch
# root and checks that <root>/usr/bin/riffle version prints the package's
# version, the control fields, the .desktop entry's fields and the icon.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "package-test: FAIL: $*" >&2; exit 1; }

deb=$(DIST=$scratch/dist DEB_COMPRESS=none scripts/package.sh --deb-only | tail -n 1)
[ -f "$deb" ] || fail "scripts/package.sh made no .deb ($deb)"

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = riffle ] || fail "Package is '$(field Package)'"
version=$(field Version)
case "$version" in [0-9]*.[0-9]*.[0-9]*) ;; *) fail "Version '$version' is not N.N.N…" ;; esac
[ "$(basename "$deb")" = "riffle_${version}_$(dpkg --print-architecture).deb" ] ||
  fail "file name $(basename "$deb") does not carry version $version"
depends=$(field Depends)
for lib in libc6 libgl1 libx11-6 libxcursor1 libxrandr2 libxinerama1 libxi6 libxxf86vm1; do
  case ", $depends," in *", $lib"[\ ,]*) ;; *) fail "Depends lacks $lib: $depends" ;; esac
done

root=$scratch/root
dpkg -x "$deb" "$root"
out=$("$root/usr/bin/riffle" version)
case "$out" in "riffle $version ("*) ;; *) fail "installed riffle version says '$out', want riffle $version (…)" ;; esac

desktop=$root/usr/share/applications/io.riffle.workbench.desktop
[ -f "$desktop" ] || fail "no $desktop"
for want in 'Type=Application' 'Name=Riffle' 'Exec=riffle' 'Icon=io.riffle.workbench' \
            'Categories=Development;Database;'; do
  grep -qxF "$want" "$desktop" || fail ".desktop entry lacks $want: $(cat "$desktop")"
done
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$desktop" || fail "desktop-file-validate rejects the entry"
fi
icon=$root/usr/share/icons/hicolor/256x256/apps/io.riffle.workbench.png
[ -f "$icon" ] || fail "no icon at $icon"
# a PNG's IHDR: width and height as 4-byte big-endian at offsets 16 and 20
[ "$(od -An -tx1 -j16 -N8 "$icon" | tr -d ' \n')" = 0000010000000100 ] || fail "icon is not 256x256"
[ "$(find "$root" -type f | sed "s|^$root||" | sort | tr '\n' ' ')" = \
  "/usr/bin/riffle /usr/share/applications/io.riffle.workbench.desktop /usr/share/doc/riffle/copyright /usr/share/icons/hicolor/256x256/apps/io.riffle.workbench.png " ] ||
  fail "unexpected files: $(find "$root" -type f | sed "s|^$root||")"
echo "package-test: ok: riffle $version installs under /usr (Depends: $depends)"
