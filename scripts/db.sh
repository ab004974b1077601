#!/usr/bin/env bash
# Real PostgreSQL and MariaDB servers from Debian's packages for the tests,
# on 127.0.0.1 only, each a fresh cluster in a run folder of its own.
#
#   scripts/db.sh install           apt-get install postgresql and mariadb-server when missing
#                                   (the Debian services are neither started nor enabled)
#   scripts/db.sh start             pick free ports, initdb a PostgreSQL cluster and
#                                   mariadb-install-db a MariaDB datadir, start both in
#                                   parallel, wait (at most 60 s) until each answers a query
#   scripts/db.sh stop              stop both by PID (PostgreSQL: fast shutdown; then SIGKILL after 30 s)
#   scripts/db.sh restart           stop both and start them again on the same ports and data
#   scripts/db.sh restart-postgres  the same for PostgreSQL alone (MariaDB keeps running)
#   scripts/db.sh purge             stop both and delete the run folder with their data
#   scripts/db.sh status            say whether they run and where
#   scripts/db.sh env               print the endpoints as shell assignments (for eval)
#   scripts/db.sh psql [args…]      a psql shell on the riffle database as riffle
#   scripts/db.sh mariadb [args…]   a mariadb shell on the riffle database as riffle
#
# Both servers have a superuser `riffle` (password `riffle`; on PostgreSQL
# with REPLICATION) and a database `riffle`; password authentication over
# TCP (scram-sha-256 on PostgreSQL). PostgreSQL runs with wal_level=logical
# (10 replication slots, 10 WAL senders) for change data capture, fsync off;
# both in UTC. Sized for 2 cores and 24 GiB shared with Flink and Kafka:
# 128 MiB shared buffers / InnoDB buffer pool, 100 connections each.
#
# PostgreSQL refuses to run as root, so as root it runs as the `postgres`
# system user (the package creates it) and its folder is that user's. When
# that user cannot reach the run folder (e.g. under /root), the cluster
# lives in a private folder under ${TMPDIR:-/tmp} that $run/pg links to.
#
# Environment:
#   RIFFLE_CACHE   cache folder (default ${XDG_CACHE_HOME:-~/.cache}/riffle)
#   DB_RUN_DIR     where data, sockets, logs, PID files and endpoints.env go
#                  (default $RIFFLE_CACHE/db-run); `start` empties it, `restart` keeps it
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cache=${RIFFLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/riffle}
run=$(realpath -m "${DB_RUN_DIR:-$cache/db-run}")
wait_secs=60

log() { echo "db.sh: $*" >&2; }
die() { log "$*"; exit 1; }
# shellcheck source=lib/servers.sh
. "$here/scripts/lib/servers.sh"

# The newest PostgreSQL from Debian's packages (not whatever pg_ctl is on PATH).
pg_bin() {
  local d best= v bestv=0
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] || continue
    v=$(basename "$(dirname "$d")")
    if [ "${v%%.*}" -gt "${bestv%%.*}" ] 2>/dev/null; then best=$d; bestv=$v; fi
  done
  [ -n "$best" ] || return 1
  echo "$best"
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

