#!/usr/bin/env bash
# Real Apache Flink on this machine, on 127.0.0.1 only.
#
#   scripts/flink.sh install       gather Flink's jars from Maven Central into the cache (once)
#   scripts/flink.sh start         start a session cluster (JobManager + one TaskManager) and the
#                                  SQL Gateway, wait until both answer, print their endpoints
#   scripts/flink.sh stop          stop them by PID (SIGTERM, then SIGKILL after 20 s)
#   scripts/flink.sh status        say what runs and where
#   scripts/flink.sh env           print the endpoints as shell assignments (for eval)
#   scripts/flink.sh sql-client …  run Flink's SQL Client with these arguments
#                                  (e.g. gateway --endpoint 127.0.0.1:8083 -f script.sql)
#   scripts/flink.sh classpath     print the classpath of the installed Flink
#
# Flink publishes no distribution on Maven Central, so interop/flink/pom.xml
# names the modules and `mvn dependency:copy-dependencies` gathers them.
# Ports are picked free at start. Memory is sized for 2 cores and 24 GiB:
# JobManager 1 GiB, TaskManager 4 GiB (768 MiB of network buffers) with 4 slots,
# gateway heap 768 MiB.
#
# Environment:
#   RIFFLE_CACHE   cache folder (default ${XDG_CACHE_HOME:-~/.cache}/riffle)
#   FLINK_RUN_DIR  where config, logs and PID files go (default $RIFFLE_CACHE/flink-run)
#   JAVA           the java binary (default: java on PATH)
#   FLINK_TM_MEMORY, FLINK_TM_MANAGED_FRACTION
#                  the TaskManager's taskmanager.memory.process.size (default 4096m) and
#                  taskmanager.memory.managed.fraction (default 0.4; streaming jobs on the
#                  hashmap state backend use no managed memory, only heap)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
FLINK_VERSION=$(sed -n 's:.*<flink.version>\(.*\)</flink.version>.*:\1:p' "$here/interop/flink/pom.xml")
cache=${RIFFLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/riffle}
home=$cache/flink-$FLINK_VERSION
run=${FLINK_RUN_DIR:-$cache/flink-run}
java=${JAVA:-java}

log() { echo "flink.sh: $*" >&2; }
die() { log "$*"; exit 1; }
# shellcheck source=lib/servers.sh
. "$here/scripts/lib/servers.sh"

classpath() { printf '%s' "$home/lib/*"; }

# The install is stamped with interop/flink/pom.xml's checksum. When the pom
# changed since (a connector added), the jars it names now are copied into
# the installed lib/ and none is removed: a running cluster reads that folder.
pom_stamp() { sha256sum "$here/interop/flink/pom.xml" | cut -c1-64; }

install() {
  if [ -f "$home/.installed" ]; then
    [ "$(cat "$home/.installed")" = "$(pom_stamp)" ] && return 0
    command -v mvn >/dev/null || die "Maven (mvn) is not installed"
    log "adding the jars interop/flink/pom.xml names now to $home/lib"
    mvn -q -B -f "$here/interop/flink/pom.xml" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$home/lib"
    rm -f "$home"/lib/slf4j-api-1.*.jar
    pom_stamp >"$home/.installed"
    return 0
  fi
  command -v mvn >/dev/null || die "Maven (mvn) is not installed"
  log "installing Flink $FLINK_VERSION into $home"
  rm -rf "$home.tmp"
  mkdir -p "$home.tmp/lib" "$home.tmp/jdbc"
  mvn -q -B -f "$here/interop/flink/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$home.tmp/lib"
  # The JDBC driver is a client's jar, kept apart from the cluster's classpath.
  mvn -q -B -f "$here/interop/flink/pom.xml" dependency:copy \
    -Dartifact="org.apache.flink:flink-sql-jdbc-driver-bundle:$FLINK_VERSION" \
    -DoutputDirectory="$home.tmp/jdbc"
  # SLF4J 1.7 from Flink's modules would shadow the 2.x API log4j binds to.
  rm -f "$home.tmp"/lib/slf4j-api-1.*.jar
  pom_stamp >"$home.tmp/.installed"
  rm -rf "$home"
  mv "$home.tmp" "$home"
}

