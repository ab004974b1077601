#!/usr/bin/env bash
# Measures a new user's first start of the workbench: seconds from the
# process's start to its window being mapped and to the first painted
# frame (a 300x200 crop of the screen holding more than 5 colours), on an
# X display with a fresh HOME (so the demo workspace and its sample data
# are made anew). Needs xdotool and imagemagick.
#
#   DISPLAY=:99 scripts/first-paint.sh [BINARY] [RUNS]
set -euo pipefail
bin=${1:-bin/riffle}
runs=${2:-3}
[ -n "${DISPLAY:-}" ] || { echo "first-paint: set DISPLAY (e.g. Xvfb :99 & DISPLAY=:99)" >&2; exit 2; }
for cmd in xdotool import bc; do
  command -v "$cmd" >/dev/null || { echo "first-paint: $cmd is missing" >&2; exit 2; }
done
for ((r = 1; r <= runs; r++)); do
  home=$(mktemp -d)
  t0=$(date +%s.%N)
  HOME=$home "$bin" >/dev/null 2>&1 &
  pid=$!
  tw="" tp=""
  for _ in $(seq 1 300); do
    if [ -z "$tw" ] && xdotool search --name 'Riffle' >/dev/null 2>&1; then tw=$(date +%s.%N); fi
    if [ -n "$tw" ]; then
      n=$(import -window root -crop 300x200+300+100 -format '%k' info: 2>/dev/null || echo 1)
      if [ "$n" -gt 5 ]; then tp=$(date +%s.%N); break; fi
    fi
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$home"
  [ -n "$tp" ] || { echo "run $r: no painted frame within 30 s" >&2; exit 1; }
  printf 'run %d: window %.2f s, first paint %.2f s, load %s\n' "$r" \
    "$(echo "$tw - $t0" | bc)" "$(echo "$tp - $t0" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
done
