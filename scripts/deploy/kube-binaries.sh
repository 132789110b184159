#!/usr/bin/env bash
# Prints the folder holding etcd, kube-apiserver and kubectl of one pinned Kubernetes release, built
# once from the Go module proxy into a folder keyed by the version (outside the clone,
# reused by the next clone; a first build takes about 13 minutes on 2 cores, see
# docs/decisions.md). No kube-controller-manager, scheduler or kubelet:
# scripts/deploy/install-chart.sh plays the Job controller and the kubelet for the one hook.
# k8s.io/kubernetes cannot be `go install`ed (its go.mod replaces the k8s.io/* staging
# modules with folders of its repository), so a small wrapper module requires it and
# points each staging module at its published version (v0.<minor>.<patch>), as projects
# that import k8s.io/kubernetes do; etcd is its etcdmain package at the version Kubernetes
# itself requires.
#   scripts/deploy/kube-binaries.sh               build if missing (or wait for the build under
#                                                 way), print the folder
#   scripts/deploy/kube-binaries.sh --background  start that build in the background, niced,
#                                                 and return at once (make test, first step)
# One build at a time: it holds a lock in the cache folder, which a second call waits for.
set -euo pipefail

KUBERNETES=v1.36.3
STAGING="v0.${KUBERNETES#v1.}"
command -v go >/dev/null 2>&1 || { echo "kube-binaries: Go is needed to build Kubernetes $KUBERNETES (https://go.dev/dl/); it is not installed" >&2; exit 1; }
dir="${XDG_CACHE_HOME:-$HOME/.cache}/profile-prediction-service/go-tools/kubernetes-$KUBERNETES"
built() { [ -x "$dir/kube-apiserver" ] && [ -x "$dir/etcd" ] && [ -x "$dir/kubectl" ]; }
if built; then
  echo "$dir"
  exit 0
fi
mkdir -p "$(dirname "$dir")"
lock="$dir.lock"
if [ "${1:-}" = --background ]; then
  echo "kube-binaries: building Kubernetes $KUBERNETES in the background (log: $dir.log)" >&2
  nohup nice -n 10 env KUBE_BINARIES_LOCKED=1 flock "$lock" "$0" >"$dir.log" 2>&1 </dev/null &
  exit 0
fi
# Waits for a build under way (--background), then builds only if that one did not succeed.
if [ -z "${KUBE_BINARIES_LOCKED:-}" ]; then
  exec env KUBE_BINARIES_LOCKED=1 flock "$lock" "$0" "$@"
fi
if built; then
  echo "$dir"
  exit 0
fi
echo "kube-binaries: building etcd, kube-apiserver and kubectl of Kubernetes $KUBERNETES from the Go module proxy" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work" "$dir.part.$$"' EXIT
cd "$work"
GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$KUBERNETES" >module.json
upstream_mod="$(sed -n 's/^\t"GoMod": "\(.*\)",$/\1/p' module.json)"
{
  echo 'module pps-kube-binaries'
  echo
  grep '^go ' "$upstream_mod"
  echo
  echo "require k8s.io/kubernetes $KUBERNETES"
  echo
  echo 'replace ('
  grep -E '^\s+k8s.io/[a-z-]+ => \./staging' "$upstream_mod" | awk -v v="$STAGING" '{print "\t"$1" => "$1" "v}'
  echo ')'
} >go.mod
mkdir -p etcd
cat >etcd/main.go <<'GO'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
cat >tools.go <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
GO
go mod tidy >&2
# The version the binaries report (Helm checks the chart's kubeVersion against it), stamped
# as Kubernetes' own build (hack/lib/version.sh) does; unstamped it says v0.0.0-master.
minor="${KUBERNETES#v1.}"; minor="${minor%%.*}"
ldflags="-X k8s.io/component-base/version.gitVersion=$KUBERNETES -X k8s.io/component-base/version.gitMajor=1"
ldflags+=" -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
ldflags+=" -X k8s.io/client-go/pkg/version.gitVersion=$KUBERNETES -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=$minor"
mkdir -p "$dir.part.$$"
go build -ldflags "$ldflags" -o "$dir.part.$$/" ./etcd k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kubectl >&2
rm -rf "$dir"
mv "$dir.part.$$" "$dir"
echo "$dir"
