/**
 * Starts the processes the bench measures or needs (the service, the bare baseline, the
 * fake upstream, the load generators, the model server) as children with an explicit environment, their
 * output in a log file, and stops them by their own pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { processTree } from './proc-stats';

export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  logFile: string;
  /** Where this child's output starts in `logFile` (a log file may hold earlier children's). */
  logStart: number;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL to whatever of its tree is left after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Only what a Node process needs from the bench's own environment; the rest is explicit. */
export function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'];
  return Object.fromEntries(keep.flatMap((name) => (process.env[name] ? [[name, process.env[name] as string]] : [])));
}

/** Every child still running, so that a failed or interrupted bench can stop them all. */
const running = new Set<Child>();

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop(2_000)));
}

/** Runs `node args…` (or `command args…`) with only `env` on top of the base environment. */
export function startChild(options: { name: string; command?: string; args: string[]; env: Record<string, string>; logFile: string; cwd: string }): Child {
  const log = openSync(options.logFile, 'a');
  const logStart = fstatSync(log).size;
  const child = spawn(options.command ?? process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...baseEnv(), ...options.env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`${options.name}: could not start`);
  const pid = child.pid;
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  let alive = true;
  void exited.then(() => (alive = false));
  const handle: Child = {
    name: options.name,
    pid,
    process: child,
    logFile: options.logFile,
    logStart,
    exited,
    stop: async (graceMs = 15_000) => {
      const tree = processTree(pid);
      if (alive) child.kill('SIGTERM');
      const timer = setTimeout(() => {
        for (const each of tree) killQuietly(each);
      }, graceMs);
      await exited;
      clearTimeout(timer);
      running.delete(handle);
    },
  };
  running.add(handle);
  return handle;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** What `child` has written to its log file so far. */
function ownLog(child: Child): string {
  return readFileSync(child.logFile).subarray(child.logStart).toString('utf8');
}

/** The last lines of a child's log, for an error message. */
export function logTail(child: Child, lines = 20): string {
  try {
    return ownLog(child).trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Resolves once something accepts TCP connections on 127.0.0.1:`port`; rejects if `child` exits first or after `timeoutMs`. */
export async function waitForPort(child: Child, port: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${child.name} exited before listening on ${port}:\n${logTail(child)}`);
    if (await accepts(port)) return;
    await sleep(20);
  }
  throw new Error(`${child.name} did not listen on ${port} within ${timeoutMs} ms:\n${logTail(child)}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for the JSON line holding `key` that a child prints to its log. */
export async function announced<T>(child: Child, key: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = ownLog(child).split('\n').find((l) => l.includes(`"${key}"`));
    if (line) return JSON.parse(line) as T;
    await sleep(20);
  }
  throw new Error(`${child.name} did not announce ${key}:\n${logTail(child)}`);
}
