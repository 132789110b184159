#!/usr/bin/env bash
# Prints a git remote URL fit for the image's org.opencontainers.image.source label: the
# repository's address without credentials. A URL's userinfo (https://user:token@host/...)
# is dropped, and an scp-like address (git@host:owner/repo.git) becomes https://host/owner/repo.git.
#   scripts/image/source-url.sh "$(git config --get remote.origin.url)"
set -euo pipefail
url="${1:-}"
case "$url" in
  *://*) printf '%s\n' "$url" | sed -E 's#^([A-Za-z][A-Za-z0-9+.-]*://)[^/]*@#\1#' ;;
  *@*:*) printf '%s\n' "$url" | sed -E 's#^[^@]*@([^:]+):#https://\1/#' ;;
  *) printf '%s\n' "$url" ;;
esac
