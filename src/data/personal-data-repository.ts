/**
 * Erasure and export in PostgreSQL or PGlite (docs/privacy.md). An erasure deletes in
 * short batches (result-deletion.ts) until nothing selected is left (a row another
 * statement held is taken by a later round), then writes its audit record: scope, ids,
 * counts and the admin token's fingerprint, nothing personal. The ledger keeps its rows.
 * An export reads page by page (keyset on id) and yields JSON text as it goes.
 */
import type { Knex } from 'knex';
import { toNumber } from './database';
import { addDeleted, deleteSelectedSnaps, NOTHING_DELETED, type Deleted, type SnapSelection } from './result-deletion';
import { subjectDigest } from './subject-digest';
import type { ErasureActor, ErasureRecord, PersonalDataRepository } from '../domain/ports';

const ERASE_BATCH_ROWS = 500;
const EXPORT_PAGE_ROWS = 500;
/** Rounds of batches before an erasure gives up on rows that stay locked (each round waits a little longer). */
const MAX_ROUNDS = 20;

export class KnexPersonalDataRepository implements PersonalDataRepository {
  constructor(private readonly db: Knex) {}

  async eraseSnap(snapId: number, actor: ErasureActor): Promise<ErasureRecord> {
    const owner = await this.db('snaps').select('account_id').where({ id: snapId }).first();
    const erased = await this.eraseSelected({ sql: 's.id = ?', bindings: [snapId] });
    return this.record('snap', owner ? toNumber(owner.account_id) : null, snapId, erased, actor);
  }

  async eraseAccount(accountId: number, actor: ErasureActor): Promise<ErasureRecord | null> {
    if (!(await this.accountExists(accountId))) return null;
    const erased = await this.eraseSelected({ sql: 's.account_id = ?', bindings: [accountId] });
    // Replays whose row was deleted before migration 011 named its table (none are left pointing at anything).
    const deleted = await this.db.raw(
      `WITH d AS (DELETE FROM idempotency_keys WHERE account_id = ? AND state = 'completed' RETURNING 1) SELECT count(*) AS n FROM d`,
      [accountId],
    );
    const replays = toNumber((deleted.rows as { n: unknown }[])[0]?.n ?? 0);
    return this.record('account', accountId, null, { ...erased, replays: erased.replays + replays }, actor);
  }

  async erasePerson(accountId: number, name: string, actor: ErasureActor): Promise<ErasureRecord | null> {
    if (!(await this.accountExists(accountId))) return null;
    const erased = await this.eraseSelected(personSelection(accountId, name));
    return this.record('person', accountId, null, erased, actor);
  }

  async exportAccount(accountId: number, name?: string): Promise<AsyncIterable<string> | null> {
    if (!(await this.accountExists(accountId))) return null;
    return name === undefined ? this.accountDocument(accountId) : this.personDocument(accountId, name);
  }

  private async accountExists(accountId: number): Promise<boolean> {
    return (await this.db('accounts').select('id').where({ id: accountId }).first()) !== undefined;
  }

  /** Batches until no selected snap is left, however many rounds the rows locked by others need. */
  private async eraseSelected(selection: SnapSelection): Promise<Deleted> {
    let total = NOTHING_DELETED;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      total = addDeleted(total, await deleteSelectedSnaps(this.db, selection, ERASE_BATCH_ROWS));
      const left = await this.db.raw(`SELECT 1 FROM snaps s WHERE ${selection.sql} LIMIT 1`, [...selection.bindings]);
      if ((left.rows as unknown[]).length === 0) return total;
      await new Promise((resolve) => setTimeout(resolve, 50 * (round + 1)));
    }
    throw new Error('erasure: selected snaps stayed locked by other statements; run it again');
  }

  private async record(scope: ErasureRecord['scope'], accountId: number | null, snapId: number | null, erased: Deleted, actor: ErasureActor): Promise<ErasureRecord> {
    const [row] = await this.db('erasures')
      .insert({
        scope,
        account_id: accountId,
        snap_id: snapId,
        admin_token_id: actor.adminTokenId,
        snaps: erased.snaps,
        comms_analyses: erased.commsAnalyses,
        replays: erased.replays,
      })
      .returning(['id', 'erased_at']);
    return { erasureId: toNumber(row.id), scope, accountId, snapId, erasedAt: new Date(row.erased_at).toISOString(), erased };
  }

  private async *accountDocument(accountId: number): AsyncIterable<string> {
    const account = await this.db('accounts').select('id', 'name', 'credits', 'created_at').where({ id: accountId }).first();
    yield `{"account":${JSON.stringify({ accountId: toNumber(account.id), name: account.name, credits: toNumber(account.credits), createdAt: iso(account.created_at) })}`;
    yield* section('keys', this.pages('api_keys', (q) => q.select('id', 'prefix', 'active', 'created_at', 'deactivated_at').where({ account_id: accountId }), keyOf));
    yield* section('ledger', this.pages('credit_ledger', (q) => q.select('id', 'delta', 'reason', 'snap_id', 'comms_id', 'created_at').where({ account_id: accountId }), ledgerOf));
    yield* section('snaps', this.pages('snaps', (q) => q.select(SNAP_COLUMNS).where({ account_id: accountId }), snapOf));
    yield* section('commsAnalyses', this.pages('comms_analyses', (q) => q.select(COMMS_COLUMNS).where({ account_id: accountId }), commsOf));
    yield* section('replays', this.pages('idempotency_keys', (q) => q.select(REPLAY_COLUMNS).where({ account_id: accountId }), replayOf, 'key'));
    yield* section('erasures', this.pages('erasures', (q) => q.select(ERASURE_COLUMNS).where({ account_id: accountId }), erasureOf));
    yield '}\n';
  }

  private async *personDocument(accountId: number, name: string): AsyncIterable<string> {
    const digest = subjectDigest(accountId, name);
    const snapIds = (q: Knex.QueryBuilder) => q.select('id').from('snaps').where({ account_id: accountId, subject_digest: digest });
    yield `{"accountId":${accountId}`;
    yield* section('snaps', this.pages('snaps', (q) => q.select(SNAP_COLUMNS).where({ account_id: accountId, subject_digest: digest }), snapOf));
    yield* section('commsAnalyses', this.pages('comms_analyses', (q) => q.select(COMMS_COLUMNS).where({ account_id: accountId }).whereIn('snap_id', snapIds), commsOf));
    yield* section(
      'replays',
      this.pages(
        'idempotency_keys',
        (q) =>
          q
            .select(REPLAY_COLUMNS)
            .where({ account_id: accountId, state: 'completed' })
            .where((w) =>
              w
                .where((s) => s.whereIn('result_table', ['snaps']).whereIn('result_id', snapIds))
                .orWhere((c) =>
                  c.whereIn('result_table', ['comms_analyses']).whereIn('result_id', (q2: Knex.QueryBuilder) => q2.select('id').from('comms_analyses').whereIn('snap_id', snapIds)),
                ),
            ),
        replayOf,
        'key',
      ),
    );
    yield '}\n';
  }

  /** Rows of `table` as built by `query`, page by page in the order of `orderKey`. */
  private async *pages(table: string, query: (q: Knex.QueryBuilder) => Knex.QueryBuilder, shape: (row: Row) => unknown, orderKey = 'id'): AsyncIterable<unknown> {
    let after: unknown;
    for (;;) {
      const q = query(this.db(table)).orderBy(orderKey).limit(EXPORT_PAGE_ROWS);
      if (after !== undefined) q.where(orderKey, '>', after);
      const rows = (await q) as Row[];
      for (const row of rows) yield shape(row);
      if (rows.length < EXPORT_PAGE_ROWS) return;
      after = rows[rows.length - 1]?.[orderKey];
    }
  }
}

