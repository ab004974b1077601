#!/usr/bin/env bash
# Builds Riffle's Linux packages under dist/ (issue 21):
#   dist/riffle-VERSION-linux-ARCH.tar.xz  made by `fyne package` (the binary,
#                                          icon, .desktop entry and a Makefile
#                                          that installs them under /usr/local)
#   dist/riffle_VERSION_ARCH.deb           made by dpkg-deb from the same files,
#                                          installed under /usr
# VERSION is `riffle version`'s (cli.Version, also FyneApp.toml's Version),
# with +gitN.HASH[.dirty] added unless HEAD is tagged vVERSION; the binary is
# linked with it, so the installed `riffle version` prints the package's.
#
# Options: --deb-only skips the tar.xz (the test's quick path).
# Environment: GO, TAGS, DIST (dist), FYNE_TOOLS (the fyne CLI's version,
# fyne.io/tools from the Go module proxy), DEB_COMPRESS (dpkg-deb -Z: gzip,
# the default, which every dpkg reads and takes seconds where xz takes minutes
# on the 140 MB binary; xz, zstd or none), XZ_OPT (the tar.xz's xz options;
# default -3 -T0).
# The Go build reuses the build cache: only the link step is new.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
TAGS=${TAGS:-migrated_fynedo,no_emoji} # no_emoji: see the Makefile's APPTAGS
DIST=${DIST:-dist}
FYNE_TOOLS=${FYNE_TOOLS:-v1.7.4}
DEB_COMPRESS=${DEB_COMPRESS:-gzip}
deb_only=false
for a in "$@"; do
  case "$a" in
    --deb-only) deb_only=true ;;
    *) echo "package: unknown option $a (want --deb-only)" >&2; exit 2 ;;
  esac
done

die() { echo "package: $*" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps tar xz; do
  command -v "$tool" >/dev/null || die "$tool is missing (Debian: scripts/install-deps.sh dpkg-dev xz-utils)"
done

# --- version ---------------------------------------------------------------
base=$(sed -n 's/^var Version = "\(.*\)"$/\1/p' cli/cli.go)
toml=$(sed -n 's/^Version = "\(.*\)"$/\1/p' FyneApp.toml)
[ -n "$base" ] || die "no 'var Version = \"...\"' in cli/cli.go"
[ "$base" = "$toml" ] || die "cli.Version $base and FyneApp.toml's Version $toml differ"
version=$base
if git rev-parse --git-dir >/dev/null 2>&1 &&
   [ "$(git describe --tags --exact-match 2>/dev/null || true)" != "v$base" ]; then
  version="$base+git$(git rev-list --count HEAD).$(git rev-parse --short HEAD)"
  [ -z "$(git status --porcelain --untracked-files=no)" ] || version="$version.dirty"
fi
arch=$(dpkg --print-architecture)

# --- the fyne CLI, pinned ----------------------------------------------------
fyne=bin/fyne-$FYNE_TOOLS
if [ ! -x "$fyne" ]; then
  echo "package: installing fyne.io/tools/cmd/fyne@$FYNE_TOOLS" >&2
  gobin=$(mktemp -d)
  GOBIN=$gobin GOWORK=off "$GO" install "fyne.io/tools/cmd/fyne@$FYNE_TOOLS"
  mkdir -p bin
  mv "$gobin/fyne" "$fyne"
  rm -rf "$gobin"
fi

# --- the binary ----------------------------------------------------------------
mkdir -p "$DIST"
DIST=$(cd "$DIST" && pwd)
work=$DIST/.work
rm -rf "$work"
mkdir -p "$work/bin"
echo "package: building riffle $version" >&2
# with Riffle's patched dependency files (third_party/README.md)
gowork=$(GO=$GO scripts/patched-deps.sh) || die "scripts/patched-deps.sh failed"
GOWORK=$gowork "$GO" build -tags "$TAGS" \
  -ldflags "-s -w -X github.com/riffle-sql/riffle/cli.Version=$version" \
  -o "$work/bin/riffle" .
got=$("$work/bin/riffle" version)
case "$got" in "riffle $version ("*) ;; *) die "built binary says '$got', want riffle $version" ;; esac

