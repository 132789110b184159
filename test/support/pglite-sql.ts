/**
 * SQL on a PGlite data directory from a test: PGlite cannot load inside Jest's module
 * sandbox, so a child `node` opens the directory with the built service's own
 * `createDatabase` (`make integration` builds first), runs the statements in order and
 * prints each one's rows. The service using that directory must be stopped: PGlite
 * belongs to one process.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const DATABASE_MODULE = join(__dirname, '../../dist/src/data/database.js');

const SCRIPT = `
const { createDatabase } = require(process.argv[1]);
(async () => {
  const db = await createDatabase({ databaseUrl: undefined, dataDir: process.argv[2], poolMax: 1 });
  const out = [];
  try {
    for (const sql of JSON.parse(process.argv[3])) out.push((await db.raw(sql)).rows);
  } finally {
    await db.destroy();
  }
  process.stdout.write(JSON.stringify(out));
})().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
`;

/** Each statement's rows, in order. */
export async function pgliteSql(dataDir: string, statements: readonly string[]): Promise<Record<string, unknown>[][]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', SCRIPT, DATABASE_MODULE, dataDir, JSON.stringify(statements)], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as Record<string, unknown>[][];
}
