#!/usr/bin/env bash
# Runs a command with DATABASE_URL and REDIS_URL set. When either is not given, starts
# a throwaway PostgreSQL and Redis (in a fresh temporary folder, on free loopback
# ports) for the command, and stops and removes them afterwards.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -n "${DATABASE_URL:-}" ] && [ -n "${REDIS_URL:-}" ]; then
  exec "$@"
fi
dir="$(mktemp -d /tmp/pps-services.XXXXXX)"
trap '"$root/scripts/test-services.sh" stop "$dir"; rm -rf "$dir"' EXIT
"$root/scripts/test-services.sh" start "$dir"
set -a
# shellcheck disable=SC1091
. "$dir/env"
set +a
"$@"
