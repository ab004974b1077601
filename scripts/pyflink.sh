#!/usr/bin/env bash
# PyFlink (Apache Flink's Python Table API) in a virtual environment kept in
# the cache, outside the repo, for the interop tests that run PyFlink itself.
#
#   scripts/pyflink.sh install     create the venv and pip install apache-flink (once;
#                                  reused while its marker file says the same version)
#   scripts/pyflink.sh python …    run the venv's python with these arguments (without
#                                  FLINK_HOME/FLINK_CONF_DIR: PyFlink uses its own jars)
#   scripts/pyflink.sh path        print the venv's python
#
# apache-flink ships Flink's jars in apache-flink-libraries and pulls
# apache-beam; it needs Java 11+ (JAVA_HOME or java on PATH) to start its
# local mini cluster. The install takes minutes and the venv ~1 GiB.
#
# Environment:
#   RIFFLE_CACHE     cache folder (default ${XDG_CACHE_HOME:-~/.cache}/riffle)
#   PYFLINK_VERSION  apache-flink version (default 2.3.0, Flink's version in interop/flink/pom.xml)
#   PYTHON           the python that creates the venv (default python3)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
default_version=$(sed -n 's:.*<flink.version>\(.*\)</flink.version>.*:\1:p' "$here/interop/flink/pom.xml")
version=${PYFLINK_VERSION:-$default_version}
cache=${RIFFLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/riffle}
venv=$cache/pyflink-venv
py=${PYTHON:-python3}

log() { echo "pyflink.sh: $*" >&2; }
die() { log "$*"; exit 1; }

install() {
  if [ -f "$venv/.installed" ] && [ "$(cat "$venv/.installed")" = "$version" ]; then return 0; fi
  command -v "$py" >/dev/null || die "$py is not installed"
  log "installing apache-flink==$version into $venv"
  local t0=$SECONDS
  rm -rf "$venv"
  mkdir -p "$cache"
  "$py" -m venv "$venv" || die "$py -m venv failed (on Debian: apt-get install python3-venv)"
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q "apache-flink==$version"
  echo "$version" >"$venv/.installed"
  log "installed in $((SECONDS - t0)) s"
}

case "${1:-}" in
  install) install ;;
  python)
    shift
    [ -f "$venv/.installed" ] || die "not installed: run scripts/pyflink.sh install"
    # PyFlink runs its own jars (apache-flink-libraries) in a local mini
    # cluster: a FLINK_HOME or FLINK_CONF_DIR of scripts/flink.sh (exported by
    # scripts/interop.sh) would point its launcher at the wrong Flink.
    exec env -u FLINK_HOME -u FLINK_CONF_DIR -u FLINK_LIB_DIR -u FLINK_OPT_DIR -u FLINK_PLUGINS_DIR \
      "$venv/bin/python" "$@" ;;
  path) echo "$venv/bin/python" ;;
  *) die "usage: scripts/pyflink.sh install|python …|path" ;;
esac
