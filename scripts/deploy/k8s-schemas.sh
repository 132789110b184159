#!/usr/bin/env bash
# Prints a folder of Kubernetes JSON schemas that kubeconform can read offline, one
# sub-folder per version (v1.30.0-local-strict, ...), taken from the PyPI package
# kubernetes-validate in .venv. Its schemas point at each other with absolute $refs
# ("/api/_definitions.json#/...") under an https $id, which kubeconform cannot resolve from
# files: they are rewritten once to relative ones ("_definitions.json#/...") without the
# $id, into .cache/ of the clone.
#   scripts/deploy/k8s-schemas.sh 1.30.0 1.37.0
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
"$root/scripts/ensure-python-tools.sh"
package="$("$root/.venv/bin/python" -c 'import kubernetes_validate, os; print(os.path.dirname(kubernetes_validate.__file__))')"
version="$("$root/.venv/bin/python" -c 'from importlib.metadata import version; print(version("kubernetes-validate"))')"
out="$root/.cache/k8s-schemas/kubernetes-validate-$version"
for kubernetes in "$@"; do
  folder="v$kubernetes-local-strict"
  [ -f "$out/$folder/.rewritten" ] && continue
  [ -d "$package/kubernetes-json-schema/$folder" ] || { echo "k8s-schemas: kubernetes-validate $version has no schemas for Kubernetes $kubernetes" >&2; exit 1; }
  rm -rf "${out:?}/$folder"
  mkdir -p "$out/$folder"
  "$root/.venv/bin/python" - "$package/kubernetes-json-schema/$folder" "$out/$folder" <<'PY'
import json, pathlib, sys

source, target = map(pathlib.Path, sys.argv[1:])
PREFIX = '/api/_definitions.json#'

def relative(node):
    if isinstance(node, dict):
        ref = node.get('$ref')
        if isinstance(ref, str) and ref.startswith('/'):
            if not ref.startswith(PREFIX):
                sys.exit(f'k8s-schemas: unexpected absolute $ref {ref}: the package layout changed')
            node['$ref'] = '_definitions.json#' + ref[len(PREFIX):]
        for value in node.values():
            relative(value)
    elif isinstance(node, list):
        for value in node:
            relative(value)

for path in sorted(source.glob('*.json')):
    schema = json.loads(path.read_text())
    if isinstance(schema, dict):
        schema.pop('$id', None)  # an https base would send relative $refs to the network
    relative(schema)
    (target / path.name).write_text(json.dumps(schema))
PY
  touch "$out/$folder/.rewritten"
done
echo "$out"