# --- fyne package: binary, icon, .desktop entry ---------------------------------
# It reads FyneApp.toml (name, app ID, icon, [LinuxAndBSD]), uses the binary
# given with -exe as it is, and writes Riffle.tar.xz in the current directory:
# riffle/Makefile and riffle/usr/local/{bin,share/applications,share/pixmaps}
# (usr/ without local/ where the machine has no /usr/local).
# tar -J compresses with xz: all cores, and the fastest level when only the
# .deb is kept.
export XZ_OPT=${XZ_OPT:--3 -T0}
$deb_only && XZ_OPT="-0 -T0"
# fyne package counts its runs in FyneApp.toml's Build: keep the file as
# it is in the repository (packaging must not leave the tree changed)
cp FyneApp.toml "$work/FyneApp.toml.kept"
restore_toml() { cp "$work/FyneApp.toml.kept" FyneApp.toml; }
if ! (cd "$work" && "$OLDPWD/$fyne" package -os linux -exe "$work/bin/riffle" -src "$OLDPWD" \
   -icon "$OLDPWD/assets/icon.png" >/dev/null); then
  restore_toml
  die "fyne package failed"
fi
restore_toml
tarball=$DIST/riffle-$version-linux-$arch.tar.xz
[ -f "$work/Riffle.tar.xz" ] || die "fyne package wrote no Riffle.tar.xz"

# --- the .deb: the same files under /usr ----------------------------------------
root=$work/deb
mkdir -p "$root"
tar -xJf "$work/Riffle.tar.xz" -C "$work"
src=$work/riffle/usr
[ -d "$src/local" ] && src=$src/local
install -D -m 0755 "$src/bin/riffle" "$root/usr/bin/riffle"
install -D -m 0644 "$src/share/applications/io.riffle.workbench.desktop" \
  "$root/usr/share/applications/io.riffle.workbench.desktop"
install -D -m 0644 "$src/share/pixmaps/io.riffle.workbench.png" \
  "$root/usr/share/icons/hicolor/256x256/apps/io.riffle.workbench.png"
install -D -m 0644 /dev/stdin "$root/usr/share/doc/riffle/copyright" <<'EOF'
Riffle: https://github.com/riffle-sql/riffle
See the project's repository for its licence and those of its dependencies.
EOF
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/io.riffle.workbench.desktop"
fi

# Depends: the libraries the binary links (dpkg-shlibdeps: libc6, libgl1,
# libx11-6), then those GLFW opens with dlopen at run time (X cursor, RandR,
# Xinerama, XInput, XF86VidMode: without them it loses monitors, cursors and
# input).
shl=$work/shlibs
mkdir -p "$shl/debian"
printf 'Source: riffle\n\nPackage: riffle\nArchitecture: any\n' >"$shl/debian/control"
linked=$(cd "$shl" && dpkg-shlibdeps -O -e "$root/usr/bin/riffle" 2>/dev/null |
  sed -n 's/^shlibs:Depends=//p')
[ -n "$linked" ] || die "dpkg-shlibdeps found no libraries"
depends="$linked, libxcursor1, libxrandr2, libxinerama1, libxi6, libxxf86vm1"

mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<EOF
Package: riffle
Version: $version
Architecture: $arch
Maintainer: Riffle developers <maintainers@users.noreply.github.com>
Installed-Size: $(du -sk "$root/usr" | cut -f1)
Depends: $depends
Section: database
Priority: optional
Homepage: https://github.com/riffle-sql/riffle
Description: streaming and batch SQL workbench (Flink SQL)
 Riffle runs Apache Flink's SQL and Table API in one Go binary: a desktop
 workbench (riffle), a headless SQL client (riffle sql) and a Flink SQL
 Gateway compatible server (riffle gateway).
EOF
deb=$DIST/riffle_${version}_${arch}.deb
rm -f "$DIST"/riffle_*.deb
dpkg-deb --root-owner-group -Z"$DEB_COMPRESS" --build "$root" "$deb" >/dev/null

if ! $deb_only; then
  rm -f "$DIST"/riffle-*-linux-*.tar.xz
  mv "$work/Riffle.tar.xz" "$tarball"
  echo "$tarball"
fi
rm -rf "$work"
echo "$deb"
