/**
 * A fresh PostgreSQL database for the bench, on the server DATABASE_URL names, dropped
 * afterwards: every run starts from empty tables, and the bench never writes into the
 * database the tests use. Also what the bench asks the server: how it commits, what a
 * single-row commit costs on its disk, and how many statements the service ran there.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { percentiles, type Figure, type Percentiles } from './figures';

export interface ScratchDatabase {
  url: string;
  /** Whether pg_stat_statements is loaded on the server, so that `statements` counts. */
  countsStatements: boolean;
  /** Writes every dirty page to disk now, so that the rows before a measured part do not flush during it. */
  checkpoint(): Promise<void>;
  /** Statements the server has run in this database so far (pg_stat_statements), undefined when the module is not loaded. */
  statements(): Promise<Figure>;
  drop(): Promise<void>;
}

export async function createScratchDatabase(serverUrl: string, name: string): Promise<ScratchDatabase> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name ${name}`);
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const counting = await statementsCounted(serverUrl);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    countsStatements: counting,
    checkpoint: async () => {
      await onServer(serverUrl, 'CHECKPOINT');
    },
    statements: async () => {
      if (!counting) return undefined;
      const sql = `SELECT coalesce(sum(calls), 0)::text AS calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '${name}')`;
      return Number((await onServer(serverUrl, sql))[0]?.['calls']);
    },
    drop: async () => {
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Whether pg_stat_statements is loaded (scripts/test-services.sh loads it for `make bench`); creates its view if so. */
async function statementsCounted(serverUrl: string): Promise<boolean> {
  const loaded = settingOf(await onServer(serverUrl, 'SHOW shared_preload_libraries')).includes('pg_stat_statements');
  if (loaded) await onServer(serverUrl, 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return loaded;
}

/** Whether a commit on that server waits for the disk, as in production (the tests' throwaway server does not). */
export interface Durability {
  fsync: string;
  synchronousCommit: string;
}

export async function durabilityOf(serverUrl: string): Promise<Durability> {
  const [fsync, synchronousCommit] = await Promise.all([onServer(serverUrl, 'SHOW fsync'), onServer(serverUrl, 'SHOW synchronous_commit')]);
  return { fsync: settingOf(fsync), synchronousCommit: settingOf(synchronousCommit) };
}

export function isDurable(durability: Durability): boolean {
  return durability.fsync === 'on' && durability.synchronousCommit === 'on';
}

/** Round trips of one client, one after another: `SELECT 1`, and a one-row INSERT committed on its own (the disk's flush on top). */
export interface CommitLatency {
  select: Percentiles;
  commit: Percentiles;
}

export async function measureCommitLatency(databaseUrl: string, rounds: number): Promise<CommitLatency> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('CREATE TABLE bench_commit (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())');
    const timed = async (sql: string) => {
      const times: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const started = performance.now();
        await client.query(sql);
        times.push(performance.now() - started);
      }
      return percentiles(times);
    };
    const select = await timed('SELECT 1');
    const commit = await timed('INSERT INTO bench_commit DEFAULT VALUES');
    await client.query('DROP TABLE bench_commit');
    return { select, commit };
  } finally {
    await client.end();
  }
}

function settingOf(rows: Record<string, unknown>[]): string {
  return String(Object.values(rows[0] ?? {})[0] ?? 'unknown');
}

async function onServer(serverUrl: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
