/** Runs the load generator as a child process and returns what it measured. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { logTail, startChild } from './child-process';
import type { LoadResult, LoadSpec } from './load-generator';

let runs = 0;

export async function runLoad(paths: { root: string; workDir: string }, spec: LoadSpec): Promise<LoadResult> {
  const n = ++runs;
  const specFile = join(paths.workDir, `load-${n}.spec.json`);
  const resultFile = join(paths.workDir, `load-${n}.result.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const child = startChild({
    name: `load generator #${n}`,
    args: [join(paths.root, 'dist/scripts/bench/load-generator.js'), specFile, resultFile],
    env: {},
    logFile: join(paths.workDir, 'load-generator.log'),
    cwd: paths.root,
  });
  const code = await child.exited;
  if (code !== 0) throw new Error(`${child.name} failed (${code}):\n${logTail(child)}`);
  return JSON.parse(readFileSync(resultFile, 'utf8')) as LoadResult;
}
