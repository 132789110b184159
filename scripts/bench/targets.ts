/** The targets, each checked against what this run measured (never assumed). */
import { median, MB, ratioToBaseline, serviceRow, summarise, type BenchResults } from './bench-results';

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const one = serviceRow(results, 1);
  if (one) {
    const ratio = ratioToBaseline(results, one);
    const { p99Ms, non2xx, failures } = summarise(one);
    const clean = non2xx === 0 && failures === 0;
    const caveat = clean ? '' : ` (with ${non2xx} non-2xx and ${failures} errors: not a valid figure)`;
    checks.push(
      { target: 'full path ≥ 0.30 × baseline req/s, one process', measured: `${ratio.toFixed(2)} ×${caveat}`, met: clean && ratio >= 0.3 },
      { target: 'stretch: ≥ 0.40 × baseline req/s, one process', measured: `${ratio.toFixed(2)} ×${caveat}`, met: clean && ratio >= 0.4 },
      { target: 'p99 ≤ 40 ms at 50 connections, one process', measured: `${p99Ms.toFixed(0)} ms`, met: clean && p99Ms <= 40 },
    );
  }
  const slow = results.slowUpstream;
  const fraction = slow.load.okPerSecond / slow.ceilingPerSecond;
  const created = slow.load.statusCodes['201'] ?? 0;
  checks.push(
    { target: `slow upstream: every one of ${slow.requests} requests 201`, measured: `${created} of ${slow.requests}`, met: created === slow.requests },
    {
      target: `slow upstream: ≥ 90% of the ${slow.ceilingPerSecond} req/s ceiling`,
      measured: `${slow.load.okPerSecond.toFixed(0)} req/s = ${(fraction * 100).toFixed(0)}%`,
      met: fraction >= 0.9,
    },
    { target: 'slow upstream: peak RSS ≤ 250 MB', measured: `${(slow.peakBytes / MB).toFixed(0)} MB`, met: slow.peakBytes <= 250 * MB },
    { target: 'slow upstream: event-loop delay p99 ≤ 20 ms', measured: `${slow.loopDelay.p99Ms.toFixed(1)} ms`, met: slow.loopDelay.p99Ms <= 20 },
  );
  for (const row of results.coldStarts) {
    const ms = median(row.runsMs);
    checks.push({ target: `cold start ≤ 2 s: ${row.name}`, measured: `${ms.toFixed(0)} ms (median of ${row.runsMs.length})`, met: ms <= 2000 });
  }
  return checks;
}
