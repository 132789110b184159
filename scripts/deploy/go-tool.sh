#!/usr/bin/env bash
# Prints the path of a pinned Go tool, building it once from the Go module proxy into a
# folder keyed by its module and version (outside the clone, reused by the next clone).
#   scripts/deploy/go-tool.sh helm | kubeconform | syft
set -euo pipefail

case "${1:?usage: $0 helm|kubeconform|syft}" in
  helm) module=helm.sh/helm/v3/cmd/helm version=v3.22.0 ;;
  kubeconform) module=github.com/yannh/kubeconform/cmd/kubeconform version=v0.8.0 ;;
  syft) module=github.com/anchore/syft/cmd/syft version=v1.57.1 ;;
  *) echo "go-tool: unknown tool $1" >&2; exit 1 ;;
esac
command -v go >/dev/null 2>&1 || { echo "go-tool: Go is needed to build $1 $version (https://go.dev/dl/); it is not installed" >&2; exit 1; }
bin="${XDG_CACHE_HOME:-$HOME/.cache}/profile-prediction-service/go-tools/$1-$version"
if [ ! -x "$bin/$1" ]; then
  echo "go-tool: building $module@$version" >&2
  mkdir -p "$bin"
  GOBIN="$bin" GOFLAGS=-mod=mod go install "$module@$version" >&2
fi
echo "$bin/$1"
