# Shell functions shared by the scripts that run servers for the tests
# (scripts/flink.sh, scripts/kafka.sh). Sourced, never run; the caller
# defines log (a message on stderr).

# free_port prints a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# stop_pid NAME PIDFILE SECONDS: stops the process whose PID PIDFILE holds
# (SIGTERM; SIGKILL when it still runs after SECONDS) and removes PIDFILE.
# Nothing to do when PIDFILE is missing or its process is gone.
stop_pid() {
  local name=$1 file=$2 secs=$3 pid i
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < secs * 4; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    if kill -0 "$pid" 2>/dev/null; then
      log "$name ($pid) did not stop in $secs s; killing it"
      kill -9 "$pid" 2>/dev/null || true
      for ((i = 0; i < 40; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    fi
  fi
  rm -f "$file"
}
