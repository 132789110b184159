/** The machine and code a bench run measured, for the record. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { loadAverage } from './proc-stats';

export interface Machine {
  date: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  /** The commit measured, and whether the working tree differed from it. */
  commit: string;
  /** 1-minute load average when the run began: above ~0.5, something else was busy. */
  loadAverageAtStart: number;
}

export function describeMachine(appRoot: string): Machine {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpus: availableParallelism(),
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    commit: commitOf(appRoot),
    loadAverageAtStart: loadAverage(),
  };
}

function commitOf(root: string): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const head = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'src', 'openapi', 'package.json') !== '';
    return dirty ? `${head} with uncommitted changes in src/, openapi/ or package.json` : head;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
