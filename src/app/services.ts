/**
 * The composition root: builds every long-lived part from the configuration, and
 * closes them in reverse order.
 */
import type { Knex } from 'knex';
import { creditHoldLeaseSeconds, sweepIntervalMs } from '../config/call-budget';
import type { Config, OpenAiConfig, UpstreamEndpoint } from '../config/config';
import type { RouteBudget } from '../config/upstream-budget';
import { KnexAccountRepository } from '../data/account-repository';
import { CachedCallerRepository } from '../data/cached-caller-repository';
import { KnexCallerRepository } from '../data/caller-repository';
import { KnexCommsRepository } from '../data/comms-repository';
import { KnexCreditHoldRepository } from '../data/credit-hold-repository';
import { createDatabase, migrateToLatest, poolCounts } from '../data/database';
import { createFailureBudget } from '../data/failure-budget/failure-budget';
import { KnexIdempotencyRepository } from '../data/idempotency-repository';
import { KnexPersonalDataRepository } from '../data/personal-data-repository';
import { KnexSnapRepository } from '../data/snap-repository';
import { ChargingStatements } from '../data/store-charged';
import { Sweeper } from '../data/sweeper';
import { reportingOutages } from '../data/unavailable';
import type { CommsRepository, CreditsRepository, FailureBudget, PersonalDataRepository, SnapRepository } from '../domain/ports';
import { createRateLimitStore, type RateLimitStore } from '../data/rate-limit/rate-limit-store';
import { createSharedRedis } from '../data/redis/shared-redis';
import type { Logger } from '../support/logger';
import { countCommsCharges, countSnapCharges } from '../metrics/counted-charges';
import { countFailureBudget } from '../metrics/counted-failure-budget';
import { countKeyLookups } from '../metrics/counted-key-lookups';
import { instrumentPredictor } from '../metrics/instrumented-predictor';
import { UpstreamHealth } from '../metrics/upstream-health';
import { registerRateLimitGauge } from '../metrics/rate-limit-gauge';
import { createMetrics, type Metrics, type UpstreamSocketCounts } from '../metrics/registry';
import { EmbeddedPredictor } from '../upstream/embedded/embedded-predictor';
import { CircuitBreaker } from '../upstream/circuit-breaker';
import { withFallback } from '../upstream/fallback-predictor';
import type { UpstreamAgent } from '../upstream/openai/upstream-agent';
import type { Predictor, UpstreamName, UsageRepository } from '../domain/ports';
import { KnexUsageRepository } from '../data/usage-repository';

export interface Services {
  db: Knex;
  callers: CachedCallerRepository;
  accounts: KnexAccountRepository;
  personalData: PersonalDataRepository;
  credits: CreditsRepository;
  snaps: SnapRepository;
  comms: CommsRepository;
  idempotency: KnexIdempotencyRepository;
  usage: UsageRepository;
  predictor: Predictor;
  /** Only with an OpenAI-compatible upstream: what its latest calls got (readiness.ts). */
  upstreamHealth: UpstreamHealth | undefined;
  failureBudget: FailureBudget;
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
  // One Redis client for the rate limit and the failure budget; it connects while the migrations run.
  const redis = config.redisUrl ? createSharedRedis({ url: config.redisUrl, logger }) : undefined;
  const rateLimit = createRateLimitStore(redis, { prefix: config.rateLimitRedisPrefix, windowMs: config.rateLimitWindowSeconds * 1000 });
  const failureBudget = createFailureBudget({ ...config.failureBudget, redis, prefix: config.rateLimitRedisPrefix });
  const redisStarting = redis?.start();
  try {
    if (options.migrate ?? true) await migrateToLatest(db);
  } catch (err) {
    await redis?.close();
    throw err;
  }
  await redisStarting;
  const credits = reportingOutages(new KnexCreditHoldRepository(db, creditHoldLeaseSeconds(config)));
  const upstream = config.openai ? await createUpstreamAgents(config.openai) : undefined;
  const metrics = createMetrics({ poolCounts: () => poolCounts(db), countActiveHolds: () => credits.countActive(), upstreamSockets: () => upstream?.counts() ?? [] });
  registerRateLimitGauge(metrics.registry, rateLimit);
  const callers = new CachedCallerRepository(countKeyLookups(reportingOutages(new KnexCallerRepository(db)), metrics));
  callers.start();
  const accounts = reportingOutages(new KnexAccountRepository(db, (keyHash) => callers.forget(keyHash)));
  const charges = new ChargingStatements(db);
  const upstreamHealth = config.openai ? new UpstreamHealth() : undefined;
  const sweeper = new Sweeper(db, {
    intervalMs: sweepIntervalMs(config),
    retentionDays: config.snapRetentionDays,
    onSwept: ({ holdsReturned, idempotencyKeysDeleted, expired }) => {
      metrics.creditHoldsExpired.inc(holdsReturned);
      if (holdsReturned > 0) logger.warn({ holdsReturned }, 'returned the credits of holds whose lease ran out (a process died mid-call)');
      if (idempotencyKeysDeleted > 0) logger.debug({ idempotencyKeysDeleted }, 'deleted expired idempotency keys');
      if (expired.snaps + expired.commsAnalyses > 0) logger.info({ expired }, 'deleted the snaps and analyses past SNAP_RETENTION_DAYS');
    },
    onError: (err) => logger.warn({ err: String(err) }, 'sweep failed; the next pass tries again'),
  });
  sweeper.start();
  const idempotency = reportingOutages(new KnexIdempotencyRepository(db));
  idempotency.start();
  return {
    db,
    callers,
    accounts,
    personalData: reportingOutages(new KnexPersonalDataRepository(db)),
    credits,
    snaps: countSnapCharges(reportingOutages(new KnexSnapRepository(db, charges, config.keepRequestTexts)), metrics.creditsCharged),
    comms: countCommsCharges(reportingOutages(new KnexCommsRepository(db, charges, config.keepRequestTexts)), metrics.creditsCharged),
    idempotency,
    usage: reportingOutages(new KnexUsageRepository(db)),
    predictor: instrumentPredictor(await createPredictor(config, metrics, upstream), metrics, upstreamHealth),
    upstreamHealth,
    failureBudget: countFailureBudget(failureBudget, metrics),
    rateLimit,
    metrics,
    close: async () => {
      await sweeper.stop();
      await callers.stop();
      await idempotency.stop();
      await rateLimit.close();
      await upstream?.close();
      await failureBudget.close();
      await redis?.close();
      await db.destroy();
    },
  };
}

