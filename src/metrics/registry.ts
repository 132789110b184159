/**
 * The service's Prometheus metrics, in a registry of its own (one per running server,
 * so servers started side by side in one process, as in tests, do not mix counts).
 * Parts are measured by decorators (see this folder), never from inside the domain.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Request latencies: from a cached 401 to a slow upstream call (30 s by default). */
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The service's own time per request: from half a millisecond (the target's p50 is 5 ms, its p99 50 ms) up. */
const OVERHEAD_BUCKETS_SECONDS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'operation' | 'status'>;
  httpRequestDuration: Histogram<'operation'>;
  httpRequestOverhead: Histogram<'operation'>;
  requestsInFlight: Gauge;
  requestsShed: Counter;
  failureBudgetRefusals: Counter<'operation'>;
  failuresCounted: Counter<'operation'>;
  upstreamRequestDuration: Histogram<'operation' | 'outcome'>;
  upstreamErrors: Counter<'operation'>;
  upstreamCalls: Counter<'operation' | 'upstream'>;
  upstreamTokens: Counter<'operation' | 'model' | 'kind' | 'upstream' | 'outcome' | 'source'>;
  upstreamUnreportedCalls: Counter<'operation' | 'upstream' | 'outcome'>;
  upstreamSkippedCalls: Counter<'then'>;
  upstreamSchemaMismatches: Counter<'operation' | 'upstream'>;
  predictionsRepaired: Counter<'rule'>;
  upstreamQueueDuration: Histogram<'upstream'>;
  creditsCharged: Counter<'operation'>;
  creditHoldsExpired: Counter;
  rateLimitedRequests: Counter<'policy'>;
  apiKeyLookups: Counter;
}

/** One upstream's sockets and calls (its transport's counts). */
export interface UpstreamSocketCounts {
  upstream: string;
  connected: number;
  running: number;
  queued: number;
}

