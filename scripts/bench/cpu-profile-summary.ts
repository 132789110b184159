/**
 * Where a server spent its CPU: a `node --cpu-prof` profile (.cpuprofile) summed by self
 * time, per function and per package (node_modules/<package>, the service's own src/,
 * Node's internals, garbage collection). `make bench` with `--cpu-prof` prints it.
 *   node dist/scripts/bench/cpu-profile-summary.js <file.cpuprofile> [top]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

export interface SelfTime {
  name: string;
  share: number;
}

function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const nodeModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nodeModules) return nodeModules[1] as string;
  if (url.startsWith('node:')) return 'node:internal';
  const own = /\/dist\/(src\/.*)$/.exec(url);
  return own ? (own[1] as string) : url;
}

/** Self time shares (0–1 of all samples) per function and per package, highest first. */
export function summariseProfile(profile: CpuProfile): { functions: SelfTime[]; packages: SelfTime[] } {
  const total = profile.samples.length || 1;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  for (const node of profile.nodes) {
    const count = hits.get(node.id) ?? 0;
    if (count === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = packageOf(url, functionName);
    const name = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + count);
    byPackage.set(where, (byPackage.get(where) ?? 0) + count);
  }
  const ranked = (map: Map<string, number>) => [...map].map(([name, n]) => ({ name, share: n / total })).sort((a, b) => b.share - a.share);
  return { functions: ranked(byFunction), packages: ranked(byPackage) };
}

export function renderProfileSummary(file: string, top = 25): string {
  const { functions, packages } = summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const lines = (rows: SelfTime[]) => rows.slice(0, top).map((r) => `  ${(r.share * 100).toFixed(1).padStart(5)}%  ${r.name}`);
  return [`CPU profile ${file}`, 'self time by package:', ...lines(packages), 'self time by function:', ...lines(functions)].join('\n');
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: cpu-profile-summary.js <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  process.stdout.write(`${renderProfileSummary(file, Number(top ?? 25))}\n`);
}
