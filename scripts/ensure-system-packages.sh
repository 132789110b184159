#!/usr/bin/env bash
# Installs the Debian packages the tests need (PostgreSQL, Redis, Chromium for the docs
# page test of make contract, a JDK and Maven for openapi-generator and its Java client,
# and for make image and its smoke test: buildah, podman with runc, mmdebstrap with
# Debian's archive keyring, uidmap, and curl with the CA certificates: the demo's printed
# curl command (test/integration/embedded-mode.test.ts), scripts/llm/run-local.sh and the
# openapi-generator download use it) when they are missing.
# Needs root (as on CI and the developer machines) or passwordless sudo.
set -euo pipefail

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v javac >/dev/null 2>&1 || missing+=(default-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
command -v buildah >/dev/null 2>&1 || missing+=(buildah)
command -v podman >/dev/null 2>&1 || missing+=(podman)
# podman would pick crun, which fails on these machines: runc is asked for by name.
command -v runc >/dev/null 2>&1 || missing+=(runc)
command -v newuidmap >/dev/null 2>&1 || missing+=(uidmap)
command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || missing+=(debian-archive-keyring)
command -v curl >/dev/null 2>&1 || missing+=(curl)
[ -f /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing Debian packages: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
