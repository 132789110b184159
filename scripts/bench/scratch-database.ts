/**
 * A fresh PostgreSQL database for one part of the bench, on the server DATABASE_URL
 * names, dropped afterwards: every run starts from empty tables, and the bench never
 * writes into the database the tests use.
 */
import { Client } from 'pg';

export interface ScratchDatabase {
  url: string;
  /** Writes every dirty page to disk now, so that the rows before a measured part do not flush during it. */
  checkpoint(): Promise<void>;
  drop(): Promise<void>;
}

export async function createScratchDatabase(serverUrl: string, name: string): Promise<ScratchDatabase> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name ${name}`);
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    checkpoint: async () => {
      await onServer(serverUrl, 'CHECKPOINT');
    },
    drop: async () => {
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
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