install() {
  local missing=() p
  for p in postgresql mariadb-server mariadb-client; do installed "$p" || missing+=("$p"); done
  if [ ${#missing[@]} -eq 0 ] && pg_bin >/dev/null && command -v mariadb-install-db >/dev/null; then return 0; fi
  command -v apt-get >/dev/null || die "missing ${missing[*]}, and apt-get is not available; install them by hand"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "need root or sudo to install ${missing[*]}"
    sudo=(sudo)
  fi
  # The packages would start (and enable) the system's own servers on 5432
  # and 3306; a policy-rc.d that answers 101 ("action forbidden") keeps
  # invoke-rc.d and deb-systemd-invoke from doing it. One already there is kept.
  local policy=/usr/sbin/policy-rc.d ours=
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# scripts/db.sh install: start no service while it installs packages\nexit 101\n' |
      "${sudo[@]}" tee "$policy" >/dev/null
    "${sudo[@]}" chmod 755 "$policy"
    ours=1
  fi
  log "installing ${missing[*]} from Debian's packages"
  local rc=0
  (
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  ) || rc=$?
  [ -z "$ours" ] || "${sudo[@]}" rm -f "$policy"
  [ "$rc" = 0 ] || die "apt-get install ${missing[*]} failed"
  # Should a service have started or been enabled anyway, undo it: the tests
  # use their own servers, and nothing else is to listen on 5432 or 3306.
  local svc
  for svc in postgresql mariadb; do
    if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
      "${sudo[@]}" systemctl disable --now "$svc" >/dev/null 2>&1 || true
    elif command -v service >/dev/null && [ -x "/etc/init.d/$svc" ]; then
      "${sudo[@]}" service "$svc" stop >/dev/null 2>&1 || true
    fi
  done
  pg_bin >/dev/null || die "no PostgreSQL under /usr/lib/postgresql after the install"
  command -v mariadb-install-db >/dev/null || die "no mariadb-install-db after the install"
}

# ---- PostgreSQL -----------------------------------------------------------

as_pg=()     # the command prefix that runs a program as PostgreSQL's owner
pg_owner=    # user:group of PostgreSQL's folder (empty when not root)
pgd=         # PostgreSQL's folder, $run/pg with links resolved (its user may not pass through $run)
pg_setup_user() {
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "the postgres system user is missing (scripts/db.sh install)"
    as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups --)
    pg_owner=postgres:postgres
  fi
}

pg_port() { sed -n "s/^port = \([0-9]*\)$/\1/p" "$run/pg/data/riffle.conf" 2>/dev/null; }
# runs PIDFILE NAME: the PID in PIDFILE is a live process called NAME (not
# another program that got the PID of a server long gone).
runs() { [ -f "$1" ] && [ "$(ps -o comm= -p "$(cat "$1")" 2>/dev/null)" = "$2" ]; }
pg_alive() { runs "$run/postgres.pid" postgres; }
# launched PIDFILE: the process just launched still lives (under whatever
# name: nohup and setpriv exec the server a moment later).
launched() { kill -0 "$(cat "$1")" 2>/dev/null; }

# pg_make_dir: a fresh, empty folder $run/pg owned by PostgreSQL's user.
pg_make_dir() {
  pg_remove_dir
  mkdir -p "$run"
  if [ -n "$pg_owner" ] && ! "${as_pg[@]}" test -x "$run"; then
    local dir
    dir=$(mktemp -d "${TMPDIR:-/tmp}/riffle-db-pg.XXXXXX")
    chmod 700 "$dir"
    ln -s "$dir" "$run/pg"
  else
    mkdir -p "$run/pg"
  fi
  mkdir -p "$run/pg/sock" "$run/pg/log"
  [ -z "$pg_owner" ] || chown -R "$pg_owner" "$run/pg/"
  chmod 700 "$run/pg/"
}

pg_remove_dir() {
  if [ -L "$run/pg" ]; then
    local target
    target=$(readlink "$run/pg")
    case $target in */riffle-db-pg.*) rm -rf "$target" ;; esac
    rm -f "$run/pg"
  fi
  rm -rf "$run/pg"
}

