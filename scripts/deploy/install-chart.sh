#!/usr/bin/env bash
# `make deploy-check`, last step: the chart installed into a real Kubernetes API server,
# with the commands of docs/deploy.md run as written (extracted from it by
# scripts/lint/doc-commands.mjs). etcd, kube-apiserver and kubectl of a pinned release,
# built from the Go module proxy (scripts/deploy/kube-binaries.sh), run on 127.0.0.1 for
# the length of this script. There is no controller manager, scheduler or kubelet: no pod
# runs. scripts/deploy/fake-job-runner.mjs stands in for the Job controller and the kubelet
# for the migration hook: it creates the hook Job's pod (which the API server's admission
# refuses when its ServiceAccount does not exist) and, admitted, completes the Job; and for
# the garbage collector's removal of the `orphan` finalizer (kubectl delete --cascade=orphan).
# Proven here: every object of the release is accepted by the API server's validation and
# admission; Helm's hook order gives the migration pod its ServiceAccount (and 0.1.0's
# order did not); a Secret rotation rolls the pods at the next upgrade; the documented
# upgrade from chart 0.1.0 works (and is needed); helm uninstall plus the documented
# command leave nothing of the release. Not proven: that the pods start, pass their probes,
# or that the migration Job's container succeeds (make image-test runs the image).
#   scripts/deploy/install-chart.sh [BINARIES_DIR]   (default: scripts/deploy/kube-binaries.sh)
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
helm="$(scripts/deploy/go-tool.sh helm)"
bin="${1:-$(scripts/deploy/kube-binaries.sh)}"
# The documented commands call `helm` and `kubectl`: these.
export PATH="$bin:$(dirname "$helm"):$PATH"
old_chart=test/deploy/profile-prediction-service-0.1.0.tgz
name=install-chart
source scripts/deploy/background-processes.sh
export HELM_CACHE_HOME="$work/helm/cache" HELM_CONFIG_HOME="$work/helm/config" HELM_DATA_HOME="$work/helm/data"

etcd_port="$(free_port)"; peer_port="$(free_port)"; api_port="$(free_port)"
token="$(openssl rand -hex 16)"
api="https://127.0.0.1:$api_port"

"$bin/etcd" --name default --data-dir "$work/etcd" --log-level error \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
  --initial-cluster "default=http://127.0.0.1:$peer_port" >"$work/etcd.log" 2>&1 &
pids+=($!)
openssl genrsa -out "$work/sa.key" 2048 2>/dev/null
echo "$token,admin,admin,system:masters" >"$work/tokens.csv"
"$bin/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" --bind-address 127.0.0.1 --advertise-address 127.0.0.1 \
  --secure-port "$api_port" --cert-dir "$work/certs" --token-auth-file "$work/tokens.csv" --authorization-mode RBAC \
  --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$work/sa.key" \
  --service-account-signing-key-file "$work/sa.key" --service-cluster-ip-range 10.96.0.0/16 >"$work/apiserver.log" 2>&1 &
pids+=($!)
cat >"$work/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters: [{name: local, cluster: {server: "$api", insecure-skip-tls-verify: true}}]
users: [{name: admin, user: {token: "$token"}}]
contexts: [{name: local, context: {cluster: local, user: admin, namespace: default}}]
current-context: local
KUBECONFIG
export KUBECONFIG="$work/kubeconfig"
# Up when it answers /readyz (etcd reached, its bootstrap done); a cold start takes seconds.
for _ in $(seq 1 240); do
  [ "$(kubectl get --raw /readyz 2>/dev/null)" = ok ] && break
  sleep 0.5
done
[ "$(kubectl get --raw /readyz 2>/dev/null)" = ok ] || fail "the API server did not become ready in 2 minutes"
echo "install-chart: kube-apiserver $(kubectl version -o json | node -pe 'JSON.parse(require("fs").readFileSync(0)).serverVersion.gitVersion') on $api (etcd $("$bin/etcd" --version | sed -n 's/^etcd Version: //p'))"

node scripts/deploy/fake-job-runner.mjs "$api" "$token" default >"$work/fake-job-runner.log" 2>&1 &
pids+=($!)

# doc BLOCK: runs docs/deploy.md's shell block of that name, as written.
doc() {
  echo "install-chart: docs/deploy.md $1:"
  node scripts/lint/doc-commands.mjs docs/deploy.md "$1" >"$work/block.sh"
  sed 's/^/  $ /' "$work/block.sh"
  bash -euo pipefail "$work/block.sh" || fail "docs/deploy.md's block $1 failed"
}
# leftovers RELEASE: what of the release is in the namespace, one kind/name a line.
leftovers() {
  kubectl get deployments,replicasets,services,serviceaccounts,configmaps,jobs,pods,poddisruptionbudgets,horizontalpodautoscalers,ingresses,networkpolicies \
    -l "app.kubernetes.io/instance=$1" -o name
}
checksum() { kubectl get deployment pps-profile-prediction-service -o jsonpath='{.spec.template.metadata.annotations.checksum/secret}'; }

