#!/usr/bin/env bash
# `make bench-nexmark-flink`: the Nexmark queries on real Apache Flink
# (parallelism 2) and on Riffle (parallelism 1 and 2) over the same events,
# alternating; interop/nexflinkbench prints events/s per core for both and
# their ratio. See docs/benchmarks.md ("Nexmark against Flink").
#
#   scripts/bench-nexmark-flink.sh [nexflinkbench flags…]   e.g. -events 1000000 -queries q0,q5 -runs 3
#
# Riffle's generator writes the events once into a Kafka topic of the
# broker in $KAFKA_RUN_DIR (default $RIFFLE_CACHE/kafka-bench, shared with
# make bench-kafka), kept between runs (about 0.5 GB per million events).
# A broker already running there is used as it is and left running. Flink
# runs in a private cluster started and stopped here, unless FLINK_RUN_DIR
# names a running one.
set -euo pipefail
cd "$(dirname "$0")/.."

TAGS=${TAGS:-migrated_fynedo}
cache=${RIFFLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/riffle}
export KAFKA_RUN_DIR=${KAFKA_RUN_DIR:-$cache/kafka-bench}
stop_kafka=0 stop_flink=0
cleanup() {
  [ $stop_kafka = 0 ] || scripts/kafka.sh stop || true
  [ $stop_flink = 0 ] || scripts/flink.sh stop || true
}
trap cleanup EXIT INT TERM

scripts/kafka.sh install
if ! scripts/kafka.sh status >/dev/null 2>&1; then
  stop_kafka=1
  if [ -f "$KAFKA_RUN_DIR/data/meta.properties" ]; then
    scripts/kafka.sh restart >/dev/null
  else
    scripts/kafka.sh start >/dev/null
  fi
fi

if [ -z "${FLINK_RUN_DIR:-}" ]; then
  export FLINK_RUN_DIR
  FLINK_RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/riffle-flink-bench.XXXXXX")
fi
if ! scripts/flink.sh status >/dev/null 2>&1; then
  stop_flink=1
  scripts/flink.sh start >/dev/null
fi
unset KAFKA_BOOTSTRAP FLINK_GATEWAY FLINK_REST

mkdir -p bin
go build -tags "$TAGS" -o bin/nexflinkbench ./interop/nexflinkbench
bin/nexflinkbench "$@"
