#!/usr/bin/env bash
# Prints the folder holding etcd, kube-apiserver and kube-controller-manager of one pinned
# Kubernetes release, built once from the Go module proxy into a folder keyed by the
# version (outside the clone; a first build takes about 15 minutes on 2 cores).
# k8s.io/kubernetes cannot be `go install`ed (its go.mod replaces the k8s.io/* staging
# modules with folders of its repository), so a small wrapper module requires it and
# points each staging module at its published version (v0.<minor>.<patch>), as projects
# that import k8s.io/kubernetes do; etcd is its etcdmain package at the version Kubernetes
# itself requires. Used by scripts/deploy/install-chart.sh.
set -euo pipefail

KUBERNETES=v1.36.3
STAGING="v0.${KUBERNETES#v1.}"
command -v go >/dev/null 2>&1 || { echo "kube-binaries: Go is needed to build Kubernetes $KUBERNETES; it is not installed" >&2; exit 1; }
dir="${XDG_CACHE_HOME:-$HOME/.cache}/profile-prediction-service/go-tools/kubernetes-$KUBERNETES"
if [ -x "$dir/kube-apiserver" ] && [ -x "$dir/kube-controller-manager" ] && [ -x "$dir/etcd" ]; then
  echo "$dir"
  exit 0
fi
echo "kube-binaries: building etcd, kube-apiserver and kube-controller-manager of Kubernetes $KUBERNETES" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
go mod download -json "k8s.io/kubernetes@$KUBERNETES" >module.json
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
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
GO
go mod tidy >&2
mkdir -p "$dir.part"
go build -o "$dir.part/" ./etcd k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager >&2
rm -rf "$dir"
mv "$dir.part" "$dir"
echo "$dir"
