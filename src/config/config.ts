/**
 * One typed, validated, frozen configuration read from the environment.
 * A bad value stops startup with a message that names the variable.
 * Every variable is documented in docs/operations.md, "Configuration".
 */
import { readAccountMaxInFlight, readMaxRequestsInFlight } from './admission';
import { readAdminToken } from './admin-token';
import { readFailureBudget, type FailureBudgetConfig } from './failure-budget';
import { readRedisUrl } from './redis-url';
import { readTimeBudget, type TimeBudget } from './time-budget';
import { readOpenAiConfig, type OpenAiConfig } from './upstream';
import { readTracing, type TracingConfig } from './tracing';
import { EnvReader, type Env } from './env-reader';

export { ConfigError } from './config-error';
export type { OpenAiConfig, UpstreamEndpoint } from './upstream';
export type { Env } from './env-reader';
export type { FailureBudgetConfig } from './failure-budget';
export type { TracingConfig } from './tracing';
export type { PerRoute, TimeBudget, UpstreamBudget, UpstreamTimes } from './time-budget';

export interface Config {
  nodeEnv: string;
  host: string;
  port: number;
  adminHost: string;
  adminPort: number;
  /** No token: the admin routes answer 404 (the admin listener still serves health, readiness and metrics). */
  adminToken: string | undefined;
  /** Wrong admin tokens one client address may send per minute before its admin requests are refused (429) for the rest of it. */
  adminTokenFailuresPerMinute: number;
  /** PostgreSQL connection string; unset: embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  databasePoolMax: number;
  dataDir: string;
  /** Redis connection string for the shared rate limit; unset: in-process store. */
  redisUrl: string | undefined;
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  /** Requests per window per account, from any IPs, beside the per-IP limit; an account's own limit (admin API) overrides it. */
  accountRateLimitMax: number;
  /** Prefix of the rate-limit keys in Redis: deployments sharing one Redis share a limit only with the same prefix. */
  rateLimitRedisPrefix: string;
  /** An Express "trust proxy" value; `false` trusts no proxy. */
  trustProxy: boolean | number | string;
  /** Unset: the embedded predictor. */
  openai: OpenAiConfig | undefined;
  logLevel: string;
  /** Validate responses against the spec (on outside production). */
  validateResponses: boolean;
  /**
   * Every bound in time that follows from the longest paid call, in milliseconds: each
   * route's upstream call, the hold lease, the sweep, the shutdown (time-budget.ts).
   */
  timeBudget: TimeBudget;
  /**
   * How long a client may take to send a whole request (headers and body) before Node's
   * HTTP server answers it `408` itself; what a 32 KiB body needs on a slow link.
   */
  requestTimeoutSeconds: number;
  /** Create a demo account with a printed key on first start (`make run`). */
  demoAccount: boolean;
  /** Requests one process works on at once; past it, 503 with Retry-After before any database work. */
  maxRequestsInFlight: number;
  /** Requests one account may have in flight in one process; past it, the contract's 429 with Retry-After. */
  accountMaxRequestsInFlight: number;
  /** Failed predictor calls an account may make in a sliding window before its calls are refused (429). */
  failureBudget: FailureBudgetConfig;
  /** Snaps, their comms analyses and their replays are deleted this many days after creation (docs/privacy.md). */
  snapRetentionDays: number;
  /** Keep the notes, job type, age range, goal and draft after the call (for an operator's audit); off: only what the service reads again. */
  keepRequestTexts: boolean;
  /** OpenTelemetry traces; unset: off (no OTEL_* exporter or endpoint named). */
  tracing: TracingConfig | undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const read = new EnvReader(env);
  const nodeEnv = read.string('NODE_ENV', 'development');
  const openai = readOpenAiConfig(read, env);
  const config: Config = {
    nodeEnv,
    host: read.string('HOST', '0.0.0.0'),
    port: read.integer('PORT', 3000, { min: 0, max: 65535 }),
    adminHost: read.string('ADMIN_HOST', '127.0.0.1'),
    adminPort: read.integer('ADMIN_PORT', 3001, { min: 0, max: 65535 }),
    adminToken: readAdminToken(read),
    adminTokenFailuresPerMinute: read.integer('ADMIN_TOKEN_FAILURES_PER_MINUTE', 10, { min: 1, max: 1_000_000_000 }),
    databaseUrl: read.optionalUrl('DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolMax: read.integer('DATABASE_POOL_MAX', 10, { min: 1, max: 1000 }),
    dataDir: read.string('DATA_DIR', './.data'),
    redisUrl: readRedisUrl(read),
    rateLimitMax: read.integer('RATE_LIMIT_MAX', 120, { min: 1, max: 1_000_000_000 }),
    rateLimitWindowSeconds: read.integer('RATE_LIMIT_WINDOW_SECONDS', 60, { min: 1, max: 86_400 }),
    accountRateLimitMax: read.integer('ACCOUNT_RATE_LIMIT_MAX', 600, { min: 1, max: 1_000_000_000 }),
    rateLimitRedisPrefix: read.string('RATE_LIMIT_REDIS_PREFIX', 'pps:rl:'),
    trustProxy: read.trustProxy('TRUST_PROXY'),
    openai,
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    validateResponses: read.boolean('VALIDATE_RESPONSES', nodeEnv !== 'production'),
    // 32 KiB of body and 16 KiB of headers take 27 s at 14.4 kbit/s; Node's default is 300 s.
    requestTimeoutSeconds: read.integer('REQUEST_TIMEOUT_SECONDS', 30, { min: 1, max: 300 }),
    demoAccount: read.boolean('DEMO_ACCOUNT', false),
    maxRequestsInFlight: 0, // set below: its default follows the pool and the upstream
    accountMaxRequestsInFlight: 0, // set below: its default follows maxRequestsInFlight
    failureBudget: readFailureBudget(read),
    tracing: readTracing(read),
    timeBudget: readTimeBudget(read, openai && { maxOutputTokens: openai.maxOutputTokens, maxRetries: openai.maxRetries, hasFallback: openai.fallback !== undefined }),
    snapRetentionDays: read.integer('SNAP_RETENTION_DAYS', 30, { min: 1, max: 3650 }),
    keepRequestTexts: read.boolean('KEEP_REQUEST_TEXTS', false),
  };
  config.maxRequestsInFlight = readMaxRequestsInFlight(read, config.databasePoolMax, config.openai?.maxSockets);
  config.accountMaxRequestsInFlight = readAccountMaxInFlight(read, config.maxRequestsInFlight);
  return Object.freeze(config);
}

