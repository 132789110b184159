#!/usr/bin/env bash
# `make image`: builds the Containerfile with buildah (no daemon: chroot isolation, vfs
# storage) on the CI base (scripts/image/build-base.sh), and writes under dist/image/:
#   profile-prediction-service-<tag>.oci.tar   the image as an OCI archive, named
#                                              localhost/profile-prediction-service:<tag>
#                                              (what `podman load` calls it)
#   profile-prediction-service-<tag>.cdx.json  its CycloneDX SBOM: syft (pinned, built from
#                                              the Go module proxy) over the archive: npm
#                                              packages, Debian packages and Node itself
#   image.env                                  IMAGE=<name:tag> for the smoke test
# The build fails when a component's licence is not allowed (scripts/deploy/check-licences.mjs)
# or the SBOM misses a production package of the lock file (scripts/image/check-sbom.mjs).
# <tag> is the package version and the git revision (with -dirty for uncommitted changes).
# BASE_IMAGE=<image> builds on another base (e.g. docker.io/library/node:24-slim).
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
# shellcheck source=containers.sh
. scripts/image/containers.sh

base="${BASE_IMAGE:-$(scripts/image/build-base.sh)}"
syft="$(scripts/deploy/go-tool.sh syft)"
version="$(node -p 'require("./package.json").version')"
revision="$(git rev-parse HEAD)"
dirty=""
[ -z "$(git status --porcelain --untracked-files=no)" ] || dirty="-dirty"
tag="$version-g${revision:0:12}$dirty"
name="profile-prediction-service"
image="localhost/$name:$tag"
# The label names the repository, never a credential that the remote URL may carry.
source_url="$(scripts/image/source-url.sh "$(git config --get remote.origin.url || true)")"

# A TLS-inspecting proxy (NODE_EXTRA_CA_CERTS on the host): npm in the build trusts the same CAs.
ca_args=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
  ca_args=(--volume "$NODE_EXTRA_CA_CERTS:/run/host-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/host-ca.crt)
fi

start=$SECONDS
buildah_ bud --quiet --isolation chroot --pull=false \
  --build-arg BASE_IMAGE="$base" --build-arg VERSION="$version" --build-arg REVISION="$revision$dirty" \
  ${source_url:+--build-arg SOURCE="$source_url"} "${ca_args[@]}" \
  --ulimit nofile=16384:16384 \
  -f Containerfile -t "$image" . >/dev/null
echo "image: built $image in $((SECONDS - start)) s (base $base)"

out="dist/image"
rm -rf "$out"
mkdir -p "$out"
archive="$out/$name-$tag.oci.tar"
ctr="$(buildah_ from --pull-never "$image")"
trap 'buildah_ rm "$ctr" >/dev/null' EXIT
# Node's LICENSE ships with Node (the CI base puts it there; another BASE_IMAGE is its maker's).
if [ -z "${BASE_IMAGE:-}" ]; then
  buildah_ run --isolation chroot "$ctr" test -s /usr/local/share/doc/node/LICENSE ||
    { echo "image: Node's LICENSE is not in the image (/usr/local/share/doc/node/LICENSE)" >&2; exit 1; }
fi
buildah_ push --quiet "$image" "oci-archive:$archive:$image"
sbom="$out/$name-$tag.cdx.json"
SYFT_CHECK_FOR_APP_UPDATE=false "$syft" scan --quiet "oci-archive:$archive" --output "cyclonedx-json=$sbom"
node scripts/image/check-sbom.mjs "$sbom" package-lock.json
node scripts/deploy/check-licences.mjs "$sbom"
echo "IMAGE=$image" >"$out/image.env"

# Keep the storage from growing with every build: only this build of the service stays.
buildah_ images --format '{{.Name}}:{{.Tag}}' | grep "/$name:" | grep -vx "$image" | xargs -r buildah "${STORAGE_OPTS[@]}" rmi >/dev/null 2>&1 || true
buildah_ rmi --prune >/dev/null 2>&1 || true
echo "image: $archive ($(du -m "$archive" | cut -f1) MB), SBOM $sbom"
