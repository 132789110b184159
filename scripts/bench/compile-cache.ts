/**
 * The compile cache the image ships (Containerfile, src/cli/prime-compile-cache.ts), made
 * for the run's copy of the service the way the image makes it, so that every service the
 * bench starts loads its modules as a pod does. A service measured with `--app` that has
 * no such command (an older checkout) runs without one, as its image did.
 *
 * Each start gets a fresh copy, removed when it exits: a pod's cache is read-only, while
 * here (as root) a start would add what it compiled at its exit and flatter the next one.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { baseEnv } from './child-process';

/** Primes `<workDir>/compile-cache` for `app` and returns it; undefined when `app` has no prime command or this Node no compile cache (before 22.1; the services run on this Node). */
export function primeCompileCache(app: string, workDir: string): string | undefined {
  const command = join(app, 'dist/src/cli/prime-compile-cache.js');
  if (!existsSync(command) || !('getCompileCacheDir' in nodeModule)) return undefined;
  const dir = join(workDir, 'compile-cache');
  execFileSync(process.execPath, [command], { cwd: app, env: { ...baseEnv(), NODE_COMPILE_CACHE: dir }, stdio: 'ignore' });
  return dir;
}

let copies = 0;

/** One start's environment for the primed cache (none without one), and how to discard its copy once the start has exited. */
export function freshCompileCache(primed: string | undefined): { env: Record<string, string>; discard: () => void } {
  if (primed === undefined) return { env: {}, discard: () => undefined };
  const copy = `${primed}-${process.pid}-${++copies}`;
  cpSync(primed, copy, { recursive: true });
  return { env: { NODE_COMPILE_CACHE: copy }, discard: () => rmSync(copy, { recursive: true, force: true }) };
}
