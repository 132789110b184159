/**
 * An account's usage per hour or day (migration 013), from two sources that keep ids,
 * counts and model names only, so these figures outlive the results:
 * - the credit ledger (migration 001): its debits are the calls charged (by reason, each
 *   a success, with its model and tokens, reported or estimated: migration 015), its
 *   positive entries the grants;
 * - the usage tallies: the paid calls that failed, by kind, and the upstream calls whose
 *   result was not stored, with their tokens, reported or estimated.
 */
import type { Knex } from 'knex';
import { toNumber } from './database';
import { TALLY_COUNTS } from './usage-repository';
import { FAILURE_KINDS, type FailureKind } from '../domain/failure-kind';
import type { ModelTokens, UsageBucket, UsageReportRepository } from '../domain/ports';

type Range = { from: Date; to: Date; granularity: 'hour' | 'day'; limit: number };
type Row = Record<string, unknown> & { start: Date | string };

/** Per bucket, the most models listed (openapi/admin.yaml, `UsageBucket.tokens`). */
const MAX_MODELS = 100;

export class KnexUsageReportRepository implements UsageReportRepository {
  constructor(private readonly db: Knex) {}

  async usageOf(accountId: number, range: Range): Promise<UsageBucket[] | null> {
    const account = await this.db('accounts').where({ id: accountId }).first('id');
    if (!account) return null;
    const [ledger, charged, tallies] = await Promise.all([this.ledger(accountId, range), this.chargedTokens(accountId, range), this.tallies(accountId, range)]);
    const buckets = new Map<string, UsageBucket>();
    const bucket = (start: Row['start']): UsageBucket => {
      const key = new Date(start).toISOString();
      let found = buckets.get(key);
      if (!found) buckets.set(key, (found = emptyBucket(key)));
      return found;
    };
    for (const row of ledger) {
      Object.assign(bucket(row.start), {
        calls: { createSnap: toNumber(row.snaps), createCommsAnalysis: toNumber(row.comms) },
        creditsCharged: toNumber(row.charged),
        creditsGranted: toNumber(row.granted),
        successes: toNumber(row.snaps) + toNumber(row.comms),
      });
    }
    for (const row of charged) addTokens(bucket(row.start), row);
    for (const row of tallies) {
      const into = bucket(row.start);
      const calls = toNumber(row.calls);
      if (row.outcome !== 'success' && calls > 0) {
        into.failures[row.outcome as FailureKind] += calls;
        into.failures.total += calls;
      }
      if (toNumber(row.upstream_calls) > 0) addTokens(into, row);
    }
    const page = [...buckets.values()].sort((a, b) => a.start.localeCompare(b.start)).slice(0, range.limit);
    for (const { tokens } of page) tokens.sort((a, b) => a.model.localeCompare(b.model)).splice(MAX_MODELS);
    return page;
  }

  private inRange(query: Knex.QueryBuilder, accountId: number, column: string, range: Range): Knex.QueryBuilder {
    return query.where('account_id', accountId).andWhere(column, '>=', range.from).andWhere(column, '<', range.to);
  }

  private start(column: string, range: Range): Knex.Raw {
    return this.db.raw(`date_trunc(?, ??, 'UTC') AS start`, [range.granularity, column]);
  }

  private ledger(accountId: number, range: Range): Promise<Row[]> {
    return this.inRange(this.db('credit_ledger'), accountId, 'created_at', range)
      .select(
        this.start('created_at', range),
        this.db.raw("count(*) FILTER (WHERE delta < 0 AND reason = 'snap') AS snaps"),
        this.db.raw("count(*) FILTER (WHERE delta < 0 AND reason = 'comms') AS comms"),
        this.db.raw('coalesce(sum(-delta) FILTER (WHERE delta < 0), 0) AS charged'),
        this.db.raw('coalesce(sum(delta) FILTER (WHERE delta > 0), 0) AS granted'),
      )
      .groupBy('start')
      .orderBy('start')
      .limit(range.limit);
  }

  /** The charged calls that asked an upstream, by model: their tokens, reported or estimated. */
  private chargedTokens(accountId: number, range: Range): Promise<Row[]> {
    return this.inRange(this.db('credit_ledger'), accountId, 'created_at', range)
      .whereNotNull('upstream')
      .andWhere('delta', '<', 0)
      .select(
        this.start('created_at', range),
        'model',
        this.db.raw('count(*) AS upstream_calls'),
        this.db.raw('coalesce(sum(prompt_tokens) FILTER (WHERE NOT tokens_estimated), 0) AS prompt_tokens'),
        this.db.raw('coalesce(sum(completion_tokens) FILTER (WHERE NOT tokens_estimated), 0) AS completion_tokens'),
        this.db.raw('coalesce(sum(prompt_tokens) FILTER (WHERE tokens_estimated), 0) AS estimated_prompt_tokens'),
        this.db.raw('coalesce(sum(completion_tokens) FILTER (WHERE tokens_estimated), 0) AS estimated_completion_tokens'),
        this.db.raw('count(*) FILTER (WHERE prompt_tokens IS NULL AND completion_tokens IS NULL) AS unreported_calls'),
      )
      .groupBy('start', 'model');
  }

  private tallies(accountId: number, range: Range): Promise<Row[]> {
    return this.inRange(this.db('usage_tallies'), accountId, 'hour', range)
      .select(this.start('hour', range), 'outcome', 'model', ...TALLY_COUNTS.map((count) => this.db.raw('sum(??) AS ??', [count, count])))
      .groupBy('start', 'outcome', 'model');
  }
}

function emptyBucket(start: string): UsageBucket {
  const failures = Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, 0])) as Record<FailureKind, number>;
  return { start, calls: { createSnap: 0, createCommsAnalysis: 0 }, creditsCharged: 0, creditsGranted: 0, successes: 0, failures: { total: 0, ...failures }, tokens: [] };
}

/** Adds a row's upstream calls and tokens to its model's entry in the bucket. */
function addTokens(bucket: UsageBucket, row: Row): void {
  const model = String(row.model);
  let entry = bucket.tokens.find((tokens) => tokens.model === model);
  if (!entry) bucket.tokens.push((entry = { model, calls: 0, reported: { prompt: 0, completion: 0 }, estimated: { prompt: 0, completion: 0 }, unreportedCalls: 0 } satisfies ModelTokens));
  entry.calls += toNumber(row.upstream_calls);
  entry.reported.prompt += toNumber(row.prompt_tokens);
  entry.reported.completion += toNumber(row.completion_tokens);
  entry.unreportedCalls += toNumber(row.unreported_calls);
  entry.estimated.prompt += toNumber(row.estimated_prompt_tokens);
  entry.estimated.completion += toNumber(row.estimated_completion_tokens);
}
