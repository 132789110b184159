/**
 * Containers of the built image for the image smoke test (test/image): podman with runc on
 * the storage `make image` builds into (scripts/image/podman.sh). Containers share the
 * host's network, so they reach the test PostgreSQL, Redis and fake upstream on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const PODMAN = join(__dirname, '../../scripts/image/podman.sh');
const IMAGE_ENV = join(__dirname, '../../dist/image/image.env');

/** This machine refuses podman's default ulimits (and ones equal to the host's) with EPERM. */
const ULIMITS = ['--ulimit', 'nofile=16384:16384', '--ulimit', 'nproc=4096:4096'];

export interface PodmanResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs podman; resolves with its exit code and output whatever the code. */
export async function podman(args: string[]): Promise<PodmanResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(PODMAN, args, { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? String(err) };
  }
}

/** Runs podman and returns its standard output; throws with its error output on a non-zero exit. */
export async function podmanOk(args: string[]): Promise<string> {
  const result = await podman(args);
  if (result.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${result.code}:\n${result.stderr}`);
  return result.stdout;
}

/** The image `make image` built last (dist/image/image.env), or IMAGE from the environment. */
export function imageUnderTest(): string {
  const fromEnv = process.env['IMAGE'];
  if (fromEnv) return fromEnv;
  const line = readFileSync(IMAGE_ENV, 'utf8').split('\n').find((l) => l.startsWith('IMAGE='));
  if (!line) throw new Error(`no IMAGE= line in ${IMAGE_ENV}: run make image`);
  return line.slice('IMAGE='.length).trim();
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export interface ContainerOptions {
  name: string;
  env: Record<string, string>;
  /** `volume:/path` pairs. */
  volumes?: string[];
}

/**
 * Starts a detached container the way the chart runs the pod: read-only root filesystem,
 * /tmp a tmpfs, no capabilities, no privilege escalation. Returns its name.
 */
export async function runContainer(image: string, options: ContainerOptions): Promise<string> {
  const env = Object.entries(options.env).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  const volumes = (options.volumes ?? []).flatMap((volume) => ['--volume', volume]);
  await podmanOk([
    'run', '--detach', '--name', options.name, '--network', 'host', ...ULIMITS,
    '--read-only', '--tmpfs', '/tmp:rw,size=64m', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges',
    ...env, ...volumes, image,
  ]);
  return options.name;
}

/** The container's state as podman reports it once it has stopped. */
export async function exitOf(name: string): Promise<{ exitCode: number; oomKilled: boolean }> {
  const [exitCode, oomKilled] = (await podmanOk(['inspect', '--format', '{{.State.ExitCode}} {{.State.OOMKilled}}', name])).trim().split(' ');
  return { exitCode: Number(exitCode), oomKilled: oomKilled === 'true' };
}

export async function logsOf(name: string): Promise<string> {
  const result = await podman(['logs', name]);
  return result.stdout + result.stderr;
}

/** Removes containers and volumes, ignoring the ones already gone. */
export async function removeAll(containers: string[], volumes: string[]): Promise<void> {
  if (containers.length > 0) await podman(['rm', '--force', '--ignore', '--time', '0', ...containers]);
  for (const volume of volumes) await podman(['volume', 'rm', '--force', volume]);
}
