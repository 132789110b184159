/**
 * `npm start`: configuration from the environment, then serve until SIGTERM/SIGINT.
 * One process; more capacity is more replicas (docs/operations.md, "Scaling out").
 */
import { ConfigError, loadConfig } from '../config/config';
import { embeddedDefaultsInProduction } from '../config/embedded-defaults';
import { createLogger } from '../support/logger';
import { startupFailureLine } from '../support/startup-failure';
import { logProcessWarnings } from '../support/process-warnings';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  logProcessWarnings(logger);
  // Before the server's modules load: the instrumentations must see express and pg required.
  // The OpenTelemetry SDK is loaded only when tracing is on: it is most of the start-up's module loading.
  const tracing = config.tracing && (await import('./tracing')).startTracing(config.tracing);
  const [{ demoInstructions, ensureDemoAccount }, { startServer }] = await Promise.all([import('./demo-account'), import('./server')]);
  const server = await startServer(config, logger);
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
  for (const warning of embeddedDefaultsInProduction(config)) logger.warn(warning);
  if (config.demoAccount) {
    const apiKey = await ensureDemoAccount(server.services.accounts, config.dataDir);
    if (apiKey) process.stdout.write(demoInstructions(apiKey, server.url));
  }
  let shuttingDown = false;
  const shutdown = (signal: string) => {
    // A second signal (an impatient operator, a supervisor repeating its SIGTERM) must not cut the calls the first one lets finish.
    if (shuttingDown) {
      logger.info({ signal }, 'already shutting down: the requests in flight still finish');
      return;
    }
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
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : startupFailureLine('startup failed', err)}\n`);
  process.exit(1);
});
