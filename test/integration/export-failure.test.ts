/**
 * An export that fails after its first bytes were sent (docs/privacy.md, "Export"): the
 * 200 and the document's start are on their way, so the failure can only be told by the
 * response not ending as a complete body. The database fails for real: the test holds
 * `erasures` (the account document's last section) locked, and terminates the export's
 * backend once it waits for that lock.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { knex, type Knex } from 'knex';
import { createAccount } from '../support/factories';
import { untilPoolAnswers } from '../support/pool-answers';
import { holdTableLock } from '../support/statement-waits';
import { requireEnv, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';
import { until } from '../support/until';

let server: TestServer;
let db: Knex;

beforeAll(async () => {
  server = await startTestServer();
  db = knex({ client: 'pg', connection: requireEnv('DATABASE_URL'), pool: { min: 0, max: 2 } });
});

afterAll(async () => {
  await db.destroy();
  await server.close();
});

/**
 * Runs `exporting` while `erasures` is locked, terminating the backend of the export's
 * read of it once that read waits for the lock; resolves with what `exporting` gave.
 */
async function withExportFailingAtErasures<T>(exporting: () => Promise<T>): Promise<T> {
  const release = await holdTableLock(db, 'erasures');
  try {
    const result = exporting();
    let pid = 0;
    await until(
      async () => {
        const { rows } = await db.raw<{ rows: { pid: number }[] }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
             AND query LIKE '%from "erasures"%' AND pid <> pg_backend_pid()`,
        );
        pid = rows[0]?.pid ?? 0;
        return pid !== 0;
      },
      { what: "the export's read of erasures waiting for the lock" },
    );
    await db.raw('SELECT pg_terminate_backend(?)', [pid]);
    return await result;
  } finally {
    await release();
    await untilPoolAnswers(server.services.db);
  }
}

describe('exportAccountData', () => {
  test('when the database fails after the export has begun, then the client sees the body cut off, never a complete 200', async () => {
    const account = await createAccount(server, 1);
    const read = await withExportFailingAtErasures(async () => {
      const response = await fetch(`${server.adminUrl}/admin/v1/accounts/${account.accountId}/export`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      return { status: response.status, body: response.text().then((text) => ({ text }), (err: unknown) => ({ err })) };
    });

    expect(read.status).toBe(200);
    const body = await read.body;
    expect(body).toEqual({ err: expect.objectContaining({ message: 'terminated' }) });
  });
});

describe('admin CLI export-account', () => {
  /** Runs the built CLI (make integration builds first): its exit code and stderr. */
  const exportAccount = (adminUrl: string, accountId: number) =>
    promisify(execFile)(process.execPath, [join(__dirname, '../../dist/src/cli/admin.js'), 'export-account', String(accountId)], {
      env: { ...process.env, ADMIN_TOKEN: TEST_ADMIN_TOKEN, ADMIN_URL: adminUrl },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );

  test('when the export is cut off, then it exits 1 and says on stderr that the output is incomplete', async () => {
    const account = await createAccount(server, 1);
    const outcome = await withExportFailingAtErasures(() => exportAccount(server.adminUrl, account.accountId));

    expect(outcome).toEqual({ code: 1, stderr: expect.stringContaining('admin: the export is incomplete: the connection ended before the document did') });
  });

  test('when the answer ends cleanly before the document does (a server or proxy that ends it so), then it exits 1 saying the export is incomplete', async () => {
    const truncating = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"account":{"accountId":1},"keys":[');
    });
    await new Promise<void>((resolve) => truncating.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = truncating.address() as AddressInfo;
      const outcome = await exportAccount(`http://127.0.0.1:${port}`, 1);

      expect(outcome).toEqual({ code: 1, stderr: expect.stringContaining('admin: the export is incomplete: the answer ended before the document did') });
    } finally {
      truncating.close();
    }
  });
});
