/**
 * Idempotency-Key claims in PostgreSQL. A claim is honoured while its call lives: this
 * process renews the claims of its calls in flight every `heartbeatMs` (one statement for
 * all of them), and a `pending` claim not renewed for CLAIM_LIVENESS_SECONDS is taken over
 * by the next call with that key: after a crash (kill -9) the key is free within that time,
 * not after the longest call. A release the database did not take (it was down when the
 * call failed) is tried again every `retryReleaseMs` until it does, so the retry the
 * contract promises after a 503 runs as soon as the database answers again.
 */
import type { Knex } from 'knex';
import { toNumber } from './database';
import { CLAIM_LIVENESS_SECONDS } from '../domain/idempotency';
import type { ClaimedKey, IdempotencyClaim, IdempotencyRepository } from '../domain/ports';

const KEEP_HOURS = 24;
/** Claims renewed per statement. */
const RENEW_BATCH = 500;
/** A failed release is given up once its claim has lapsed anyway (no call renews it). */
const RETRY_RELEASE_FOR_MS = 2 * CLAIM_LIVENESS_SECONDS * 1000;

export interface IdempotencyTimings {
  /** How often the claims of calls in flight are renewed (well within CLAIM_LIVENESS_SECONDS). */
  heartbeatMs: number;
  /** How often a release the database did not take is tried again. */
  retryReleaseMs: number;
}

interface Held {
  accountId: number;
  claimed: ClaimedKey;
}

export class KnexIdempotencyRepository implements IdempotencyRepository {
  /** Claims of this process's calls in flight, by owner token. */
  private readonly live = new Map<string, Held>();
  /** Releases the database did not take, by owner token, with when to give up. */
  private readonly unreleased = new Map<string, Held & { until: number }>();
  private readonly timers: NodeJS.Timeout[] = [];
  private renewing: Promise<void> | undefined;
  private retrying: Promise<void> | undefined;

  constructor(
    private readonly db: Knex,
    private readonly timings: IdempotencyTimings = { heartbeatMs: 5000, retryReleaseMs: 1000 },
  ) {}

  async claim(accountId: number, claimed: ClaimedKey, fingerprint: string): Promise<IdempotencyClaim> {
    const { key, owner } = claimed;
    // A free, expired or abandoned key is claimed by the insert (or its update); a key
    // held by a live or finished call is left alone and read back below. Two tries
    // cover the row being released between the two statements.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const taken = await this.db.raw(
        `INSERT INTO idempotency_keys (account_id, key, fingerprint, owner, state, locked_at, expires_at)
         VALUES (?, ?, ?, ?, 'pending', now(), now() + make_interval(hours => ?))
         ON CONFLICT (account_id, key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, owner = EXCLUDED.owner, state = 'pending', result_id = NULL, result_table = NULL,
               locked_at = EXCLUDED.locked_at, expires_at = EXCLUDED.expires_at
           WHERE idempotency_keys.expires_at < now()
              OR (idempotency_keys.state = 'pending' AND idempotency_keys.locked_at < now() - make_interval(secs => ?))
         RETURNING 1`,
        [accountId, key, fingerprint, owner, KEEP_HOURS, CLAIM_LIVENESS_SECONDS],
      );
      if (taken.rows.length > 0) {
        this.live.set(owner, { accountId, claimed });
        return { status: 'claimed' };
      }
      const held = await this.db('idempotency_keys')
        .select(
          'fingerprint',
          'state',
          'result_id',
          this.db.raw('ceil(extract(epoch from locked_at + make_interval(secs => ?) - now())) as lapses_in', [CLAIM_LIVENESS_SECONDS]),
        )
        .where({ account_id: accountId, key })
        .first();
      if (held?.state === 'completed') return { status: 'completed', fingerprint: held.fingerprint, resultId: toNumber(held.result_id) };
      if (held) return { status: 'pending', fingerprint: held.fingerprint, retryAfterSeconds: retryAfter(held.lapses_in) };
    }
    return { status: 'pending', fingerprint, retryAfterSeconds: CLAIM_LIVENESS_SECONDS };
  }

  async release(accountId: number, claimed: ClaimedKey): Promise<void> {
    try {
      await this.deleteClaim(accountId, claimed);
    } catch (err) {
      this.unreleased.set(claimed.owner, { accountId, claimed, until: Date.now() + RETRY_RELEASE_FOR_MS });
      throw err;
    }
  }

  ended(_accountId: number, claimed: ClaimedKey): void {
    this.live.delete(claimed.owner);
  }

  /** Starts renewing live claims and retrying failed releases. */
  start(): void {
    this.timers.push(setInterval(() => void this.renewLive(), this.timings.heartbeatMs));
    this.timers.push(setInterval(() => void this.retryReleases(), this.timings.retryReleaseMs));
    for (const timer of this.timers) timer.unref();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await Promise.all([this.renewing, this.retrying]);
  }

  /** Releases still waiting for the database (a test hook, and what a shutdown would lose). */
  unreleasedCount(): number {
    return this.unreleased.size;
  }

  /** One statement per RENEW_BATCH claims: `locked_at = now()` for each that is still this call's and pending. */
  renewLive(): Promise<void> {
    this.renewing ??= this.renewAll().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /** Tries each release the database did not take once more. */
  retryReleases(): Promise<void> {
    this.retrying ??= this.retryAll().finally(() => {
      this.retrying = undefined;
    });
    return this.retrying;
  }

  private async renewAll(): Promise<void> {
    try {
      const held = [...this.live.values()];
      for (let i = 0; i < held.length; i += RENEW_BATCH) {
        const batch = held.slice(i, i + RENEW_BATCH);
        await this.db.raw(
          `UPDATE idempotency_keys AS i SET locked_at = now()
           FROM (VALUES ${batch.map(() => '(?::bigint, ?::text, ?::text)').join(', ')}) AS l(account_id, key, owner)
           WHERE i.account_id = l.account_id AND i.key = l.key AND i.owner = l.owner AND i.state = 'pending'`,
          batch.flatMap(({ accountId, claimed }) => [accountId, claimed.key, claimed.owner]),
        );
      }
    } catch {
      // The database did not answer: the next beat tries again, well within the liveness.
    }
  }

  private async retryAll(): Promise<void> {
    try {
      for (const [owner, { accountId, claimed, until }] of this.unreleased) {
        if (Date.now() > until) {
          this.unreleased.delete(owner);
          continue;
        }
        await this.deleteClaim(accountId, claimed);
        this.unreleased.delete(owner);
      }
    } catch {
      // Still down: the next pass tries again.
    }
  }

  private async deleteClaim(accountId: number, { key, owner }: ClaimedKey): Promise<void> {
    await this.db('idempotency_keys').where({ account_id: accountId, key, owner, state: 'pending' }).delete();
  }
}

/** At least a second: a claim that lapses now is taken by the retry's own claim. */
function retryAfter(lapsesIn: unknown): number {
  const seconds = toNumber(lapsesIn ?? CLAIM_LIVENESS_SECONDS);
  return Math.min(CLAIM_LIVENESS_SECONDS, Math.max(1, Number.isFinite(seconds) ? seconds : CLAIM_LIVENESS_SECONDS));
}
