/**
 * How many requests one process works on at once (docs/operations.md, "Overload"). Past the bound a
 * request is answered `503` with `Retry-After` at once, before any database work: an
 * early, cheap answer instead of a queue that every client waits in until it times out.
 *
 * The default follows what the process can actually serve at once. Each request needs
 * the database for a few short statements, so the pool serves many requests per
 * connection: `REQUESTS_PER_POOL_CONNECTION` of them per connection keep its queue a few
 * statements deep. With an upstream, admission is also bounded by its sockets
 * (OPENAI_MAX_SOCKETS): a request holds one for its call's whole length, and an admitted
 * request that waited for a socket would spend its call's time bound in that queue and
 * fail after the upstream had received it (docs/decisions.md). A bound above the
 * sockets is refused at start-up.
 */
import { ConfigError } from './config-error';
import type { EnvReader } from './env-reader';

/** Requests per pooled database connection that the default admits. */
export const REQUESTS_PER_POOL_CONNECTION = 20;

/** Seconds a shed client is told to wait: a slot frees as soon as any request in flight ends. */
export const SHED_RETRY_AFTER_SECONDS = 1;

/** `upstreamSockets`: the upstream's sockets (calls in flight at once); undefined for the embedded predictor. */
export function defaultMaxRequestsInFlight(databasePoolMax: number, upstreamSockets: number | undefined): number {
  const forThePool = databasePoolMax * REQUESTS_PER_POOL_CONNECTION;
  return upstreamSockets === undefined ? forThePool : Math.min(forThePool, upstreamSockets);
}

export function readMaxRequestsInFlight(read: EnvReader, databasePoolMax: number, upstreamSockets: number | undefined): number {
  const bound = read.integer('MAX_REQUESTS_IN_FLIGHT', defaultMaxRequestsInFlight(databasePoolMax, upstreamSockets), { min: 1, max: 1_000_000 });
  if (upstreamSockets !== undefined && bound > upstreamSockets) {
    throw new ConfigError(
      'MAX_REQUESTS_IN_FLIGHT',
      `must be at most OPENAI_MAX_SOCKETS (${upstreamSockets}) with an upstream (got ${bound}): an admitted request beyond the sockets would wait for one and could spend its call's time bound in that queue; raise OPENAI_MAX_SOCKETS or lower MAX_REQUESTS_IN_FLIGHT`,
    );
  }
  return bound;
}

/**
 * How many of its requests one account may have in flight in one process: by default half
 * the process's bound (at least one), so that another account always finds a slot.
 */
export function readAccountMaxInFlight(read: EnvReader, maxRequestsInFlight: number): number {
  return read.integer('ACCOUNT_MAX_REQUESTS_IN_FLIGHT', Math.max(1, Math.floor(maxRequestsInFlight / 2)), { min: 1, max: 1_000_000 });
}
