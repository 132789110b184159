import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder holding package.json, found from here whether we run from src/ or dist/. */
function findProjectRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findProjectRoot(__dirname);

export const SPEC_PATHS = {
  public: join(PROJECT_ROOT, 'openapi', 'openapi.yaml'),
  admin: join(PROJECT_ROOT, 'openapi', 'admin.yaml'),
} as const;
