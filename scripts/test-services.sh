#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL and Redis for the tests, on loopback only.
#   scripts/test-services.sh start DIR   # writes DIR/env with DATABASE_URL, REDIS_URL, ...
#   scripts/test-services.sh stop DIR
#   scripts/test-services.sh pg-stop|pg-start|redis-stop|redis-start DIR   # for fault tests
# Ports: PPS_TEST_PG_PORT and PPS_TEST_REDIS_PORT, or free ones picked at start, so
# several runs (a developer's and a CI clone's) can live side by side.
# PostgreSQL runs with fsync=off (the tests need no durability); PPS_TEST_PG_DURABLE=1
# runs it as production would, fsync and synchronous_commit on (make bench does), with
# pg_stat_statements loaded for the bench's statement counts.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${2:?usage: $0 start|stop DIR}"

# PostgreSQL's server programs: Debian's newest /usr/lib/postgresql/*/bin, else pg_ctl's folder
# on the PATH. Nothing is installed here (`make test` installs the packages first; `make check`
# expects PostgreSQL and Redis to be there).
find_pg_bin() {
  local debian
  debian="$(ls /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1)"
  if [ -n "$debian" ]; then dirname "$debian"; return; fi
  if command -v pg_ctl >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v pg_ctl)")"; return; fi
  echo "test-services: PostgreSQL's pg_ctl not found (install PostgreSQL, or run make test, which installs it on Debian)" >&2
  return 1
}

# PostgreSQL refuses to run as root: run it as the postgres user the package created.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# free_port: a port below the kernel's ephemeral range (scripts/free-port.sh says why).
source "$(dirname "${BASH_SOURCE[0]}")/free-port.sh"

start() {
  command -v redis-server >/dev/null 2>&1 || { echo "test-services: redis-server not found (install Redis, or run make test, which installs it on Debian)" >&2; exit 1; }
  local pg_bin
  pg_bin="$(find_pg_bin)"
  local pg_port="${PPS_TEST_PG_PORT:-$(free_port)}"
  local redis_port="${PPS_TEST_REDIS_PORT:-$(free_port)}"
  mkdir -p "$dir/pg" "$dir/redis"
  chmod 755 "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir/pg"
  as_pg "$pg_bin/initdb" -D "$dir/pg/data" --auth=trust --username=postgres --encoding=UTF8 >/dev/null
  pg_start "$pg_bin" "$pg_port"
  "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres pps_test
  redis_start "$redis_port"
  cat >"$dir/env" <<ENV
DATABASE_URL=postgres://postgres@127.0.0.1:$pg_port/pps_test
REDIS_URL=redis://127.0.0.1:$redis_port
PPS_TEST_PG_BIN=$pg_bin
PPS_TEST_PGDATA=$dir/pg/data
PPS_TEST_PG_PORT=$pg_port
PPS_TEST_REDIS_PORT=$redis_port
PPS_TEST_SERVICES_DIR=$dir
ENV
  echo "test services up: PostgreSQL on 127.0.0.1:$pg_port, Redis on 127.0.0.1:$redis_port"
}

pg_start() {
  local durability="-c fsync=off"
  [ "${PPS_TEST_PG_DURABLE:-0}" = 1 ] && durability="-c fsync=on -c synchronous_commit=on -c shared_preload_libraries=pg_stat_statements"
  as_pg "$1/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" -w -t 30 \
    -o "-p $2 -k $dir/pg -c listen_addresses=127.0.0.1 $durability -c max_connections=300" start >/dev/null
}

redis_start() {
  redis-server --port "$1" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$dir/redis" --pidfile "$dir/redis/pid" --logfile "$dir/redis/log"
  # Up to 60 s: generous, for a busy machine (it answers in well under a second when idle).
  for _ in $(seq 1 600); do redis-cli -p "$1" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "redis-server did not answer PING on port $1 within 60 s" >&2
  return 1
}

load_env() {
  # shellcheck disable=SC1091
  . "$dir/env"
}

stop() {
  [ -f "$dir/env" ] || return 0
  # shellcheck disable=SC1091
  . "$dir/env"
  as_pg "$PPS_TEST_PG_BIN/pg_ctl" -D "$PPS_TEST_PGDATA" -m immediate stop >/dev/null 2>&1 || true
  redis-cli -p "$PPS_TEST_REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  pg-stop) load_env && as_pg "$PPS_TEST_PG_BIN/pg_ctl" -D "$PPS_TEST_PGDATA" -m fast -w stop >/dev/null ;;
  pg-start) load_env && pg_start "$PPS_TEST_PG_BIN" "$PPS_TEST_PG_PORT" ;;
  redis-stop) load_env && redis-cli -p "$PPS_TEST_REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true ;;
  redis-start) load_env && redis_start "$PPS_TEST_REDIS_PORT" ;;
  *) echo "usage: $0 start|stop|pg-stop|pg-start|redis-stop|redis-start DIR" >&2; exit 2 ;;
esac
