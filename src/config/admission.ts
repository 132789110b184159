/**
 * How many requests one process works on at once (docs/operations.md, "Overload"). Past the bound a
 * request is answered `503` with `Retry-After` at once, before any database work: an
 * early, cheap answer instead of a queue that every client waits in until it times out.
 *
 * The default follows what the process can actually serve at once. Each request needs
 * the database for a few short statements, so the pool serves many requests per
 * connection: `REQUESTS_PER_POOL_CONNECTION` of them per connection keep its queue a few
 * statements deep. A request with an upstream call also holds it for the call's whole
 * length, so the upstream's capacity is added on top: its sockets (OPENAI_MAX_SOCKETS),
 * the calls it can have in flight at once.
 */
import type { EnvReader } from './env-reader';

/** Requests per pooled database connection that the default admits. */
export const REQUESTS_PER_POOL_CONNECTION = 20;

/** Seconds a shed client is told to wait: a slot frees as soon as any request in flight ends. */
export const SHED_RETRY_AFTER_SECONDS = 1;

/** `upstreamSockets`: the upstream's sockets (calls in flight at once); undefined for the embedded predictor. */
export function defaultMaxRequestsInFlight(databasePoolMax: number, upstreamSockets: number | undefined): number {
  return databasePoolMax * REQUESTS_PER_POOL_CONNECTION + (upstreamSockets ?? 0);
}

export function readMaxRequestsInFlight(read: EnvReader, databasePoolMax: number, upstreamSockets: number | undefined): number {
  return read.integer('MAX_REQUESTS_IN_FLIGHT', defaultMaxRequestsInFlight(databasePoolMax, upstreamSockets), { min: 1, max: 1_000_000 });
}
