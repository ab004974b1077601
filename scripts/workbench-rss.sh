#!/usr/bin/env bash
# Measures the workbench's memory holding a 1 M-row × 5-column result
# (issue 19 §5; docs/benchmarks.md "The workbench under big results").
#
#   DISPLAY=:97 scripts/workbench-rss.sh [BINARY] [RUNS]
#
# Each run: a fresh HOME whose demo workspace is made by a first start;
# its demo alert rule is then disabled (its job would start with the
# window) and its first tab's text replaced by the script below; the
# second start runs the tab (Ctrl+Shift+Enter), waits for the process's
# RSS to stay within 1 MB for 10 s (at least 20 s after Run all), and
# prints VmRSS, VmHWM, RssAnon, RssFile, PSS (smaps_rollup) and the load
# average, then saves a screenshot (SHOT_DIR, default /tmp) to check the
# result said FINISHED with 1,000,000 rows. Needs xdotool, sqlite3 and
# imagemagick.
set -euo pipefail
bin=$(readlink -f "${1:-bin/riffle}")
runs=${2:-1}
shots=${SHOT_DIR:-/tmp}
[ -n "${DISPLAY:-}" ] || { echo "workbench-rss: set DISPLAY (e.g. Xvfb :99 & DISPLAY=:99)" >&2; exit 2; }
for cmd in xdotool sqlite3 import; do
  command -v "$cmd" >/dev/null || { echo "workbench-rss: $cmd is missing" >&2; exit 2; }
done

sql="SET 'execution.runtime-mode' = 'batch';
CREATE TEMPORARY TABLE big (a BIGINT, b DOUBLE, s STRING, ts TIMESTAMP(3), i INT)
  WITH ('connector'='datagen', 'number-of-rows'='1000000', 'fields.s.length'='10',
        'rows-per-second'='1000000');
SELECT * FROM big;"

# waitWindow waits up to 30 s for the workbench's window.
waitWindow() {
  for _ in $(seq 1 300); do
    xdotool search --name 'Riffle' >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "workbench-rss: no window within 30 s" >&2
  return 1
}

# field prints a /proc/PID/status field in MB.
field() { awk -v f="$2:" '$1 == f { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }

for ((r = 1; r <= runs; r++)); do
  home=$(mktemp -d)
  HOME=$home "$bin" >/dev/null 2>&1 &
  pid=$!
  waitWindow
  sleep 3
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  db=$home/.config/riffle/default.riffle
  sqlite3 "$db" "UPDATE alert_rules SET enabled = 0;
    UPDATE tabs SET text = '$(printf '%s' "$sql" | sed "s/'/''/g")', cursor_line = 0, cursor_col = 0
      WHERE id = (SELECT id FROM tabs ORDER BY position LIMIT 1);
    UPDATE workspace SET selected_tab = (SELECT id FROM tabs ORDER BY position LIMIT 1);"

  HOME=$home "$bin" >"$home/riffle.log" 2>&1 &
  pid=$!
  waitWindow
  sleep 5
  idle="$(field $pid VmRSS) / $(field $pid RssAnon)"
  win=$(xdotool search --name 'Riffle' | head -1)
  xdotool windowfocus --sync "$win" 2>/dev/null || true
  xdotool key --window "$win" ctrl+shift+Return
  sleep 20
  last=0 same=0
  for _ in $(seq 1 120); do
    now=$(awk '$1 == "VmRSS:" { print $2 }' "/proc/$pid/status")
    if [ $((now - last)) -lt 1024 ] && [ $((last - now)) -lt 1024 ]; then
      same=$((same + 1))
    else
      same=0
    fi
    last=$now
    [ "$same" -ge 5 ] && break
    sleep 2
  done
  pss=$(awk '$1 == "Pss:" { printf "%.0f", $2 / 1024 }' "/proc/$pid/smaps_rollup")
  pssAnon=$(awk '$1 == "Pss_Anon:" { printf "%.0f", $2 / 1024 }' "/proc/$pid/smaps_rollup")
  pssFile=$(awk '$1 == "Pss_File:" { printf "%.0f", $2 / 1024 }' "/proc/$pid/smaps_rollup")
  import -window root "$shots/workbench-rss-$r.png"
  printf 'run %d: idle VmRSS/RssAnon %s MB; 1 M x 5 held: VmRSS %s MB (VmHWM %s), RssAnon %s, RssFile %s, PSS %s (anon %s / file %s); load %s\n' \
    "$r" "$idle" "$(field $pid VmRSS)" "$(field $pid VmHWM)" "$(field $pid RssAnon)" "$(field $pid RssFile)" \
    "$pss" "$pssAnon" "$pssFile" "$(cut -d' ' -f1-3 /proc/loadavg)"
  if [ -n "${KEEP:-}" ]; then
    echo "kept running: pid $pid, HOME $home"
    continue
  fi
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  rm -rf "$home"
done
