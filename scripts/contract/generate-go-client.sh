#!/usr/bin/env bash
# Generates a Go client from openapi/openapi.yaml with oapi-codegen (pinned below, fetched by
# `go run` from the Go module proxy) into dist/sdk/go/client/, beside a copy of the example
# examples/go/ (its go.mod and go.sum pin the client's one dependency), and builds it.
# Fresh every time: nothing generated is committed. Then, for example:
#   cd dist/sdk/go && PPS_BASE_URL=http://127.0.0.1:3000 PPS_API_KEY=pps_live_… ./create-snap-and-comms
# Exits 3 when Go is not installed (the contract test then says so and skips only this client).
set -euo pipefail

oapi_codegen=github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null 2>&1 || { echo "generate-go-client: go is not installed: the Go client is not generated" >&2; exit 3; }

out="dist/sdk/go"
rm -rf "$out"
mkdir -p "$out/client"
cp examples/go/main.go examples/go/go.mod examples/go/go.sum "$out/"
go run "$oapi_codegen" -generate types,client -package client -o "$out/client/client.gen.go" openapi/openapi.yaml
cd "$out"
go build -mod=readonly -o create-snap-and-comms .
