/**
 * `npm run migrate`: runs the database migrations and exits, for deploys that migrate in
 * a step of their own before starting instances. Reads DATABASE_URL (or DATA_DIR) like
 * the service; safe to run while instances start (src/data/database.ts, migrateToLatest).
 */
import { ConfigError, loadConfig } from '../config/config';
import { createDatabase, migrateToLatest, MIGRATION_LOCK_KEY, MIGRATION_LOCK_WAIT_MESSAGE, UNKNOWN_MIGRATIONS_WARNING } from '../data/database';
import { createLogger } from '../support/logger';
import { startupFailureLine } from '../support/startup-failure';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: 1,
    log: { warn: (message) => logger.warn({ component: 'knex' }, message) },
  });
  try {
    const { unknown } = await migrateToLatest(db, { onWaiting: () => logger.info({ lockKey: MIGRATION_LOCK_KEY }, MIGRATION_LOCK_WAIT_MESSAGE) });
    if (unknown.length > 0) logger.warn({ migrations: unknown }, UNKNOWN_MIGRATIONS_WARNING);
    logger.info({ database: config.databaseUrl ? 'postgresql' : `pglite (${config.dataDir})` }, 'migrations done');
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : startupFailureLine('migrate failed', err)}\n`);
  process.exit(1);
});