/** What the gauges read when scraped, given by the composition root. */
export interface MetricSources {
  /** Each upstream's sockets; none with the embedded predictor. */
  upstreamSockets?(): UpstreamSocketCounts[];
  /** Credits held by calls in flight, counted in the database. */
  countActiveHolds(): Promise<number>;
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'credit_holds_active',
    help: 'Credits held by calls in flight, counted in the database: every instance reports the same total (take the max across instances, not the sum).',
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const held = await sources.countActiveHolds().catch(() => undefined); // the database is away: no sample rather than no metrics
      if (held !== undefined) this.set(held);
    },
  });
  new Gauge({
    name: 'upstream_sockets',
    help: 'Per upstream: open sockets (connected), calls sent and not yet answered (running), calls waiting for a socket (queued, bounded by OPENAI_MAX_SOCKETS).',
    labelNames: ['upstream', 'state'] as const,
    registers: [registry],
    collect() {
      for (const counts of sources.upstreamSockets?.() ?? []) {
        for (const state of ['connected', 'running', 'queued'] as const) this.set({ upstream: counts.upstream, state }, counts[state]);
      }
    },
  });
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'Public API responses by operationId ("unknown" for a route not in the spec) and status code.',
      labelNames: ['operation', 'status'] as const,
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Public API response time by operationId, from the first byte of the request to the last byte of the response.',
      labelNames: ['operation'] as const,
      buckets: LATENCY_BUCKETS_SECONDS,
      registers: [registry],
    }),
    httpRequestOverhead: new Histogram({
      name: 'http_request_overhead_seconds',
      help: "Public API responses by operationId: the service's own time per request, its total time minus the time its predictor calls took.",
      labelNames: ['operation'] as const,
      buckets: OVERHEAD_BUCKETS_SECONDS,
      registers: [registry],
    }),
    requestsInFlight: new Gauge({
      name: 'http_requests_in_flight',
      help: 'Public API requests admitted and not yet answered (bounded by MAX_REQUESTS_IN_FLIGHT per process).',
      registers: [registry],
    }),
    requestsShed: new Counter({
      name: 'http_requests_shed_total',
      help: 'Public API requests answered 503 at once because MAX_REQUESTS_IN_FLIGHT requests were already in flight.',
      registers: [registry],
    }),
    failureBudgetRefusals: new Counter({
      name: 'failure_budget_refusals_total',
      help: "Calls refused with 429 before any upstream call because their account's failed calls used up the failure budget of the window.",
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
    failuresCounted: new Counter({
      name: 'failure_budget_failures_total',
      help: "Failed predictor calls counted against their account's failure budget.",
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
    upstreamRequestDuration: new Histogram({
      name: 'upstream_request_duration_seconds',
      help: 'Predictor calls (OpenAI-compatible or embedded) by operation and outcome (success, error), retries included.',
      labelNames: ['operation', 'outcome'] as const,
      buckets: LATENCY_BUCKETS_SECONDS,
      registers: [registry],
    }),
    upstreamErrors: new Counter({
      name: 'upstream_errors_total',
      help: 'Predictor calls that failed as a whole (HTTP error, timeout, refusal, unusable output).',
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
    upstreamCalls: new Counter({
      name: 'upstream_calls_total',
      help: 'HTTP requests sent to an OpenAI-compatible upstream (primary or fallback), every retry counted.',
      labelNames: ['operation', 'upstream'] as const,
      registers: [registry],
    }),
    upstreamTokens: new Counter({
      name: 'upstream_tokens_total',
      help: "Tokens of upstream calls, by kind (prompt, completion), outcome (success; failure: paid all the same) and source (reported: the upstream's usage; estimated: an attempt without a usage report, failed or answered, prompt from what was sent, completion a token per streamed chunk that arrived).",
      labelNames: ['operation', 'model', 'kind', 'upstream', 'outcome', 'source'] as const,
      registers: [registry],
    }),
    upstreamUnreportedCalls: new Counter({
      name: 'upstream_unreported_calls_total',
      help: 'Upstream calls that ended without a usage report (aborted, timed out, connection lost, an HTTP error, or a server that sends no usage), by outcome: each is counted in upstream_tokens_total{source="estimated"} (one never sent: 0 tokens).',
      labelNames: ['operation', 'upstream', 'outcome'] as const,
      registers: [registry],
    }),
    upstreamSkippedCalls: new Counter({
      name: 'upstream_skipped_calls_total',
      help: 'Calls that did not try the primary upstream because its circuit breaker was open (OPENAI_BREAKER_FAILURES failures in a row), by what they did instead: then "fallback" (sent to the fallback) or "failed" (no fallback: the contract 500 at once, uncharged).',
      labelNames: ['then'] as const,
      registers: [registry],
    }),
    upstreamSchemaMismatches: new Counter({
      name: 'upstream_schema_mismatches_total',
      help: 'Upstream answers that did not match the JSON schema sent (the server ignored it); still mapped leniently.',
      labelNames: ['operation', 'upstream'] as const,
      registers: [registry],
    }),
    predictionsRepaired: new Counter({
      name: 'predictions_repaired_total',
      help: 'Snap answers held to the taxonomy before they were stored, by rule (name-decides-code, secondary-equals-primary, no-profile-no-secondary; openapi.yaml SnapResponse).',
      labelNames: ['rule'] as const,
      registers: [registry],
    }),
    upstreamQueueDuration: new Histogram({
      name: 'upstream_queue_seconds',
      help: 'Per upstream HTTP attempt: how long it waited for a socket (OPENAI_MAX_SOCKETS) before it was sent; not part of its attempt bound.',
      labelNames: ['upstream'] as const,
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    creditsCharged: new Counter({
      name: 'credits_charged_total',
      help: 'Credits charged, by the operationId that charged them.',
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
    creditHoldsExpired: new Counter({
      name: 'credit_holds_expired_total',
      help: 'Credit holds whose lease ran out (their process died mid-call), given back to their accounts by the sweeper.',
      registers: [registry],
    }),
    apiKeyLookups: new Counter({
      name: 'api_key_lookups_total',
      help: 'API-key lookups that reached the database: what the key cache did not answer (one per key at a time).',
      registers: [registry],
    }),
    rateLimitedRequests: new Counter({
      name: 'rate_limited_requests_total',
      help: 'Public API requests refused with 429 by a rate limit: the per-IP one (policy "ip") or the per-account one (policy "account").',
      labelNames: ['policy'],
      registers: [registry],
    }),
  };
}
