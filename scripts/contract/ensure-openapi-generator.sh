#!/usr/bin/env bash
# Prints the path of the pinned openapi-generator CLI jar, downloading it from Maven Central
# into .cache/ (git-ignored) when missing and checking it against Maven Central's SHA-1.
# Java comes from Debian (scripts/ensure-system-packages.sh installs default-jdk-headless).
#   java -jar "$(scripts/contract/ensure-openapi-generator.sh)" generate -g python ...
set -euo pipefail

version=7.25.0
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$root/.cache/openapi-generator"
jar="$dir/openapi-generator-cli-$version.jar"
url="https://repo1.maven.org/maven2/org/openapitools/openapi-generator-cli/$version/openapi-generator-cli-$version.jar"

if [ ! -f "$jar" ]; then
  mkdir -p "$dir"
  echo "downloading openapi-generator-cli $version from Maven Central" >&2
  curl -fsSL --retry 3 -o "$jar.part" "$url"
  expected="$(curl -fsSL --retry 3 "$url.sha1" | cut -c1-40)"
  actual="$(sha1sum "$jar.part" | cut -c1-40)"
  [ "$expected" = "$actual" ] || { rm -f "$jar.part"; echo "openapi-generator-cli $version: SHA-1 mismatch" >&2; exit 1; }
  mv "$jar.part" "$jar"
fi
echo "$jar"
