/**
 * The chart's memory limit around one process, as a pod has it: a memory cgroup of its
 * own (v1 or v2, a child of the bench's) with the limit set, and the chart's Node options
 * (NODE_OPTIONS, which size Node's heap for that limit: docs/deploy.md). The kernel ends
 * the process if it goes past the limit, as it would the pod's. Creating the cgroup needs
 * write access to the cgroup file system (root here); without it the row runs unconfined
 * and says so.
 */
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { MiB } from './figures';

/** The chart's memory limit for one pod (deploy/helm/profile-prediction-service/values.yaml). */
export const POD_MEMORY_LIMIT_BYTES = 512 * MiB;

export interface MemoryLimit {
  /** The cgroup's `cgroup.procs`: a process that writes its pid here is confined. */
  procsFile: string;
  limitBytes: number;
  remove: () => void;
}

/** The chart's default `config.nodeOptions` (NODE_OPTIONS: Node's heap sized for its memory limit, docs/deploy.md). */
export function chartNodeOptions(root: string): string {
  const values = parse(readFileSync(join(root, 'deploy/helm/profile-prediction-service/values.yaml'), 'utf8')) as { config?: { nodeOptions?: unknown } };
  const options = values.config?.nodeOptions;
  if (typeof options !== 'string') throw new Error("the chart's values.yaml has no config.nodeOptions");
  return options;
}

/** A new memory cgroup limited to `limitBytes`, or the reason there is none. */
export function createMemoryLimit(limitBytes: number, name: string): MemoryLimit | { unconfined: string } {
  const candidates = ownCgroupDirs();
  const failures: string[] = [];
  for (const { dir, limitFile } of candidates) {
    const cgroup = join(dir, name);
    try {
      mkdirSync(cgroup);
      writeFileSync(join(cgroup, limitFile), String(limitBytes));
      return { procsFile: join(cgroup, 'cgroup.procs'), limitBytes, remove: () => rmdirSync(cgroup) };
    } catch (error) {
      failures.push(`${cgroup}: ${(error as Error).message}`);
      try {
        rmdirSync(cgroup);
      } catch {
        // It was never made.
      }
    }
  }
  return { unconfined: failures.length === 0 ? 'no memory cgroup found in /proc/self/cgroup' : failures.join('; ') };
}

/** This process's memory cgroup directories: v1's memory hierarchy, then v2's unified one. */
function ownCgroupDirs(): { dir: string; limitFile: string }[] {
  const dirs: { dir: string; limitFile: string }[] = [];
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [id, controllers, path] = line.split(':');
    if (path === undefined) continue;
    if (controllers?.split(',').includes('memory')) dirs.push({ dir: join('/sys/fs/cgroup/memory', path), limitFile: 'memory.limit_in_bytes' });
    if (id === '0' && controllers === '') dirs.push({ dir: join('/sys/fs/cgroup', path), limitFile: 'memory.max' });
  }
  return dirs;
}

/** The command that starts `args` under Node inside the cgroup: a shell joins it, then becomes Node (same pid). */
export function confined(limit: MemoryLimit, args: string[]): { command: string; args: string[] } {
  return { command: '/bin/sh', args: ['-c', 'echo $$ > "$0" && exec "$@"', limit.procsFile, process.execPath, ...args] };
}
