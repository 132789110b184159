#!/usr/bin/env bash
# `make deploy-check`, last step: the chart installed into a real Kubernetes API server.
# etcd, kube-apiserver and kube-controller-manager (its Job controller only) of a pinned
# release, built from the Go module proxy (scripts/deploy/kube-binaries.sh), run on
# 127.0.0.1 for the length of this script; no kubelet, no scheduler and no image registry
# exist here, so the script plays the kubelet for the migration hook: once the Job
# controller has created the hook's pod (the API server admits it only if its
# ServiceAccount exists), the pod is reported Succeeded, and the real Job controller
# completes the Job, which lets Helm go on. Then:
#   1. helm install with the default values succeeds: the migration pod ran as the hook's
#      own account, every ordinary resource was accepted by the API server;
#   2. the Deployment's checksum/secret is the Secret's; rotating the Secret and running
#      helm upgrade changes it (the pods roll);
#   3. first, proof that the install can fail: the chart with its migration account made
#      an ordinary resource (as it was) does not install, its hook pod refused
#      ("serviceaccount ... not found").
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
chart=deploy/helm/profile-prediction-service
helm="$(scripts/deploy/go-tool.sh helm)"
bin="$(scripts/deploy/kube-binaries.sh)"
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
etcd_port="$(free_port)"; peer_port="$(free_port)"; api_port="$(free_port)"
token="pps-install-test-$RANDOM$RANDOM"
api="https://127.0.0.1:$api_port"

"$bin/etcd" --name default --data-dir "$work/etcd" --log-level error \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
  --initial-cluster "default=http://127.0.0.1:$peer_port" >"$work/etcd.log" 2>&1 &
pids+=($!)
openssl genrsa -out "$work/sa.key" 2048 2>/dev/null
openssl rsa -in "$work/sa.key" -pubout -out "$work/sa.pub" 2>/dev/null
echo "$token,admin,admin,system:masters" >"$work/tokens.csv"
"$bin/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" --bind-address 127.0.0.1 --advertise-address 127.0.0.1 \
  --secure-port "$api_port" --cert-dir "$work/certs" --token-auth-file "$work/tokens.csv" --authorization-mode AlwaysAllow \
  --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$work/sa.pub" \
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

# k METHOD PATH [BODY] [CONTENT-TYPE]: the API server's REST API (no kubectl here).
k() {
  curl -ksS --fail-with-body -X "$1" -H "Authorization: Bearer $token" -H "Content-Type: ${4:-application/json}" \
    ${3:+--data "$3"} "$api$2"
}
for _ in $(seq 1 240); do
  k GET /api/v1/namespaces/default/serviceaccounts/default >/dev/null 2>&1 && break
  sleep 0.5
done
"$bin/kube-controller-manager" --kubeconfig "$work/kubeconfig" --controllers job,serviceaccount \
  --leader-elect=false --bind-address 127.0.0.1 --secure-port "$(free_port)" >"$work/controller-manager.log" 2>&1 &
pids+=($!)
# The namespace's default account, which the service-account controller makes: the API server is up.
for _ in $(seq 1 240); do
  k GET /api/v1/namespaces/default/serviceaccounts/default >/dev/null 2>&1 && break
  sleep 0.5
done
k GET /api/v1/namespaces/default/serviceaccounts/default >/dev/null || { cat "$work/apiserver.log" "$work/controller-manager.log" >&2; exit 1; }
echo "install-chart: $("$bin/kube-apiserver" --version) API server on $api (etcd, the Job controller)"

put_secret() {
  k "$1" "/api/v1/namespaces/default/secrets${2:+/$2}" "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"pps-profile-prediction-service\"},\"stringData\":{\"DATABASE_URL\":\"postgres://pps:$3@postgres/pps\",\"REDIS_URL\":\"redis://redis:6379\"}}" >/dev/null
}

# Plays the kubelet for the migration hook: each migrate pod the Job controller creates is
# reported Succeeded (exit code 0). Runs until killed.
kubelet_for_hooks() {
  while true; do
    for pod in $(k GET "/api/v1/namespaces/default/pods?labelSelector=app.kubernetes.io/component%3Dmigrate" 2>/dev/null |
      node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{for(const p of JSON.parse(s).items??[]) if(p.status?.phase!=="Succeeded") console.log(p.metadata.name)})'); do
      now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
      k PATCH "/api/v1/namespaces/default/pods/$pod/status" \
        "{\"status\":{\"phase\":\"Succeeded\",\"containerStatuses\":[{\"name\":\"migrate\",\"image\":\"migrate\",\"imageID\":\"\",\"ready\":false,\"restartCount\":0,\"state\":{\"terminated\":{\"exitCode\":0,\"reason\":\"Completed\",\"startedAt\":\"$now\",\"finishedAt\":\"$now\"}}}]}}" \
        application/merge-patch+json >/dev/null && echo "install-chart: (as the kubelet) migration pod $pod ran as $(k GET "/api/v1/namespaces/default/pods/$pod" | node -pe 'JSON.parse(require("fs").readFileSync(0)).spec.serviceAccountName') and succeeded"
    done
    sleep 1
  done
}
kubelet_for_hooks &
pids+=($!)

checksum() { k GET /apis/apps/v1/namespaces/default/deployments/pps-profile-prediction-service | node -pe 'JSON.parse(require("fs").readFileSync(0)).spec.template.metadata.annotations["checksum/secret"]'; }

echo "== 3. the chart with its migration account an ordinary resource does not install"
cp -r "$chart" "$work/old-chart"
sed -i '/helm.sh\/hook/d' "$work/old-chart/templates/migrate-serviceaccount.yaml"
put_secret POST "" first
if "$helm" install old "$work/old-chart" --timeout 45s >"$work/old.log" 2>&1; then
  echo "install-chart: the chart without the hook account installed: this check cannot fail" >&2; exit 1
fi
events="$(k GET "/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dold-profile-prediction-service-migrate")"
grep -q 'serviceaccount \\"old-profile-prediction-service-migrate\\" not found' <<<"$events" ||
  { echo "install-chart: the old chart failed, but not because its hook pod was refused:" >&2; cat "$work/old.log" >&2; echo "$events" >&2; exit 1; }
echo "install-chart: as expected, its hook pod was refused: serviceaccount \"old-profile-prediction-service-migrate\" not found"
"$helm" uninstall old --no-hooks >/dev/null 2>&1 || true

echo "== 1. helm install with the default values"
"$helm" install pps "$chart" --timeout 3m
k GET /apis/apps/v1/namespaces/default/deployments/pps-profile-prediction-service >/dev/null
first="$(checksum)"
echo "== 2. a rotated Secret rolls the pods at the next upgrade"
put_secret PUT pps-profile-prediction-service second
"$helm" upgrade pps "$chart" --timeout 3m
second="$(checksum)"
if [ -z "$first" ] || [ "$first" = "$second" ]; then
  echo "install-chart: checksum/secret did not change with the Secret ($first -> $second)" >&2; exit 1
fi
echo "install-chart: checksum/secret ${first:0:12}… -> ${second:0:12}…: the Deployment's pod template changed"
"$helm" list --all