type Row = Record<string, unknown>;

const SNAP_COLUMNS = ['id', 'request', 'prediction', 'predictor', 'model', 'prompt_version', 'upstream', 'prompt_tokens', 'completion_tokens', 'tokens_estimated', 'created_at'];
const COMMS_COLUMNS = ['id', 'snap_id', 'request', 'response', 'predictor', 'model', 'prompt_version', 'upstream', 'prompt_tokens', 'completion_tokens', 'tokens_estimated', 'created_at'];
const REPLAY_COLUMNS = ['key', 'state', 'result_table', 'result_id', 'expires_at'];
const ERASURE_COLUMNS = ['id', 'scope', 'snap_id', 'admin_token_id', 'snaps', 'comms_analyses', 'replays', 'erased_at'];

function personSelection(accountId: number, name: string): SnapSelection {
  return { sql: 's.account_id = ? AND s.subject_digest = ?', bindings: [accountId, subjectDigest(accountId, name)] };
}

/** `,"name":[row,row,…]`, one piece per row. */
async function* section(name: string, rows: AsyncIterable<unknown>): AsyncIterable<string> {
  yield `,${JSON.stringify(name)}:[`;
  let first = true;
  for await (const row of rows) {
    yield `${first ? '' : ','}${JSON.stringify(row)}`;
    first = false;
  }
  yield ']';
}

function iso(value: unknown): string | null {
  return value === null || value === undefined ? null : new Date(value as string).toISOString();
}

const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));

function provenanceOf(row: Row) {
  return {
    predictor: row.predictor,
    model: row.model,
    promptVersion: row.prompt_version,
    upstream: row.upstream ?? null,
    promptTokens: nullableNumber(row.prompt_tokens),
    completionTokens: nullableNumber(row.completion_tokens),
    tokensEstimated: row.tokens_estimated === true,
  };
}

const keyOf = (row: Row) => ({ keyId: toNumber(row.id), prefix: row.prefix, active: row.active, createdAt: iso(row.created_at), deactivatedAt: iso(row.deactivated_at) });
const ledgerOf = (row: Row) => ({
  entryId: toNumber(row.id),
  delta: toNumber(row.delta),
  reason: row.reason,
  snapId: nullableNumber(row.snap_id),
  commsId: nullableNumber(row.comms_id),
  createdAt: iso(row.created_at),
});
const snapOf = (row: Row) => ({ snapId: toNumber(row.id), request: row.request, prediction: row.prediction, ...provenanceOf(row), createdAt: iso(row.created_at) });
const commsOf = (row: Row) => ({
  commsId: toNumber(row.id),
  snapId: toNumber(row.snap_id),
  request: row.request,
  response: row.response,
  ...provenanceOf(row),
  createdAt: iso(row.created_at),
});
const replayOf = (row: Row) => ({ key: row.key, state: row.state, resultTable: row.result_table ?? null, resultId: nullableNumber(row.result_id), expiresAt: iso(row.expires_at) });
const erasureOf = (row: Row) => ({
  erasureId: toNumber(row.id),
  scope: row.scope,
  snapId: nullableNumber(row.snap_id),
  adminTokenId: row.admin_token_id,
  erased: { snaps: row.snaps, commsAnalyses: row.comms_analyses, replays: row.replays },
  erasedAt: iso(row.erased_at),
});
