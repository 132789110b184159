/**
 * Idempotency-Key (docs/api.md, "Calling the API"): within 24 hours a replay with the same key and body
 * returns the first success unchanged (rebuilt from the stored row) and charges nothing; the same key with another
 * body is 422; a replay while the first call runs is 409 with Retry-After. Failures release the key;
 * a claim is kept alive by its call (the repository renews it) and lapses soon after that call dies,
 * or when the database refuses its renewals for longer than the lapse (an outage of about 15 s):
 * a retry may then take the key over and call the upstream while the first call still runs;
 * only one of them can complete the key and charge (the charge checks the claim under its row lock).
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

/** The key this call claimed (none without a key), or the stored row of the earlier call it replays. */
export type KeyClaim = { claimed: ClaimedKey | undefined; replayOf?: undefined } | { claimed?: undefined; replayOf: number };

/**
 * Claims the call's key, or refuses: the same key with another body is 422, a key whose
 * call still runs is 409. The claim carries a token of this call, so that a call which
 * outlived its lease (and lost the key to another) can neither release nor complete the
 * other's claim. Whoever claimed it releases it on failure and tells the repository when
 * the call ended (paid-call.ts).
 */
export async function claimKey(keys: IdempotencyRepository, call: IdempotentCall): Promise<KeyClaim> {
  if (call.key === undefined) return { claimed: undefined };
  const fingerprint = fingerprintOf(call.operation, call.input);
  const claimed = { key: call.key, owner: randomUUID() };
  const claim = await keys.claim(call.accountId, claimed, fingerprint);
  if (claim.status !== 'claimed' && claim.fingerprint !== fingerprint) {
    throw new AppError({ kind: 'idempotency_mismatch', message: MESSAGES.idempotencyMismatch });
  }
  if (claim.status === 'pending') throw inProgress(claim.retryAfterSeconds);
  if (claim.status === 'completed') return { replayOf: claim.resultId };
  return { claimed };
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
