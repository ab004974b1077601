#!/usr/bin/env bash
# `make test-interop`: the tests that need real servers. Installs (once, into
# the cache) and starts Apache Flink and an Apache Kafka broker on 127.0.0.1,
# each in a private run folder, runs the interop tests against them, and
# stops them by PID whatever happens.
#
#   scripts/interop.sh [go test flags…]     e.g. scripts/interop.sh -run TestFlinkGateway -v
set -euo pipefail
cd "$(dirname "$0")/.."

TAGS=${TAGS:-migrated_fynedo}
export FLINK_RUN_DIR=${FLINK_RUN_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/riffle-flink.XXXXXX")}
export KAFKA_RUN_DIR=${KAFKA_RUN_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/riffle-kafka.XXXXXX")}
kafka_start=
# A broker still starting in the background is waited for, so that it is
# stopped too rather than left running.
cleanup() {
  [ -z "$kafka_start" ] || wait "$kafka_start" 2>/dev/null || true
  scripts/kafka.sh stop || true
  scripts/flink.sh stop || true
}
trap cleanup EXIT
trap 'exit 143' INT TERM

t0=$SECONDS
scripts/flink.sh install
scripts/kafka.sh install
# The broker starts beside Flink (about 7 s, in the background).
scripts/kafka.sh start >"$KAFKA_RUN_DIR/start.out" 2>&1 &
kafka_start=$!
scripts/flink.sh start >/dev/null
echo "== flink up: $((SECONDS - t0)) s"
started=0
wait "$kafka_start" || started=$?
kafka_start=
[ "$started" = 0 ] || { cat "$KAFKA_RUN_DIR/start.out" >&2; exit 1; }
echo "== kafka up: $(sed -n 's/^KAFKA_BOOTSTRAP=//p' "$KAFKA_RUN_DIR/endpoints.env")"
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
set +a

# One package at a time (-p 1): the tests share the cluster's task slots.
# The workbench's interop tests live in ui/ (TestFlink*); with no arguments
# only those run there, the rest of ui/ being `make test`'s.
if [ $# -eq 0 ]; then
  go test -tags "interop,$TAGS" -p 1 -count=1 -timeout 25m ./interop/...
  go test -tags "interop,$TAGS" -count=1 -timeout 10m -run '^TestFlink|^TestKafka' ./ui/
else
  go test -tags "interop,$TAGS" -p 1 -count=1 -timeout 25m "$@" ./interop/... ./ui/
fi