pg_init() { # pg_init PORT
  local bin=$1 port=$2 out
  printf 'riffle\n' >"$pgd/pwfile"
  [ -z "$pg_owner" ] || chown "$pg_owner" "$pgd/pwfile"
  # The bootstrap superuser is riffle (with every attribute, REPLICATION
  # among them); a `postgres` superuser is made after start for the tools
  # that expect one.
  out=$(cd "$pgd" && "${as_pg[@]}" "$bin/initdb" -D "$pgd/data" -U riffle --pwfile="$pgd/pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 --no-sync --no-instructions 2>&1) ||
    die "initdb failed: $out"
  rm -f "$pgd/pwfile"
  cat >"$pgd/data/riffle.conf" <<EOF
# Written by scripts/db.sh start: 127.0.0.1 only, logical decoding on,
# durability off (a test server), small memory.
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$pgd/sock'
max_connections = 100
shared_buffers = 128MB
work_mem = 8MB
maintenance_work_mem = 64MB
wal_level = logical
max_replication_slots = 10
max_wal_senders = 10
# No fsync, but synchronous_commit stays on: logical decoding reads only
# flushed WAL, and an asynchronous commit would reach a slot up to 600 ms late.
fsync = off
full_page_writes = off
max_wal_size = 1GB
timezone = 'UTC'
log_timezone = 'UTC'
logging_collector = off
log_min_messages = warning
log_line_prefix = '%m [%p] %q%u@%d '
EOF
  echo "include = 'riffle.conf'" >>"$pgd/data/postgresql.conf"
  cat >"$pgd/data/pg_hba.conf" <<'EOF'
# Written by scripts/db.sh start.
# TYPE  DATABASE     USER  ADDRESS       METHOD
local   all          all                 trust
local   replication  all                 trust
host    all          all   127.0.0.1/32  scram-sha-256
host    replication  all   127.0.0.1/32  scram-sha-256
EOF
  [ -z "$pg_owner" ] || chown "$pg_owner" "$pgd/data/riffle.conf" "$pgd/data/pg_hba.conf"
}

pg_launch() {
  local bin=$1
  # setpriv execs postgres, so $! is the postmaster's PID.
  (cd "$pgd" && exec nohup "${as_pg[@]}" "$bin/postgres" -D "$pgd/data" \
    >>"$pgd/log/postgres.log" 2>&1 </dev/null) &
  echo $! >"$run/postgres.pid"
}

# pg_wait BIN: until a query over TCP with the password answers, and the
# answer comes from this cluster (its data directory), not from another
# server that took the port first.
pg_wait() {
  local bin=$1 port i dir
  port=$(pg_port)
  for ((i = 0; i < wait_secs * 10; i++)); do
    launched "$run/postgres.pid" || { tail -30 "$pgd/log/postgres.log" >&2 2>/dev/null; die "PostgreSQL exited during start-up (log: $pgd/log/postgres.log)"; }
    dir=$(PGPASSWORD=riffle PGCONNECT_TIMEOUT=2 "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U riffle -d postgres \
      -Atc "select current_setting('data_directory')" 2>/dev/null) || dir=
    [ "$dir" = "$pgd/data" ] && return 0
    sleep 0.1
  done
  tail -30 "$pgd/log/postgres.log" >&2 2>/dev/null
  die "PostgreSQL did not answer a query on 127.0.0.1:$port within $wait_secs s (log: $pgd/log/postgres.log)"
}

pg_start() {
  local bin port
  bin=$(pg_bin) || die "PostgreSQL is not installed (scripts/db.sh install)"
  pg_setup_user
  port=$(free_port)
  pg_make_dir
  pgd=$(readlink -f "$run/pg")
  pg_init "$bin" "$port"
  pg_launch "$bin"
  pg_wait "$bin"
  local out
  out=$(PGPASSWORD=riffle "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U riffle -d postgres -v ON_ERROR_STOP=1 2>&1 <<'EOF'
CREATE DATABASE riffle;
CREATE ROLE postgres SUPERUSER LOGIN REPLICATION;
EOF
  ) || die "creating the riffle database on PostgreSQL failed: $out"
  "$bin/postgres" --version | sed -n 's/^postgres (PostgreSQL) \([^ ]*\).*/\1/p' >"$run/pg/version"
}

pg_stop() {
  if pg_alive; then
    # SIGINT is PostgreSQL's fast shutdown: it does not wait for clients
    # (SIGTERM, the smart one, would wait for every test's connection).
    local pid i
    pid=$(cat "$run/postgres.pid")
    kill -INT "$pid" 2>/dev/null || true
    for ((i = 0; i < 30 * 4; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    stop_pid "PostgreSQL" "$run/postgres.pid" 1
  fi
  rm -f "$run/postgres.pid"
}

pg_restart() {
  [ -f "$run/pg/data/riffle.conf" ] || die "no PostgreSQL was started in $run (scripts/db.sh start)"
  local bin
  bin=$(pg_bin) || die "PostgreSQL is not installed (scripts/db.sh install)"
  pg_setup_user
  pgd=$(readlink -f "$run/pg")
  pg_stop
  pg_launch "$bin"
  pg_wait "$bin"
}

# ---- MariaDB --------------------------------------------------------------

my_alive() { runs "$run/mariadb.pid" mariadbd; }
my_port() { sed -n "s/^port = \([0-9]*\)$/\1/p" "$run/mariadb/my.cnf" 2>/dev/null; }
my_client() { command -v mariadb || command -v mysql; }

my_init() { # my_init PORT
  local port=$1 user out
  rm -rf "$run/mariadb"
  mkdir -p "$run/mariadb/data" "$run/mariadb/tmp" "$run/mariadb/log"
  user=$(id -un)
  cat >"$run/mariadb/my.cnf" <<EOF
# Written by scripts/db.sh start: 127.0.0.1 only, durability relaxed (a
# test server), small memory.
[mariadbd]
user = $user
datadir = $run/mariadb/data
tmpdir = $run/mariadb/tmp
socket = $run/mariadb/mariadb.sock
pid-file = $run/mariadb/mariadbd.pid
log-error = $run/mariadb/log/mariadb.err
bind-address = 127.0.0.1
port = $port
skip-name-resolve
character-set-server = utf8mb4
collation-server = utf8mb4_general_ci
default-time-zone = '+00:00'
max_connections = 100
innodb_buffer_pool_size = 128M
innodb_log_file_size = 64M
innodb_flush_log_at_trx_commit = 2
innodb_doublewrite = 0
sync_binlog = 0
key_buffer_size = 8M
performance_schema = OFF
EOF
  out=$(mariadb-install-db --defaults-file="$run/mariadb/my.cnf" --user="$user" --skip-test-db \
    --auth-root-authentication-method=normal 2>&1) || die "mariadb-install-db failed: $out"
}

my_launch() {
  local mariadbd
  mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)
  (cd "$run/mariadb" && exec nohup "$mariadbd" --defaults-file="$run/mariadb/my.cnf" \
    >>"$run/mariadb/log/mariadbd.out" 2>&1 </dev/null) &
  echo $! >"$run/mariadb.pid"
}

my_wait() { # until a query over TCP with the password (or, before the user exists, over the socket) answers
  local client port i
  client=$(my_client) || die "the mariadb client is not installed (scripts/db.sh install)"
  port=$(my_port)
  for ((i = 0; i < wait_secs * 10; i++)); do
    launched "$run/mariadb.pid" || { tail -30 "$run/mariadb/log/mariadb.err" >&2 2>/dev/null; die "MariaDB exited during start-up (log: $run/mariadb/log/mariadb.err)"; }
    if [ "${1:-}" = tcp ]; then
      # The answer must come from this server (its socket), not from
      # another that took the port first.
      [ "$("$client" --no-defaults --connect-timeout=2 -h 127.0.0.1 -P "$port" -u riffle -priffle riffle -N -B \
        -e 'select @@socket' 2>/dev/null)" = "$run/mariadb/mariadb.sock" ] && return 0
    else
      "$client" --no-defaults --connect-timeout=2 --socket="$run/mariadb/mariadb.sock" -u root -e 'select 1' >/dev/null 2>&1 && return 0
    fi
    sleep 0.1
  done
  tail -30 "$run/mariadb/log/mariadb.err" >&2 2>/dev/null
  die "MariaDB did not answer a query on 127.0.0.1:$port within $wait_secs s (log: $run/mariadb/log/mariadb.err)"
}

my_start() {
  command -v mariadb-install-db >/dev/null || die "MariaDB is not installed (scripts/db.sh install)"
  local port out
  port=$(free_port)
  my_init "$port"
  my_launch
  my_wait socket
  out=$("$(my_client)" --no-defaults --socket="$run/mariadb/mariadb.sock" -u root 2>&1 <<'EOF'
CREATE DATABASE riffle;
CREATE USER 'riffle'@'127.0.0.1' IDENTIFIED BY 'riffle';
CREATE USER 'riffle'@'%' IDENTIFIED BY 'riffle';
CREATE USER 'riffle'@'localhost' IDENTIFIED BY 'riffle';
GRANT ALL PRIVILEGES ON *.* TO 'riffle'@'127.0.0.1' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'riffle'@'%' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'riffle'@'localhost' WITH GRANT OPTION;
EOF
  ) || die "creating the riffle user and database on MariaDB failed: $out"
  my_wait tcp
  "$(my_client)" --no-defaults -N -B -h 127.0.0.1 -P "$port" -u riffle -priffle -e 'select version()' >"$run/mariadb/version"
}

my_stop() {
  ! my_alive || stop_pid "MariaDB" "$run/mariadb.pid" 30
  rm -f "$run/mariadb.pid"
}

my_restart() {
  [ -f "$run/mariadb/my.cnf" ] || die "no MariaDB was started in $run (scripts/db.sh start)"
  my_stop
  my_launch
  my_wait tcp
}

# ---- both -----------------------------------------------------------------

write_endpoints() {
  local pgp myp tmp
  pgp=$(pg_port); myp=$(my_port)
  tmp=$run/endpoints.env.tmp
  # Values are single-quoted: the DSNs hold shell syntax ( ) & ?.
  cat >"$tmp" <<EOF
DB_RUN_DIR='$run'
PG_VERSION='$(cat "$run/pg/version" 2>/dev/null)'
PG_HOST='127.0.0.1'
PG_PORT='$pgp'
PG_USER='riffle'
PG_PASSWORD='riffle'
PG_DATABASE='riffle'
PG_URL='jdbc:postgresql://127.0.0.1:$pgp/riffle'
PG_DSN='postgres://riffle:riffle@127.0.0.1:$pgp/riffle?sslmode=disable'
PG_SOCKET_DIR='$(readlink -f "$run/pg")/sock'
PG_BIN='$(pg_bin)'
MARIADB_VERSION='$(cat "$run/mariadb/version" 2>/dev/null)'
MARIADB_HOST='127.0.0.1'
MARIADB_PORT='$myp'
MARIADB_USER='riffle'
MARIADB_PASSWORD='riffle'
MARIADB_DATABASE='riffle'
MARIADB_URL='jdbc:mysql://127.0.0.1:$myp/riffle'
MARIADB_DSN='riffle:riffle@tcp(127.0.0.1:$myp)/riffle?parseTime=true&multiStatements=true'
MARIADB_SOCKET='$run/mariadb/mariadb.sock'
EOF
  mv "$tmp" "$run/endpoints.env"
}

# both FN_PG FN_MARIADB: run the two in parallel, each one's output in a
# file; fail (with that output) when either fails.
both() {
  local a b ra=0 rb=0
  "$1" >"$run/pg-start.out" 2>&1 &
  a=$!
  "$2" >"$run/mariadb-start.out" 2>&1 &
  b=$!
  wait "$a" || ra=$?
  wait "$b" || rb=$?
  if [ "$ra" != 0 ] || [ "$rb" != 0 ]; then
    [ "$ra" = 0 ] || cat "$run/pg-start.out" >&2
    [ "$rb" = 0 ] || cat "$run/mariadb-start.out" >&2
    return 1
  fi
}

start() {
  if pg_alive || my_alive; then
    log "already running in $run; stop them first"
    status
    return 0
  fi
  pg_bin >/dev/null && command -v mariadb-install-db >/dev/null || install
  local t0=$SECONDS
  pg_remove_dir
  rm -rf "$run/mariadb" "$run/endpoints.env"
  mkdir -p "$run"
  # A port that free_port found free can be taken before the server binds
  # it (another server starting at the same moment): one more try on new
  # ports then.
  if ! both pg_start my_start; then
    stop
    if grep -qs "already in use" "$run/pg-start.out" "$run/mariadb-start.out"; then
      log "a port was taken meanwhile; starting again on other ports"
      pg_remove_dir
      rm -rf "$run/mariadb"
      both pg_start my_start || { stop; die "start failed; both servers stopped (run folder $run)"; }
    else
      die "start failed; both servers stopped (run folder $run)"
    fi
  fi
  write_endpoints
  log "ready in $((SECONDS - t0)) s: PostgreSQL 127.0.0.1:$(pg_port), MariaDB 127.0.0.1:$(my_port)"
  cat "$run/endpoints.env"
}

stop() {
  rm -f "$run/endpoints.env"
  # fast shutdown for PostgreSQL beside MariaDB's shutdown
  local a
  pg_stop &
  a=$!
  my_stop
  wait "$a" || true
}

restart() {
  [ -f "$run/pg/data/riffle.conf" ] && [ -f "$run/mariadb/my.cnf" ] ||
    die "no servers were started in $run (scripts/db.sh start)"
  local t0=$SECONDS
  rm -f "$run/endpoints.env"
  both pg_restart my_restart || die "restart failed (run folder $run)"
  write_endpoints
  log "ready again in $((SECONDS - t0)) s"
  cat "$run/endpoints.env"
}

# purge: stop, then delete the run folder and PostgreSQL's folder wherever
# it lives (scripts/interop.sh's private run folders end so).
purge() {
  stop
  pg_remove_dir
  # Only what start made: the run folder may hold other things.
  rm -rf "$run/mariadb" "$run/pg-start.out" "$run/mariadb-start.out" "$run/endpoints.env.tmp"
  rmdir "$run" 2>/dev/null || true
}

restart_postgres() {
  local t0=$SECONDS
  pg_restart
  write_endpoints
  log "PostgreSQL ready again in $((SECONDS - t0)) s on 127.0.0.1:$(pg_port)"
}

status() {
  local rc=0
  if pg_alive; then echo "postgres: running (pid $(cat "$run/postgres.pid"), 127.0.0.1:$(pg_port))"; else echo "postgres: stopped"; rc=1; fi
  if my_alive; then echo "mariadb: running (pid $(cat "$run/mariadb.pid"), 127.0.0.1:$(my_port))"; else echo "mariadb: stopped"; rc=1; fi
  [ "$rc" != 0 ] || [ ! -f "$run/endpoints.env" ] || cat "$run/endpoints.env"
  return "$rc"
}

need_env() { [ -f "$run/endpoints.env" ] || die "the servers are not running in $run (scripts/db.sh start)"; }

case ${1:-} in
install) install ;;
start) start ;;
stop) stop ;;
restart) restart ;;
restart-postgres) restart_postgres ;;
purge) purge ;;
status) status ;;
env) need_env; cat "$run/endpoints.env" ;;
psql) shift; need_env; pgp=$(pg_port); PGPASSWORD=riffle exec "$(pg_bin)/psql" -h 127.0.0.1 -p "$pgp" -U riffle -d riffle "$@" ;;
mariadb) shift; need_env; exec "$(my_client)" --no-defaults -h 127.0.0.1 -P "$(my_port)" -u riffle -priffle riffle "$@" ;;
*) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
