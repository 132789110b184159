#!/usr/bin/env node
// scripts/deploy/install-chart.sh's stand-in for the Job controller and the kubelet, which
// its bare API server lacks. For each Job of the namespace that has not finished, it does
// what the Job controller would do first: creates the Job's pod from its template (the API
// server's admission runs on it: a pod whose ServiceAccount does not exist is refused, the
// failure of chart 0.1.0's first install). Admitted, the pod is taken as having run and
// exited 0: it is deleted (there is no garbage collector either) and the Job's status
// set to what the Job controller writes for one succeeded pod, which lets Helm go on past
// the hook. Refused, the Job is left running (Helm waits out its timeout, as on a cluster).
// It also stands in for the garbage collector's one step that a documented command waits
// for: a Deployment or ReplicaSet deleted with --cascade=orphan carries the `orphan`
// finalizer until the collector has orphaned its dependents (here: none exist) and removes it.
// Every decision is a line on stdout. Runs until killed.
//   node scripts/deploy/fake-job-runner.mjs API_URL TOKEN NAMESPACE
import { request } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';

const [api, token, namespace] = process.argv.slice(2);
const handled = new Set();

function call(method, path, body, contentType = 'application/json') {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      `${api}${path}`,
      { method, rejectUnauthorized: false, headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk)).on('end', () => resolvePromise({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function runJob(job) {
  const name = job.metadata.name;
  const template = job.spec.template;
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${name}-${Math.random().toString(36).slice(2, 7)}`,
      labels: { ...template.metadata?.labels, 'batch.kubernetes.io/job-name': name },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name, uid: job.metadata.uid, controller: true }],
    },
    spec: template.spec,
  };
  const created = await call('POST', `/api/v1/namespaces/${namespace}/pods`, pod);
  if (created.status !== 201) {
    console.log(`fake-job-runner: the pod of Job ${name} was refused (${created.status}): ${created.body?.message}`);
    return;
  }
  console.log(`fake-job-runner: the pod of Job ${name} was admitted, as ServiceAccount ${created.body.spec.serviceAccountName}; taken as run and exited 0`);
  await call('DELETE', `/api/v1/namespaces/${namespace}/pods/${pod.metadata.name}`);
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = (type) => ({ type, status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastProbeTime: now, lastTransitionTime: now });
  const status = { startTime: now, completionTime: now, active: 0, ready: 0, succeeded: 1, conditions: [condition('SuccessCriteriaMet'), condition('Complete')] };
  const patched = await call('PATCH', `/apis/batch/v1/namespaces/${namespace}/jobs/${name}/status`, { status }, 'application/merge-patch+json');
  if (patched.status !== 200) console.log(`fake-job-runner: completing Job ${name} was refused (${patched.status}): ${patched.body?.message}`);
  else console.log(`fake-job-runner: Job ${name} complete`);
}

async function finishOrphaning() {
  for (const kind of ['deployments', 'replicasets']) {
    const list = await call('GET', `/apis/apps/v1/namespaces/${namespace}/${kind}`);
    for (const item of list.body?.items ?? []) {
      const finalizers = item.metadata.finalizers ?? [];
      if (!item.metadata.deletionTimestamp || !finalizers.includes('orphan')) continue;
      const rest = finalizers.filter((finalizer) => finalizer !== 'orphan');
      const patched = await call('PATCH', `/apis/apps/v1/namespaces/${namespace}/${kind}/${item.metadata.name}`, { metadata: { finalizers: rest.length > 0 ? rest : null } }, 'application/merge-patch+json');
      console.log(`fake-job-runner: (as the garbage collector) ${kind}/${item.metadata.name} orphaned its dependents: ${patched.status}`);
    }
  }
}

for (;;) {
  try {
    await finishOrphaning();
    const jobs = await call('GET', `/apis/batch/v1/namespaces/${namespace}/jobs`);
    for (const job of jobs.body?.items ?? []) {
      if (handled.has(job.metadata.uid)) continue;
      handled.add(job.metadata.uid);
      await runJob(job);
    }
  } catch (error) {
    console.log(`fake-job-runner: ${error.message}`);
  }
  await sleep(500);
}