echo "== 1. the chart's first install can fail: chart 0.1.0 (the hook's ServiceAccount an ordinary resource) does not install"
if helm install old "$old_chart" --timeout 20s >"$work/old-install.log" 2>&1; then
  fail "chart 0.1.0 installed: this check cannot fail"
fi
grep -q 'the pod of Job old-profile-prediction-service-migrate was refused (403): .*serviceaccount "old-profile-prediction-service" not found' "$work/fake-job-runner.log" ||
  fail "chart 0.1.0 failed to install, but not because its hook pod was refused for its missing ServiceAccount"
echo "install-chart: as on a cluster, its hook pod was refused: serviceaccount \"old-profile-prediction-service\" not found; helm install timed out"
helm uninstall old --no-hooks >/dev/null
kubectl delete jobs,serviceaccounts -l app.kubernetes.io/instance=old >/dev/null

echo "== 2. the documented install (chart $(sed -n 's/^version: //p' deploy/helm/profile-prediction-service/Chart.yaml))"
doc chart-install
grep -q 'the pod of Job pps-profile-prediction-service-migrate was admitted, as ServiceAccount pps-profile-prediction-service-migrate' "$work/fake-job-runner.log" ||
  fail "the migration hook's pod did not run under its own ServiceAccount"
[ "$(helm status pps -o json | node -pe 'JSON.parse(require("fs").readFileSync(0)).info.status')" = deployed ] || fail "release pps is not deployed"
expected="deployment.apps/pps-profile-prediction-service horizontalpodautoscaler.autoscaling/pps-profile-prediction-service networkpolicy.networking.k8s.io/pps-profile-prediction-service poddisruptionbudget.policy/pps-profile-prediction-service service/pps-profile-prediction-service serviceaccount/pps-profile-prediction-service serviceaccount/pps-profile-prediction-service-migrate"
found="$(leftovers pps | sort | tr '\n' ' ' | sed 's/ $//')"
[ "$found" = "$(tr ' ' '\n' <<<"$expected" | sort | tr '\n' ' ' | sed 's/ $//')" ] || fail "the release holds [$found], not [$expected]"
echo "install-chart: deployed; the hook's pod ran as pps-profile-prediction-service-migrate; the hook Job deleted on success; the API server holds: $found"

echo "== 3. a rotated Secret rolls the pods at the next helm upgrade"
first="$(checksum)"
doc chart-rotate-secret
second="$(checksum)"
[ -n "$first" ] && [ "$first" != "$second" ] || fail "checksum/secret did not change with the Secret ($first -> $second)"
echo "install-chart: checksum/secret ${first:0:12}… -> ${second:0:12}…: the Deployment's pod template changed"

echo "== 4. uninstall leaves the hook's ServiceAccount only, which the documented command deletes"
node scripts/lint/doc-commands.mjs docs/deploy.md chart-uninstall >"$work/uninstall.sh"
grep -q '^helm uninstall pps' "$work/uninstall.sh" || fail "docs/deploy.md's chart-uninstall does not start with helm uninstall pps"
helm uninstall pps --wait --timeout 1m >/dev/null
[ "$(leftovers pps)" = serviceaccount/pps-profile-prediction-service-migrate ] || fail "helm uninstall left [$(leftovers pps | tr '\n' ' ')], not the hook's ServiceAccount alone as docs/deploy.md says"
sed -i '/^helm uninstall pps/d' "$work/uninstall.sh"
bash -euo pipefail "$work/uninstall.sh" >/dev/null || fail "docs/deploy.md's chart-uninstall failed"
[ -z "$(leftovers pps)" ] || fail "after docs/deploy.md's chart-uninstall, the namespace still holds [$(leftovers pps | tr '\n' ' ')]"
echo "install-chart: nothing of release pps is left"

echo "== 5. the documented upgrade from chart 0.1.0 (installed without its hook, the only way it installed)"
helm install pps "$old_chart" --set secrets.existingSecret=pps-secrets --set migrations.enabled=false >/dev/null
if helm upgrade pps deploy/helm/profile-prediction-service --reset-then-reuse-values >"$work/plain-upgrade.log" 2>&1; then
  fail "a plain helm upgrade from chart 0.1.0 worked: the documented step before it is not needed"
fi
grep -q 'field is immutable' "$work/plain-upgrade.log" || fail "the plain upgrade from 0.1.0 failed, but not on the Deployment's immutable selector: $(cat "$work/plain-upgrade.log")"
echo "install-chart: a plain helm upgrade from 0.1.0 is refused: the Deployment's selector is immutable"
doc chart-upgrade-from-0.1.0
[ "$(kubectl get deployment pps-profile-prediction-service -o jsonpath='{.spec.selector.matchLabels.app\.kubernetes\.io/component}')" = api ] ||
  fail "after the upgrade the Deployment does not select component=api"
release="$(helm list --filter '^pps$' -o json | node -pe 'const [r]=JSON.parse(require("fs").readFileSync(0)); r.status+" "+r.chart')"
[ "$release" = "deployed profile-prediction-service-0.2.0" ] || fail "release pps is $release, not chart 0.2.0 deployed"
echo "install-chart: upgraded to chart 0.2.0"
helm uninstall pps >/dev/null
echo "install-chart: every step passed"
