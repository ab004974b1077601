#!/usr/bin/env bash
# `make bench-kafka`: Riffle and real Apache Flink read the same Kafka
# topics (10 M small JSON records, 10 M Avro records, one partition each)
# into a blackhole sink; interop/kafkabench prints wall time and records/s
# per core of CPU time for each. See docs/kafka-testing.md.
#
#   scripts/bench-kafka.sh [kafkabench flags…]   e.g. -records 1000000 -runs 1 -engines riffle
#
# The broker runs in $KAFKA_RUN_DIR (default $RIFFLE_CACHE/kafka-bench) and
# keeps its data between runs, so the topics are produced once (about 1.1 GB
# on disk for 10 M records of each format; remove the folder to free it). A
# broker already running there is used as it is and left running. Flink runs
# in a private cluster started and stopped here (the shared one is left
# alone), unless FLINK_RUN_DIR names a running one.
set -euo pipefail
cd "$(dirname "$0")/.."

TAGS=${TAGS:-migrated_fynedo}
# shellcheck source=scripts/lib/bench-servers.sh
. scripts/lib/bench-servers.sh
bench_servers_up

mkdir -p bin
go build -tags "$TAGS" -o bin/kafkabench ./interop/kafkabench
bin/kafkabench "$@"
