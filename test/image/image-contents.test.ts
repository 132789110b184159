/**
 * What the built image (make image) holds and how its archive loads, as docs/deploy.md
 * says: Node at the version .nvmrc names, with its LICENSE; a source label without
 * credentials; `podman load -i dist/image/*.oci.tar` naming the image as
 * dist/image/image.env (the PPS_IMAGE of compose) does; and the service's modules read
 * from the compile cache made at build, on a read-only root filesystem.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { compileCacheVerdicts } from '../support/image-node';
import { imageUnderTest, podman, podmanOk } from '../support/podman';

const ROOT = join(__dirname, '..', '..');
const image = imageUnderTest();
const NODE_VERSION = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim();

/**
 * A container's first start, and a load into fresh storage, copy the image's layers (vfs
 * storage): on a busy 2-core machine that alone took over a minute (a fresh clone's make
 * test beside other work).
 */
const CONTAINER_BOUND_MS = 300_000;

const CONTAINER = ['run', '--rm', '--network', 'none', '--cap-drop', 'ALL', '--ulimit', 'nofile=16384:16384', '--ulimit', 'nproc=4096:4096'];

/** Runs a command in a throw-away container of the image (no network, no capabilities). */
async function inImage(command: string[]): Promise<string> {
  return podmanOk([...CONTAINER, image, ...command]);
}

describe('the image contents', () => {
  test(
    'Node is the version .nvmrc names (the current LTS line), with its LICENSE',
    async () => {
      // One container for both facts: Node reads its own LICENSE.
      const printed = await inImage(['node', '-e', "process.stdout.write(process.version + '\\n' + require('node:fs').readFileSync('/usr/local/share/doc/node/LICENSE', 'utf8'))"]);
      const [version, ...licence] = printed.split('\n');
      expect(version).toBe(`v${NODE_VERSION}`);
      expect(licence.join('\n')).toContain('Node.js is licensed for use as follows');
    },
    CONTAINER_BOUND_MS,
  );

  test(
    "the service's modules and its dependencies are read from the compile cache made at build, on a read-only root filesystem, as the image's user",
    async () => {
      // The modules a start loads: the server and everything it imports.
      const run = await podman([...CONTAINER, '--read-only', '--env', 'NODE_DEBUG_NATIVE=COMPILE_CACHE', image, 'node', '-e', "require('/app/dist/src/app/server.js')"]);
      expect(run.code).toBe(0);
      const { accepted, compiled } = compileCacheVerdicts(run.stderr);
      expect(accepted).toContain('/app/dist/src/app/server.js');
      expect(accepted.filter((file) => file.startsWith('/app/node_modules/express/')).length).toBeGreaterThan(0);
      expect(accepted.filter((file) => file.startsWith('/app/')).length).toBeGreaterThan(100);
      // Everything but Node's [eval] itself came from the cache.
      expect(compiled.filter((file) => file.startsWith('/app/'))).toEqual([]);
    },
    CONTAINER_BOUND_MS,
  );

  test('the source label carries no credentials', async () => {
    const source = (await podmanOk(['image', 'inspect', '--format', '{{index .Labels "org.opencontainers.image.source"}}', image])).trim();
    expect(source).not.toMatch(/\/\/[^/]*@/);
  });

  test('podman load of the archive names the image as image.env does', async () => {
    const archive = readdirSync(join(ROOT, 'dist/image')).find((file) => file.endsWith('.oci.tar'));
    expect(archive).toBeDefined();
    const storage = mkdtempSync(join(tmpdir(), 'pps-load-'));
    try {
      const env = { ...process.env, PPS_IMAGE_CACHE: storage };
      const podman = join(ROOT, 'scripts/image/podman.sh');
      const { stdout } = await promisify(execFile)(podman, ['load', '-i', join(ROOT, 'dist/image', archive as string)], { env, maxBuffer: 16 * 1024 * 1024 });
      expect(stdout).toContain(image);
      await promisify(execFile)(podman, ['image', 'exists', image], { env });
    } finally {
      rmSync(storage, { recursive: true, force: true });
    }
  }, CONTAINER_BOUND_MS);
});
