#!/usr/bin/env bash
# `make deploy-check`: the deployment files, validated offline.
#  1. Helm chart (deploy/helm/profile-prediction-service): its values.schema.json refuses
#     wrong-typed and unknown values; helm lint --strict, then helm template with the default
#     values and with ci/production-values.yaml, each piped into kubeconform -strict for two
#     Kubernetes minor versions (schemas from kubernetes-validate; ServiceMonitor and
#     PrometheusRule are CRDs with no schema there, so they alone are skipped) and into
#     check-chart-manifests.mjs (hook accounts, selectors, checksums, probe timeouts, the
#     NetworkPolicy that keeps the admin port off the pod network: the rules a schema
#     cannot see); the alerts into check-alert-rules.mjs (PromQL, series the
#     service exports, its scrape job).
#  2. compose.yaml against the Compose Specification schema (check-jsonschema), and
#     podman-compose's reading of it: with .env.example unedited it refuses to start.
#  3. The licence check and the SBOM completeness check (which make image runs over the
#     image's SBOM) refuse their broken inputs.
# Each check first proves it can fail, on a deliberately broken input in test/deploy/.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
KUBERNETES_VERSIONS=(1.30.0 1.37.0)
chart=deploy/helm/profile-prediction-service

scripts/ensure-python-tools.sh
helm="$(scripts/deploy/go-tool.sh helm)"
kubeconform="$(scripts/deploy/go-tool.sh kubeconform)"
schemas="$(scripts/deploy/k8s-schemas.sh "${KUBERNETES_VERSIONS[@]}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# kubeconform FILE VERSION
validate_manifests() {
  "$kubeconform" -strict -summary -kubernetes-version "$2" -skip ServiceMonitor,PrometheusRule \
    -schema-location "$schemas/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" "$1"
}
validate_compose() {
  .venv/bin/check-jsonschema --builtin-schema vendor.compose-spec "$1"
}
# must_fail WHAT EXPECTED COMMAND...: the check has to reject a broken input, for the
# reason it was broken for (EXPECTED in its output), not for some other failure.
must_fail() {
  local what="$1" expected="$2"
  shift 2
  if "$@" >"$work/must-fail.log" 2>&1; then
    echo "deploy-check: $what accepted a deliberately broken input; the check cannot fail:" >&2
    cat "$work/must-fail.log" >&2
    exit 1
  fi
  if ! grep -qF -- "$expected" "$work/must-fail.log"; then
    echo "deploy-check: $what failed on the broken input, but not with \"$expected\":" >&2
    cat "$work/must-fail.log" >&2
    exit 1
  fi
  echo "deploy-check: $what rejects the broken input: $expected"
}

echo "== Helm chart: helm lint, helm template | kubeconform -strict (Kubernetes ${KUBERNETES_VERSIONS[*]})"
for version in "${KUBERNETES_VERSIONS[@]}"; do
  must_fail "kubeconform ($version)" "additional properties 'replica' not allowed" validate_manifests test/deploy/broken-deployment.yaml "$version"
