/**
 * The bench's report (scripts/bench/report.ts) when a part measured nothing: a loaded
 * machine once made the open-loop row answer no 201 in quick mode, and the report
 * crashed on its empty percentiles. An empty figure prints "no samples", and its target
 * is not met.
 */
import type { ArrivalResult } from '../../../scripts/bench/arrivals';
import type { BenchResults } from '../../../scripts/bench/bench-results';
import { benchSettings } from '../../../scripts/bench/bench-settings';
import { percentiles } from '../../../scripts/bench/figures';
import { renderReport } from '../../../scripts/bench/report';
import { checkTargets } from '../../../scripts/bench/targets';

/** What the load generator reports when every request failed. */
function nothingAnswered(sent: number): ArrivalResult {
  return { sent, statusCodes: {}, errors: sent, created: percentiles([]), overhead: percentiles([]), seconds: 3, sendingSeconds: 3, cores: {} };
}

function emptyRun(): BenchResults {
  const settings = benchSettings(['--quick'], '/nowhere');
  return {
    machine: { date: '2026-11-25T00:00:00Z', cpus: 2, cpuModel: 'test', memoryGiB: 1, node: 'v0', commit: 'abc1234', loadAverageAtStart: 20 },
    loadAverageAtEnd: 20,
    postgres: { fsync: 'on', synchronousCommit: 'on' },
    statementsCounted: false,
    settings,
    commitLatency: { select: percentiles([]), commit: percentiles([]) },
    upstreamPath: {
      overhead: { rate: 50, seconds: 3, result: nothingAnswered(150), statements: undefined },
      search: [{ rate: 50, seconds: 3, result: nothingAnswered(150), statements: undefined }],
      highestHeld: undefined,
      memory: { requests: 300, result: nothingAnswered(300), rssBeforeBytes: undefined, peakBytes: undefined, confinement: { limitBytes: 512 * 2 ** 20 } },
    },
    realModel: { skipped: 'not run in quick mode or with --no-real-model', model: '', calls: [], serverCpuMs: undefined, postgresCpuMs: undefined, statements: undefined },
    coldStarts: { replacedMs: [], firstInstallMs: [], compileCache: true },
    throughput: [
      { name: 'bare Express 5 + express.json()', rounds: [] },
      { name: 'service, embedded predictor', rounds: [] },
    ],
  };
}

describe('the bench report', () => {
  test('when a part measured nothing, then its figures print "no samples" and every target is not met', () => {
    const results = emptyRun();

    const report = renderReport(results);

    expect(checkTargets(results).filter((check) => check.met)).toEqual([]);
    expect(report).toContain('| 50 | 150 | 0 | 0 | 150 | no samples | no samples | no samples |');
    expect(report).not.toMatch(/NaN|undefined|Infinity|null/);
  });

  test('when a figure has samples, then its target is judged on it', () => {
    const results = emptyRun();
    results.coldStarts = { replacedMs: [900, 1200, 950], firstInstallMs: [1100, 1300, 1250], compileCache: true };

    const coldStart = checkTargets(results).find((check) => check.target.startsWith('cold start'));

    expect(coldStart).toMatchObject({ measured: '950 ms (median of 3); a first install: 1,250 ms', met: true });
  });

  test('when the cold starts read a compile cache or none, then the report says which', () => {
    const results = emptyRun();

    expect(renderReport(results)).toContain('its modules read from a compile cache primed as the image primes its own');
    results.coldStarts.compileCache = false;
    expect(renderReport(results)).toContain('no compile cache: this Node has none, or this service no command to prime one');
  });
});
