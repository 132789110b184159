/**
 * The embedded database's first start without PGlite's initdb (several seconds of
 * WebAssembly): `npm run build` creates a migrated PGlite data directory once
 * (src/cli/build-pglite-template.ts), and a start whose DATA_DIR is missing or empty
 * copies it there. The migrations still run at every start, so a template older than the
 * code only costs their time; without a template, PGlite creates the database itself.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../support/project-root';
import { migrationSource } from './migrations';

export const TEMPLATE_DIR = join(PROJECT_ROOT, 'dist', 'pglite-template');
/** Written last by the builder: a template without it is incomplete and never copied. */
export const TEMPLATE_STAMP = join(TEMPLATE_DIR, 'template.json');

interface Stamp {
  /** The PGlite version that wrote it: its files are that version's. */
  pglite: string;
  migrations: string[];
}

/** The installed PGlite's version (its package.json is not exported: found beside its entry point, dist/index.cjs). */
function installedPglite(): string {
  const packageJson = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

/** What a template is made by and for: this PGlite version and these migrations. */
export async function templateStamp(): Promise<string> {
  const stamp: Stamp = { pglite: installedPglite(), migrations: await migrationSource.getMigrations([]) };
  return JSON.stringify(stamp);
}

/**
 * Makes `dataDir` exist; when it was missing or empty and a complete template written by
 * the installed PGlite is there, fills it from the template. Returns whether it did.
 */
export function seedDataDir(dataDir: string): boolean {
  const empty = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  mkdirSync(dataDir, { recursive: true });
  if (!empty || !existsSync(TEMPLATE_STAMP)) return false;
  const stamp = JSON.parse(readFileSync(TEMPLATE_STAMP, 'utf8')) as Stamp;
  if (stamp.pglite !== installedPglite()) return false;
  cpSync(TEMPLATE_DIR, dataDir, { recursive: true, filter: (source) => source !== TEMPLATE_STAMP });
  return true;
}

/** Whether the template holds exactly this code's migrations: a copy of it has nothing left to migrate. */
export async function templateIsCurrent(): Promise<boolean> {
  return existsSync(TEMPLATE_STAMP) && readFileSync(TEMPLATE_STAMP, 'utf8') === (await templateStamp());
}
