#!/usr/bin/env bash
# `make deploy-check`: the commands of docs/operations.md (and the host-side admin CLI of
# docs/deploy.md) run as written against the built service (dist/, `make build`), extracted
# from the docs by scripts/lint/doc-commands.mjs. The service runs embedded (PGlite in a
# throwaway DATA_DIR, no Redis, the embedded predictor) with DEMO_ACCOUNT=true, on free
# ports: the only changes to the commands are that port in place of 3000/3001 and the
# token in place of a placeholder (`ADMIN_TOKEN=...`). Each command must exit 0; the
# admin CLI exits 1 on any answer but a 2xx. Before the admin block runs, the demo
# account (account 1) makes 42 snaps of 'Ada Lovelace', so that the ids the block names
# (snap 42, key 2, account 1) exist. The blocks run in the clone (npm run needs it); the
# files they write there (account-1.json, ada.json) are removed at the end.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
[ -f dist/src/app/main.js ] && [ -f dist/src/cli/admin.js ] || { echo "operations-commands: dist/ is not built (make build)" >&2; exit 1; }
name=operations-commands
source scripts/deploy/background-processes.sh
written=(account-1.json ada.json)
for file in "${written[@]}"; do [ ! -e "$file" ] || fail "$file exists in the clone; the documented commands would overwrite it"; done
trap 'rm -f "${written[@]/#/$root/}"; stop_background' EXIT
# wait_ready PORT: the admin listener answers /healthz (bounded: 2 minutes).
wait_ready() {
  for _ in $(seq 1 240); do
    curl -sf "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  return 1
}
# run DOC BLOCK: the block's commands, with the ports and the token put in; stdout to a log.
run() {
  node scripts/lint/doc-commands.mjs "$1" "$2" |
    sed -e "s/127\.0\.0\.1:3001/127.0.0.1:$ADMIN_PORT/g" -e "s/127\.0\.0\.1:3000/127.0.0.1:$PORT/g" -e "s/ADMIN_TOKEN=\.\.\. /ADMIN_TOKEN=$ADMIN_TOKEN /g" >"$work/block.sh"
  echo "operations-commands: $1 $2:"
  sed 's/^/  $ /' "$work/block.sh"
  bash -euo pipefail "$work/block.sh" >"$work/$2.out" 2>&1 || { cat "$work/$2.out" >&2; fail "$1's block $2 failed"; }
}

# A token of this run's own: the docs write the placeholder ADMIN_TOKEN=..., which run() replaces.
ADMIN_TOKEN="$(node -p 'require("node:crypto").randomBytes(32).toString("hex")')"
PORT="$(free_port)"; ADMIN_PORT="$(free_port)"
export PORT ADMIN_PORT ADMIN_TOKEN
DATA_DIR="$work/data" DEMO_ACCOUNT=true LOG_LEVEL=warn node dist/src/app/main.js >"$work/service.log" 2>&1 &
pids+=($!)
wait_ready "$ADMIN_PORT" || fail "the service did not answer /healthz in 2 minutes"
demo_key="$(cat "$work/data/demo-api-key")"
for n in $(seq 1 42); do
  curl -sf -X POST "http://127.0.0.1:$PORT/api/v1/snap" -H 'Content-Type: application/json' -H "x-api-key: $demo_key" \
    -d '{"name":"Ada Lovelace","notes":"Checks every figure twice and asks for the data before any decision.","jobType":"Financial auditor"}' >/dev/null ||
    fail "snap $n of the demo account was refused"
done

run docs/operations.md admin-cli
grep -q '"snapId": 42' "$work/admin-cli.out" || fail "erase-snap 42 did not erase snap 42"
for file in account-1.json ada.json; do
  node -e 'JSON.parse(require("fs").readFileSync(process.argv[1]))' "$file" || fail "the export into $file is not JSON"
done
run docs/operations.md usage
run docs/operations.md probes
grep -q '"status":"ok"' "$work/probes.out" || fail "/readyz did not answer ok: $(cat "$work/probes.out")"
grep -q '^http_requests_total' "$work/probes.out" || fail "/metrics | grep -v '^#' printed no http_requests_total"
run docs/deploy.md host-admin-cli
grep -q 'pps_live_' "$work/host-admin-cli.out" || fail "docs/deploy.md's create-account printed no API key"
kill "${pids[0]}"; wait "${pids[0]}" 2>/dev/null || true

# The traces block starts the service in the foreground with a collector that does not
# exist here: it must start (and answer /healthz) with tracing on, then stop on SIGTERM.
PORT="$(free_port)"; ADMIN_PORT="$(free_port)"
node scripts/lint/doc-commands.mjs docs/operations.md traces >"$work/traces.sh"
echo "operations-commands: docs/operations.md traces:"; sed 's/^/  $ /' "$work/traces.sh"
DATA_DIR="$work/data-traces" PORT="$PORT" ADMIN_PORT="$ADMIN_PORT" setsid bash "$work/traces.sh" >"$work/traces.log" 2>&1 &
pids+=($!)
wait_ready "$ADMIN_PORT" || fail "docs/operations.md's traces block did not start the service"
echo "operations-commands: every documented command ran"
