/**
 * One knex instance: PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise.
 * The same migrations run on both.
 *
 * A failed query's error message carries its SQL with placeholders, never its bound
 * values (`compileSqlOnError: false`): those are the request's text (name, notes, draft).
 *
 * PGlite has a single connection: inside a transaction, every query must go through
 * `trx`, never `knex`, or it waits for itself forever. It is loaded only when it is used:
 * on PostgreSQL, loading it was a tenth of a start's module loading.
 */
import { createHash } from 'node:crypto';
import { knex, type Knex } from 'knex';
import { Client } from 'pg';
import { migrationSource } from './migrations';
import { seedDataDir } from './pglite-template';

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax: number;
  /** Where knex's own warnings go (it writes them to the console otherwise). */
  log?: { warn(message: string): void };
}

export async function createDatabase(options: DatabaseOptions): Promise<Knex> {
  const warn = (message: unknown) => options.log?.warn(String(message));
  const log = { warn, error: warn, deprecate: warn, debug: () => undefined };
  if (options.databaseUrl) {
    return knex({
      client: 'pg',
      // TCP keepalive finds an idle pooled connection whose peer vanished without a reset.
      connection: { connectionString: options.databaseUrl, connectionTimeoutMillis: 2000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 },
      pool: { min: 0, max: options.poolMax },
      acquireConnectionTimeout: 5000,
      compileSqlOnError: false,
      log,
    });
  }
  seedDataDir(options.dataDir);
  const { default: ClientPgLite } = await import('knex-pglite');
  return knex({ client: ClientPgLite, dialect: 'postgres', connection: { filename: options.dataDir }, compileSqlOnError: false, log });
}

/**
 * From now on, every statement of `db` waits at most `ms` for its answer: knex's
 * `timeout` (https://knexjs.org/guide/query-builder.html#timeout), set on each builder by
 * its `start` event (https://knexjs.org/guide/interfaces.html#start). Past it, knex rejects
 * with a KnexTimeoutError (an outage: 503, unavailable.ts) and marks the connection
 * disposed, so the pool destroys it rather than lend it again: a connection whose answers
 * stopped (a failover without a reset, a dropped NAT entry) holds its pool slot no longer.
 * Not cancelled: the statement may still commit, as when a connection drops, and the
 * charging statement's outcome is then looked up (charge-lost-answer.ts).
 *
 * Set by the service after its migrations, which may run longer (src/app/services.ts); a
 * transaction's BEGIN and COMMIT are not builders and are not bounded.
 */
export function boundStatements(db: Knex, ms: number): void {
  db.on('start', (builder: { timeout?: (ms: number) => unknown }) => builder.timeout?.(ms));
}

/** The key of the advisory lock that serialises migration runs (any constant, fixed forever). */
export const MIGRATION_LOCK_KEY = 7_413_202_611;

/** How long a migration waits for a table's lock before it fails (and is retried by its Job or the pod's restart). */
export const MIGRATION_LOCK_TIMEOUT = '5s';

/**
 * Migrates to the latest version, safe when several processes start at once on one
 * database: a transaction-level advisory lock is taken before knex looks at anything,
 * its own tables included, and the whole run happens in that transaction. The others
 * wait for the lock, then find nothing left to do. (knex's own lock table alone is
 * not enough: two runs can race to create it.) On PGlite, one process, the lock is free.
 *
 * - A migration waits at most MIGRATION_LOCK_TIMEOUT for a table's lock: one queued
 *   behind a long transaction (a dump, an idle session) would otherwise hold every paid
 *   call's statement on that table behind it.
 * - A run that finds the lock taken calls `onWaiting` once before it waits (the caller logs
 *   it): a start held by another run, or by a session that took the lock and hung, says so.
 * - Migrations a newer release applied are not an error (docs/deploy.md, "Upgrade and
 *   rollback": a rollback runs the old code on the new schema): their names are returned,
 *   for the caller to log.
 */
export async function migrateToLatest(db: Knex, options: { onWaiting?: () => void } = {}): Promise<{ unknown: string[] }> {
  return db.transaction(async (trx) => {
    const tried: { rows?: { locked: boolean }[] } = await trx.raw('select pg_try_advisory_xact_lock(?) as locked', [MIGRATION_LOCK_KEY]);
    if (tried.rows?.[0]?.locked !== true) {
      options.onWaiting?.();
      await trx.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK_KEY]);
    }
    await trx.raw(`set local lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`);
    await trx.migrate.latest({ migrationSource, disableMigrationsListValidation: true });
    const known = new Set(await migrationSource.getMigrations([]));
    const applied: { name: string }[] = await trx('knex_migrations').select('name').orderBy('id');
    return { unknown: applied.map(({ name }) => name).filter((name) => !known.has(name)) };
  });
}

/** Logged when a migration run waits for another's advisory lock. */
export const MIGRATION_LOCK_WAIT_MESSAGE = 'waiting for another migration run to finish (PostgreSQL advisory lock held)';

/** The warning for migrations this release does not know, logged where it ran. */
export const UNKNOWN_MIGRATIONS_WARNING = 'the database holds migrations this release does not know (a newer release applied them): running on that schema, as a rollback does';

/** A statement run by `onOwnConnection` failed: its error, and the PostgreSQL backend that ran it (none with PGlite, or when no connection was had). */
export class StatementFailed extends Error {
  constructor(
    override readonly cause: unknown,
    readonly backendPid: number | undefined,
  ) {
    super('a statement on its own connection failed', { cause });
    this.name = 'StatementFailed';
  }
}

/**
 * Runs one raw statement on a connection taken from the pool for it, so
 * that when its answer is lost the caller knows which PostgreSQL backend ran it and can
 * end that backend before looking the outcome up (charge-lost-answer.ts). Rejects with a
 * StatementFailed.
 *
 * It runs through knex (so `boundStatements` bounds it too). On PostgreSQL it is a named
 * prepared statement (pg's `query({ name })`, passed by knex's `options`, named by a digest
 * of its text): each connection's backend parses and plans it once,
 * not at every execution. The paid call's statements (the hold, the charge, the release)
 * are long CTEs run once per batch: naming them took PostgreSQL's CPU per paid call from
 * about 1.8 to 0.95 ms (docs/decisions.md, "Plain plumbing: what issue 26 removed, and
 * what it kept").
 *
 * knex has no public way to take a connection and learn its backend: this uses its
 * client's `acquireConnection`/`releaseConnection` and pg's `Client.processID`.
 * test/integration/own-connection.test.ts fails when an upgrade moves either.
 */
export async function onOwnConnection(db: Knex, sql: string, bindings: Knex.ValueDict | readonly unknown[]): Promise<{ rows: unknown[] }> {
  const client = db.client as { acquireConnection(): Promise<{ processID?: number }>; releaseConnection(connection: unknown): Promise<unknown> };
  let connection: { processID?: number };
  try {
    connection = await client.acquireConnection();
  } catch (error) {
    throw new StatementFailed(error, undefined);
  }
  try {
    const statement = db.raw(sql, bindings as Knex.RawBinding[]).connection(connection);
    if (connection instanceof Client) statement.options({ name: statementName(statement.toSQL().toNative().sql) });
    return (await statement) as { rows: unknown[] };
  } catch (error) {
    throw new StatementFailed(error, connection.processID);
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Names by text; the callers run a handful of fixed texts (one per statement and table), so this stays small. */
const statementNames = new Map<string, string>();

/** The prepared statement's name: one per text, so that a text never meets another's name. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `pps_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`));
  return name;
}

/** int8 comes back as a string from pg and as a number or BigInt from PGlite. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}
