/**
 * The embedded database's first start copies the migrated template into DATA_DIR
 * (pglite-template.ts): some 40 MB and a thousand files, a third of a second of disk
 * writes. On a worker thread, that copy overlaps with the loading of the rest of the
 * code, which takes about as long on the main thread.
 *
 * Resolves to true when DATA_DIR now holds a fresh copy of a template with every
 * migration of this code: there is nothing to migrate.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export function seedDataDirInBackground(dataDir: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'seed-worker.js'), { workerData: { dataDir } });
    let upToDate = false;
    worker.once('message', (message: boolean) => (upToDate = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve(upToDate) : reject(new Error(`seeding ${dataDir} failed (worker exit ${code})`))));
  });
}
