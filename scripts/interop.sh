#!/usr/bin/env bash
# `make test-interop`: the tests that need real servers. Installs (once, into
# the cache) and starts Apache Flink, an Apache Kafka broker, and PostgreSQL
# and MariaDB (scripts/db.sh) on 127.0.0.1, each in a private run folder,
# runs the interop tests against them, and stops them by PID whatever happens.
#
#   scripts/interop.sh [go test flags…]     e.g. scripts/interop.sh -run TestFlinkGateway -v
set -euo pipefail
cd "$(dirname "$0")/.."

TAGS=${TAGS:-migrated_fynedo}
export FLINK_RUN_DIR=${FLINK_RUN_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/riffle-flink.XXXXXX")}
export KAFKA_RUN_DIR=${KAFKA_RUN_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/riffle-kafka.XXXXXX")}
# The database servers' folder is deleted at the end when this script made it.
db_own=
[ -n "${DB_RUN_DIR:-}" ] || db_own=1
export DB_RUN_DIR=${DB_RUN_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/riffle-db.XXXXXX")}
kafka_start=
db_start=
# A server still starting in the background is waited for, so that it is
# stopped too rather than left running.
cleanup() {
  [ -z "$kafka_start" ] || wait "$kafka_start" 2>/dev/null || true
  [ -z "$db_start" ] || wait "$db_start" 2>/dev/null || true
  scripts/kafka.sh stop || true
  if [ -n "$db_own" ]; then scripts/db.sh purge || true; else scripts/db.sh stop || true; fi
  scripts/flink.sh stop || true
}
trap cleanup EXIT
trap 'exit 143' INT TERM

t0=$SECONDS
scripts/flink.sh install
scripts/kafka.sh install
scripts/db.sh install
# The broker starts beside Flink (about 7 s, in the background).
scripts/kafka.sh start >"$KAFKA_RUN_DIR/start.out" 2>&1 &
kafka_start=$!
# PostgreSQL and MariaDB too (about 2 s); what start says goes to a file
# of its own (the run folder is purged at the end).
db_out=$(mktemp "${TMPDIR:-/tmp}/riffle-db-start.XXXXXX")
scripts/db.sh start >"$db_out" 2>&1 &
db_start=$!
scripts/flink.sh start >/dev/null
echo "== flink up: $((SECONDS - t0)) s"
started=0
wait "$kafka_start" || started=$?
kafka_start=
[ "$started" = 0 ] || { cat "$KAFKA_RUN_DIR/start.out" >&2; exit 1; }
echo "== kafka up: $(sed -n 's/^KAFKA_BOOTSTRAP=//p' "$KAFKA_RUN_DIR/endpoints.env")"
started=0
wait "$db_start" || started=$?
db_start=
[ "$started" = 0 ] || { cat "$db_out" >&2; rm -f "$db_out"; exit 1; }
rm -f "$db_out"
echo "== postgres and mariadb up: $(sed -n "s/^PG_URL='\(.*\)'/\1/p" "$DB_RUN_DIR/endpoints.env") $(sed -n "s/^MARIADB_URL='\(.*\)'/\1/p" "$DB_RUN_DIR/endpoints.env")"
# PyFlink for TestPyFlinkSeedExamples (a venv in the cache, ~1 GiB, about a
# minute to install once); RIFFLE_PYFLINK=0 leaves it out and skips the test.
if [ "${RIFFLE_PYFLINK:-1}" != 0 ]; then
  t1=$SECONDS
  scripts/pyflink.sh install
  echo "== pyflink venv: $((SECONDS - t1)) s"
fi
set -a
# shellcheck disable=SC1091
. "$FLINK_RUN_DIR/endpoints.env"
# shellcheck disable=SC1091
. "$KAFKA_RUN_DIR/endpoints.env"
# shellcheck disable=SC1091
. "$DB_RUN_DIR/endpoints.env"
set +a

# One package at a time (-p 1): the tests share the cluster's task slots.
# The workbench's interop tests live in workbench/ui/ (TestFlink*); with no arguments
# only those run there, the rest of workbench/ui/ being `make test`'s.
if [ $# -eq 0 ]; then
  go test -tags "interop,$TAGS" -p 1 -count=1 -timeout 40m ./interop/...
  go test -tags "interop,$TAGS" -count=1 -timeout 10m -run '^TestFlink|^TestKafka' ./workbench/ui/
else
  go test -tags "interop,$TAGS" -p 1 -count=1 -timeout 40m "$@" ./interop/... ./workbench/ui/
fi
