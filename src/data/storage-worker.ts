/** The worker thread of storage-in-background.ts: migrates PostgreSQL or seeds DATA_DIR, then says whether all is migrated. */
import { parentPort, workerData } from 'node:worker_threads';
import { createDatabase, migrateToLatest } from './database';
import { seedDataDir, templateIsCurrent } from './pglite-template';
import type { StorageTarget } from './storage-in-background';

async function prepare({ databaseUrl, dataDir }: StorageTarget): Promise<boolean> {
  if (!databaseUrl) return seedDataDir(dataDir) && (await templateIsCurrent());
  const db = createDatabase({ databaseUrl, dataDir, poolMax: 1 });
  try {
    await migrateToLatest(db);
    return true;
  } finally {
    await db.destroy();
  }
}

prepare(workerData as StorageTarget).then((migrated) => parentPort?.postMessage(migrated));
