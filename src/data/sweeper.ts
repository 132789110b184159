/**
 * The sweeper (docs/credit-holds.md), run by every instance: gives back the credits of
 * holds whose lease ran out (their process died mid-call), deletes idempotency keys
 * past their 24 hours, and deletes the snaps older than the retention (with their comms
 * analyses and replays, result-deletion.ts; docs/privacy.md). Work is done in small
 * batches, each one short statement that locks only the rows it takes; `FOR UPDATE SKIP
 * LOCKED` lets any number of instances sweep at once without returning a hold twice or
 * waiting for each other.
 */
import type { Knex } from 'knex';
import { toNumber } from './database';
import { ACCOUNT_ROW_LOCK } from './account-row-lock';
import { deleteSelectedSnaps, type Deleted, type SnapSelection } from './result-deletion';

/** Rows per statement, and statements per kind and pass: a pass never holds locks for long. */
const BATCH_ROWS = 200;
const MAX_BATCHES_PER_PASS = 25;

export interface SweepResult {
  holdsReturned: number;
  idempotencyKeysDeleted: number;
  /** Snaps past the retention, deleted with their analyses and replays. */
  expired: Deleted;
}

export interface SweeperOptions {
  intervalMs: number;
  /** Snaps (with their analyses and replays) are deleted this many days after they were created. */
  retentionDays: number;
  onSwept(result: SweepResult): void;
  onError(error: unknown): void;
}

/** Returns up to `limit` expired holds to their accounts; how many it returned. */
export async function returnExpiredHolds(db: Knex, limit = BATCH_ROWS): Promise<number> {
  const result = await db.raw(
    `WITH expired AS (
       SELECT id FROM credit_holds WHERE expires_at < now()
       ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED
     ), returned AS (
       DELETE FROM credit_holds USING expired WHERE credit_holds.id = expired.id
       RETURNING credit_holds.account_id
     ), per_account AS (
       SELECT account_id, count(*) AS n FROM returned GROUP BY account_id
     ), locked AS (
       SELECT accounts.id, per_account.n FROM accounts JOIN per_account ON per_account.account_id = accounts.id
       ORDER BY accounts.id ${ACCOUNT_ROW_LOCK} OF accounts
     ), credited AS (
       UPDATE accounts SET credits = credits + locked.n, updated_at = now()
       FROM locked WHERE accounts.id = locked.id
       RETURNING locked.n
     )
     SELECT coalesce(sum(n), 0) AS returned FROM credited`,
    [limit],
  );
  return toNumber((result.rows as { returned: unknown }[])[0]?.returned ?? 0);
}

/** Deletes up to `limit` idempotency keys past their expiry; how many it deleted. */
export async function deleteExpiredIdempotencyKeys(db: Knex, limit = BATCH_ROWS): Promise<number> {
  const result = await db.raw(
    `WITH expired AS (
       SELECT account_id, key FROM idempotency_keys WHERE expires_at < now()
       LIMIT ? FOR UPDATE SKIP LOCKED
     ), deleted AS (
       DELETE FROM idempotency_keys USING expired
       WHERE idempotency_keys.account_id = expired.account_id AND idempotency_keys.key = expired.key
       RETURNING 1
     )
     SELECT count(*) AS deleted FROM deleted`,
    [limit],
  );
  return toNumber((result.rows as { deleted: unknown }[])[0]?.deleted ?? 0);
}

/** The snaps created more than `retentionDays` ago. */
export function expiredSnaps(retentionDays: number): SnapSelection {
  return { sql: 's.created_at < now() - make_interval(days => ?)', bindings: [retentionDays] };
}

/** Deletes, up to the pass's bound, the snaps past the retention with their analyses and replays. */
export function deleteExpiredResults(db: Knex, retentionDays: number, limit = BATCH_ROWS): Promise<Deleted> {
  return deleteSelectedSnaps(db, expiredSnaps(retentionDays), limit, MAX_BATCHES_PER_PASS);
}

export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Knex,
    private readonly options: SweeperOptions,
  ) {}

  /** Sweeps at once (a restarted instance returns what its predecessor left), then every interval. */
  start(): void {
    this.pass();
    this.timer = setInterval(() => this.pass(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a pass under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass: every expired hold, key and result, batch by batch, up to the pass's bound. */
  async sweepOnce(): Promise<SweepResult> {
    return {
      holdsReturned: await repeatWhileFull(() => returnExpiredHolds(this.db)),
      idempotencyKeysDeleted: await repeatWhileFull(() => deleteExpiredIdempotencyKeys(this.db)),
      expired: await deleteExpiredResults(this.db, this.options.retentionDays),
    };
  }

  private pass(): void {
    if (this.running) return;
    this.running = this.sweepOnce()
      .then((result) => this.options.onSwept(result), this.options.onError)
      .finally(() => {
        this.running = undefined;
      });
  }
}

async function repeatWhileFull(batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES_PER_PASS; i += 1) {
    const done = await batch();
    total += done;
    if (done < BATCH_ROWS) break;
  }
  return total;
}