done
render() { "$helm" template pps "$chart" --kube-version "${KUBERNETES_VERSIONS[0]}" "$@"; }
must_fail "the values schema" "at '/replicaCount': got string, want integer" render --values test/deploy/values-replicas-string.yaml
must_fail "the values schema" "additional properties 'securityContext' not allowed" render --values test/deploy/values-unknown-key.yaml
must_fail "the values schema" "at '/probes/readiness/timeoutSeconds': got string, want integer" render --values test/deploy/values-wrong-type.yaml
must_fail "the chart's shutdown bound" "config.shutdownTimeoutSeconds must be at least the longest call" render --values test/deploy/values-short-shutdown.yaml
must_fail "the chart's shutdown bound" "extraEnv sets OPENAI_MAX_RETRIES, which changes how long the service lets a paid call run" render --values test/deploy/values-call-input-without-timeout.yaml
must_fail "the chart's own variables" "extraEnv sets LOG_LEVEL, which the chart sets from config" render --values test/deploy/values-extra-env-overrides-config.yaml
must_fail "the chart's own variables" "extraEnv sets OPENAI_FALLBACK_API_KEY, a secret" render --values test/deploy/values-secret-in-extra-env.yaml
must_fail "the manifest rules" "which the chart creates, but not as a hook" node scripts/deploy/check-chart-manifests.mjs test/deploy/broken-chart-manifests.yaml
must_fail "the manifest rules" "Service pps-profile-prediction-service selects the pods of Job" node scripts/deploy/check-chart-manifests.mjs test/deploy/broken-chart-manifests.yaml
must_fail "the manifest rules" "no checksum/secret annotation" node scripts/deploy/check-chart-manifests.mjs test/deploy/broken-chart-manifests.yaml
must_fail "the manifest rules" "readinessProbe has no timeoutSeconds" node scripts/deploy/check-chart-manifests.mjs test/deploy/broken-chart-manifests.yaml
must_fail "the manifest rules" "nginx.ingress.kubernetes.io/proxy-read-timeout is unset (nginx's 60 s)" node scripts/deploy/check-chart-manifests.mjs test/deploy/broken-chart-manifests.yaml
must_fail "the manifest rules" "no NetworkPolicy selects its pods, so every pod in the cluster reaches its admin port (3001)" node scripts/deploy/check-chart-manifests.mjs test/deploy/broken-chart-manifests.yaml
must_fail "the manifest rules" "lets every peer in to the admin port (3001)" node scripts/deploy/check-chart-manifests.mjs test/deploy/broken-network-policy.yaml
must_fail "the manifest rules" 'lets {"namespaceSelector":{}} in to the admin port (3001)' node scripts/deploy/check-chart-manifests.mjs test/deploy/broken-network-policy.yaml
must_fail "the manifest rules" 'lets {"ipBlock":{"cidr":"0.0.0.0/0"}} in to the admin port (3001)' node scripts/deploy/check-chart-manifests.mjs test/deploy/broken-network-policy.yaml
must_fail "the chart's alerts" "prometheusRule.enabled needs serviceMonitor.enabled" render --values test/deploy/values-rule-without-monitor.yaml
must_fail "the chart's NetworkPolicy" "serviceMonitor.enabled needs networkPolicy.adminFrom" render --values test/deploy/values-monitor-without-admin-peers.yaml
for expected in "NotPromQL: its expression is not valid PromQL" "RenamedMetric: reads http_requests_count, which the service does not export" \
  "OtherJob: a selector of http_requests_total reads job someone-else" "NoSeverity: needs an alert name, labels.severity"; do
  must_fail "the alert rules check" "$expected" node scripts/deploy/check-alert-rules.mjs test/deploy/broken-alert-rules.yaml
done
"$helm" lint --strict "$chart"
"$helm" lint --strict "$chart" --values "$chart/ci/production-values.yaml"
# ingress: the defaults with an Ingress and no annotations, so the chart's own timeouts are checked.
for values in default ingress production; do
  args=()
  expect=(--expect NetworkPolicy)
  [ "$values" = ingress ] && args=(--values test/deploy/values-ingress.yaml) && expect+=(--expect Ingress)
  [ "$values" = production ] && args=(--values "$chart/ci/production-values.yaml") && expect+=(--expect Ingress --expect ServiceMonitor --expect PrometheusRule)
  for version in "${KUBERNETES_VERSIONS[@]}"; do
    "$helm" template pps "$chart" --kube-version "$version" "${args[@]}" >"$work/$values-$version.yaml"
    echo "-- $values values, Kubernetes $version"
    validate_manifests "$work/$values-$version.yaml" "$version"
    node scripts/deploy/check-chart-manifests.mjs "$work/$values-$version.yaml" "${expect[@]}"
    if [ "$values" = production ]; then node scripts/deploy/check-alert-rules.mjs "$work/$values-$version.yaml"; fi
  done
