/**
 * One knex instance: PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise.
 * The same migrations run on both.
 *
 * PGlite has a single connection: inside a transaction, every query must go through
 * `trx`, never `knex`, or it waits for itself forever.
 */
import { knex, type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { migrationSource } from './migrations';
import { seedDataDir } from './pglite-template';

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax: number;
  /** Where knex's own warnings go (it writes them to the console otherwise). */
  log?: { warn(message: string): void };
}

export function createDatabase(options: DatabaseOptions): Knex {
  const warn = (message: unknown) => options.log?.warn(String(message));
  const log = { warn, error: warn, deprecate: warn, debug: () => undefined };
  if (options.databaseUrl) {
    return knex({
      client: 'pg',
      connection: { connectionString: options.databaseUrl, connectionTimeoutMillis: 2000 },
      pool: { min: 0, max: options.poolMax },
      acquireConnectionTimeout: 5000,
      log,
    });
  }
  seedDataDir(options.dataDir);
  return knex({ client: ClientPgLite, dialect: 'postgres', connection: { filename: options.dataDir }, log });
}

export async function migrateToLatest(db: Knex): Promise<void> {
  await db.migrate.latest({ migrationSource });
}

/** int8 comes back as a string from pg and as a number or BigInt from PGlite. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}
