/**
 * Readiness (GET /readyz): can this process serve requests? Every dependency it needs
 * is probed at once, each within `timeoutMs`, so a hung dependency answers "not
 * ready" quickly instead of hanging the probe.
 */
import type { Services } from './services';
import { withTimeout } from './with-timeout';

export type CheckState = 'ok' | 'unavailable';

export interface Readiness {
  status: CheckState;
  checks: Record<string, CheckState>;
}

export type Probes = Record<string, () => Promise<unknown>>;

/** PostgreSQL (`select 1`), and Redis (PING) when the rate limit is kept there. */
export function readinessProbes(services: Pick<Services, 'db' | 'rateLimit'>): Probes {
  const { ping } = services.rateLimit;
  return {
    postgresql: async () => {
      await services.db.raw('select 1');
    },
    ...(ping ? { redis: ping } : {}),
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
  const results = await Promise.allSettled(entries.map(([, probe]) => withTimeout(Promise.resolve().then(probe), timeoutMs)));
  const checks: Record<string, CheckState> = {};
  entries.forEach(([name], i) => {
    const result = results[i];
    checks[name] = result?.status === 'fulfilled' ? 'ok' : 'unavailable';
    if (result?.status === 'rejected') onFailure?.(name, result.reason);
  });
  return { status: Object.values(checks).every((state) => state === 'ok') ? 'ok' : 'unavailable', checks };
}
