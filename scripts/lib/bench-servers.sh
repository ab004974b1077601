# The servers of the benchmarks against Apache Flink (scripts/bench-kafka.sh,
# scripts/bench-nexmark-flink.sh). Sourced, never run, from the repository's
# root with `set -euo pipefail`.
#
# bench_servers_up: a Kafka broker in $KAFKA_RUN_DIR (default
# $RIFFLE_CACHE/kafka-bench, whose data is kept between runs; one already
# running there is used as it is and left running) and a private Flink
# cluster, started here and stopped when the script exits, unless
# FLINK_RUN_DIR names a running one. KAFKA_BOOTSTRAP, FLINK_GATEWAY and
# FLINK_REST are unset so that the benchmark finds both through their run
# directories.

bench_cache=${RIFFLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/riffle}
export KAFKA_RUN_DIR=${KAFKA_RUN_DIR:-$bench_cache/kafka-bench}
bench_stop_kafka=0 bench_stop_flink=0

bench_servers_down() {
  [ $bench_stop_kafka = 0 ] || scripts/kafka.sh stop || true
  [ $bench_stop_flink = 0 ] || scripts/flink.sh stop || true
}

bench_servers_up() {
  trap bench_servers_down EXIT INT TERM
  scripts/kafka.sh install
  if ! scripts/kafka.sh status >/dev/null 2>&1; then
    bench_stop_kafka=1
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
    bench_stop_flink=1
    scripts/flink.sh start >/dev/null
  fi
  unset KAFKA_BOOTSTRAP FLINK_GATEWAY FLINK_REST
}
