/**
 * The composition root: builds every long-lived part from the configuration, and
 * closes them in reverse order.
 */
import type { Knex } from 'knex';
import { creditHoldLeaseSeconds, idempotencyLeaseSeconds, sweepIntervalMs } from './call-budget';
import type { Config } from './config';
import { KnexAccountRepository } from './data/account-repository';
import { CachedCallerRepository } from './data/cached-caller-repository';
import { KnexCallerRepository } from './data/caller-repository';
import { KnexCommsRepository } from './data/comms-repository';
import { KnexCreditHoldRepository } from './data/credit-hold-repository';
import { createDatabase, migrateToLatest } from './data/database';
import { KnexIdempotencyRepository } from './data/idempotency-repository';
import { KnexSnapRepository } from './data/snap-repository';
import { ChargingStatements } from './data/store-charged';
import { Sweeper } from './data/sweeper';
import type { CommsRepository, CreditsRepository, SnapRepository } from './domain/ports';
import { createMemoryStore, createRedisStore, type RateLimitStore } from './http/rate-limit-store';
import type { Logger } from './logger';
import { countCommsCharges, countSnapCharges } from './metrics/counted-charges';
import { instrumentPredictor } from './metrics/instrumented-predictor';
import { createMetrics, type Metrics } from './metrics/registry';
import { EmbeddedPredictor } from './upstream/embedded/embedded-predictor';
import { OpenAiPredictor } from './upstream/openai/openai-predictor';
import type { Predictor } from './upstream/predictor';

export interface Services {
  db: Knex;
  callers: CachedCallerRepository;
  accounts: KnexAccountRepository;
  credits: CreditsRepository;
  snaps: SnapRepository;
  comms: CommsRepository;
  idempotency: KnexIdempotencyRepository;
  predictor: Predictor;
  rateLimit: RateLimitStore;
  metrics: Metrics;
  close(): Promise<void>;
}

export interface ServicesOptions {
  /** Run the migrations first (cluster workers do not: the primary ran them before forking). */
  migrate?: boolean;
}

export async function createServices(config: Config, logger: Logger, options: ServicesOptions = {}): Promise<Services> {
  const db = createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.databasePoolMax,
    log: { warn: (message) => logger.warn({ component: 'knex' }, message) },
  });
  if (options.migrate ?? true) await migrateToLatest(db);
  const metrics = createMetrics(db);
  const rateLimit = config.redisUrl ? await createRedisStore(config.redisUrl, config.rateLimitRedisPrefix, logger) : createMemoryStore();
  const callers = new CachedCallerRepository(new KnexCallerRepository(db));
  const accounts = new KnexAccountRepository(db, () => callers.clear());
  const charges = new ChargingStatements(db);
  const sweeper = new Sweeper(db, {
    intervalMs: sweepIntervalMs(config),
    onSwept: ({ holdsReturned, idempotencyKeysDeleted }) => {
      metrics.creditHoldsExpired.inc(holdsReturned);
      if (holdsReturned > 0) logger.warn({ holdsReturned }, 'returned the credits of holds whose lease ran out (a process died mid-call)');
      if (idempotencyKeysDeleted > 0) logger.debug({ idempotencyKeysDeleted }, 'deleted expired idempotency keys');
    },
    onError: (err) => logger.warn({ err: String(err) }, 'sweep failed; the next pass tries again'),
  });
  sweeper.start();
  return {
    db,
    callers,
    accounts,
    credits: new KnexCreditHoldRepository(db, creditHoldLeaseSeconds(config)),
    snaps: countSnapCharges(new KnexSnapRepository(db, charges), metrics.creditsCharged),
    comms: countCommsCharges(new KnexCommsRepository(db, charges), metrics.creditsCharged),
    idempotency: new KnexIdempotencyRepository(db, idempotencyLeaseSeconds(config)),
    predictor: instrumentPredictor(createPredictor(config), metrics),
    rateLimit,
    metrics,
    close: async () => {
      await sweeper.stop();
      await rateLimit.close();
      await db.destroy();
    },
  };
}

function createPredictor(config: Config): Predictor {
  if (!config.openai) return new EmbeddedPredictor();
  const { apiKey, baseUrl, model, timeoutSeconds, maxRetries } = config.openai;
  return new OpenAiPredictor({ apiKey, baseURL: baseUrl, model, timeoutMs: Math.round(timeoutSeconds * 1000), maxRetries });
}
