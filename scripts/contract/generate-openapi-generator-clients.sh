#!/usr/bin/env bash
# Proves openapi/openapi.yaml in openapi-generator (7.x, the jar pinned in
# scripts/contract/ensure-openapi-generator.sh): validates it, then generates three clients
# into dist/sdk/openapi-generator/, fresh every time (nothing generated is committed):
#   python            the client examples/openapi-generator/create_snap_and_comms.py uses
#   typescript-fetch  type-checked here with the project's tsc
#   java              generated only (compiling it would fetch its Maven dependencies)
# Then, for example:
#   PYTHONPATH=dist/sdk/openapi-generator/python PPS_BASE_URL=http://127.0.0.1:3000 PPS_API_KEY=pps_live_… \
#     .venv/bin/python examples/openapi-generator/create_snap_and_comms.py
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
scripts/ensure-python-tools.sh
jar="$(scripts/contract/ensure-openapi-generator.sh)"
out="dist/sdk/openapi-generator"
rm -rf "$out"
mkdir -p "$out"

generator() {
  java -jar "$jar" "$@" >"$out/generator.log" 2>&1 || { cat "$out/generator.log" >&2; return 1; }
}

generator validate -i openapi/openapi.yaml
generator generate -g python -i openapi/openapi.yaml -o "$out/python" \
  --additional-properties=packageName=pps_openapi_client,generateSourceCodeOnly=true
generator generate -g typescript-fetch -i openapi/openapi.yaml -o "$out/typescript-fetch"
npx tsc --noEmit --strict --target ES2022 --module commonjs --moduleResolution node --lib ES2022,DOM --skipLibCheck "$out/typescript-fetch/index.ts"
generator generate -g java -i openapi/openapi.yaml -o "$out/java" --additional-properties=hideGenerationTimestamp=true
[ -f "$out/java/src/main/java/org/openapitools/client/api/SnapsApi.java" ] || { echo "openapi-generator: no Java client" >&2; exit 1; }