write_config() { # write_config REST_PORT RPC_PORT GATEWAY_PORT
  mkdir -p "$run/conf" "$run/log" "$run/tmp"
  cat >"$run/conf/config.yaml" <<EOF
# Written by scripts/flink.sh start; everything binds 127.0.0.1.
jobmanager.rpc.address: 127.0.0.1
jobmanager.rpc.port: $2
jobmanager.bind-host: 127.0.0.1
jobmanager.memory.process.size: 1024m
taskmanager.bind-host: 127.0.0.1
taskmanager.host: 127.0.0.1
taskmanager.memory.process.size: ${FLINK_TM_MEMORY:-4096m}
taskmanager.memory.managed.fraction: ${FLINK_TM_MANAGED_FRACTION:-0.4}
# Batch jobs' blocking shuffles reserve 512 network buffers per result
# partition; the derived 10% of a small TaskManager (about 5,000 buffers of
# 32 KiB) ran out on the golden scripts' joins ("Insufficient number of
# network buffers").
taskmanager.memory.network.min: 768m
taskmanager.memory.network.max: 768m
taskmanager.numberOfTaskSlots: 4
parallelism.default: 1
rest.address: 127.0.0.1
rest.bind-address: 127.0.0.1
rest.port: $1
blob.server.port: 0
taskmanager.rpc.port: 0
taskmanager.data.port: 0
io.tmp.dirs: $run/tmp
execution.target: remote
sql-gateway.endpoint.rest.address: 127.0.0.1
sql-gateway.endpoint.rest.bind-address: 127.0.0.1
sql-gateway.endpoint.rest.port: $3
sql-gateway.session.idle-timeout: 10min
EOF
  cat >"$run/conf/log4j.properties" <<'EOF'
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = MainFile
appender.main.name = MainFile
appender.main.type = File
appender.main.fileName = ${sys:log.file}
appender.main.layout.type = PatternLayout
appender.main.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n
logger.netty.name = org.apache.flink.shaded.netty4.io.netty.channel.nio.NioEventLoop
logger.netty.level = OFF
EOF
  cat >"$run/conf/log4j-cli.properties" <<'EOF'
rootLogger.level = WARN
rootLogger.appenderRef.file.ref = FileAppender
appender.file.name = FileAppender
appender.file.type = File
appender.file.fileName = ${sys:log.file}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n
EOF
}

alive() { [ -f "$run/$1.pid" ] && kill -0 "$(cat "$run/$1.pid")" 2>/dev/null; }

launch() { # launch NAME MAIN_CLASS [JVM_ARGS…] -- [ARGS…]
  local name=$1 main=$2
  shift 2
  local jvm=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do jvm+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  FLINK_CONF_DIR="$run/conf" nohup "$java" "${jvm[@]}" \
    -Dlog.file="$run/log/$name.log" -Dlog4j.configurationFile="file:$run/conf/log4j.properties" \
    -cp "$(classpath)" "$main" "$@" >"$run/log/$name.out" 2>&1 </dev/null &
  echo $! >"$run/$name.pid"
}

# Flink's own scripts ask BashJavaUtils for the TaskManager's JVM flags and
# the memory settings it derived; so does this one.
tm_params() {
  local out
  out=$("$java" -cp "$(classpath)" -Dlog4j.configurationFile="file:$run/conf/log4j-cli.properties" \
    -Dlog.file="$run/log/bash-java-utils.log" \
    org.apache.flink.runtime.util.bash.BashJavaUtils GET_TM_RESOURCE_PARAMS --configDir "$run/conf" 2>&1) ||
    die "BashJavaUtils failed: $out"
  tm_jvm=$(printf '%s\n' "$out" | grep '^BASH_JAVA_UTILS_EXEC_RESULT:' | sed -n 1p | sed 's/^BASH_JAVA_UTILS_EXEC_RESULT://')
  tm_dyn=$(printf '%s\n' "$out" | grep '^BASH_JAVA_UTILS_EXEC_RESULT:' | sed -n 2p | sed 's/^BASH_JAVA_UTILS_EXEC_RESULT://')
  [ -n "$tm_jvm" ] || die "BashJavaUtils printed no JVM parameters: $out"
}

