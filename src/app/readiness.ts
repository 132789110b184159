/**
 * Readiness (GET /readyz): can this process serve requests? Every dependency it needs
 * is probed at once, each within `timeoutMs`, so a hung dependency answers "not
 * ready" quickly instead of hanging the probe.
 *
 * PostgreSQL is required: without it nothing can be served (503). It answers when any
 * statement of the process was answered within RECENT_ANSWER_MS, else when a `select 1`
 * is answered now: a pool busy with the requests' statements is not an outage, and a probe
 * queued behind them for a connection would take every instance out of its Service at
 * once under the same burst, which admission control sheds instead. Redis is not: without
 * it the rate limit is counted in this process and the service keeps serving, so a
 * Redis outage is `degraded` (200) and never takes every instance out of a load
 * balancer at once.
 */
import type { Knex } from 'knex';
import type { Services } from './services';
import { withTimeout } from '../support/with-timeout';

import type { CheckState, Readiness } from '../http/routes/ops-routes';

export interface Probe {
  check: () => Promise<unknown>;
  /** The process serves without it (worse): its failure is `degraded`, not `unavailable`. */
  optional?: boolean;
}

export type Probes = Record<string, Probe>;

/** How recent an answer to any statement shows PostgreSQL answering: the chart probes every 5 s. */
export const RECENT_ANSWER_MS = 10_000;

/**
 * PostgreSQL (a recent answer, or `select 1`); Redis (PING, and the rate limit counted there) when REDIS_URL
 * is set; with an OpenAI-compatible upstream, whether its latest call got an answer
 * (metrics/upstream-health.ts): `degraded` when not, never `unavailable`: another
 * instance would call the same upstream, so draining this one would help nothing.
 */
export function readinessProbes(services: Pick<Services, 'db' | 'rateLimit' | 'upstreamHealth'>): Probes {
  const { ping } = services.rateLimit;
  const { upstreamHealth } = services;
  return {
    postgresql: { check: databaseAnswers(services.db) },
    ...(ping ? { redis: { check: ping, optional: true } } : {}),
    ...(upstreamHealth ? { upstream: { check: () => upstreamHealth.check(), optional: true } } : {}),
  };
}

/** PostgreSQL answered a statement of this process within RECENT_ANSWER_MS, or answers `select 1` now. */
function databaseAnswers(db: Knex): () => Promise<void> {
  let answeredAt = -Infinity;
  db.on('query-response', () => {
    answeredAt = performance.now();
  });
  return async () => {
    if (performance.now() - answeredAt < RECENT_ANSWER_MS) return;
    await db.raw('select 1');
  };
}

export interface ReadinessOptions {
  timeoutMs?: number;
  /** Told why a check failed (the body says only which). */
  onFailure?: (check: string, err: unknown) => void;
}

export async function checkReadiness(probes: Probes, options: ReadinessOptions = {}): Promise<Readiness> {
  const { timeoutMs = 1000, onFailure } = options;
  const entries = Object.entries(probes);
  const results = await Promise.allSettled(entries.map(([, probe]) => withTimeout(Promise.resolve().then(probe.check), timeoutMs)));
  const checks: Record<string, CheckState> = {};
  entries.forEach(([name, probe], i) => {
    const result = results[i];
    checks[name] = result?.status === 'fulfilled' ? 'ok' : probe.optional ? 'degraded' : 'unavailable';
    if (result?.status === 'rejected') onFailure?.(name, result.reason);
  });
  const states = Object.values(checks);
  const status = states.includes('unavailable') ? 'unavailable' : states.includes('degraded') ? 'degraded' : 'ok';
  return { status, checks };
}
