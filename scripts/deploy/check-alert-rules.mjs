// @ts-check
/**
 * The chart's alerts, checked on its rendered manifests (make deploy-check,
 * scripts/deploy/check.sh), where kubeconform has no schema for a PrometheusRule:
 *   1. every expression parses as PromQL (Prometheus's own grammar, @prometheus-io/lezer-promql);
 *   2. every series it reads is one the service exports (a metric named in src/metrics/, a
 *      histogram's _bucket, _sum or _count): an alert on a renamed metric never fires;
 *   3. every selector's job is the metrics Service the ServiceMonitor scrapes, in the manifests;
 *   4. every rule has an alert name, a severity and a summary.
 *
 *   node scripts/deploy/check-alert-rules.mjs MANIFESTS.yaml
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { readManifests } from './manifests.mjs';

const [file] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: check-alert-rules.mjs MANIFESTS.yaml\n');
  process.exit(2);
}
const manifests = readManifests(file);

const METRICS_DIR = join(import.meta.dirname, '../../src/metrics');
const exported = new Set(
  readdirSync(METRICS_DIR)
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => [...readFileSync(join(METRICS_DIR, name), 'utf8').matchAll(/\bname: '([a-z_:][a-z0-9_:]*)'/g)].map((match) => match[1])),
);
/** @param {string} series */
const isExported = (series) => exported.has(series) || ['_bucket', '_sum', '_count'].some((suffix) => series.endsWith(suffix) && exported.has(series.slice(0, -suffix.length)));

const scraped = new Set(manifests.filter((m) => m.kind === 'Service' && m.metadata?.labels?.['app.kubernetes.io/component'] === 'metrics').map((m) => m.metadata.name));

/** @type {string[]} */
const problems = [];
let count = 0;
for (const rule of manifests.filter((m) => m.kind === 'PrometheusRule').flatMap((m) => m.spec?.groups ?? []).flatMap((group) => group.rules ?? [])) {
  count += 1;
  const name = rule.alert ?? '(no alert name)';
  if (!rule.alert || !rule.labels?.severity || !rule.annotations?.summary) problems.push(`${name}: needs an alert name, labels.severity and annotations.summary`);
  const expr = String(rule.expr ?? '');
  let parsed = true;
  parser.parse(expr).iterate({
    enter: (node) => {
      if (node.type.isError) parsed = false;
      if (node.name === 'VectorSelector') {
        const metric = node.node.getChild('Identifier');
        const series = metric ? expr.slice(metric.from, metric.to) : '';
        if (!isExported(series)) problems.push(`${name}: reads ${series || 'a selector without a metric name'}, which the service does not export`);
        const job = /\bjob="([^"]*)"/.exec(expr.slice(node.from, node.to))?.[1];
        if (job === undefined || !scraped.has(job)) problems.push(`${name}: a selector of ${series} reads job ${job ?? '(none)'}, not the metrics Service scraped (${[...scraped].join(', ') || 'none rendered'})`);
      }
    },
  });
  if (!parsed) problems.push(`${name}: its expression is not valid PromQL: ${expr}`);
}
if (count === 0) problems.push('no alerting rule rendered');

if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`check-alert-rules: ${problem}\n`);
  process.exit(1);
}
console.log(`alert rules (${file}): ${count} alerts parse as PromQL and read series the service exports, from its scrape job`);
