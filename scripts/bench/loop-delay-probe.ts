/**
 * Preloaded into the server under test (`node -r dist/scripts/bench/loop-delay-probe.js
 * dist/src/app/main.js`), so the service's code stays untouched: records the event-loop
 * delay with perf_hooks.monitorEventLoopDelay and, on every SIGUSR2 and at exit, appends
 * a snapshot to BENCH_LOOP_DELAY_DIR/loop-delay-<pid>.jsonl and starts afresh. The bench
 * sends SIGUSR2 before the measured load (discarding startup) and after it.
 * Without BENCH_LOOP_DELAY_DIR it does nothing. Cluster workers inherit the preload.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PROBE_RESOLUTION_MS } from './loop-delay-constants';

/** One line of the probe's file. Delays are the sampled intervals minus the resolution. */
export interface LoopDelaySnapshot {
  pid: number;
  reason: 'signal' | 'exit';
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function startProbe(dir: string): void {
  const histogram = monitorEventLoopDelay({ resolution: PROBE_RESOLUTION_MS });
  histogram.enable();
  const file = join(dir, `loop-delay-${process.pid}.jsonl`);
  const delayMs = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - PROBE_RESOLUTION_MS);
  const dump = (reason: LoopDelaySnapshot['reason']) => {
    const snapshot: LoopDelaySnapshot = {
      pid: process.pid,
      reason,
      samples: histogram.count,
      p50Ms: delayMs(histogram.percentile(50)),
      p99Ms: delayMs(histogram.percentile(99)),
      maxMs: delayMs(histogram.max),
    };
    appendFileSync(file, `${JSON.stringify(snapshot)}\n`);
    histogram.reset();
  };
  process.on('SIGUSR2', () => dump('signal'));
  process.on('exit', () => dump('exit'));
}

const probeDir = process.env['BENCH_LOOP_DELAY_DIR'];
if (probeDir) startProbe(probeDir);
