/**
 * An account's usage over time (openapi/admin.yaml, `getAccountUsage`): per hour or per
 * day, from the credit ledger (docs/decisions.md).
 */
import { AppError } from './app-error';
import { MESSAGES } from './messages';
import type { UsageBucket, UsageReportRepository } from './ports';

export type Granularity = 'hour' | 'day';

const BUCKET_MS: Record<Granularity, number> = { hour: 3_600_000, day: 86_400_000 };
/** The widest range one request covers: 31 days by the hour (744 buckets), 366 by the day. */
export const MAX_RANGE_DAYS: Record<Granularity, number> = { hour: 31, day: 366 };

export interface UsageQuery {
  from: string;
  to: string;
  granularity: Granularity;
  limit: number;
}

export interface AccountUsage {
  accountId: number;
  granularity: Granularity;
  from: string;
  to: string;
  buckets: UsageBucket[];
  nextFrom: string | null;
}

export async function getAccountUsage(report: UsageReportRepository, accountId: number, query: UsageQuery): Promise<AccountUsage> {
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (!(from.getTime() < to.getTime())) throw badRange(MESSAGES.usageRangeEmpty);
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS[query.granularity] * BUCKET_MS.day) {
    throw badRange(MESSAGES.usageRangeTooWide(query.granularity, MAX_RANGE_DAYS[query.granularity]));
  }
  // One more than a page: whether another page follows.
  const buckets = await report.usageOf(accountId, { from, to, granularity: query.granularity, limit: query.limit + 1 });
  if (buckets === null) throw new AppError({ kind: 'not_found', message: MESSAGES.accountNotFound });
  const page = buckets.slice(0, query.limit);
  const last = page.at(-1);
  const nextFrom = buckets.length > query.limit && last ? new Date(Date.parse(last.start) + BUCKET_MS[query.granularity]).toISOString() : null;
  return { accountId, granularity: query.granularity, from: from.toISOString(), to: to.toISOString(), buckets: page, nextFrom };
}

function badRange(message: string): AppError {
  return new AppError({ kind: 'invalid_request', message });
}
