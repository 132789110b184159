/**
 * Part of `npm run build`: creates dist/pglite-template, an embedded (PGlite) database
 * with every migration applied, which a first start copies into an empty DATA_DIR
 * (src/data/pglite-template.ts). Skipped when the template already matches this PGlite
 * version and these migrations.
 *   node dist/src/cli/build-pglite-template.js
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createDatabase, migrateToLatest } from '../data/database';
import { TEMPLATE_DIR, templateIsCurrent, templateStamp } from '../data/pglite-template';

async function main(): Promise<void> {
  if (await templateIsCurrent()) return;
  const stamp = await templateStamp();
  const building = mkdtempSync(join(dirname(TEMPLATE_DIR), 'pglite-template-'));
  try {
    const db = await createDatabase({ databaseUrl: undefined, dataDir: building, poolMax: 1 });
    await migrateToLatest(db);
    await db.destroy();
    writeFileSync(join(building, 'template.json'), stamp);
    rmSync(TEMPLATE_DIR, { recursive: true, force: true });
    renameSync(building, TEMPLATE_DIR);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`build-pglite-template: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
