#!/usr/bin/env bash
# Sourced by the image scripts: one container storage for buildah and podman, outside the
# clone (so a fresh clone reuses the CI base image and the npm cache of earlier builds),
# with the vfs driver (no overlay mounts needed) and runc (crun fails on these machines).
#   PPS_IMAGE_CACHE   where the storage lives (default ~/.cache/profile-prediction-service/image)
PPS_IMAGE_CACHE="${PPS_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/profile-prediction-service/image}"
mkdir -p "$PPS_IMAGE_CACHE"
STORAGE_OPTS=(--root "$PPS_IMAGE_CACHE/storage" --runroot "$PPS_IMAGE_CACHE/run" --storage-driver vfs)
# buildah keeps RUN --mount=type=cache folders under TMPDIR: keep them beside the storage.
export TMPDIR="$PPS_IMAGE_CACHE/tmp"
mkdir -p "$TMPDIR"
buildah_() { buildah "${STORAGE_OPTS[@]}" "$@"; }
podman_() { podman "${STORAGE_OPTS[@]}" --runtime runc --cgroup-manager cgroupfs --events-backend file "$@"; }
