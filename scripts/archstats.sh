#!/usr/bin/env bash
# The architecture figures of issue 14's closing note, printed from the tree
# as it is (run it before and after a step and compare):
#
#   scripts/archstats.sh                 the working tree, all sections
#   scripts/archstats.sh --no-build      the same without the CGO_ENABLED=0 build (the slow part)
#   scripts/archstats.sh --rev COMMIT    a commit, exported with `git archive` into a temporary
#                                        folder (not the working tree, so others' uncommitted
#                                        changes do not count); both flags may be given
#
# 1. lines of Go per package directory, non-test and test (every *.go file,
#    whatever its build tags; bench/ is a module of its own), with totals for
#    the engine, the entry points, the workbench and the tools;
# 2. Go files over 1,000 lines, with their line counts;
# 3. the import graph between package groups (engine/<pkg>, with
#    engine/connector/* folded into engine/connector, and each top-level
#    directory), from `go list -f '{{.ImportPath}} {{.Imports}}'` (non-test
#    imports); then, for each front-end and GUI package, the engine
#    packages it imports directly and the ones it reaches through
#    `go list -deps` (what issue 14's "done when" measures);
# 4. smaller figures issue 14 names: engine/plan files (and sub-packages) importing
#    engine/runtime, engine packages importing anything outside engine/,
#    third-party modules the engine links, time.Sleep calls in tests;
# 5. whether `CGO_ENABLED=0 go build -tags migrated_fynedo ./engine/...`
#    passes.
#
# It reads only; it writes nothing but Go's build cache (and, with --rev, a
# temporary folder it removes). Needs bash, awk, git and the go command
# (GO=... to use another).
set -euo pipefail

GO=${GO:-go}
TAGS=${TAGS:-migrated_fynedo}
MOD=github.com/riffle-sql/riffle
build=1
rev=""
while [ $# -gt 0 ]; do
  case "$1" in
  --no-build) build=0; shift ;;
  --rev) [ $# -ge 2 ] || { echo "--rev needs a commit" >&2; exit 2; }; rev=$2; shift 2 ;;
  *) echo "usage: $0 [--no-build] [--rev COMMIT]" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/.."

if [ -n "$rev" ]; then
  what="commit $(git rev-parse --short "$rev^{commit}") (exported with git archive)"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 1' INT TERM PIPE
  git archive "$rev" | tar -x -C "$tmp"
  cd "$tmp"
else
  what="working tree at $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  git diff --quiet HEAD -- '*.go' 2>/dev/null || what="$what + uncommitted Go changes"
  [ -z "$(git ls-files --others --exclude-standard -- '*.go' 2>/dev/null)" ] || what="$what + untracked Go files"
fi

echo "# Riffle architecture figures"
echo "$what, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo

# ---- 1. lines of Go per package directory -----------------------------------

gofiles() { find . -name '*.go' -not -path './.git/*' -type f | sed 's#^\./##' | sort; }

# file line counts: "lines path"
counts=$(gofiles | tr '\n' '\0' | xargs -0 awk 'FNR == 1 && NR > 1 { print n, f } FNR == 1 { f = FILENAME; n = 0 } { n++ } END { if (f != "") print n, f }')
# files with zero lines do not reach awk's main rule; they count as 0 lines
counts=$(printf '%s\n' "$counts"; comm -13 <(printf '%s\n' "$counts" | awk '{print $2}' | sort) <(gofiles) | awk 'NF {print 0, $0}')

