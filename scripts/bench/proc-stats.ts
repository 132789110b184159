/**
 * What the bench reads from Linux's /proc about the processes it measures: their process
 * trees (PostgreSQL's postmaster and its backends), resident memory and CPU time.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

interface StatFields {
  ppid: number;
  cpuSeconds: number;
}

function readStat(pid: number): StatFields | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: split after the last ')'.
    const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    return { ppid, cpuSeconds: ticks / CLOCK_TICKS_PER_SECOND };
  } catch {
    return undefined; // the process has gone
  }
}

/** `rootPid` and all its descendants that are alive now. */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat) continue;
    const siblings = children.get(stat.ppid) ?? [];
    siblings.push(Number(entry));
    children.set(stat.ppid, siblings);
  }
  const tree: number[] = [];
  const queue = readStat(rootPid) ? [rootPid] : [];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** A `kB` field of /proc/<pid>/status (VmRSS, VmHWM), in bytes; undefined once the process has gone. */
export function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds used so far by each of `pids` (gone processes count 0). */
export function cpuSeconds(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, readStat(pid)?.cpuSeconds ?? 0]));
}

/** CPU seconds the whole machine has spent busy (all cores, every process) since boot. */
export function machineBusySeconds(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND;
}

/** The 1-minute load average, to record how busy the machine was before a run. */
export function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

/** The process that owns the IPv4 listening socket on 127.0.0.1:`port` (or any address), if it is visible here. */
export function listenerPid(port: number): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inode = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${hexPort}`))?.[9];
  if (!inode) return undefined;
  const target = `socket:[${inode}]`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        if (readlinkSync(`/proc/${entry}/fd/${fd}`) === target) return Number(entry);
      }
    } catch {
      // gone, or not ours to look into
    }
  }
  return undefined;
}
