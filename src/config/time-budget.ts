/**
 * The time budget (docs/upstream.md, "Pointing at an LLM"), computed once at start-up and passed
 * down as it is: each layer reads its own figure and derives none.
 *
 * Each route's upstream call is derived from its output-token bound, so that the longest
 * answer the bound allows can finish:
 *
 *   one attempt  = OPENAI_FIRST_TOKEN_SECONDS + bound ÷ OPENAI_MIN_TOKENS_PER_SECOND
 *   the primary  = (OPENAI_MAX_RETRIES + 1) attempts + OPENAI_MAX_RETRIES back-offs of up to 8 s
 *   the whole    = the primary's, twice with a fallback (the fallback gets as much)
 *
 * With the defaults (5 s to the first token, 50 tokens/s at the slowest) a snap attempt
 * (1,000 tokens) has 25 s and a comms attempt (4,000 tokens) 85 s. OPENAI_ATTEMPT_TIMEOUT_SECONDS
 * and OPENAI_TIMEOUT_SECONDS override the derivation for every route (an explicit whole is
 * shared by the primary's attempts, never below what one needs), and startup refuses a
 * value that gives one attempt less time than its route's bound can take to generate.
 *
 * A paid call is its longest upstream call plus 15 s to store the result (a pool wait of
 * up to 5 s and the statement, which waits at most STATEMENT_SECONDS for its answer); a
 * credit hold's lease is that long, the sweeper looks four times per lease, and a shutdown
 * waits at least that long for calls in flight.
 */
import { ConfigError } from './config-error';
import type { EnvReader } from './env-reader';
import type { OutputBounds } from './output-bounds';

type Route = keyof OutputBounds;

/** One upstream's part of a route's call. */
export interface UpstreamBudget {
  /** All its attempts and the waits between them. */
  callMs: number;
  /** One HTTP attempt, from when it is sent to the last byte of its body. */
  attemptMs: number;
}

export type PerRoute<T> = { readonly [route in Route]: T };

/** The upstream calls' times; the fallback's only with a fallback. */
export interface UpstreamTimes {
  /** Per route, the whole upstream call: every attempt, wait and the fallback. */
  wholeMs: PerRoute<number>;
  /** The primary's part of each route's call (all of it without a fallback). */
  primary: PerRoute<UpstreamBudget>;
  /** The fallback's: as long as the whole; the whole call's deadline cuts it to what the primary left. */
  fallback: PerRoute<UpstreamBudget> | undefined;
}

export interface TimeBudget {
  /** Undefined with the embedded predictor, which makes no upstream call. */
  upstream: UpstreamTimes | undefined;
  /** The longest whole upstream call of any route (0 without an upstream). */
  longestUpstreamMs: number;
  /** The longest paid call: that, plus storing its result. */
  longestCallMs: number;
  /** How long a credit hold is kept for its call (whole seconds: the hold statement's unit). */
  holdLeaseSeconds: number;
  /** How often the sweeper returns expired holds. */
  sweepIntervalMs: number;
  /** How long a shutdown waits for calls in flight (SHUTDOWN_TIMEOUT_SECONDS). */
  shutdownMs: number;
  /** How long a statement of the running service waits for its answer (database.ts, `boundStatements`). */
  statementMs: number;
}

/** What the budget reads of the upstream's settings; undefined with the embedded predictor. */
export interface BudgetInputs {
  maxOutputTokens: OutputBounds;
  maxRetries: number;
  hasFallback: boolean;
}

/** The slowest generation the defaults plan for: a hosted model under load (docs/upstream.md). */
export const DEFAULT_MIN_TOKENS_PER_SECOND = 50;
/** Queueing at the server and reading the prompt, before the first token. */
export const DEFAULT_FIRST_TOKEN_SECONDS = 5;
/** The longest back-off between attempts without a Retry-After (upstream/openai/retry-policy.ts). */
export const RETRY_WAIT_SECONDS = 8;
/**
 * How long a statement waits for PostgreSQL's answer before its connection is given up: the
 * paid call's statements take milliseconds, and a connection whose answers stopped (a
 * failover without a reset, a dropped NAT entry) would otherwise hold its pool slot for good.
 */
export const STATEMENT_SECONDS = 5;
/** After the upstream call: a pool wait of up to 5 s, the charging statement (at most STATEMENT_SECONDS), and a margin. */
const STORE_SECONDS = 15;

const ROUTES: readonly Route[] = ['predictSnap', 'analyseComms'];
const ROUTE_NAMES: Record<Route, string> = { predictSnap: 'snap', analyseComms: 'comms' };

