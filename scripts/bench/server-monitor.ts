/**
 * Watches a server's process tree from outside: peak resident memory (sampled every
 * 200 ms for the whole life of the server) and the CPU it uses during a window.
 */
import { cpuSeconds, processTree, statusBytes } from './proc-stats';

export interface CpuWindow {
  /** CPU seconds the tree used since the window opened. */
  close(): number;
}

/** Opens a window on the CPU used by `rootPid` and its descendants (those alive when it closes). */
export function openCpuWindow(rootPid: number): CpuWindow {
  const before = cpuSeconds(processTree(rootPid));
  return {
    close: () => {
      const after = cpuSeconds(processTree(rootPid));
      let used = 0;
      for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
      return used;
    },
  };
}

export class ServerMonitor {
  /** Highest VmHWM seen per process: a process's own peak, kept after it exits. */
  private readonly peakPerProcess = new Map<number, number>();
  private peakRssSum = 0;
  private mostProcesses = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly rootPid: number, intervalMs = 200) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /**
   * Peak resident memory of the server in bytes: the sum over its processes of each
   * one's VmHWM. Exact for one process; for a cluster an upper bound (the workers'
   * peaks may not coincide), never below the highest sampled sum of VmRSS.
   */
  peakBytes(): number {
    this.sample();
    const sumOfPeaks = [...this.peakPerProcess.values()].reduce((a, b) => a + b, 0);
    return Math.max(sumOfPeaks, this.peakRssSum);
  }

  /** The most processes (primary + workers) seen at once. */
  processCount(): number {
    return this.mostProcesses;
  }

  openCpuWindow(): CpuWindow {
    return openCpuWindow(this.rootPid);
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }

  private sample(): void {
    const pids = processTree(this.rootPid);
    if (pids.length === 0) return;
    this.mostProcesses = Math.max(this.mostProcesses, pids.length);
    let rssSum = 0;
    for (const pid of pids) {
      rssSum += statusBytes(pid, 'VmRSS') ?? 0;
      const hwm = statusBytes(pid, 'VmHWM') ?? 0;
      this.peakPerProcess.set(pid, Math.max(this.peakPerProcess.get(pid) ?? 0, hwm));
    }
    this.peakRssSum = Math.max(this.peakRssSum, rssSum);
  }
}
