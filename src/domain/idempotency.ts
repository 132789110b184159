/**
 * Idempotency-Key (docs/api.md, "Calling the API"): within 24 hours a replay with the same key and body
 * returns the first success unchanged (rebuilt from the stored row) and charges nothing; the same key with another
 * body is 422; a replay while the first call runs is 409 with Retry-After. Failures release the key;
 * a claim is kept alive by its call (the repository renews it) and lapses soon after that call dies.
 */
import { createHash, randomUUID } from 'node:crypto';
import { AppError } from './app-error';
import { MESSAGES } from './messages';
import type { ClaimedKey, IdempotencyRepository } from './ports';

export interface Idempotent<T> {
  result: T;
  /** True when `result` is the stored response of an earlier call. */
  replayed: boolean;
}

export interface IdempotentCall {
  accountId: number;
  key: string | undefined;
  /** The operation and its input, as the caller sent them. */
  operation: string;
  input: unknown;
}

/**
 * Runs `work` once per key: `work` gets the claimed key, to be completed with the id of
 * the row it stores; a replay rebuilds the result from that row with `replay`. The claim
 * carries a token of this call, so that a call which outlived its lease (and lost the key
 * to another) can neither release nor complete the other's claim.
 */
export async function idempotently<T>(
  keys: IdempotencyRepository,
  call: IdempotentCall,
  work: (claimed: ClaimedKey | undefined) => Promise<T>,
  replay: (resultId: number) => Promise<T>,
): Promise<Idempotent<T>> {
  if (call.key === undefined) return { result: await work(undefined), replayed: false };
  const fingerprint = fingerprintOf(call.operation, call.input);
  const claimed = { key: call.key, owner: randomUUID() };
  const claim = await keys.claim(call.accountId, claimed, fingerprint);
  if (claim.status !== 'claimed' && claim.fingerprint !== fingerprint) {
    throw new AppError({ kind: 'idempotency_mismatch', message: MESSAGES.idempotencyMismatch });
  }
  if (claim.status === 'pending') throw inProgress(claim.retryAfterSeconds);
  if (claim.status === 'completed') return { result: await replay(claim.resultId), replayed: true };
  try {
    return { result: await work(claimed), replayed: false };
  } catch (error) {
    // A release the database did not take is retried by the repository once it answers.
    await keys.release(call.accountId, claimed).catch(() => undefined);
    throw error;
  } finally {
    keys.ended(call.accountId, claimed);
  }
}

/** A claim not renewed for this long is taken over: its call died. */
export const CLAIM_LIVENESS_SECONDS = 15;

/**
 * Another call holds the key: it is still running (or took the key over from this one).
 * `retryAfterSeconds`: within how long the key is free if that call has died.
 */
export function inProgress(retryAfterSeconds = CLAIM_LIVENESS_SECONDS): AppError {
  return new AppError({ kind: 'conflict', message: MESSAGES.idempotencyInProgress, retryAfterSeconds });
}

/** SHA-256 of the operation and its input; the input is built by us, so its JSON is canonical. */
function fingerprintOf(operation: string, input: unknown): string {
  return createHash('sha256').update(operation).update('\n').update(JSON.stringify(input)).digest('hex');
}
