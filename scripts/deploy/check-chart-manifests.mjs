// @ts-check
/**
 * Rules of a real cluster that schema validation (kubeconform) cannot see, checked on the
 * chart's rendered manifests (helm template; make deploy-check, scripts/deploy/check.sh):
 *   1. A hook's pod runs under a ServiceAccount that exists when the hook runs: Helm creates
 *      the release's ordinary resources only after the pre-install hooks, so an account the
 *      chart makes for a hook Job must itself be a hook of the same events, weighted lower.
 *   2. The migration Job's pods are selected by nothing that means "the service's pods": the
 *      Deployment's selector, the Services', the PodDisruptionBudget's, the NetworkPolicy's.
 *      And each of those selects the Deployment's pods.
 *   3. The Deployment's pods carry checksum/secret and checksum/config (a changed Secret or
 *      setting rolls them), and every probe has its timeoutSeconds.
 *   4. An Ingress gives ingress-nginx a proxy read and send timeout of at least the pods'
 *      SHUTDOWN_TIMEOUT_SECONDS (at least the longest paid call): nginx's 60 s would cut a
 *      longer call off with a 504 while the service still runs it (docs/deploy.md, "The Helm chart").
 *   5. Each kind named with --expect is rendered (e.g. Ingress when ingress.enabled).
 *   6. The admin port is off the pod network: a NetworkPolicy selects the Deployment's pods,
 *      and each of its rules that lets the admin port in names its peers (the image listens
 *      there on every interface, and the admin API is behind a token alone otherwise).
 *
 *   node scripts/deploy/check-chart-manifests.mjs MANIFESTS.yaml [--expect Kind]...
 */
import { parseArgs } from 'node:util';
import { readManifests } from './manifests.mjs';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { expect: { type: 'string', multiple: true, default: [] } } });
const [file] = positionals;
if (!file) {
  process.stderr.write('usage: check-chart-manifests.mjs MANIFESTS.yaml [--expect Kind]...\n');
  process.exit(2);
}
const manifests = readManifests(file);
/** @type {string[]} */
const problems = [];
const named = (/** @type {any} */ m) => `${m.kind} ${m.metadata?.name}`;

/** @param {any} manifest */
function hookOf(manifest) {
  const annotations = manifest.metadata?.annotations ?? {};
  const events = annotations['helm.sh/hook'];
  if (!events) return undefined;
  return { events: String(events).split(',').map((event) => event.trim()), weight: Number(annotations['helm.sh/hook-weight'] ?? 0) };
}

/** @param {Record<string, string>} selector @param {Record<string, string>} labels */
const selects = (selector, labels) => Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);

// 1. Hook Jobs' accounts.
for (const job of manifests.filter((m) => m.kind === 'Job')) {
  const hook = hookOf(job);
  if (!hook) continue;
  const account = job.spec?.template?.spec?.serviceAccountName ?? 'default';
  const created = manifests.find((m) => m.kind === 'ServiceAccount' && m.metadata?.name === account);
  if (!created) continue; // an account the operator made beforehand
  const accountHook = hookOf(created);
  if (!accountHook || !hook.events.every((event) => accountHook.events.includes(event)) || accountHook.weight >= hook.weight) {
    problems.push(`${named(job)} runs as ServiceAccount ${account}, which the chart creates, but not as a hook of ${hook.events.join(',')} weighted below ${hook.weight}: Helm creates it after the hook, and the hook's pod is refused`);
  }
}

// 2. Selectors.
const deployments = manifests.filter((m) => m.kind === 'Deployment');
const servicePods = deployments.map((d) => d.spec?.template?.metadata?.labels ?? {});
const jobPods = manifests.filter((m) => m.kind === 'Job').map((job) => ({ job, labels: job.spec?.template?.metadata?.labels ?? {} }));
/** @type {[any, Record<string, string> | undefined][]} */
const selectors = [
  ...deployments.map((m) => /** @type {[any, any]} */ ([m, m.spec?.selector?.matchLabels])),
  ...manifests.filter((m) => m.kind === 'Service').map((m) => /** @type {[any, any]} */ ([m, m.spec?.selector])),
  ...manifests.filter((m) => m.kind === 'PodDisruptionBudget').map((m) => /** @type {[any, any]} */ ([m, m.spec?.selector?.matchLabels])),
  ...manifests.filter((m) => m.kind === 'NetworkPolicy').map((m) => /** @type {[any, any]} */ ([m, m.spec?.podSelector?.matchLabels])),
];
for (const [owner, selector] of selectors) {
  if (!selector) continue;
  for (const { job, labels } of jobPods) {
    if (selects(selector, labels)) problems.push(`${named(owner)} selects the pods of ${named(job)} (${JSON.stringify(selector)})`);
  }
  if (!servicePods.some((labels) => selects(selector, labels))) problems.push(`${named(owner)} selects no pod of the Deployment (${JSON.stringify(selector)})`);
}

