/**
 * The key cache's deactivation poll (every process, once a second) is served by the
 * partial index of migration 009, on PostgreSQL and on PGlite: after the migrations, with
 * many keys of which few are deactivated, the planner's plan for the poll's own query
 * (captured from KnexCallerRepository, not written again here) reads that index.
 * PGlite cannot load inside Jest's module sandbox: its half runs in a child node process
 * over the build (`make integration` builds first).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { createScratchDatabase, type ScratchDatabase } from '../../scripts/bench/scratch-database';
import { KnexCallerRepository } from '../../src/data/caller-repository';
import { createDatabase, migrateToLatest } from '../../src/data/database';
import { INDEX } from '../../src/data/migrations/009-deactivated-keys-index';
import { requireEnv } from '../support/test-server';

jest.setTimeout(180_000);

interface PollPlan {
  /** The indexes the plan reads, anywhere in it. */
  indexes: string[];
  /** What the poll returned: the key hashes deactivated within the last minute. */
  recent: string[];
}

/**
 * Seeds 20,000 keys (200 deactivated a day ago, 3 a moment ago), analyses, runs the poll
 * through `repository` and explains the statement it sent. Self-contained (no imports, no
 * outer names): its source also runs in the child process that holds PGlite.
 */
async function explainPoll(db: Knex, repository: { deactivatedWithin(seconds: number): Promise<string[]> }): Promise<PollPlan> {
  await db.raw("insert into accounts (name, credits) values ('poll index', 0)");
  await db.raw(`
    insert into api_keys (account_id, key_hash, prefix, active, deactivated_at)
    select (select max(id) from accounts), encode(sha256(convert_to('key ' || i, 'UTF8')), 'hex'), 'pps_live', i > 203,
           case when i <= 3 then now() when i <= 203 then now() - interval '1 day' end
    from generate_series(1, 20000) as i`);
  await db.raw('analyze api_keys');
  const sent: { sql: string; bindings: readonly unknown[] }[] = [];
  const capture = (query: { sql: string; bindings?: readonly unknown[] }) => sent.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', capture);
  let recent: string[];
  try {
    recent = await repository.deactivatedWithin(60);
  } finally {
    db.off('query', capture);
  }
  const [poll] = sent;
  if (!poll || sent.length !== 1) throw new Error(`expected one statement from the poll, saw ${sent.length}`);
  // knex reports PostgreSQL's $n placeholders; raw() takes ?.
  const explained = await db.raw(`explain (format json) ${poll.sql.replace(/\$\d+/g, '?')}`, poll.bindings as Knex.RawBinding[]);
  const plan: unknown = explained.rows[0]['QUERY PLAN'];
  const indexes: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const name = (node as Record<string, unknown>)['Index Name'];
      if (typeof name === 'string') indexes.push(name);
      Object.values(node).forEach(walk);
    }
  };
  walk(typeof plan === 'string' ? JSON.parse(plan) : plan);
  return { indexes, recent: recent.map((hash) => hash.trim()).sort() };
}

/** The hashes of the 3 keys explainPoll deactivates a moment ago. */
async function expectedRecent(db: Knex): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { h: string }[] }>("select encode(sha256(convert_to('key ' || i, 'UTF8')), 'hex') as h from generate_series(1, 3) as i order by 1");
  return rows.map((row) => row.h);
}

describe('the deactivation poll', () => {
  test('on PostgreSQL, after the migrations, the poll reads the partial index of deactivated keys', async () => {
    const database: ScratchDatabase = await createScratchDatabase(requireEnv('DATABASE_URL'), `pps_poll_index_${randomBytes(6).toString('hex')}`);
    const db = await createDatabase({ databaseUrl: database.url, dataDir: '', poolMax: 2 });
    try {
      await migrateToLatest(db);
      const plan = await explainPoll(db, new KnexCallerRepository(db));
      expect(plan).toEqual({ indexes: [INDEX], recent: await expectedRecent(db) });
    } finally {
      await db.destroy();
      await database.drop();
    }
  });

  test('on PGlite, after the migrations, the poll reads the partial index of deactivated keys', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pps-poll-index-'));
    const dist = join(__dirname, '../../dist/src/data');
    const script = `
      const { createDatabase, migrateToLatest } = require(${JSON.stringify(join(dist, 'database.js'))});
      const { KnexCallerRepository } = require(${JSON.stringify(join(dist, 'caller-repository.js'))});
      const explainPoll = ${explainPoll.toString()};
      const expectedRecent = ${expectedRecent.toString()};
      (async () => {
        const db = await createDatabase({ databaseUrl: undefined, dataDir: ${JSON.stringify(dataDir)}, poolMax: 1 });
        await migrateToLatest(db);
        const plan = await explainPoll(db, new KnexCallerRepository(db));
        const recent = await expectedRecent(db);
        await db.destroy();
        process.stdout.write(JSON.stringify({ plan, recent }));
      })().catch((err) => { console.error(err); process.exit(1); });`;
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { timeout: 150_000 });
      const { plan, recent } = JSON.parse(stdout) as { plan: PollPlan; recent: string[] };
      expect(plan).toEqual({ indexes: [INDEX], recent });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
