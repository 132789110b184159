/**
 * Deleting stored results (snaps, their comms analyses, and the idempotency replays that
 * point at either), shared by the sweeper's expiry and the admin erasure. Each call is one
 * statement over at most `limit` rows, locking only those (`FOR UPDATE SKIP LOCKED`: a row
 * another statement holds is left for the next batch), so a large deletion is many short
 * statements and never holds up a request. Analyses go first, in batches of their own;
 * then the snaps (an analysis stored meanwhile goes with its snap, ON DELETE CASCADE, and
 * its replay with it).
 * The ledger is not touched: its rows keep the deleted ids (migration 011).
 */
import type { Knex } from 'knex';
import { toNumber } from './database';
import type { ErasedCounts } from '../domain/ports';

/** Which snaps: a condition on `s` (the snaps table), with its bindings. */
export interface SnapSelection {
  sql: string;
  bindings: readonly Knex.Value[];
}

/** What was deleted: snaps, analyses and replays (the domain's name for it, as an erasure reports it). */
export type Deleted = ErasedCounts;

export const NOTHING_DELETED: Deleted = { snaps: 0, commsAnalyses: 0, replays: 0 };

export function addDeleted(a: Deleted, b: Deleted): Deleted {
  return { snaps: a.snaps + b.snaps, commsAnalyses: a.commsAnalyses + b.commsAnalyses, replays: a.replays + b.replays };
}

/** Deletes up to `limit` analyses of the selected snaps, with their replays. */
export async function deleteCommsOfSnaps(db: Knex, selection: SnapSelection, limit: number): Promise<Deleted> {
  const { rows, replays } = await deleteRows(db, 'comms_analyses', `SELECT c.id FROM comms_analyses c JOIN snaps s ON s.id = c.snap_id WHERE ${selection.sql}`, 'c', selection, limit);
  return { snaps: 0, commsAnalyses: rows, replays };
}

/** Deletes up to `limit` selected snaps, with their replays, and any analysis stored since the analyses went with its replay. */
export async function deleteSnaps(db: Knex, selection: SnapSelection, limit: number): Promise<Deleted> {
  const { rows, cascaded, replays } = await deleteRows(db, 'snaps', `SELECT s.id FROM snaps s WHERE ${selection.sql}`, 's', selection, limit);
  return { snaps: rows, commsAnalyses: cascaded, replays };
}

/**
 * For the snaps `gone` deletes: the analyses ON DELETE CASCADE takes with them (the
 * statement's snapshot still shows them), and the completed replays that point at those.
 */
const CASCADED_ANALYSES = `, cascaded AS (
       SELECT c.id, c.account_id FROM comms_analyses c JOIN gone ON c.snap_id = gone.id
     ), cascaded_replays AS (
       DELETE FROM idempotency_keys k USING cascaded
       WHERE k.account_id = cascaded.account_id AND k.result_id = cascaded.id AND k.state = 'completed'
         AND k.result_table = 'comms_analyses'
       RETURNING 1
     )`;

/**
 * One statement: up to `limit` rows of `table` picked by `picked` (whose alias for the
 * table is `alias`), deleted, and the completed replays that point at them; a key
 * completed before `result_table` existed (null) is matched by id alone.
 */
async function deleteRows(
  db: Knex,
  table: 'snaps' | 'comms_analyses',
  picked: string,
  alias: string,
  selection: SnapSelection,
  limit: number,
): Promise<{ rows: number; cascaded: number; replays: number }> {
  const snaps = table === 'snaps';
  const result = await db.raw(
    `WITH picked AS (
       ${picked}
       LIMIT ? FOR UPDATE OF ${alias} SKIP LOCKED
     ), gone AS (
       DELETE FROM ${table} USING picked WHERE ${table}.id = picked.id
       RETURNING ${table}.id, ${table}.account_id
     ), replays AS (
       DELETE FROM idempotency_keys k USING gone
       WHERE k.account_id = gone.account_id AND k.result_id = gone.id AND k.state = 'completed'
         AND (k.result_table = '${table}' OR k.result_table IS NULL)
       RETURNING 1
     )${snaps ? CASCADED_ANALYSES : ''}
     SELECT (SELECT count(*) FROM gone) AS deleted,
       ${snaps ? '(SELECT count(*) FROM cascaded)' : '0'} AS cascaded,
       (SELECT count(*) FROM replays)${snaps ? ' + (SELECT count(*) FROM cascaded_replays)' : ''} AS replays`,
    [...selection.bindings, limit],
  );
  const row = (result.rows as { deleted: unknown; cascaded: unknown; replays: unknown }[])[0];
  return { rows: toNumber(row?.deleted ?? 0), cascaded: toNumber(row?.cascaded ?? 0), replays: toNumber(row?.replays ?? 0) };
}

/**
 * Everything of the selected snaps, batch after batch, up to `maxBatches` of each kind
 * (undefined: until none is left).
 */
export async function deleteSelectedSnaps(db: Knex, selection: SnapSelection, limit: number, maxBatches = Infinity): Promise<Deleted> {
  let total = NOTHING_DELETED;
  for (let i = 0; i < maxBatches; i += 1) {
    const done = await deleteCommsOfSnaps(db, selection, limit);
    total = addDeleted(total, done);
    if (done.commsAnalyses < limit) break;
  }
  for (let i = 0; i < maxBatches; i += 1) {
    const done = await deleteSnaps(db, selection, limit);
    total = addDeleted(total, done);
    if (done.snaps < limit) break;
  }
  return total;
}
