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
# shellcheck source=scripts/lib/bench-servers.sh
. scripts/lib/bench-servers.sh
bench_servers_up

mkdir -p bin
go build -tags "$TAGS" -o bin/nexflinkbench ./interop/nexflinkbench
bin/nexflinkbench "$@"