export function readTimeBudget(read: EnvReader, upstream: BudgetInputs | undefined): TimeBudget {
  const routes = upstream && readRouteSeconds(read, upstream);

  const longestUpstreamSeconds = routes ? Math.max(...ROUTES.map((route) => routes[route].whole)) : 0;
  const longestCallSeconds = Math.ceil(longestUpstreamSeconds) + STORE_SECONDS;
  const shutdownSeconds = read.number('SHUTDOWN_TIMEOUT_SECONDS', longestCallSeconds, { min: 0, max: 3600 });
  if (shutdownSeconds < longestCallSeconds) {
    const bound = upstream ? `OPENAI_TIMEOUT_SECONDS (${longestUpstreamSeconds})` : 'no upstream timeout (embedded predictor)';
    throw new ConfigError(
      'SHUTDOWN_TIMEOUT_SECONDS',
      `must be at least ${longestCallSeconds} (got ${shutdownSeconds}): ${bound} plus ${STORE_SECONDS} s to store the result, so that a shutdown lets paid calls in flight finish`,
    );
  }
  return {
    upstream: upstream && routes ? upstreamTimes(routes, upstream.hasFallback) : undefined,
    longestUpstreamMs: ms(longestUpstreamSeconds),
    longestCallMs: longestCallSeconds * 1000,
    // A hold outlives any call, so only the hold of a process that died is ever returned.
    holdLeaseSeconds: longestCallSeconds,
    // Four looks per lease (1 s to 30 s apart): a dead process's holds come back within 1.25 leases.
    sweepIntervalMs: Math.min(30, Math.max(1, longestCallSeconds / 4)) * 1000,
    shutdownMs: ms(shutdownSeconds),
    statementMs: STATEMENT_SECONDS * 1000,
  };
}

interface RouteSeconds {
  whole: number;
  primary: number;
  attempt: number;
}

function readRouteSeconds(read: EnvReader, inputs: BudgetInputs): Record<Route, RouteSeconds> {
  const tokensPerSecond = read.number('OPENAI_MIN_TOKENS_PER_SECOND', DEFAULT_MIN_TOKENS_PER_SECOND, { min: 0.1, max: 1_000_000 });
  const firstTokenSeconds = read.number('OPENAI_FIRST_TOKEN_SECONDS', DEFAULT_FIRST_TOKEN_SECONDS, { min: 0, max: 3600 });
  const attemptSet = read.optionalString('OPENAI_ATTEMPT_TIMEOUT_SECONDS') === undefined ? undefined : read.number('OPENAI_ATTEMPT_TIMEOUT_SECONDS', 0, { min: 0.05, max: 3600 });
  const totalSet = read.optionalString('OPENAI_TIMEOUT_SECONDS') === undefined ? undefined : read.number('OPENAI_TIMEOUT_SECONDS', 0, { min: 0.1, max: 7200 });
  const { maxRetries, hasFallback } = inputs;

  const secondsOf = (route: Route): RouteSeconds => {
    const tokens = inputs.maxOutputTokens[route];
    const needed = firstTokenSeconds + tokens / tokensPerSecond;
    const why = `the ${ROUTE_NAMES[route]} route's bound of ${tokens} output tokens (OPENAI_MAX_OUTPUT_TOKENS) can take ${round(needed)} s at OPENAI_MIN_TOKENS_PER_SECOND (${tokensPerSecond}) after OPENAI_FIRST_TOKEN_SECONDS (${firstTokenSeconds})`;
    const fix = 'raise it, lower OPENAI_MAX_OUTPUT_TOKENS, or state the server\'s real slowest speed in OPENAI_MIN_TOKENS_PER_SECOND';
    if (attemptSet !== undefined && attemptSet < needed) {
      throw new ConfigError('OPENAI_ATTEMPT_TIMEOUT_SECONDS', `must be at least ${round(needed)} (got ${attemptSet}): ${why}; ${fix}`);
    }
    if (totalSet === undefined) {
      const attempt = attemptSet ?? needed;
      const primary = (maxRetries + 1) * attempt + maxRetries * RETRY_WAIT_SECONDS;
      return { whole: hasFallback ? 2 * primary : primary, primary, attempt };
    }
    // An explicit whole: the primary's share is split over its attempts, never below what one needs.
    const share = hasFallback ? totalSet / 2 : totalSet;
    const attempt = attemptSet ?? Math.max(needed, share / (maxRetries + 1));
    const primary = (maxRetries + 1) * attempt + maxRetries * RETRY_WAIT_SECONDS;
    if (share < attempt) {
      const whole = hasFallback ? ' (with a fallback the primary gets half of it)' : '';
      throw new ConfigError('OPENAI_TIMEOUT_SECONDS', `must be at least ${round(hasFallback ? 2 * attempt : attempt)} (got ${totalSet}): one attempt must fit${whole}, and ${why}; ${fix}`);
    }
    return { whole: totalSet, primary: Math.min(primary, share), attempt };
  };
  return { predictSnap: secondsOf('predictSnap'), analyseComms: secondsOf('analyseComms') };
}

function upstreamTimes(routes: Record<Route, RouteSeconds>, hasFallback: boolean): UpstreamTimes {
  const each = <T>(pick: (seconds: RouteSeconds) => T): PerRoute<T> => ({ predictSnap: pick(routes.predictSnap), analyseComms: pick(routes.analyseComms) });
  return {
    wholeMs: each(({ whole }) => ms(whole)),
    primary: each(({ whole, primary, attempt }) => ({ callMs: ms(hasFallback ? primary : whole), attemptMs: ms(attempt) })),
    fallback: hasFallback ? each(({ whole, attempt }) => ({ callMs: ms(whole), attemptMs: ms(attempt) })) : undefined,
  };
}

/** Whole milliseconds, at least 1 (what timers take). */
function ms(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}

function round(seconds: number): number {
  return Math.ceil(seconds * 100) / 100;
}