done
# The production values' service.annotations (GKE's backend-config) reach the public Service
# only, and autoscaling.metrics (a Pods metric) the HPA, beside its CPU target.
node --input-type=module -e '
  import { readFileSync } from "node:fs";
  import { parseAllDocuments } from "yaml";
  const manifests = parseAllDocuments(readFileSync(process.argv[1], "utf8")).map((d) => d.toJS()).filter(Boolean);
  const annotated = manifests.filter((m) => m.kind === "Service" && m.metadata.annotations?.["cloud.google.com/backend-config"]).map((s) => s.metadata.name);
  if (annotated.join() !== "pps-profile-prediction-service") { console.error(`deploy-check: service.annotations reached ${annotated.join() || "no Service"}, not the public Service alone`); process.exit(1); }
  const metrics = manifests.find((m) => m.kind === "HorizontalPodAutoscaler")?.spec.metrics.map((metric) => metric.resource?.name ?? metric.pods?.metric.name);
  if (metrics?.join() !== "cpu,http_requests_in_flight") { console.error(`deploy-check: the HPA scales on ${metrics?.join() ?? "nothing"}, not CPU and autoscaling.metrics`); process.exit(1); }
  console.log("service.annotations reach the public Service alone; autoscaling.metrics the HPA beside CPU");
' "$work/production-${KUBERNETES_VERSIONS[0]}.yaml"

echo "== compose.yaml against the Compose Specification"
must_fail "the Compose schema check" "'service_ready' is not one of" validate_compose test/deploy/broken-compose.yaml
# Its "ok -- validation done" is prefixed: a bare "ok" line reads as a test runner's to CI
# (docs/testing.md).
validate_compose compose.yaml | sed 's/^/compose.yaml: /'
# The documented Podman command (docs/deploy.md): podman-compose reads compose.yaml with the
# image name that dist/image/image.env gives.
PPS_IMAGE=localhost/profile-prediction-service:0.1.0-gdeploycheck POSTGRES_PASSWORD=deploy-check ADMIN_TOKEN=deploy-check-admin-token \
  .venv/bin/podman-compose -f compose.yaml config >"$work/compose-config.yaml"
grep -q 'image: localhost/profile-prediction-service:0.1.0-gdeploycheck' "$work/compose-config.yaml" ||
  { cat "$work/compose-config.yaml" >&2; echo "deploy-check: podman-compose did not take PPS_IMAGE" >&2; exit 1; }
echo "podman-compose 1.6.0 resolves compose.yaml with PPS_IMAGE"
# .env.example copied and left as it is starts nothing: its secrets are empty, and compose
# refuses to start without them (the service refuses an ADMIN_TOKEN starting with "change-me").
must_fail "compose with .env.example unedited" "required variable POSTGRES_PASSWORD is missing a value" \
  env -u POSTGRES_PASSWORD -u ADMIN_TOKEN .venv/bin/podman-compose --env-file .env.example -f compose.yaml config
must_fail "compose with .env.example unedited" "required variable ADMIN_TOKEN is missing a value" \
  env -u ADMIN_TOKEN POSTGRES_PASSWORD=deploy-check .venv/bin/podman-compose --env-file .env.example -f compose.yaml config
# Each of the three services resolves with a bounded log (the x-logging anchor, once each).
[ "$(grep -c '^    logging:' "$work/compose-config.yaml")" = 3 ] && grep -q 'max-size: 10m' "$work/compose-config.yaml" ||
  { cat "$work/compose-config.yaml" >&2; echo "deploy-check: compose.yaml does not bound every container's log" >&2; exit 1; }
echo "compose.yaml bounds every container's log (max-size 10m)"

echo "== the licence and SBOM checks that make image runs over the image's SBOM (syft)"
for expected in "copyleft-package@2.0.0: GPL-3.0-only is not on the allow-list" "network-copyleft-deb@1.0-1 (Debian): AGPL-3.0-only is on the deny-list" \
  "silent-package@3.0.0: no licence declared"; do
  must_fail "the licence check" "$expected" node scripts/deploy/check-licences.mjs test/deploy/sbom-with-copyleft.json
done
# npm's own SBOM of the production tree, which misses a third of it (npm's --omit=dev bug),
# the Debian packages and Node: the completeness check refuses it.
npm sbom --omit=dev --package-lock-only --sbom-format cyclonedx --sbom-type application --loglevel=error >"$work/npm-sbom.cdx.json"
must_fail "the SBOM completeness check" "npm package pg-protocol@" node scripts/image/check-sbom.mjs "$work/npm-sbom.cdx.json" package-lock.json
