#!/usr/bin/env bash
# Prints the path of Jaeger (v2, an OpenTelemetry Collector distribution with an in-memory
# store and a query API), the real OTLP receiver of the tracing test
# (test/integration/tracing.test.ts). Built once from the Go module proxy at the version
# pinned in tools/jaeger/go.mod (a `tool` directive; go.sum fixes every dependency), into a
# folder keyed by that version outside the clone, reused by the next clone.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
version="$(sed -n 's#^\s*github.com/jaegertracing/jaeger \(v[0-9.]*\).*#\1#p' "$root/tools/jaeger/go.mod" | head -n 1)"
[ -n "$version" ] || { echo "jaeger.sh: no jaeger version in tools/jaeger/go.mod" >&2; exit 1; }
command -v go >/dev/null 2>&1 || { echo "jaeger.sh: Go is needed to build Jaeger $version (https://go.dev/dl/); it is not installed" >&2; exit 1; }
bin="${XDG_CACHE_HOME:-$HOME/.cache}/profile-prediction-service/go-tools/jaeger-$version"
if [ ! -x "$bin/jaeger" ]; then
  echo "jaeger.sh: building Jaeger $version (once; a few minutes)" >&2
  mkdir -p "$bin"
  (cd "$root/tools/jaeger" && go build -o "$bin/jaeger.partial" github.com/jaegertracing/jaeger/cmd/jaeger >&2)
  mv "$bin/jaeger.partial" "$bin/jaeger"
fi
echo "$bin/jaeger"
