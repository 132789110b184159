/** Runs a load generator as a child process (autocannon's or the open-loop one) and returns what it measured. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArrivalResult, ArrivalSpec } from './arrivals';
import { logTail, startChild } from './child-process';
import type { LoadResult, LoadSpec } from './load-generator';
import type { BenchPaths } from './servers';

let runs = 0;

async function runGenerator<Spec, Result>(paths: BenchPaths, script: string, label: string, spec: Spec): Promise<Result> {
  const n = ++runs;
  const specFile = join(paths.workDir, `load-${n}-${label}.spec.json`);
  const resultFile = join(paths.workDir, `load-${n}-${label}.result.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const child = startChild({
    name: `${script} #${n} (${label})`,
    args: [join(paths.bench, 'dist/scripts/bench', script), specFile, resultFile],
    env: {},
    logFile: join(paths.workDir, 'load-generators.log'),
    cwd: paths.bench,
  });
  const code = await child.exited;
  if (code !== 0) throw new Error(`${child.name} failed (${code}):\n${logTail(child)}`);
  return JSON.parse(readFileSync(resultFile, 'utf8')) as Result;
}

/** Closed loop: autocannon's connections, each sending its next request when the last is answered. */
export function runLoad(paths: BenchPaths, label: string, spec: LoadSpec): Promise<LoadResult> {
  return runGenerator(paths, 'load-generator.js', label, spec);
}

/** Open loop or a burst: requests leave whatever the answers (arrivals.ts). */
export function runArrivals(paths: BenchPaths, label: string, spec: ArrivalSpec): Promise<ArrivalResult> {
  return runGenerator(paths, 'arrivals.js', label, spec);
}
