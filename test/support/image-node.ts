/**
 * The Node the image runs (.nvmrc, unpacked by scripts/image-node.sh), for the tests of
 * what needs it rather than the machine's Node (the compile cache needs 22.1 or later),
 * and how to read Node's trace of its compile cache.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The image's `node` binary (fetched once from the npm registry, then reused). */
export function imageNodeBinary(): string {
  return join(execFileSync(join(__dirname, '../../scripts/image-node.sh'), { encoding: 'utf8' }).trim(), 'bin/node');
}

/** Node's own trace of its compile cache (`NODE_DEBUG_NATIVE=COMPILE_CACHE`, on stderr): the CommonJS modules it read from the cache, and those it compiled. */
export function compileCacheVerdicts(trace: string): { accepted: string[]; compiled: string[] } {
  const verdicts = { accepted: [] as string[], compiled: [] as string[] };
  for (const [, file, verdict] of trace.matchAll(/V8 code cache for CommonJS (\S+) (was accepted|was not initialized|was rejected)/g)) {
    (verdict === 'was accepted' ? verdicts.accepted : verdicts.compiled).push(file as string);
  }
  return verdicts;
}
