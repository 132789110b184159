/**
 * How long each route's upstream call may take (docs/upstream.md, "Pointing at an LLM"), derived
 * from its output-token bound so that the longest answer the bound allows can finish:
 *
 *   one attempt  = OPENAI_FIRST_TOKEN_SECONDS + bound ÷ OPENAI_MIN_TOKENS_PER_SECOND
 *   the primary  = (OPENAI_MAX_RETRIES + 1) attempts + OPENAI_MAX_RETRIES back-offs of up to 8 s
 *   the whole    = the primary's, twice with a fallback (the fallback gets as much)
 *
 * With the defaults (5 s to the first token, 50 tokens/s at the slowest) a snap attempt
 * (1,000 tokens) has 25 s and a comms attempt (4,000 tokens) 85 s. OPENAI_ATTEMPT_TIMEOUT_SECONDS
 * and OPENAI_TIMEOUT_SECONDS override the derivation for every route (an explicit whole is
 * shared by the primary's attempts, as before, never below what one needs), and startup refuses
 * a value that gives one attempt less time than its route's bound can take to generate.
 */
import { ConfigError } from './config-error';
import type { EnvReader } from './env-reader';
import type { OutputBounds } from './output-bounds';

type Route = keyof OutputBounds;

export interface RouteBudget {
  /** The whole call: every attempt, wait and the fallback. */
  timeoutSeconds: number;
  /** The primary's part of it (all of it without a fallback). */
  primarySeconds: number;
  /** One HTTP attempt, from when it is sent to the last byte of its body. */
  attemptTimeoutSeconds: number;
}

export type RouteBudgets = { readonly [route in Route]: RouteBudget };

/** The slowest generation the defaults plan for: a hosted model under load (docs/upstream.md). */
export const DEFAULT_MIN_TOKENS_PER_SECOND = 50;
/** Queueing at the server and reading the prompt, before the first token. */
export const DEFAULT_FIRST_TOKEN_SECONDS = 5;
/** The longest back-off between attempts without a Retry-After (upstream/openai/retry-policy.ts). */
export const RETRY_WAIT_SECONDS = 8;

const ROUTES: readonly Route[] = ['predictSnap', 'analyseComms'];
const ROUTE_NAMES: Record<Route, string> = { predictSnap: 'snap', analyseComms: 'comms' };

export interface BudgetInputs {
  maxOutputTokens: OutputBounds;
  maxRetries: number;
  hasFallback: boolean;
}

export function readRouteBudgets(read: EnvReader, inputs: BudgetInputs): RouteBudgets {
  const tokensPerSecond = read.number('OPENAI_MIN_TOKENS_PER_SECOND', DEFAULT_MIN_TOKENS_PER_SECOND, { min: 0.1, max: 1_000_000 });
  const firstTokenSeconds = read.number('OPENAI_FIRST_TOKEN_SECONDS', DEFAULT_FIRST_TOKEN_SECONDS, { min: 0, max: 3600 });
  const attemptSet = read.optionalString('OPENAI_ATTEMPT_TIMEOUT_SECONDS') === undefined ? undefined : read.number('OPENAI_ATTEMPT_TIMEOUT_SECONDS', 0, { min: 0.05, max: 3600 });
  const totalSet = read.optionalString('OPENAI_TIMEOUT_SECONDS') === undefined ? undefined : read.number('OPENAI_TIMEOUT_SECONDS', 0, { min: 0.1, max: 7200 });
  const { maxRetries, hasFallback } = inputs;

  const budgetOf = (route: Route): RouteBudget => {
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
      return { timeoutSeconds: hasFallback ? 2 * primary : primary, primarySeconds: primary, attemptTimeoutSeconds: attempt };
    }
    // An explicit whole: the primary's share is split over its attempts, never below what one needs.
    const share = hasFallback ? totalSet / 2 : totalSet;
    const attempt = attemptSet ?? Math.max(needed, share / (maxRetries + 1));
    const primary = (maxRetries + 1) * attempt + maxRetries * RETRY_WAIT_SECONDS;
    if (share < attempt) {
      const whole = hasFallback ? ' (with a fallback the primary gets half of it)' : '';
      throw new ConfigError('OPENAI_TIMEOUT_SECONDS', `must be at least ${round(hasFallback ? 2 * attempt : attempt)} (got ${totalSet}): one attempt must fit${whole}, and ${why}; ${fix}`);
    }
    return { timeoutSeconds: totalSet, primarySeconds: Math.min(primary, share), attemptTimeoutSeconds: attempt };
  };
  return Object.fromEntries(ROUTES.map((route) => [route, budgetOf(route)])) as unknown as RouteBudgets;
}

/** The longest whole call of any route: what shutdown, credit holds and leases must outlast. */
export function longestTimeoutSeconds(budgets: RouteBudgets): number {
  return Math.max(...ROUTES.map((route) => budgets[route].timeoutSeconds));
}

function round(seconds: number): number {
  return Math.ceil(seconds * 100) / 100;
}
