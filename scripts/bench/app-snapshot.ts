/**
 * A private copy of the built service for one bench run: package.json, openapi/ and
 * dist/ copied into the run's scratch folder, node_modules linked. Other people may
 * rebuild dist/ or edit the spec while the bench runs (minutes); every server of the
 * run starts from this copy, so they all measure the code built when the run began.
 */
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export function snapshotApp(root: string, workDir: string): string {
  const app = join(workDir, 'app');
  mkdirSync(app, { recursive: true });
  for (const entry of ['package.json', 'openapi', 'dist']) {
    if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing in ${root}`);
    cpSync(join(root, entry), join(app, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(app, 'node_modules'), 'dir');
  return app;
}
