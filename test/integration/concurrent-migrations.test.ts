/**
 * Migrations under concurrent starts: instances started together on an empty database
 * (a scale-out deploy) migrate it once and all serve; `npm run migrate` (the compiled
 * script) migrates a database as a step of its own. Each test gets a fresh database on
 * the test PostgreSQL. `make integration` builds first.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { createScratchDatabase, type ScratchDatabase } from '../../scripts/bench/scratch-database';
import { createDatabase, migrateToLatest, MIGRATION_LOCK_KEY, MIGRATION_LOCK_WAIT_MESSAGE, UNKNOWN_MIGRATIONS_WARNING } from '../../src/data/database';
import { migrationSource } from '../../src/data/migrations';
import { PERSON } from '../support/factories';
import { spawnServer, type SpawnedServer } from '../support/spawned-server';
import { requireEnv, TEST_ADMIN_TOKEN } from '../support/test-server';

jest.setTimeout(120_000);

const MIGRATE = join(__dirname, '../../dist/src/cli/migrate.js');

let database: ScratchDatabase;
let servers: SpawnedServer[] = [];

beforeEach(async () => {
  database = await createScratchDatabase(requireEnv('DATABASE_URL'), `pps_migrations_${randomBytes(6).toString('hex')}`);
});

afterEach(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  servers = [];
  await database.drop();
});

async function appliedMigrations(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ name: string }>('select name from knex_migrations order by id');
    return result.rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

async function post(url: string, path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: { data?: Record<string, unknown> } }> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> } };
}

function runMigrate(url: string) {
  return spawnSync(process.execPath, [MIGRATE], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: url, LOG_LEVEL: 'info' }, encoding: 'utf8', timeout: 60_000 });
}

describe('migrations', () => {
  test('when 3 instances start at once on an empty database, then each one migrates or waits, none exits, and all serve', async () => {
    const started = await Promise.allSettled([0, 1, 2].map(() => spawnServer({ DATABASE_URL: database.url })));
    servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    expect(failures).toEqual([]);

    const names = await migrationSource.getMigrations([]);
    expect(await appliedMigrations(database.url)).toEqual(names);

    const created = await post(servers[0]!.adminUrl, '/admin/v1/accounts', { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, { name: 'scale-out', credits: 3 });
    expect(created.status).toBe(201);
    const apiKey = String(created.body.data?.apiKey);
    for (const server of servers) {
      const snap = await post(server.url, '/api/v1/snap', { 'x-api-key': apiKey }, PERSON);
      expect(snap.status).toBe(201);
      expect(server.child.exitCode).toBeNull();
    }
  });

  test('when 5 migration runs start in the same instant on an empty database, then all succeed and the migrations are applied once', async () => {
    const dbs = await Promise.all([0, 1, 2, 3, 4].map(() => createDatabase({ databaseUrl: database.url, dataDir: '', poolMax: 2 })));
    try {
      const runs = await Promise.allSettled(dbs.map((db) => migrateToLatest(db)));
      expect(runs.flatMap((run) => (run.status === 'rejected' ? [String(run.reason)] : []))).toEqual([]);
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
    }
    expect(await appliedMigrations(database.url)).toEqual(await migrationSource.getMigrations([]));
  });

  test('when npm run migrate runs on an empty database, then it applies every migration, and a second run finds nothing to do', async () => {
    const first = runMigrate(database.url);
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    expect(first.stdout).toContain('migrations done');
    const names = await migrationSource.getMigrations([]);
    expect(await appliedMigrations(database.url)).toEqual(names);

    const second = runMigrate(database.url);
    expect(second.status).toBe(0);
    expect(await appliedMigrations(database.url)).toEqual(names);
  });

  test('when a newer release has applied a migration this one does not know (a rollback), then npm run migrate and the service run on that schema, warning, and serve', async () => {
    expect(runMigrate(database.url).status).toBe(0);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query("insert into knex_migrations (name, batch, migration_time) values ('999-a-newer-release', 99, now())");
    } finally {
      await client.end();
    }
    const migrated = runMigrate(database.url);
    expect({ status: migrated.status, stderr: migrated.stderr }).toEqual({ status: 0, stderr: '' });
    expect(migrated.stdout).toContain(UNKNOWN_MIGRATIONS_WARNING);
    expect(migrated.stdout).toContain('999-a-newer-release');

    const server = await spawnServer({ DATABASE_URL: database.url, LOG_LEVEL: 'info' });
    servers.push(server);
    expect(server.output()).toContain(UNKNOWN_MIGRATIONS_WARNING);
    const created = await post(server.adminUrl, '/admin/v1/accounts', { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, { name: 'rolled-back', credits: 1 });
    expect(created.status).toBe(201);
    expect((await post(server.url, '/api/v1/snap', { 'x-api-key': String(created.body.data?.apiKey) }, PERSON)).status).toBe(201);
  });

  test('when a pending migration must wait for a table another session holds, then it gives up at its lock timeout, leaving nothing half done, and runs once the table is free', async () => {
    const db = await createDatabase({ databaseUrl: database.url, dataDir: '', poolMax: 2 });
    const holder = new Client({ connectionString: database.url });
    try {
      await migrateToLatest(db);
      // The latest migration undone, so that it is pending again; it alters snaps among others.
      const names = await migrationSource.getMigrations([]);
      const latest = names.at(-1)!;
      await (await migrationSource.getMigration(latest)).down!(db);
      await db('knex_migrations').where({ name: latest }).delete();

      await holder.connect();
      await holder.query('begin');
      await holder.query('select 1 from snaps limit 1');
      await expect(migrateToLatest(db)).rejects.toMatchObject({ code: '55P03' });
      expect(await appliedMigrations(database.url)).toEqual(names.slice(0, -1));

      await holder.query('rollback');
      await migrateToLatest(db);
      expect(await appliedMigrations(database.url)).toEqual(names);
    } finally {
      await holder.end();
      await db.destroy();
    }
  });

  test('when another session holds the migration lock, then npm run migrate says it is waiting, waits, and migrates once the lock is free', async () => {
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      const child = spawn(process.execPath, [MIGRATE], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = once(child, 'exit');
      let stdout = '';
      const waiting = new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
          if (stdout.includes(MIGRATION_LOCK_WAIT_MESSAGE)) resolve();
        });
      });
      await waiting;
      expect(child.exitCode).toBeNull();
      expect(await appliedMigrations(database.url).catch(() => [])).toEqual([]);

      await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      const [code] = await exited;
      expect(code).toBe(0);
      expect(stdout).toContain('migrations done');
      expect(await appliedMigrations(database.url)).toEqual(await migrationSource.getMigrations([]));
    } finally {
      await holder.end();
    }
  });

  test('when npm run migrate finds the lock free, then it does not say it waited', () => {
    const result = runMigrate(database.url);
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain(MIGRATION_LOCK_WAIT_MESSAGE);
  });

  test('when DATABASE_URL is not a valid URL, then npm run migrate exits 1 naming the variable', () => {
    const result = runMigrate('not a url');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('DATABASE_URL');
  });
});
