#!/usr/bin/env bash
# Prepares the build of the workbench binary with Riffle's patched
# dependency files (third_party/README.md) and prints the path of the Go
# workspace file that uses them; the Makefile's build and
# scripts/package.sh run
#
#   w=$(scripts/patched-deps.sh) && GOWORK=$w go build -tags ... -o bin/riffle .
#
# For each patched module it copies the module's files from Go's module
# cache to bin/deps/MODULE@VERSION, puts the patched files over them, and
# writes bin/deps/go.work: the repository's go.work (its modules by
# absolute path) with a replace of the module by that copy. A patched file
# was made from one version of its module: when go.mod names another, this
# fails and says which, rather than build without the patch. Environment:
# GO (go).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
out=bin/deps

# module version patch-dir: the patch dir's .go files replace the module's.
patches=(
  "fyne.io/fyne/v2 v2.7.1 third_party/_fyne"
)

mkdir -p "$out"
sed -E "s#^([[:space:]]*)\\.(/[^[:space:]]*)?\$#\\1$PWD\\2#" go.work >"$out/go.work"
cp go.work.sum "$out/go.work.sum"
for p in "${patches[@]}"; do
  read -r mod want dir <<<"$p"
  got=$("$GO" list -m -f '{{.Version}}' "$mod")
  if [ "$got" != "$want" ]; then
    echo "patched-deps: $dir patches $mod $want but go.mod has $got: remake the patch (third_party/README.md)" >&2
    exit 1
  fi
  src=$("$GO" list -m -f '{{.Dir}}' "$mod")
  copy=$out/$(echo "$mod" | tr / _)@$want
  if [ ! -d "$copy" ]; then
    cp -r "$src" "$copy.tmp"
    chmod -R u+w "$copy.tmp"
    mv "$copy.tmp" "$copy"
  fi
  (cd "$dir" && find . -name '*.go') | while IFS= read -r f; do
    cmp -s "$dir/$f" "$copy/$f" || cp "$dir/$f" "$copy/$f"
  done
  echo "replace $mod $want => $PWD/$copy" >>"$out/go.work"
done
echo "$PWD/$out/go.work"
