#!/usr/bin/env bash
# podman on the image scripts' storage (scripts/image/containers.sh) with runc: what the
# image smoke test (test/image) runs containers with.
set -euo pipefail
# shellcheck source=containers.sh
. "$(dirname "$0")/containers.sh"
podman_ "$@"
