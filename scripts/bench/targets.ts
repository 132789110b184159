/** The targets, each checked against what this run measured (never assumed). */
import { cpuMsPer2xx, median, MB, ratioToBaseline, serviceRow, summarise, type BenchResults } from './bench-results';
import type { SlowUpstreamResult } from './slow-upstream-run';

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

/** Cold-start bound of each mode, by the start of its row's name. */
const COLD_START_MS: Array<{ prefix: string; maxMs: number }> = [
  { prefix: 'embedded', maxMs: 2000 },
  { prefix: 'PostgreSQL', maxMs: 1000 },
];

export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const one = serviceRow(results, 1);
  if (one) {
    const ratio = ratioToBaseline(results, one);
    const { p99Ms, non2xx, failures, serverMsPer2xx } = summarise(one);
    const clean = non2xx === 0 && failures === 0;
    const caveat = clean ? '' : ` (with ${non2xx} non-2xx and ${failures} errors: not a valid figure)`;
    checks.push(
      { target: 'full path ≥ 0.30 × baseline req/s, one process', measured: `${ratio.toFixed(2)} ×${caveat}`, met: clean && ratio >= 0.3 },
      { target: 'stretch: ≥ 0.40 × baseline req/s, one process', measured: `${ratio.toFixed(2)} ×${caveat}`, met: clean && ratio >= 0.4 },
      { target: 'p99 ≤ 40 ms at 50 connections, one process', measured: `${p99Ms.toFixed(0)} ms`, met: clean && p99Ms <= 40 },
      { target: 'service CPU per 201 ≤ 0.40 ms, one process', measured: `${serverMsPer2xx.toFixed(2)} ms`, met: clean && serverMsPer2xx <= 0.4 },
    );
    const upstream = serviceRow(results, 1, 'upstream');
    if (upstream) {
      const per201 = summarise(upstream).serverMsPer2xx;
      checks.push({
        target: 'upstream predictor: service CPU per 201 ≤ 2 × the embedded one, same load, one process',
        measured: `${per201.toFixed(2)} ms against ${serverMsPer2xx.toFixed(2)} ms = ${(per201 / serverMsPer2xx).toFixed(2)} ×`,
        met: clean && per201 <= 2 * serverMsPer2xx,
      });
    }
  }
  const burst = results.slowUpstream;
  const fraction = burst.load.okPerSecond / burst.ceilingPerSecond;
  checks.push(
    allCreated('slow upstream', burst),
    {
      target: `slow upstream: ≥ 90% of the ${burst.ceilingPerSecond} req/s ceiling`,
      measured: `${burst.load.okPerSecond.toFixed(0)} req/s = ${(fraction * 100).toFixed(0)}%`,
      met: fraction >= 0.9,
    },
    { target: 'slow upstream: event-loop delay p99 ≤ 20 ms', measured: `${burst.loopDelay.p99Ms.toFixed(1)} ms`, met: burst.loopDelay.p99Ms <= 20 },
    burstCpuAgainstEmbedded(burst, results.embeddedBurst),
  );
  const capacity = results.capacity;
  checks.push(allCreated(`capacity, ${capacity.requests} in flight`, capacity), {
    target: `capacity, ${capacity.requests} in flight: peak RSS ≤ 400 MB`,
    measured: `${(capacity.peakBytes / MB).toFixed(0)} MB`,
    met: capacity.peakBytes <= 400 * MB,
  });
  const { shedBurst, openLoop } = results.admission;
  const shed = shedBurst.result;
  const answered = (shed.statusCodes['201'] ?? 0) + shed.shedWithRetryAfter;
  checks.push(
    {
      target: `shed burst: each of ${shedBurst.requests} requests 201 or 503 with Retry-After, no 500`,
      measured: `${answered} of ${shedBurst.requests}; ${shed.statusCodes['500'] ?? 0} × 500, ${shed.errors} errors`,
      met: answered === shedBurst.requests && shed.errors === 0,
    },
    { target: 'shed burst: api_keys lookups for its one key ≤ 1', measured: String(shedBurst.apiKeyQueries), met: shedBurst.apiKeyQueries <= 1 },
    { target: 'open loop: overhead p50 ≤ 5 ms', measured: `${openLoop.result.overhead.p50.toFixed(2)} ms`, met: openLoop.result.overhead.p50 <= 5 },
    { target: 'open loop: overhead p99 ≤ 50 ms', measured: `${openLoop.result.overhead.p99.toFixed(2)} ms`, met: openLoop.result.overhead.p99 <= 50 },
  );
  for (const row of results.coldStarts) {
    const ms = median(row.runsMs);
    const maxMs = COLD_START_MS.find((bound) => row.name.startsWith(bound.prefix))?.maxMs ?? 2000;
    checks.push({ target: `cold start ≤ ${maxMs / 1000} s: ${row.name}`, measured: `${ms.toFixed(0)} ms (median of ${row.runsMs.length})`, met: ms <= maxMs });
  }
  return checks;
}

function allCreated(name: string, run: SlowUpstreamResult): TargetCheck {
  const created = run.load.statusCodes['201'] ?? 0;
  return { target: `${name}: every one of ${run.requests} requests 201`, measured: `${created} of ${run.requests}`, met: created === run.requests };
}

/** The burst's server CPU per 201 with the upstream call, against the same burst on the embedded predictor. */
function burstCpuAgainstEmbedded(burst: SlowUpstreamResult, embedded: SlowUpstreamResult): TargetCheck {
  const [upstream, own] = [cpuMsPer2xx(burst.load, 'server'), cpuMsPer2xx(embedded.load, 'server')];
  return {
    target: 'slow upstream: server CPU per 201 ≤ 2 × the same burst on the embedded predictor',
    measured: `${upstream.toFixed(2)} ms against ${own.toFixed(2)} ms = ${(upstream / own).toFixed(2)} ×`,
    met: allCreated('', burst).met && allCreated('', embedded).met && upstream <= 2 * own,
  };
}
