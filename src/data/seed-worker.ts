/** The worker thread of seed-in-background.ts: seeds DATA_DIR, then says whether it is up to date. */
import { parentPort, workerData } from 'node:worker_threads';
import { seedDataDir, templateIsCurrent } from './pglite-template';

async function seed(): Promise<void> {
  const { dataDir } = workerData as { dataDir: string };
  const seeded = seedDataDir(dataDir);
  parentPort?.postMessage(seeded && (await templateIsCurrent()));
}

void seed();
