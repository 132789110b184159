#!/usr/bin/env bash
# Proves openapi/openapi.yaml in openapi-generator (7.x, the jar pinned in
# scripts/contract/ensure-openapi-generator.sh): validates it, then generates three clients
# into dist/sdk/openapi-generator/, fresh every time (nothing generated is committed):
#   python            the client examples/openapi-generator/create_snap_and_comms.py uses
#   typescript-fetch  type-checked here with the project's tsc
#   java              compiled with Maven (its dependencies come from Maven Central into
#                     ~/.m2, Maven's own cache), with examples/openapi-generator/java
# Then, for example:
#   PYTHONPATH=dist/sdk/openapi-generator/python PPS_BASE_URL=http://127.0.0.1:3000 PPS_API_KEY=pps_live_… \
#     .venv/bin/python examples/openapi-generator/create_snap_and_comms.py
#   cd dist/sdk/openapi-generator/java && PPS_BASE_URL=… PPS_API_KEY=… \
#     java -cp "example-classes:target/classes:$(cat classpath.txt)" CreateSnapAndComms
#
# The spec passes the generator's own validation (`validate`, and `generate` without
# --skip-validate-spec): an integrator needs no flag (docs/compatibility.md).
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

java -jar "$jar" validate -i openapi/openapi.yaml >"$out/validate.log" 2>&1 ||
  { cat "$out/validate.log" >&2; echo "openapi-generator validate refuses openapi/openapi.yaml (see above)" >&2; exit 1; }

generate() {
  generator generate -i openapi/openapi.yaml "$@"
}
generate -g python -o "$out/python" --additional-properties=packageName=pps_openapi_client,generateSourceCodeOnly=true
generate -g typescript-fetch -o "$out/typescript-fetch"
npx tsc --noEmit --strict --target ES2022 --module commonjs --moduleResolution node --lib ES2022,DOM --skipLibCheck "$out/typescript-fetch/index.ts"
generate -g java -o "$out/java" --additional-properties=hideGenerationTimestamp=true

# The Java client, compiled with Maven, then the example against it.
java_dir="$out/java"
(cd "$java_dir" && mvn -B -q -DskipTests compile dependency:build-classpath \
  -Dmdep.outputFile=classpath.txt -Dmdep.includeScope=runtime >maven.log 2>&1) ||
  { cat "$java_dir/maven.log" >&2; echo "openapi-generator: the Java client did not compile with Maven" >&2; exit 1; }
javac -d "$java_dir/example-classes" -cp "$java_dir/target/classes:$(cat "$java_dir/classpath.txt")" \
  examples/openapi-generator/java/CreateSnapAndComms.java
