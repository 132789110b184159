/**
 * The compile cache the image ships (src/cli/prime-compile-cache.ts, run by the
 * Containerfile): primed, it holds every module a start loads, so that a process loading
 * the server compiles none of the service's modules or its dependencies; without a cache
 * enabled the command fails rather than prime nothing. On the Node the image runs
 * (scripts/image-node.sh): the cache needs Node 22.1 or later. `make integration` builds
 * first.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { compileCacheVerdicts, imageNodeBinary } from '../support/image-node';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const PRIME = join(ROOT, 'dist/src/cli/prime-compile-cache.js');
const IMAGE_NODE = imageNodeBinary();

let cacheDir: string;

beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'pps-compile-cache-'));
});

afterAll(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

/** Runs `node args` on the image's Node with `env` only (and PATH). */
function imageNode(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(IMAGE_NODE, args, { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', ...env }, maxBuffer: 64 * 1024 * 1024 });
}

test("when the cache is primed, then it is this user id's, and a process loading the server and what it loads on first use compiles none of their modules", async () => {
  const primed = await imageNode([PRIME], { NODE_COMPILE_CACHE: cacheDir });
  expect(primed.stdout).toMatch(/^prime-compile-cache: \d+ modules of the service, \d+ dependencies and \d+ loaded on first use, compiled into /);
  expect(primed.stderr).toBe('');
  // Node keeps one cache per user id: the image primes it as the user it runs as.
  expect(readdirSync(cacheDir)).toEqual([expect.stringMatching(new RegExp(`-${process.getuid?.() ?? 0}$`))]);

  const load = `require(${JSON.stringify(join(ROOT, 'dist/src/app/server.js'))}); require('tinyld/light'); require('@redis/client')`;
  const loaded = await imageNode(['-e', load], { NODE_COMPILE_CACHE: cacheDir, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
  const { accepted, compiled } = compileCacheVerdicts(loaded.stderr);
  expect(accepted).toContain(join(ROOT, 'dist/src/app/server.js'));
  // Each with the trace's lines about it, which a failure prints (one run in CI once found tinyld not accepted).
  const readFromCache = (dependency: string) => ({
    dependency,
    accepted: accepted.some((file) => file.includes(`/node_modules/${dependency}/`)),
    trace: loaded.stderr.split('\n').filter((line) => line.includes(`/node_modules/${dependency}/`)),
  });
  for (const dependency of ['tinyld', '@redis/client']) expect(readFromCache(dependency)).toEqual({ dependency, accepted: true, trace: expect.any(Array) });
  // Only Node's own [eval] wrapper is compiled.
  expect(compiled.filter((file) => file.startsWith('/'))).toEqual([]);
});

test('when no cache is enabled, then the command fails with its reason and primes nothing', async () => {
  const failed = await imageNode([PRIME], {}).then(
    () => undefined,
    (err: unknown) => err as { code: number; stdout: string; stderr: string },
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stdout).toBe('');
  expect(failed?.stderr).toContain('prime-compile-cache: the compile cache is not enabled');
});
