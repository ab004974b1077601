#!/usr/bin/env bash
# A real Apache Kafka broker on this machine, on 127.0.0.1 only: one KRaft
# process that is both broker and controller (no ZooKeeper).
#
#   scripts/kafka.sh install    gather Kafka's jars from Maven Central into the cache (once)
#   scripts/kafka.sh start      pick free ports, format empty storage with a random cluster id,
#                               start the broker, wait (at most 120 s) until it answers a
#                               metadata request (7 s on an idle machine)
#   scripts/kafka.sh stop       stop it by PID (SIGTERM, then SIGKILL after 30 s)
#   scripts/kafka.sh restart    stop it and start it again on the same ports and data
#   scripts/kafka.sh status     say whether it runs and where
#   scripts/kafka.sh env        print the endpoints as shell assignments (for eval)
#   scripts/kafka.sh topics …   run Kafka's kafka-topics tool against it
#                               (e.g. topics --list, topics --describe --topic t)
#   scripts/kafka.sh classpath  print the classpath of the installed Kafka
#
# Kafka publishes no distribution on Maven Central, so interop/kafka/pom.xml
# names the modules and `mvn dependency:copy-dependencies` gathers them.
# Sized for 2 cores and 24 GiB shared with Flink: 512 MiB heap, 2 network and
# 2 I/O threads. Replication factors are 1 and automatic topic creation is
# off (a missing topic is an error, as on a production cluster).
#
# Environment:
#   RIFFLE_CACHE   cache folder (default ${XDG_CACHE_HOME:-~/.cache}/riffle)
#   KAFKA_RUN_DIR  where config, data, logs and the PID file go (default $RIFFLE_CACHE/kafka-run);
#                  `start` empties its data folder, `restart` keeps it
#   JAVA           the java binary (default: java on PATH)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
KAFKA_VERSION=$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/interop/kafka/pom.xml")
cache=${RIFFLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/riffle}
home=$cache/kafka-$KAFKA_VERSION
run=${KAFKA_RUN_DIR:-$cache/kafka-run}
java=${JAVA:-java}

log() { echo "kafka.sh: $*" >&2; }
die() { log "$*"; exit 1; }
# shellcheck source=lib/servers.sh
. "$here/scripts/lib/servers.sh"

classpath() { printf '%s' "$home/lib/*"; }

# The install is stamped with interop/kafka/pom.xml's checksum; another pom
# (other modules, same Kafka version) installs afresh.
pom_stamp() { sha256sum "$here/interop/kafka/pom.xml" | cut -c1-64; }

install() {
  if [ -f "$home/.installed" ] && [ "$(cat "$home/.installed")" = "$(pom_stamp)" ]; then return 0; fi
  command -v mvn >/dev/null || die "Maven (mvn) is not installed"
  log "installing Kafka $KAFKA_VERSION into $home"
  rm -rf "$home.tmp"
  mkdir -p "$home.tmp/lib"
  mvn -q -B -Dstyle.color=never -f "$here/interop/kafka/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$home.tmp/lib"
  # SLF4J 1.7 from Kafka's modules would shadow the 2.x API log4j binds to.
  rm -f "$home.tmp"/lib/slf4j-api-1.*.jar
  pom_stamp >"$home.tmp/.installed"
  rm -rf "$home"
  mv "$home.tmp" "$home"
}

# A KRaft cluster id: 16 random bytes, URL-safe base64 without padding (what
# `kafka-storage random-uuid` prints), without starting a JVM for it.
cluster_id() {
  python3 -c 'import base64,os; print(base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("="))'
}

write_config() { # write_config BROKER_PORT CONTROLLER_PORT
  mkdir -p "$run/conf" "$run/log" "$run/data"
  cat >"$run/conf/server.properties" <<EOF
# Written by scripts/kafka.sh start; everything binds 127.0.0.1.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$2
listeners=PLAINTEXT://127.0.0.1:$1,CONTROLLER://127.0.0.1:$2
advertised.listeners=PLAINTEXT://127.0.0.1:$1
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$run/data
# Small: 2 cores are shared with Flink and the tests.
num.network.threads=2
num.io.threads=2
num.recovery.threads.per.data.dir=1
background.threads=2
# One node: every internal topic has one replica.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
# Tests create their topics; a missing topic is an error the user sees.
auto.create.topics.enable=false
delete.topic.enable=true
log.retention.hours=168
log.segment.bytes=268435456
EOF
  cat >"$run/conf/log4j2.properties" <<EOF
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = ServerFile
appender.server.name = ServerFile
appender.server.type = File
appender.server.fileName = $run/log/server.log
appender.server.layout.type = PatternLayout
appender.server.layout.pattern = [%d] %p %m (%c)%n
logger.state.name = state.change.logger
logger.state.level = WARN
logger.request.name = kafka.request.logger
logger.request.level = WARN
EOF
  cat >"$run/conf/log4j2-tools.properties" <<'EOF'
rootLogger.level = WARN
rootLogger.appenderRef.stderr.ref = STDERR
appender.stderr.name = STDERR
appender.stderr.type = Console
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = [%d] %p %m (%c)%n
EOF
}

alive() { [ -f "$run/kafka.pid" ] && kill -0 "$(cat "$run/kafka.pid")" 2>/dev/null; }

