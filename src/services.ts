/**
 * The composition root: builds every long-lived part from the configuration, and
 * closes them in reverse order.
 */
import type { Knex } from 'knex';
import type { Config } from './config';
import { KnexAccountRepository } from './data/account-repository';
import { CachedCallerRepository } from './data/cached-caller-repository';
import { KnexCallerRepository } from './data/caller-repository';
import { KnexCommsRepository } from './data/comms-repository';
import { createDatabase, migrateToLatest } from './data/database';
import { GroupCommit } from './data/group-commit';
import { KnexIdempotencyRepository } from './data/idempotency-repository';
import { KnexSnapRepository } from './data/snap-repository';
import type { CommsRepository, SnapRepository } from './domain/ports';
import { createMemoryStore, createRedisStore, type RateLimitStore } from './http/rate-limit-store';
import type { Logger } from './logger';
import { countCommsCharges, countSnapCharges } from './metrics/counted-charges';
import { instrumentPredictor } from './metrics/instrumented-predictor';
import { registerRateLimitGauge } from './metrics/rate-limit-gauge';
import { createMetrics, type Metrics } from './metrics/registry';
import { EmbeddedPredictor } from './upstream/embedded/embedded-predictor';
import { OpenAiPredictor } from './upstream/openai/openai-predictor';
import type { Predictor } from './upstream/predictor';

export interface Services {
  db: Knex;
  callers: CachedCallerRepository;
  accounts: KnexAccountRepository;
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
  const rateLimit = config.redisUrl
    ? await createRedisStore({ redisUrl: config.redisUrl, prefix: config.rateLimitRedisPrefix, windowMs: config.rateLimitWindowSeconds * 1000, logger })
    : createMemoryStore();
  const metrics = createMetrics(db);
  registerRateLimitGauge(metrics.registry, rateLimit);
  const callers = new CachedCallerRepository(new KnexCallerRepository(db));
  const accounts = new KnexAccountRepository(db, () => callers.clear());
  const charges = new GroupCommit(db);
  return {
    db,
    callers,
    accounts,
    snaps: countSnapCharges(new KnexSnapRepository(db, charges), metrics.creditsCharged),
    comms: countCommsCharges(new KnexCommsRepository(db, charges), metrics.creditsCharged),
    idempotency: new KnexIdempotencyRepository(db, idempotencyLeaseSeconds(config)),
    predictor: instrumentPredictor(createPredictor(config), metrics),
    rateLimit,
    metrics,
    close: async () => {
      await rateLimit.close();
      await db.destroy();
    },
  };
}

/** Longer than any call can run (the upstream bound, twice, plus the database's share). */
function idempotencyLeaseSeconds(config: Config): number {
  return Math.ceil(2 * (config.openai?.timeoutSeconds ?? 0)) + 60;
}

function createPredictor(config: Config): Predictor {
  if (!config.openai) return new EmbeddedPredictor();
  const { apiKey, baseUrl, model, timeoutSeconds, maxRetries } = config.openai;
  return new OpenAiPredictor({ apiKey, baseURL: baseUrl, model, timeoutMs: Math.round(timeoutSeconds * 1000), maxRetries });
}
