/**
 * `npm start`: configuration from the environment, then serve until SIGTERM/SIGINT;
 * with WEB_CONCURRENCY > 1, as the primary of a cluster or as one of its workers.
 */
import cluster from 'node:cluster';
import { ConfigError, loadConfig } from '../config/config';
import { prepareStorageInBackground } from '../data/storage-in-background';
import { createLogger } from '../support/logger';
import { startTracing } from './tracing';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Before the server's modules load: the instrumentations must see express and pg required.
  const tracing = config.tracing && startTracing(config.tracing);
  // A lone process migrates PostgreSQL, or copies the embedded template, on a worker
  // thread while the rest of the code loads: only what that needs is imported above.
  const storage = config.webConcurrency === 1 ? prepareStorageInBackground(config) : undefined;
  storage?.catch(() => undefined); // awaited below, where a failure stops the start
  const [{ isFirstProcess, onShutdownRequest, reportReady, runPrimary, serverOptions }, { demoInstructions, ensureDemoAccount }, { startServer }] =
    await Promise.all([import('./cluster'), import('./demo-account'), import('./server')]);
  if (config.webConcurrency > 1 && cluster.isPrimary) {
    await runPrimary(config, logger);
    return;
  }
  const migrated = (await storage) === true;
  const server = await startServer(config, logger, { ...serverOptions(), ...(migrated && { migrate: false }) });
  logger.info(
    {
      url: server.url,
      adminUrl: server.adminUrl,
      adminApi: config.adminToken ? 'on' : 'off (no ADMIN_TOKEN): health, readiness and metrics only',
      database: config.databaseUrl ? 'postgresql' : `pglite (${config.dataDir})`,
      rateLimitStore: server.services.rateLimit.shared() ? 'redis' : config.redisUrl ? 'memory until Redis answers' : 'memory',
      predictor: config.openai ? `openai (${config.openai.primary.model}${config.openai.fallback ? `, fallback ${config.openai.fallback.model}` : ''})` : 'embedded',
    },
    'profile prediction service started',
  );
  if (config.demoAccount && isFirstProcess()) {
    const apiKey = await ensureDemoAccount(server.services.accounts, config.dataDir);
    if (apiKey) process.stdout.write(demoInstructions(apiKey, server.url));
  }
  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return; // a worker may hear the terminal's signal and its primary's request
    shuttingDown = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    server.close().then(
      async () => {
        await tracing?.shutdown().catch(() => undefined); // the last spans, flushed
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  onShutdownRequest(() => shutdown('primary'));
  reportReady();
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `startup failed: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
