#!/usr/bin/env bash
# `make contract`: proves openapi/openapi.yaml against the live service, built as shipped.
#   1. starts `node dist/src/app/main.js` against a throwaway PostgreSQL and Redis, with the
#      rate limit raised so that it cannot make the run flaky (the real limit of 120 has
#      its own test: test/integration/rate-limit.test.ts), and the admin listener's limit on
#      wrong tokens too (the ignored_auth check sends one per admin operation and more;
#      that limit's test: test/integration/admin.test.ts);
#   2. creates an account with enough credits through the admin API;
#   3. runs Schemathesis (settings and every override, with its reason: schemathesis.toml)
#      with every check and every phase on the strict copy of the spec that the build
#      derives (dist/openapi/openapi.strict.json), a JUnit report in test-output/contract/;
#   4. runs jest's contract project against the same server: the /docs page in headless
#      Chromium, and the TypeScript and Python SDK examples;
#   5. runs Schemathesis on the admin spec (openapi/admin.yaml) against the admin
#      listener, with the admin token (ADMIN_MAX_EXAMPLES cases per operation, 100 by default).
# Needs `npm run build` first (make contract does it).
#
# Environment:
#   SEED=<n>           reproduce a Schemathesis run (every run prints its seed)
#   MAX_EXAMPLES=<n>   test cases per operation and phase (default: schemathesis.toml's)
#   CONTRACT_ONLY=schemathesis|jest   run one half only
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

if [ "${1:-}" != "--with-services" ]; then
  scripts/ensure-system-packages.sh
  scripts/ensure-python-tools.sh
  [ -f dist/src/app/main.js ] && [ -f dist/docs/index.html ] || { echo "contract: run npm run build first (make contract does)" >&2; exit 1; }
  exec scripts/with-test-services.sh "$0" --with-services
fi

out="$root/test-output/contract"
# The Schemathesis hooks and the Python example leave no __pycache__ in the work tree.
export PYTHONDONTWRITEBYTECODE=1
rm -rf "$out" && mkdir -p "$out" "$root/test-output/results"

# free_port: a port below the kernel's ephemeral range (scripts/free-port.sh says why).
source "$root/scripts/free-port.sh"

port="$(free_port)"
admin_port="$(free_port)"
admin_token="contract-admin-$(node -e "console.log(require('node:crypto').randomBytes(16).toString('hex'))")"
base_url="http://127.0.0.1:$port"
admin_url="http://127.0.0.1:$admin_port"

# Far more than one Schemathesis run can spend (about 8,500 cases, a few thousand of them
# successes at a credit each): running out would turn valid requests into 400s. The SDK
# tests make accounts of their own.
credits=1000000

echo "contract: starting the service on $base_url (log: test-output/contract/server.log)"
env HOST=127.0.0.1 PORT="$port" ADMIN_HOST=127.0.0.1 ADMIN_PORT="$admin_port" ADMIN_TOKEN="$admin_token" \
  DATABASE_URL="$DATABASE_URL" REDIS_URL="$REDIS_URL" RATE_LIMIT_REDIS_PREFIX="pps:contract:" \
  RATE_LIMIT_MAX=1000000000 ACCOUNT_RATE_LIMIT_MAX=1000000000 ADMIN_TOKEN_FAILURES_PER_MINUTE=1000000000 LOG_LEVEL="${LOG_LEVEL:-warn}" \
  node dist/src/app/main.js >"$out/server.log" 2>&1 &
server_pid=$!
stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
}
trap stop_server EXIT

ready=false
for _ in $(seq 1 150); do
  if node -e "fetch('$base_url/openapi.json').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then
    ready=true
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.2
done
$ready || { echo "contract: the service did not start:" >&2; cat "$out/server.log" >&2; exit 1; }

api_key="$(ADMIN_URL="$admin_url" ADMIN_TOKEN="$admin_token" node dist/src/cli/admin.js create-account "contract tests" "$credits" |
  node -e "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => console.log(JSON.parse(s).data.apiKey));")"
[ -n "$api_key" ] || { echo "contract: could not create the account" >&2; exit 1; }

# schemathesis LOG ARGS...: one Schemathesis run, its report kept whole in LOG. On the
# console its "=== ... ===" rules become "-- ... --" headings: its closing rule
# ("=== 1 warning in 13.48s ===") has pytest's form, and CI reads it as a pytest run that
# executed no test. make test's last line counts its operations (docs/testing.md).
schemathesis() {
  local log="$1"
  shift
  .venv/bin/schemathesis "$@" 2>&1 | tee "$log" | sed -E 's/^=+ (.*[^ =]) =+$/-- \1 --/'
}

run_schemathesis=true run_jest=true
case "${CONTRACT_ONLY:-}" in
  '') ;;
  schemathesis) run_jest=false ;;
  jest) run_schemathesis=false ;;
  *) echo "contract: CONTRACT_ONLY must be schemathesis or jest" >&2; exit 2 ;;
esac
status=0

if $run_schemathesis; then
  # The strict copy of the spec (response objects closed, src/http/openapi/strict-spec.ts),
  # written by the build: the published spec lets responses grow, this proves that the
  # service sends exactly the documented fields today.
  args=(run dist/openapi/openapi.strict.json --checks all --phases examples,coverage,fuzzing,stateful
    --report junit --report-junit-path "$out/schemathesis-junit.xml" --no-color)
  [ -n "${SEED:-}" ] && args+=(--seed "$SEED")
  [ -n "${MAX_EXAMPLES:-}" ] && args+=(--max-examples "$MAX_EXAMPLES")
  echo "contract: .venv/bin/schemathesis ${args[*]}"
  PPS_BASE_URL="$base_url" PPS_API_KEY="$api_key" schemathesis "$out/schemathesis.log" "${args[@]}" || status=1
  seed="$(grep -oE 'Seed: *[0-9]+' "$out/schemathesis.log" | grep -oE '[0-9]+' | head -n 1 || true)"
  [ "$status" -eq 0 ] || echo "contract: Schemathesis failed; reproduce with: make contract SEED=${seed:-<seed above>}" >&2
fi

if $run_jest; then
  PPS_BASE_URL="$base_url" PPS_ADMIN_URL="$admin_url" PPS_ADMIN_TOKEN="$admin_token" \
    npx jest --selectProjects contract --runInBand --json --outputFile="$root/test-output/results/contract.json" || status=1
fi

if $run_schemathesis; then
  # The admin spec, last: its erasures may delete what the runs above stored. Every check,
  # the bearer token on every case (the ignored_auth check proves a case without it is 401).
  # Fewer cases per operation than the public API: the admin listener is product-internal.
  args=(run openapi/admin.yaml --url "$admin_url" --header "Authorization: Bearer $admin_token"
    --checks all --phases examples,coverage,fuzzing --max-examples "${ADMIN_MAX_EXAMPLES:-100}"
    --report junit --report-junit-path "$out/schemathesis-admin-junit.xml" --no-color)
  [ -n "${SEED:-}" ] && args+=(--seed "$SEED")
  echo "contract: .venv/bin/schemathesis ${args[*]/$admin_token/<ADMIN_TOKEN>}"
  PPS_BASE_URL="$admin_url" PPS_API_KEY="$api_key" schemathesis "$out/schemathesis-admin.log" "${args[@]}" || status=1
fi

exit "$status"
