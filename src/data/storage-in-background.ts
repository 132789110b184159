/**
 * A lone process gets its storage ready on a worker thread while its main thread loads
 * the rest of the code (about half a second of synchronous `require`s, during which
 * the main thread could not take a database conversation a step further):
 * - PostgreSQL: the migrations run there, on a connection of their own;
 * - embedded: the migrated template is copied into an empty DATA_DIR
 *   (pglite-template.ts: some 40 MB and a thousand files, a third of a second of disk
 *   writes). PGlite itself starts on the main thread, which owns it.
 *
 * Resolves to true when nothing is left to migrate: PostgreSQL migrated, or DATA_DIR a
 * fresh copy of a template that has every migration of this code.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export interface StorageTarget {
  databaseUrl: string | undefined;
  dataDir: string;
}

export function prepareStorageInBackground(target: StorageTarget): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'storage-worker.js'), { workerData: target });
    let migrated = false;
    worker.once('message', (message: boolean) => (migrated = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve(migrated) : reject(new Error(`preparing the storage failed (worker exit ${code})`))));
  });
}