/** The connections to each upstream (one undici Agent each), loaded only when an upstream is configured. */
interface UpstreamAgents {
  agents: Record<UpstreamName, UpstreamAgent | undefined>;
  counts(): UpstreamSocketCounts[];
  close(): Promise<void>;
}

async function createUpstreamAgents(settings: OpenAiConfig): Promise<UpstreamAgents> {
  const { UpstreamAgent } = await import('../upstream/openai/upstream-agent');
  const agents: Record<UpstreamName, UpstreamAgent | undefined> = {
    primary: new UpstreamAgent({ maxSockets: settings.maxSockets }),
    fallback: settings.fallback ? new UpstreamAgent({ maxSockets: settings.maxSockets }) : undefined,
  };
  const named = (Object.entries(agents) as Array<[UpstreamName, UpstreamAgent | undefined]>).flatMap(([name, agent]) => (agent ? [[name, agent] as const] : []));
  return {
    agents,
    counts: () => named.map(([name, agent]) => ({ upstream: name, ...agent.counts() })),
    close: async () => {
      await Promise.all(named.map(([, agent]) => agent.close()));
    },
  };
}

/**
 * The embedded predictor, or the OpenAI-compatible primary, composed with the fallback
 * when one is configured. Each route's budget (config/upstream-budget.ts) bounds its whole
 * call: with a fallback the primary gets its part and the fallback whatever is left (all
 * of it while the breaker skips the primary). The OpenAI client is loaded only when it is configured:
 * the embedded default starts without it.
 */
async function createPredictor(config: Config, metrics: Metrics, upstreams: UpstreamAgents | undefined): Promise<Predictor> {
  if (!config.openai || !upstreams) return new EmbeddedPredictor();
  const { OpenAiPredictor } = await import('../upstream/openai/openai-predictor');
  const settings = config.openai;
  const ms = (pick: (budget: RouteBudget) => number): { predictSnap: number; analyseComms: number } => ({
    predictSnap: Math.max(1, Math.round(pick(settings.budgets.predictSnap) * 1000)),
    analyseComms: Math.max(1, Math.round(pick(settings.budgets.analyseComms) * 1000)),
  });
  const upstream = (endpoint: UpstreamEndpoint, name: UpstreamName, timeoutMs: { predictSnap: number; analyseComms: number }): Predictor =>
    new OpenAiPredictor({
      kind: endpoint.kind,
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseUrl,
      model: endpoint.model,
      apiVersion: endpoint.apiVersion,
      upstream: name,
      timeoutMs,
      attemptTimeoutMs: ms((budget) => budget.attemptTimeoutSeconds),
      maxRetries: settings.maxRetries,
      hasFallback: name === 'primary' && settings.fallback !== undefined,
      agent: upstreams.agents[name],
      maxOutputTokens: settings.maxOutputTokens,
      maxTokensParameter: settings.maxTokensParameter,
      temperature: settings.temperature,
      seed: settings.seed,
      reasoningEffort: settings.reasoningEffort,
      schemaLengthBounds: settings.schemaLengthBounds,
      onAttempt: (operation) => metrics.upstreamCalls.inc({ operation, upstream: name }),
      onSent: (_operation, queuedMs) => metrics.upstreamQueueDuration.observe({ upstream: name }, queuedMs / 1000),
    });
  if (!settings.fallback) return upstream(settings.primary, 'primary', ms((budget) => budget.timeoutSeconds));
  return withFallback({
    primary: upstream(settings.primary, 'primary', ms((budget) => budget.primarySeconds)),
    fallback: upstream(settings.fallback, 'fallback', ms((budget) => budget.timeoutSeconds)),
    breaker: new CircuitBreaker({ failures: settings.breakerFailures, cooldownMs: settings.breakerCooldownSeconds * 1000 }),
    timeoutMs: ms((budget) => budget.timeoutSeconds),
  });
}
