/**
 * `input.replace(pattern, replacement)`, run in a worker thread, so that jest's timeout can
 * fail a test whose pattern takes too long: synchronous code on jest's own thread cannot
 * be timed out (it runs to its end and passes). The worker does not hold the process.
 */
import { Worker } from 'node:worker_threads';

const REPLACE = `
const { parentPort, workerData: { source, flags, input, replacement } } = require('node:worker_threads');
parentPort.postMessage(input.replace(new RegExp(source, flags), replacement));
`;

export function replacedInWorker(pattern: RegExp, input: string, replacement: string): Promise<string> {
  const worker = new Worker(REPLACE, { eval: true, workerData: { source: pattern.source, flags: pattern.flags, input, replacement } });
  worker.unref();
  return new Promise((resolve, reject) => {
    worker.once('message', (replaced: string) => {
      resolve(replaced);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
