/**
 * The composition root: builds every long-lived part from the configuration, and
 * closes them: the background work first, then the stores and clients, the database last.
 */
import type { Knex } from 'knex';
import type { Config, OpenAiConfig, PerRoute, UpstreamBudget, UpstreamEndpoint } from '../config/config';
import { KnexAccountRepository } from '../data/account-repository';
import { CachedCallerRepository } from '../data/cached-caller-repository';
import { KnexCallerRepository } from '../data/caller-repository';
import { KnexCommsRepository } from '../data/comms-repository';
import { KnexCreditHoldRepository } from '../data/credit-hold-repository';
import { boundStatements, createDatabase, migrateToLatest, MIGRATION_LOCK_KEY, MIGRATION_LOCK_WAIT_MESSAGE, UNKNOWN_MIGRATIONS_WARNING } from '../data/database';
import { createFailureBudget } from '../data/failure-budget/failure-budget';
import { KnexIdempotencyRepository } from '../data/idempotency-repository';
import { KnexPersonalDataRepository } from '../data/personal-data-repository';
import { KnexSnapRepository } from '../data/snap-repository';
import { ChargingStatements } from '../data/store-charged';
import { Sweeper } from '../data/sweeper';
import { isDatabaseOutage } from '../data/unavailable';
import { assertOutputBoundsFit } from '../upstream/openai/output-bound-fit';
import type { CommsRepository, CreditsRepository, FailureBudget, PersonalDataRepository, SnapRepository } from '../domain/ports';
import { createRateLimitStore, type RateLimitStore } from '../data/rate-limit/rate-limit-store';
import { createSharedRedis, WRITE_PROBE_KEY } from '../data/redis/shared-redis';
import type { Logger } from '../support/logger';
import { countCommsCharges, countSnapCharges } from '../metrics/counted-charges';
import { countFailureBudget } from '../metrics/counted-failure-budget';
import { countKeyLookups } from '../metrics/counted-key-lookups';
import { instrumentPredictor } from '../metrics/instrumented-predictor';
import { UpstreamHealth } from '../metrics/upstream-health';
import { registerRateLimitGauge } from '../metrics/rate-limit-gauge';
import { createMetrics, type Metrics, type UpstreamSocketCounts } from '../metrics/registry';
import { withBreaker } from '../upstream/breaker-predictor';
import { CircuitBreaker } from '../upstream/circuit-breaker';
import { withFallback } from '../upstream/fallback-predictor';
import type { UpstreamAgent } from '../upstream/openai/upstream-agent';
import type { Predictor, UpstreamName, UsageRepository } from '../domain/ports';
import { KnexUsageRepository } from '../data/usage-repository';
import { KnexUsageReportRepository } from '../data/usage-report-repository';

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
  /** An account's usage over time, from the credit ledger (admin API). */
  usageReport: KnexUsageReportRepository;
  predictor: Predictor;
  /** Only with an OpenAI-compatible upstream: what its latest calls got (readiness.ts). */
  upstreamHealth: UpstreamHealth | undefined;
  failureBudget: FailureBudget;
  isOutage: (err: unknown) => boolean;
  rateLimit: RateLimitStore;
  /** The per-account limit's counters, beside the per-IP ones, by the same policy. */
  accountRateLimit: RateLimitStore;
  metrics: Metrics;
  close(): Promise<void>;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  // Before anything connects: each route's output bound fits the answers its schema allows.
  if (config.openai) assertOutputBoundsFit(config.openai.maxOutputTokens, config.openai.reasoningEffort !== undefined && config.openai.reasoningEffort !== 'none');
  const db = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.databasePoolMax,
    log: { warn: (message) => logger.warn({ component: 'knex' }, message) },
  });
  // One Redis client for the rate limit and the failure budget; it connects while the migrations run.
  const redis = config.redisUrl ? createSharedRedis({ url: config.redisUrl, logger, writeProbeKey: `${config.rateLimitRedisPrefix}${WRITE_PROBE_KEY}` }) : undefined;
  const rateLimit = createRateLimitStore(redis, { prefix: config.rateLimitRedisPrefix, windowMs: config.rateLimitWindowSeconds * 1000 });
  const accountRateLimit = createRateLimitStore(redis, { prefix: `${config.rateLimitRedisPrefix}account:`, windowMs: config.rateLimitWindowSeconds * 1000 });
  const failureBudget = createFailureBudget({ ...config.failureBudget, redis, prefix: config.rateLimitRedisPrefix });
  const redisStarting = redis?.start();
  try {
    const { unknown } = await migrateToLatest(db, { onWaiting: () => logger.info({ lockKey: MIGRATION_LOCK_KEY }, MIGRATION_LOCK_WAIT_MESSAGE) });
    if (unknown.length > 0) logger.warn({ migrations: unknown }, UNKNOWN_MIGRATIONS_WARNING);
  } catch (err) {
    await redis?.close();
    throw err;
  }
  await redisStarting;
  // Every statement from here on waits for its answer at most statementMs (PGlite runs in this process: no network to go silent).
  if (config.databaseUrl) boundStatements(db, config.timeBudget.statementMs);
  const credits = new KnexCreditHoldRepository(db, config.timeBudget.holdLeaseSeconds);
  const upstream = config.openai ? await createUpstreamAgents(config.openai) : undefined;
  const metrics = createMetrics({ countActiveHolds: () => credits.countActive(), upstreamSockets: () => upstream?.counts() ?? [] });
  registerRateLimitGauge(metrics.registry, rateLimit);
  // The key cache, around the lookups that reach the database, each one counted.
  const callers = new CachedCallerRepository(countKeyLookups(new KnexCallerRepository(db), metrics));
  callers.start();
  const accounts = new KnexAccountRepository(db, (keyHash) => callers.forget(keyHash));
  const charges = new ChargingStatements(db);
  const upstreamHealth = config.openai ? new UpstreamHealth() : undefined;
  const sweeper = new Sweeper(db, {
    intervalMs: config.timeBudget.sweepIntervalMs,
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
  const idempotency = new KnexIdempotencyRepository(db);
  idempotency.start();
  return {
    db,
    callers,
    accounts,
    personalData: new KnexPersonalDataRepository(db),
    credits,
    // The charging repositories, each charge counted in credits_charged_total.
    snaps: countSnapCharges(new KnexSnapRepository(db, charges, config.keepRequestTexts), metrics.creditsCharged),
    comms: countCommsCharges(new KnexCommsRepository(db, charges, config.keepRequestTexts), metrics.creditsCharged),
    idempotency,
    usage: new KnexUsageRepository(db),
    usageReport: new KnexUsageReportRepository(db),
    // The predictor, timed and its tokens counted (metrics/instrumented-predictor.ts).
    predictor: instrumentPredictor(await createPredictor(config, metrics, upstream), metrics, upstreamHealth),
    upstreamHealth,
    // The failure budget, its refusals and failures counted.
    failureBudget: countFailureBudget(failureBudget, metrics),
    // The repositories let database errors through as the driver threw them; the error mapper asks this which are outages (503).
    isOutage: isDatabaseOutage,
    rateLimit,
    accountRateLimit,
    metrics,
    close: async () => {
      await sweeper.stop();
      await callers.stop();
      await idempotency.stop();
      await rateLimit.close();
      await accountRateLimit.close();
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
 * The embedded predictor, or the OpenAI-compatible primary behind the circuit breaker: it
 * skips to the fallback when one is configured, and fails at once without one. Each is
 * given its part of the time budget as config computed it (config/time-budget.ts): the primary its share of each route's call, the fallback as much
 * as the whole, which the fallback's deadline (the whole call's) cuts to what is left.
 * Each is loaded only when it is configured: the embedded default starts without the OpenAI
 * client, and an upstream without the embedded comms analysis (a model's snap still loads
 * the lexicon, for its earned confidence).
 */
async function createPredictor(config: Config, metrics: Metrics, upstreams: UpstreamAgents | undefined): Promise<Predictor> {
  const budget = config.timeBudget.upstream;
  if (!config.openai || !upstreams || !budget) {
    const { EmbeddedPredictor } = await import('../upstream/embedded/embedded-predictor');
    return new EmbeddedPredictor();
  }
  const { OpenAiPredictor } = await import('../upstream/openai/openai-predictor');
  (await import('../upstream/openai/earned-confidence')).warmUpEarnedConfidence();
  const settings = config.openai;
  const upstream = (endpoint: UpstreamEndpoint, name: UpstreamName, times: PerRoute<UpstreamBudget>): Predictor =>
    new OpenAiPredictor({
      kind: endpoint.kind,
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseUrl,
      model: endpoint.model,
      apiVersion: endpoint.apiVersion,
      upstream: name,
      budget: times,
      maxRetries: settings.maxRetries,
      hasFallback: name === 'primary' && settings.fallback !== undefined,
      agent: upstreams.agents[name],
      maxOutputTokens: settings.maxOutputTokens,
      maxTokensParameter: endpoint.maxTokensParameter,
      temperature: settings.temperature,
      seed: settings.seed,
      reasoningEffort: settings.reasoningEffort,
      schemaLengthBounds: settings.schemaLengthBounds,
      onAttempt: (operation) => metrics.upstreamCalls.inc({ operation, upstream: name }),
      onSent: (_operation, queuedMs) => metrics.upstreamQueueDuration.observe({ upstream: name }, queuedMs / 1000),
    });
  const fallback = settings.fallback && budget.fallback ? { endpoint: settings.fallback, times: budget.fallback } : undefined;
  const breaker = new CircuitBreaker({
    failures: settings.breakerFailures,
    cooldownMs: settings.breakerCooldownSeconds * 1000,
    onSkip: () => metrics.upstreamSkippedCalls.inc({ then: fallback ? 'fallback' : 'failed' }),
  });
  const primary = upstream(settings.primary, 'primary', budget.primary);
  if (!fallback) return withBreaker(primary, breaker);
  return withFallback({
    primary,
    fallback: upstream(fallback.endpoint, 'fallback', fallback.times),
    breaker,
    timeoutMs: budget.wholeMs,
  });
}
