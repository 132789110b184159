/**
 * The bench's memory row runs the service in the chart's memory limit, as a pod does
 * (scripts/bench/pod-memory-limit.ts): a real memory cgroup, and Node inside it sizing its
 * heap from the limit. This machine (and CI, the same kind) can make one: root, cgroups.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chartNodeOptions, confined, createMemoryLimit, POD_MEMORY_LIMIT_BYTES } from '../../../scripts/bench/pod-memory-limit';

describe('the pod memory limit of the bench', () => {
  test("when a process is started in it, then Node sees the chart's limit and sizes its heap below it; removed, the cgroup is gone", () => {
    const limit = createMemoryLimit(POD_MEMORY_LIMIT_BYTES, `pps-test-${process.pid}`);
    if ('unconfined' in limit) throw new Error(`no memory cgroup could be made here: ${limit.unconfined}`);
    try {
      const probe = "process.stdout.write(JSON.stringify([process.constrainedMemory(), require('node:v8').getHeapStatistics().heap_size_limit]))";
      const { command, args } = confined(limit, ['-e', probe]);
      const [constrained, heapLimit] = JSON.parse(execFileSync(command, args, { encoding: 'utf8' })) as [number, number];

      expect(constrained).toBe(POD_MEMORY_LIMIT_BYTES);
      expect(heapLimit).toBeLessThan(POD_MEMORY_LIMIT_BYTES);
    } finally {
      limit.remove();
    }
    expect(existsSync(limit.procsFile)).toBe(false);
  });

  test("when the chart's Node options are read, then they take effect in the limit: a heap larger than Node's own sizing (its young generation 1 MiB a semi-space), still below the limit", () => {
    const options = chartNodeOptions(process.cwd());
    const probe = "process.stdout.write(String(require('node:v8').getHeapStatistics().heap_size_limit))";
    const limit = createMemoryLimit(POD_MEMORY_LIMIT_BYTES, `pps-test-options-${process.pid}`);
    if ('unconfined' in limit) throw new Error(`no memory cgroup could be made here: ${limit.unconfined}`);
    try {
      const { command, args } = confined(limit, ['-e', probe]);
      const heapLimit = (nodeOptions: string): number => Number(execFileSync(command, args, { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: nodeOptions } }));

      expect(options).toMatch(/^--max-old-space-size=\d+ --max-semi-space-size=\d+$/);
      expect(heapLimit(options)).toBeGreaterThan(heapLimit(''));
      expect(heapLimit(options)).toBeLessThan(POD_MEMORY_LIMIT_BYTES);
    } finally {
      limit.remove();
    }
  });
});
