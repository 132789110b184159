/**
 * Starts the real service on port 0 (public and admin listeners) against the real
 * PostgreSQL and Redis named by DATABASE_URL and REDIS_URL (make test provides them).
 */
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/support/logger';
import { startServer, type RunningServer } from '../../src/app/server';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestServer extends RunningServer {
  adminUrl: string;
  /** Every log line written so far (JSON, one per line); empty unless LOG_LEVEL is set. */
  logs(): string;
  /** POST JSON to the public API. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Call the admin API and return its `data`. */
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

export function requireEnv(name: 'DATABASE_URL' | 'REDIS_URL'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the integration tests through make test (or make integration)`);
  return value;
}

/** Real PostgreSQL and Redis, a limit high enough not to get in the way, silent logs. */
export async function startTestServer(env: Record<string, string | undefined> = {}): Promise<TestServer> {
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    ADMIN_HOST: '127.0.0.1',
    ADMIN_PORT: '0',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    DATABASE_URL: requireEnv('DATABASE_URL'),
    REDIS_URL: requireEnv('REDIS_URL'),
    RATE_LIMIT_MAX: '1000000',
    ACCOUNT_RATE_LIMIT_MAX: '1000000',
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const server = await startServer(config, createLogger(config.logLevel, sink));
  const adminUrl = server.adminUrl;
  return {
    ...server,
    adminUrl,
    logs: () => lines.join(''),
    post: (path, body, headers = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    admin: async <T>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`${adminUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const envelope = (await response.json()) as { data?: T };
      if (!response.ok || !envelope.data) throw new Error(`admin ${method} ${path}: ${response.status} ${JSON.stringify(envelope)}`);
      return envelope.data;
    },
  };
}
