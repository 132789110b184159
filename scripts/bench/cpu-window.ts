/** The CPU a process tree uses during a window, read from /proc before and after. */
import { cpuSeconds, processTree } from './proc-stats';

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