// 3. Roll on change; probe timeouts.
for (const deployment of deployments) {
  const annotations = deployment.spec?.template?.metadata?.annotations ?? {};
  for (const key of ['checksum/secret', 'checksum/config']) {
    if (!annotations[key]) problems.push(`${named(deployment)}: its pods have no ${key} annotation, so a change does not roll them`);
  }
  for (const container of deployment.spec?.template?.spec?.containers ?? []) {
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
      if (container[probe] && !container[probe].timeoutSeconds) problems.push(`${named(deployment)}: ${container.name}'s ${probe} has no timeoutSeconds (Kubernetes' 1 s)`);
    }
  }
}

// 4. The Ingress outlasts the longest call.
const shutdownSeconds = Math.max(
  0,
  ...deployments.flatMap((d) => d.spec?.template?.spec?.containers ?? []).flatMap((c) => c.env ?? []).filter((e) => e.name === 'SHUTDOWN_TIMEOUT_SECONDS').map((e) => Number(e.value)),
);
for (const ingress of manifests.filter((m) => m.kind === 'Ingress')) {
  for (const key of ['nginx.ingress.kubernetes.io/proxy-read-timeout', 'nginx.ingress.kubernetes.io/proxy-send-timeout']) {
    const seconds = Number(ingress.metadata?.annotations?.[key]);
    if (!(seconds >= shutdownSeconds && seconds > 60)) problems.push(`${named(ingress)}: ${key} is ${ingress.metadata?.annotations?.[key] ?? "unset (nginx's 60 s)"}, below the pods' SHUTDOWN_TIMEOUT_SECONDS (${shutdownSeconds}): a longer call gets a 504`);
  }
}

// 5. Kinds the values ask for.
for (const kind of values.expect ?? []) {
  if (!manifests.some((m) => m.kind === kind)) problems.push(`no ${kind} was rendered, though the values enable one`);
}

// 6. The admin port off the pod network.
for (const deployment of deployments) {
  const labels = deployment.spec?.template?.metadata?.labels ?? {};
  const admin = (deployment.spec?.template?.spec?.containers ?? []).flatMap((c) => c.ports ?? []).find((p) => p.name === 'admin');
  if (!admin) continue;
  const policies = manifests.filter((m) => {
    const selector = m.spec?.podSelector?.matchLabels ?? {};
    return m.kind === 'NetworkPolicy' && (m.spec?.policyTypes ?? ['Ingress']).includes('Ingress') && (Object.keys(selector).length === 0 || selects(selector, labels));
  });
  if (policies.length === 0) problems.push(`${named(deployment)}: no NetworkPolicy selects its pods, so every pod in the cluster reaches its admin port (${admin.containerPort})`);
  for (const policy of policies) {
    for (const rule of policy.spec?.ingress ?? []) {
      const letsAdminIn = !rule.ports?.length || rule.ports.some((/** @type {any} */ p) => p.port === 'admin' || p.port === admin.containerPort);
      if (letsAdminIn && !rule.from?.length) problems.push(`${named(policy)} lets every peer in to the admin port (${admin.containerPort}) of ${named(deployment)}: a rule that opens it must name its peers (from)`);
      for (const peer of letsAdminIn ? (rule.from ?? []) : []) {
        if (namesEveryone(peer)) problems.push(`${named(policy)} lets ${JSON.stringify(peer)} in to the admin port (${admin.containerPort}) of ${named(deployment)}: every pod or address, not a named peer`);
      }
    }
  }
}

/** A NetworkPolicy peer that admits every pod of the cluster (an empty namespace selector with no pod selector) or every address. */
function namesEveryone(/** @type {any} */ peer) {
  const empty = (/** @type {any} */ selector) => selector !== undefined && Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
  if (empty(peer.namespaceSelector) && (peer.podSelector === undefined || empty(peer.podSelector))) return true;
  return peer.ipBlock?.cidr === '0.0.0.0/0' || peer.ipBlock?.cidr === '::/0';
}

if (problems.length > 0) {
  process.stderr.write(`chart manifests (${file}): ${problems.length} problems:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
console.log(`chart manifests (${file}): ${manifests.length} resources; hook accounts, selectors, checksums, probe and ingress timeouts, the admin port's NetworkPolicy hold`);
