/**
 * An account's usage per hour or day, read from the credit ledger (migration 001): its
 * debits are the calls charged (by reason) and their credits, its positive entries the
 * grants. The ledger keeps amounts and ids only, so these figures outlive the results.
 */
import type { Knex } from 'knex';
import { toNumber } from './database';
import type { UsageBucket, UsageReportRepository } from '../domain/ports';

interface Row {
  start: Date | string;
  snaps: unknown;
  comms: unknown;
  charged: unknown;
  granted: unknown;
}

export class KnexUsageReportRepository implements UsageReportRepository {
  constructor(private readonly db: Knex) {}

  async usageOf(accountId: number, range: { from: Date; to: Date; granularity: 'hour' | 'day'; limit: number }): Promise<UsageBucket[] | null> {
    const account = await this.db('accounts').where({ id: accountId }).first('id');
    if (!account) return null;
    const rows: Row[] = await this.db('credit_ledger')
      .select(
        this.db.raw("date_trunc(?, created_at, 'UTC') AS start", [range.granularity]),
        this.db.raw("count(*) FILTER (WHERE delta < 0 AND reason = 'snap') AS snaps"),
        this.db.raw("count(*) FILTER (WHERE delta < 0 AND reason = 'comms') AS comms"),
        this.db.raw('coalesce(sum(-delta) FILTER (WHERE delta < 0), 0) AS charged'),
        this.db.raw('coalesce(sum(delta) FILTER (WHERE delta > 0), 0) AS granted'),
      )
      .where('account_id', accountId)
      .andWhere('created_at', '>=', range.from)
      .andWhere('created_at', '<', range.to)
      .groupBy('start')
      .orderBy('start')
      .limit(range.limit);
    return rows.map((row) => ({
      start: new Date(row.start).toISOString(),
      calls: { createSnap: toNumber(row.snaps), createCommsAnalysis: toNumber(row.comms) },
      creditsCharged: toNumber(row.charged),
      creditsGranted: toNumber(row.granted),
    }));
  }
}