echo "## 1. Lines of Go per package directory"
echo
printf '%s\n' "$counts" | awk '
function group(d) {
  if (d == "bench" || d ~ /^bench\//) return "tools"
  if (d ~ /^engine(\/|$)/) return "engine"
  if (d == "." || d == "cli" || d == "sqlclient") return "entry points"
  if (d ~ /^(workbench|ui|authoring|completion|monitor|plangraph|catalogbrowser|editor|charts|kafkabrowser|persistence|assets)(\/|$)/) return "workbench"
  return "tools"
}
NF == 2 {
  path = $2; d = path; sub(/\/[^\/]*$/, "", d); if (d == path) d = "."
  test = (path ~ /_test\.go$/)
  dirs[d] = 1
  if (test) { tf[d]++; tl[d] += $1 } else { nf[d]++; nl[d] += $1 }
}
END {
  printf "%-40s %6s %8s %6s %8s\n", "directory", "files", "lines", "tests", "lines"
  n = 0; for (d in dirs) keys[++n] = d
  # insertion sort (awk without asort)
  for (i = 2; i <= n; i++) { k = keys[i]; for (j = i - 1; j > 0 && keys[j] > k; j--) keys[j+1] = keys[j]; keys[j+1] = k }
  for (i = 1; i <= n; i++) {
    d = keys[i]; g = group(d)
    printf "%-40s %6d %8d %6d %8d\n", d (d ~ /^bench/ ? " (own module)" : ""), nf[d], nl[d], tf[d], tl[d]
    gnf[g] += nf[d]; gnl[g] += nl[d]; gtf[g] += tf[d]; gtl[g] += tl[d]
    if (g == "engine") { e = d; sub(/^engine\/?/, "", e); sub(/\/.*/, "", e); enl["engine/" e] += nl[d]; etl["engine/" e] += tl[d] }
    anf += nf[d]; anl += nl[d]; atf += tf[d]; atl += tl[d]
  }
  print ""
  print "By group (entry points: main.go, cli, sqlclient; workbench: ui and the GUI models, widgets and stores"
  print "beside it: authoring, completion, monitor, plangraph, catalogbrowser, editor, charts, kafkabrowser,"
  print "persistence, assets; tools: bench, nexmark, interop, internal):"
  printf "%-40s %6s %8s %6s %8s\n", "group", "files", "lines", "tests", "lines"
  split("engine|entry points|workbench|tools", order, "|")
  for (i = 1; i <= 4; i++) { g = order[i]; printf "%-40s %6d %8d %6d %8d\n", g, gnf[g], gnl[g], gtf[g], gtl[g] }
  printf "%-40s %6d %8d %6d %8d\n", "all", anf, anl, atf, atl
  print ""
  print "Engine by package subtree (non-test / test lines):"
  m = 0; for (e in enl) ek[++m] = e
  for (i = 2; i <= m; i++) { k = ek[i]; for (j = i - 1; j > 0 && ek[j] > k; j--) ek[j+1] = ek[j]; ek[j+1] = k }
  for (i = 1; i <= m; i++) printf "  %-38s %8d %8d\n", ek[i], enl[ek[i]], etl[ek[i]]
}'
echo

# ---- 2. files over 1,000 lines ----------------------------------------------

echo "## 2. Go files over 1,000 lines"
echo
big=$(printf '%s\n' "$counts" | awk 'NF == 2 && $1 > 1000' | sort -k1,1nr)
nbig=$(printf '%s\n' "$big" | awk 'NF' | wc -l)
nbigsrc=$(printf '%s\n' "$big" | awk 'NF && $2 !~ /_test\.go$/' | wc -l)
echo "$nbig files ($nbigsrc non-test, $((nbig - nbigsrc)) test):"
printf '%s\n' "$big" | awk 'NF { printf "  %6d  %s\n", $1, $2 }'
echo

# ---- 3. import graph ----------------------------------------------------------

echo "## 3. Imports between package groups (non-test imports)"
echo
# the engine is a module of its own once engine/go.mod exists (go.work joins them)
allpkgs="./..."
[ -f engine/go.mod ] && allpkgs="./... ./engine/..."
pkgs=$($GO list -tags "$TAGS" -e -f '{{.ImportPath}} {{join .Imports " "}}' $allpkgs 2>/dev/null)
printf '%s\n' "$pkgs" | awk -v mod="$MOD" '
function grp(p,   q, a) {
  if (p == mod) return "riffle (main.go)"
  q = substr(p, length(mod) + 2)
  split(q, a, "/")
  if (a[1] == "engine" && a[2] == "internal") return "engine/internal/" a[3]
  if (a[1] == "engine") return "engine/" a[2]
  if (a[1] == "workbench") return "workbench/" a[2]
  return a[1]
}
{
  if (index($1, mod) != 1) next
  from = grp($1)
  for (i = 2; i <= NF; i++) {
    if (index($i, mod "/") != 1 && $i != mod) continue
    to = grp($i)
    if (to != from) edge[from, to] = 1
    seen[from] = 1
  }
  seen[from] = 1
}
END {
  n = 0; for (g in seen) ks[++n] = g
  for (i = 2; i <= n; i++) { k = ks[i]; for (j = i - 1; j > 0 && ks[j] > k; j--) ks[j+1] = ks[j]; ks[j+1] = k }
  for (i = 1; i <= n; i++) {
    line = ""
    for (j = 1; j <= n; j++) if ((ks[i], ks[j]) in edge) line = line (line == "" ? "" : ", ") ks[j]
    printf "%-22s -> %s\n", ks[i], (line == "" ? "(nothing in the module)" : line)
  }
}'
echo

echo "## 3b. Engine packages used by the front ends and GUI packages"
echo "(direct: the package's own imports; via -deps: every engine package in its build, connectors included)"
echo
for p in ui sqlclient authoring completion monitor plangraph catalogbrowser editor charts kafkabrowser persistence persistence/sqlitecatalog cli; do
  [ -d "workbench/$p" ] && p=workbench/$p
  [ -d "$p" ] || continue
  direct=$($GO list -tags "$TAGS" -f '{{join .Imports "\n"}}' "./$p" 2>/dev/null | { grep "^$MOD/engine" || true; } | sed "s#^$MOD/##" | sort)
  deps=$($GO list -tags "$TAGS" -deps -f '{{.ImportPath}}' "./$p" 2>/dev/null | { grep "^$MOD/engine" || true; } | sed "s#^$MOD/##" | sort)
  ndirect=$(printf '%s\n' "$direct" | awk 'NF' | wc -l)
  ndeps=$(printf '%s\n' "$deps" | awk 'NF' | wc -l)
  core=$(printf '%s\n' "$deps" | awk 'NF && $0 !~ /^engine\/connector\//' | paste -sd' ' -)
  nconn=$(printf '%s\n' "$deps" | awk '/^engine\/connector\//' | wc -l)
  echo "$p"
  list=$(printf '%s\n' "$direct" | awk 'NF' | paste -sd' ' -)
  more=""
  if [ "$nconn" -gt 0 ]; then more=" + $nconn under engine/connector/"; fi
  echo "  direct ($ndirect): ${list:-none}"
  echo "  via -deps ($ndeps): ${core:-none}$more"
  if [ -d engine/internal ]; then
    nint=$(printf '%s\n' "$direct" | { grep -c '^engine/internal/' || true; })
    echo "  engine/internal packages among the direct imports: $nint (the compiler refuses them outside engine/)"
  fi
done
echo

# ---- 4. smaller figures -------------------------------------------------------

echo "## 4. Other figures issue 14 names"
echo
planfiles=$(find engine/plan engine/internal/plan -name '*.go' -type f 2>/dev/null | sort || true)
n=$(printf '%s\n' "$planfiles" | awk 'NF' | xargs -r grep -lE "\"$MOD/engine/(internal/)?runtime\"" 2>/dev/null | grep -vc '_test\.go$' || true)
echo "engine/plan and its sub-packages (binder, rules, physical): non-test files importing engine/runtime: $n"
aliases=$(printf '%s\n' "$planfiles" | awk 'NF' | xargs -r grep -hE '^type [A-Za-z]+ = runtime\.' 2>/dev/null | awk '{print $2}' | paste -sd' ' - || true)
echo "engine/plan type aliases of runtime types: ${aliases:-none}"
out=$($GO list -tags "$TAGS" -f '{{.ImportPath}} {{join .Imports " "}}' ./engine/... 2>/dev/null |
  awk -v mod="$MOD" '{ for (i = 2; i <= NF; i++) if (index($i, mod "/") == 1 && index($i, mod "/engine/") != 1) print substr($1, length(mod) + 2) " -> " substr($i, length(mod) + 2) }')
echo "engine packages importing a module package outside engine/: ${out:-none}"
mods=$($GO list -tags "$TAGS" -deps -f '{{if .Module}}{{if not .Module.Main}}{{.Module.Path}}{{end}}{{end}}' ./engine/... 2>/dev/null | sort -u | awk 'NF')
echo "third-party modules linked by ./engine/... ($(printf '%s\n' "$mods" | awk 'NF' | wc -l)):"
printf '%s\n' "$mods" | paste -sd' ' - | fold -s -w 98 | sed 's/ *$//; s/^/  /'
for m in fyne.io/fyne/v2 github.com/mattn/go-sqlite3 github.com/spf13/cobra gonum.org/v1/plot; do
  if printf '%s\n' "$mods" | grep -qx "$m"; then echo "  ! the engine links $m"; fi
done
sleeplines=$(grep -rn --include='*_test.go' -E '\btime\.Sleep\(' . 2>/dev/null | grep -v '^\./\.git/' | grep -v -E '^[^:]+:[0-9]+:[[:space:]]*//' || true)
sleeps=$(printf '%s\n' "$sleeplines" | awk 'NF' | wc -l)
sleepfiles=$(printf '%s\n' "$sleeplines" | awk -F: 'NF { print $1 }' | sort -u | wc -l)
echo "time.Sleep calls in *_test.go files (comment lines left out): $sleeps (in $sleepfiles files)"
uidir=ui; [ -d workbench/ui ] && uidir=workbench/ui
echo "$uidir package: $(ls $uidir/*.go | grep -vc '_test\.go$') non-test files, $(cat $(ls $uidir/*.go | grep -v '_test\.go$') | wc -l) lines"
echo

# ---- 5. the engine without cgo ------------------------------------------------

echo "## 5. CGO_ENABLED=0 go build -tags $TAGS ./engine/..."
echo
if [ "$build" = 0 ]; then
  echo "skipped (--no-build)"
else
  log=$(mktemp)
  # with engine/go.mod, the engine's module alone (no go.work, so nothing of the
  # workbench's module can be reached)
  if [ -f engine/go.mod ]; then
    echo "(the engine's own module, GOWORK=off, from engine/)"
    bld() { (cd engine && GOWORK=off CGO_ENABLED=0 $GO build -tags "$TAGS" ./...); }
  else
    bld() { CGO_ENABLED=0 $GO build -tags "$TAGS" ./engine/...; }
  fi
  if bld >"$log" 2>&1; then
    echo "PASS"
  else
    echo "FAIL:"
    sed 's/^/  /' "$log" | head -40
  fi
  rm -f "$log"
fi
