/**
 * How long one paid call can run at most, and what is derived from it (docs/credit-holds.md): `OPENAI_TIMEOUT_SECONDS` bounds the whole upstream call, retries and
 * their back-off included; storing the result may then wait for a pooled connection
 * (5 s at most) and run its statement. A shutdown waits that long for calls in flight.
 */
import type { OpenAiConfig } from './upstream';

/** What the budget reads of the configuration. */
type Upstream = { openai: Pick<OpenAiConfig, 'timeoutSeconds'> | undefined };

/** After the upstream call: a pool wait of up to 5 s, the charging statement, and a margin. */
const STORE_SECONDS = 15;

/** The upstream bound (none for the embedded predictor) plus the time to store the result. */
export function longestCallSeconds(openai: { timeoutSeconds: number } | undefined): number {
  return Math.ceil(openai?.timeoutSeconds ?? 0) + STORE_SECONDS;
}

/** A hold outlives any call, so only the hold of a process that died is ever returned. */
export function creditHoldLeaseSeconds(config: Upstream): number {
  return longestCallSeconds(config.openai);
}

/** The sweeper looks four times per lease (1 s to 30 s apart): a dead process's holds come back within 1.25 leases. */
export function sweepIntervalMs(config: Upstream): number {
  return Math.min(30, Math.max(1, creditHoldLeaseSeconds(config) / 4)) * 1000;
}