# The TaskManager runs under a supervisor that starts it again when it dies,
# as a resource manager (Kubernetes, YARN, systemd) does for a real cluster:
# Flink 2.3.0 shuts a TaskManager down on a fatal NullPointerException when a
# query's collect sink is closed before it was opened (a query cancelled while
# its task deploys; FLINK-39330), and one lost TaskManager would otherwise
# leave every later job without slots.
supervise_taskmanager() {
  touch "$run/taskmanager.supervise"
  (
    trap 'kill "$(cat "$run/taskmanager.pid" 2>/dev/null)" 2>/dev/null; exit 0' TERM
    n=0
    while [ -f "$run/taskmanager.supervise" ]; do
      # shellcheck disable=SC2086 # the JVM flags and dynamic properties are word lists
      launch taskmanager org.apache.flink.runtime.taskexecutor.TaskManagerRunner \
        $tm_jvm -- --configDir "$run/conf" $tm_dyn
      wait "$(cat "$run/taskmanager.pid")" || true
      [ -f "$run/taskmanager.supervise" ] || break
      n=$((n + 1))
      echo "$(date '+%F %T') taskmanager exited; restart $n" >>"$run/log/supervisor.log"
      sleep 1
    done
  ) >/dev/null 2>&1 </dev/null &
  echo $! >"$run/supervisor.pid"
  local i
  for ((i = 0; i < 40; i++)); do [ -f "$run/taskmanager.pid" ] && return 0; sleep 0.25; done
  die "the TaskManager did not start"
}

wait_http() { # wait_http NAME URL PATTERN SECONDS
  local name=$1 url=$2 pattern=$3 limit=$4 i body
  for ((i = 0; i < limit * 4; i++)); do
    alive "$name" || { tail -30 "$run/log/$name.log" "$run/log/$name.out" >&2 2>/dev/null; die "$name exited during start-up (logs in $run/log)"; }
    if body=$(curl -fsS --max-time 2 "$url" 2>/dev/null) && printf '%s' "$body" | grep -q "$pattern"; then
      return 0
    fi
    sleep 0.25
  done
  die "$name did not answer $url within ${limit} s (logs in $run/log)"
}

start() {
  install
  command -v "$java" >/dev/null || die "java is not installed"
  if alive jobmanager || alive taskmanager || alive sql-gateway || alive supervisor; then
    log "already running; stop it first"
    status
    return 0
  fi
  local rest rpc gw
  rest=$(free_port); rpc=$(free_port); gw=$(free_port)
  write_config "$rest" "$rpc" "$gw"
  log "starting JobManager (REST :$rest)"
  launch jobmanager org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
    -Xmx640m -Xms640m -XX:MaxMetaspaceSize=256m -- --configDir "$run/conf"
  tm_params
  log "starting TaskManager"
  supervise_taskmanager
  log "starting SQL Gateway (REST :$gw)"
  launch sql-gateway org.apache.flink.table.gateway.SqlGateway \
    -Xmx768m -- --configDir "$run/conf"
  wait_http jobmanager "http://127.0.0.1:$rest/overview" '"taskmanagers":[1-9]' 180
  wait_http sql-gateway "http://127.0.0.1:$gw/v1/info" 'Apache Flink' 180
  cat >"$run/endpoints.env" <<EOF
FLINK_VERSION=$FLINK_VERSION
FLINK_REST=http://127.0.0.1:$rest
FLINK_GATEWAY=http://127.0.0.1:$gw
FLINK_HOME=$home
FLINK_CONF_DIR=$run/conf
EOF
  log "ready: cluster REST http://127.0.0.1:$rest, SQL Gateway http://127.0.0.1:$gw"
  cat "$run/endpoints.env"
}

stop_one() { stop_pid "$1" "$run/$1.pid" 20; }

stop() {
  stop_one sql-gateway
  rm -f "$run/taskmanager.supervise"
  stop_one supervisor
  stop_one taskmanager
  stop_one jobmanager
  rm -f "$run/endpoints.env"
}

status() {
  local name any=1
  for name in jobmanager taskmanager sql-gateway; do
    if alive "$name"; then echo "$name: running (pid $(cat "$run/$name.pid"))"; any=0; else echo "$name: stopped"; fi
  done
  [ -f "$run/endpoints.env" ] && cat "$run/endpoints.env"
  return $any
}

sql_client() {
  install
  mkdir -p "$run/log" "$run/conf"
  [ -f "$run/conf/log4j-cli.properties" ] || write_config 0 0 0
  FLINK_CONF_DIR="$run/conf" "$java" -Dlog.file="$run/log/sql-client.log" \
    -Dlog4j.configurationFile="file:$run/conf/log4j-cli.properties" \
    -cp "$(classpath)" org.apache.flink.table.client.SqlClient "$@"
}

case ${1:-} in
install) install ;;
start) start ;;
stop) stop ;;
status) status ;;
env) [ -f "$run/endpoints.env" ] && cat "$run/endpoints.env" || die "Flink is not running (scripts/flink.sh start)" ;;
sql-client) shift; sql_client "$@" ;;
classpath) install; classpath; echo ;;
*) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
