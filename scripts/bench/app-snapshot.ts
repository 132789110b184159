/**
 * Private copies for one bench run, so that a rebuild during the run (minutes) does not
 * change the code under measurement: the service under test (package.json, openapi/ and
 * dist/ of its checkout, node_modules linked) and the harness itself (dist/scripts/bench
 * and the fake upstream it imports, the chart's values.yaml for its Node options,
 * node_modules linked). The service may be another
 * checkout's (`--app DIR`, e.g. a base commit's worktree), measured by this harness.
 */
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export function snapshotApp(appRoot: string, workDir: string): string {
  return snapshot(appRoot, join(workDir, 'app'), ['package.json', 'openapi', 'dist']);
}

export function snapshotHarness(benchRoot: string, workDir: string): string {
  return snapshot(benchRoot, join(workDir, 'bench'), ['dist/scripts/bench', 'dist/test/support', 'deploy/helm/profile-prediction-service/values.yaml']);
}

function snapshot(root: string, copy: string, entries: string[]): string {
  mkdirSync(copy, { recursive: true });
  for (const entry of entries) {
    if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing in ${root}: build it first`);
    cpSync(join(root, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}
