/**
 * Group commit: charging statements that arrive within `maxWaitMs` of each other share
 * one transaction, so one commit serves many requests. Each statement still charges its
 * own account once and each caller gets its own result, only after the commit.
 *
 * - A lone statement runs on its own (no BEGIN/COMMIT round trips for nothing).
 * - Statements run in account order, so two batches always lock accounts in the same
 *   order and cannot deadlock each other.
 * - If a statement of the shared transaction fails, nothing of it was committed: every
 *   statement of the batch is then run on its own, so one bad statement fails only its
 *   own request. If the commit itself fails, its outcome is unknown (as for any commit
 *   whose answer is lost), so nothing is run again: every request of the batch fails.
 */
import type { Knex } from 'knex';
import { Batcher, type BatchOptions } from './batcher';

export type Executor = Knex | Knex.Transaction;

interface Pending {
  accountId: number;
  work: (db: Executor) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

export class GroupCommit {
  private readonly batcher: Batcher<Pending>;

  constructor(
    private readonly db: Knex,
    options: BatchOptions = { maxWaitMs: 1, maxBatch: 32 },
  ) {
    this.batcher = new Batcher((batch) => this.flush(batch), options);
  }

  /** Runs `work` (one statement for `accountId`) in the next batch; resolves after its commit. */
  run<T>(accountId: number, work: (db: Executor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.batcher.add({ accountId, work, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private flush(queued: Pending[]): void {
    const batch = queued.sort((a, b) => a.accountId - b.accountId);
    if (batch.length === 1) void this.runAlone(batch[0] as Pending);
    else void this.commitTogether(batch);
  }

  private async commitTogether(batch: Pending[]): Promise<void> {
    let statementsRan = false;
    let results: unknown[];
    try {
      results = await this.db.transaction(async (trx) => {
        const out: unknown[] = [];
        for (const item of batch) out.push(await item.work(trx));
        statementsRan = true;
        return out;
      });
    } catch (error) {
      if (statementsRan) batch.forEach((item) => item.reject(error));
      else await Promise.all(batch.map((item) => this.runAlone(item)));
      return;
    }
    batch.forEach((item, i) => item.resolve(results[i]));
  }

  private async runAlone(item: Pending): Promise<void> {
    try {
      item.resolve(await item.work(this.db));
    } catch (error) {
      item.reject(error);
    }
  }
}