port_of() { # port_of LISTENER: the port in server.properties' listeners line
  sed -n "s|^listeners=.*$1://127.0.0.1:\([0-9]*\).*|\1|p" "$run/conf/server.properties"
}

format_storage() {
  local id out
  id=$(cluster_id)
  rm -rf "$run/data"
  mkdir -p "$run/data"
  out=$("$java" -Xmx256m -cp "$(classpath)" -Dlog4j2.configurationFile="file:$run/conf/log4j2-tools.properties" \
    kafka.tools.StorageTool format --cluster-id="$id" -c "$run/conf/server.properties" 2>&1) ||
    die "formatting the storage failed: $out"
  echo "$id" >"$run/cluster-id"
}

launch() {
  nohup "$java" -Xmx512m -Xms512m -XX:MaxMetaspaceSize=256m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="file:$run/conf/log4j2.properties" -Dkafka.logs.dir="$run/log" \
    -cp "$(classpath)" kafka.Kafka "$run/conf/server.properties" \
    >>"$run/log/kafka.out" 2>&1 </dev/null &
  echo $! >"$run/kafka.pid"
}

# probe PORT: send a Metadata request (v4, all topics) and succeed when the
# answer lists at least one broker: a KRaft broker lists itself only once it
# has caught up with the metadata log and is unfenced, ready for clients.
probe() {
  python3 - "$1" <<'EOF'
import socket, struct, sys
try:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
    s.settimeout(2)
    cid = b"riffle-kafka-sh"
    body = struct.pack(">hhih", 3, 4, 1, len(cid)) + cid + struct.pack(">ib", -1, 0)
    s.sendall(struct.pack(">i", len(body)) + body)
    def recv(n):
        b = b""
        while len(b) < n:
            c = s.recv(n - len(b))
            if not c:
                raise EOFError
            b += c
        return b
    size = struct.unpack(">i", recv(4))[0]
    data = recv(size)
    corr, throttle, brokers = struct.unpack(">iii", data[:12])
    sys.exit(0 if corr == 1 and brokers > 0 else 1)
except Exception:
    sys.exit(1)
EOF
}

wait_ready() { # wait_ready SECONDS
  local limit=$1 port i
  port=$(port_of PLAINTEXT)
  for ((i = 0; i < limit * 4; i++)); do
    alive || { tail -30 "$run/log/server.log" "$run/log/kafka.out" >&2 2>/dev/null; die "the broker exited during start-up (logs in $run/log)"; }
    if probe "$port"; then return 0; fi
    sleep 0.25
  done
  die "the broker did not answer a metadata request on 127.0.0.1:$port within ${limit} s (logs in $run/log)"
}

write_endpoints() {
  cat >"$run/endpoints.env" <<EOF
KAFKA_VERSION=$KAFKA_VERSION
KAFKA_BOOTSTRAP=127.0.0.1:$(port_of PLAINTEXT)
KAFKA_HOME=$home
KAFKA_RUN_DIR=$run
EOF
}

start() {
  install
  command -v "$java" >/dev/null || die "java is not installed"
  if alive; then
    log "already running; stop it first"
    status
    return 0
  fi
  local broker controller t0=$SECONDS
  broker=$(free_port); controller=$(free_port)
  write_config "$broker" "$controller"
  format_storage
  log "starting Kafka $KAFKA_VERSION (broker 127.0.0.1:$broker, controller :$controller)"
  launch
  wait_ready 120
  write_endpoints
  log "ready in $((SECONDS - t0)) s: bootstrap 127.0.0.1:$broker"
  cat "$run/endpoints.env"
}

stop() {
  rm -f "$run/endpoints.env"
  stop_pid "the broker" "$run/kafka.pid" 30
}

# restart keeps the configuration (so the ports) and the data: clients that
# know the bootstrap address reconnect to the same broker with the same topics.
restart() {
  [ -f "$run/conf/server.properties" ] && [ -f "$run/data/meta.properties" ] ||
    die "no broker was started in $run (scripts/kafka.sh start)"
  install
  stop
  local t0=$SECONDS
  log "starting Kafka again on 127.0.0.1:$(port_of PLAINTEXT)"
  launch
  wait_ready 120
  write_endpoints
  log "ready again in $((SECONDS - t0)) s"
  cat "$run/endpoints.env"
}

status() {
  if alive; then
    echo "kafka: running (pid $(cat "$run/kafka.pid"))"
    [ -f "$run/endpoints.env" ] && cat "$run/endpoints.env"
    return 0
  fi
  echo "kafka: stopped"
  return 1
}

topics() {
  install
  [ -f "$run/endpoints.env" ] || die "Kafka is not running (scripts/kafka.sh start)"
  local bootstrap
  bootstrap=$(sed -n 's/^KAFKA_BOOTSTRAP=//p' "$run/endpoints.env")
  "$java" -Xmx256m -cp "$(classpath)" -Dlog4j2.configurationFile="file:$run/conf/log4j2-tools.properties" \
    org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" "$@"
}

case ${1:-} in
install) install ;;
start) start ;;
stop) stop ;;
restart) restart ;;
status) status ;;
env) [ -f "$run/endpoints.env" ] && cat "$run/endpoints.env" || die "Kafka is not running (scripts/kafka.sh start)" ;;
topics) shift; topics "$@" ;;
classpath) install; classpath; echo ;;
*) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
