/** The product-internal admin API (DESIGN.md's table) and its CLI. */
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readSpec } from '../../src/http/openapi/spec-document';
import { SPEC_PATHS } from '../../src/support/project-root';
import { bodyOf } from '../support/json';
import { createAccount, ledgerOf, PERSON } from '../support/factories';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';
import { holdTableLock, WAITING_FOR_A_LOCK } from '../support/statement-waits';
import { until } from '../support/until';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

function adminFetch(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${server.adminUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? TEST_ADMIN_TOKEN}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

describe('admin API', () => {
  test('when an account is created, then it answers 201 with a key shown once, and the key works', async () => {
    const response = await adminFetch('POST', '/admin/v1/accounts', { body: { name: 'Acme', credits: 3 } });
    const body = await bodyOf(response);
    expect(response.status).toBe(201);
    expect(body).toEqual({
      success: true,
      message: 'Account created',
      data: { accountId: expect.any(Number), keyId: expect.any(Number), apiKey: expect.stringMatching(/^pps_live_[0-9a-f]{40}_[0-9a-f]{8}$/), credits: 3 },
      statusCode: 201,
      timestamp: expect.any(String),
      error: null,
    });
    const snap = await server.post('/api/v1/snap', PERSON, { 'x-api-key': body.data.apiKey });
    expect(snap.status).toBe(201);
  });

  test('when an account is shown, then it lists its balance and key prefixes, never a key or hash', async () => {
    const account = await createAccount(server, 7);
    const response = await adminFetch('GET', `/admin/v1/accounts/${account.accountId}`);
    const body = await bodyOf(response);
    expect(body.data).toEqual({
      accountId: account.accountId,
      name: expect.any(String),
      credits: 7,
      held: 0,
      tokens: { prompt: 0, completion: 0, estimatedPrompt: 0, estimatedCompletion: 0, failed: { prompt: 0, completion: 0, calls: 0, unreportedCalls: 0, estimatedPrompt: 0, estimatedCompletion: 0 } },
      keys: [{ keyId: account.keyId, prefix: account.apiKey.slice(0, 17), active: true }],
    });
    expect(JSON.stringify(body)).not.toContain(account.apiKey);
  });

  test('when credits are added, then the balance and the ledger grow by the amount', async () => {
    const account = await createAccount(server, 2);
    const response = await adminFetch('POST', `/admin/v1/accounts/${account.accountId}/credits`, { body: { amount: 5 } });
    expect((await bodyOf(response)).data).toEqual({ accountId: account.accountId, credits: 7 });
    expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 7, rows: 2 });
  });

  test('when three grants of 1e9 are added, then the balance is 3,000,000,000 and more (past int4), never a 500', async () => {
    const account = await createAccount(server, 1_000_000_000);
    for (const want of [2_000_000_000, 3_000_000_000, 4_000_000_000]) {
      const response = await adminFetch('POST', `/admin/v1/accounts/${account.accountId}/credits`, { body: { amount: 1_000_000_000 } });
      expect({ status: response.status, data: (await bodyOf(response)).data }).toEqual({ status: 200, data: { accountId: account.accountId, credits: want } });
    }
    expect((await bodyOf(await adminFetch('GET', `/admin/v1/accounts/${account.accountId}`))).data.credits).toBe(4_000_000_000);
  });

  test.each([
    ['a grant over 1e9', { amount: 1_000_000_001 }, 'amount must not be greater than 1000000000'],
    ['a grant that is not a whole number', { amount: 1.5 }, 'amount must be an integer number'],
  ])('when %s is asked, then it answers 400 in the envelope', async (_name, body, message) => {
    const account = await createAccount(server, 1);
    const response = await adminFetch('POST', `/admin/v1/accounts/${account.accountId}/credits`, { body });
    expect({ status: response.status, body: await bodyOf(response) }).toEqual({
      status: 400,
      body: { success: false, message, error: message, statusCode: 400, timestamp: expect.any(String) },
    });
  });

  test('when a grant would take the balance past 9007199254740991, then it answers 400 in the envelope and changes nothing', async () => {
    const account = await createAccount(server, 1);
    const nearMax = Number.MAX_SAFE_INTEGER - 10;
    await server.services.db('accounts').where({ id: account.accountId }).update({ credits: nearMax });
    const response = await adminFetch('POST', `/admin/v1/accounts/${account.accountId}/credits`, { body: { amount: 11 } });
    const message = 'amount would take the balance above 9007199254740991 credits';
    expect({ status: response.status, body: await bodyOf(response) }).toEqual({
      status: 400,
      body: { success: false, message, error: message, statusCode: 400, timestamp: expect.any(String) },
    });
    expect((await bodyOf(await adminFetch('GET', `/admin/v1/accounts/${account.accountId}`))).data.credits).toBe(nearMax);
    expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 1, rows: 1 });
  });

  test('when a second key is created, then both keys work until one is deactivated', async () => {
    const account = await createAccount(server, 5);
    const created = await bodyOf(await adminFetch('POST', `/admin/v1/accounts/${account.accountId}/keys`));
    expect(created.statusCode).toBe(201);
    const second = created.data.apiKey as string;
    expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': second })).status).toBe(201);

    const deactivated = await bodyOf(await adminFetch('DELETE', `/admin/v1/keys/${created.data.keyId}`));
    expect(deactivated.data).toEqual({ keyId: created.data.keyId, active: false });
    expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': second })).status).toBe(401);
    expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(201);
  });

  test('when a key is deactivated on another instance, then this one refuses it once its next poll of deactivated keys has answered', async () => {
    const other = await startTestServer();
    try {
      const account = await createAccount(server, 50);
      expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(201);
      await other.admin('DELETE', `/admin/v1/keys/${account.keyId}`);
      const deactivatedAt = Date.now();
      // The event, not the clock: the bound in time (KEY_DEACTIVATION_BOUND_MS) is the unit test's.
      await until(() => server.services.callers.lastPollStartedAt() > deactivatedAt, 30_000);
      expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  test.each([
    ['GET', '/admin/v1/accounts/999999999', undefined, 'Account not found'],
    ['POST', '/admin/v1/accounts/999999999/credits', { amount: 1 }, 'Account not found'],
    ['POST', '/admin/v1/accounts/999999999/keys', undefined, 'Account not found'],
    ['DELETE', '/admin/v1/keys/999999999', undefined, 'API key not found'],
  ])('when %s %s names nothing, then it answers 404', async (method, path, body, message) => {
    const response = await adminFetch(method, path, { body });
    expect(response.status).toBe(404);
    expect(await bodyOf(response)).toEqual({ success: false, message, error: message, statusCode: 404, timestamp: expect.any(String) });
  });

  test.each([
    ['a negative balance', { name: 'x', credits: -1 }, 'credits must not be less than 0'],
    ['a missing name', { credits: 1 }, 'name should not be empty, name must be a string'],
    ['an unknown property', { name: 'x', credits: 1, admin: true }, 'property admin should not exist'],
  ])('when an account is created with %s, then it answers 400', async (_name, body, message) => {
    const response = await adminFetch('POST', '/admin/v1/accounts', { body });
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).message).toBe(message);
  });

  test('when the token is wrong or missing, then it answers 401 and does nothing', async () => {
    const wrong = await adminFetch('POST', '/admin/v1/accounts', { token: 'not-the-token', body: { name: 'x', credits: 1 } });
    const missing = await fetch(`${server.adminUrl}/admin/v1/accounts/1`);
    for (const response of [wrong, missing]) {
      expect(response.status).toBe(401);
      expect(await bodyOf(response)).toEqual({ message: 'Invalid admin token', error: 'Invalid admin token', statusCode: 401 });
    }
  });

  test('when the admin listener is asked, then the public listener does not serve admin routes', async () => {
    const response = await fetch(`${server.url}/admin/v1/accounts/1`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(response.status).toBe(404);
  });
});

describe('admin API: wrong tokens', () => {
  test('when one address sends 10 wrong tokens, then its next request is answered 429 in the envelope with Retry-After, the right token included; other answers never counted', async () => {
    // A server of its own: the other tests share 127.0.0.1, which this one locks out.
    const guarded = await startTestServer();
    const from = (token: string) => fetch(`${guarded.adminUrl}/admin/v1/accounts/999999999`, { headers: { authorization: `Bearer ${token}` } });
    try {
      // Right tokens (a 404 here) are not counted against the address, however many.
      for (let i = 0; i < 15; i += 1) expect((await from(TEST_ADMIN_TOKEN)).status).toBe(404);
      for (let i = 0; i < 10; i += 1) expect((await from(`wrong-token-${i}`)).status).toBe(401);

      const refused = await from(TEST_ADMIN_TOKEN);
      const message = 'Too many requests with a wrong admin token from this address';
      expect({ status: refused.status, body: await bodyOf(refused) }).toEqual({
        status: 429,
        body: { success: false, message, error: message, statusCode: 429, timestamp: expect.any(String) },
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // Probes and scrapers are not behind the token, nor behind its limit.
      expect((await fetch(`${guarded.adminUrl}/healthz`)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('admin API: right tokens at once', () => {
  test('when more requests with the right token than the bound on wrong ones are in flight at once, then none is refused', async () => {
    const inFlight = 12;
    const guarded = await startTestServer({ DATABASE_POOL_MAX: String(inFlight + 4) });
    try {
      // accounts is locked until every request waits on it (or was answered without it).
      const release = await holdTableLock(guarded.services.db, 'accounts');
      let answered = 0;
      const statuses = Promise.all(
        Array.from({ length: inFlight }, async () => {
          const response = await fetch(`${guarded.adminUrl}/admin/v1/accounts/999999999`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
          answered += 1;
          return response.status;
        }),
      );
      try {
        await until(async () => answered + Number((await guarded.services.db.raw<{ rows: { waiting: string }[] }>(WAITING_FOR_A_LOCK)).rows[0]?.waiting) >= inFlight, {
          what: `${inFlight} admin requests waiting on accounts or answered`,
        });
      } finally {
        await release();
      }
      expect(await statuses).toEqual(Array.from({ length: inFlight }, () => 404));
    } finally {
      await guarded.close();
    }
  });
});

/** Runs the built CLI (make integration builds first), as `npm run admin` does. */
describe('admin CLI', () => {
  const run = promisify(execFile);
  const cli = (...args: string[]) =>
    run(process.execPath, [join(__dirname, '../../dist/src/cli/admin.js'), ...args], {
      env: { ...process.env, ADMIN_TOKEN: TEST_ADMIN_TOKEN, ADMIN_URL: server.adminUrl },
    });

  test('when create-account, add-credits, create-key, deactivate-key and show-account run, then each does its job', async () => {
    const created = JSON.parse((await cli('create-account', 'CLI Ltd', '4')).stdout).data;
    expect(created.credits).toBe(4);
    const topped = JSON.parse((await cli('add-credits', String(created.accountId), '6')).stdout).data;
    expect(topped.credits).toBe(10);
    const key = JSON.parse((await cli('create-key', String(created.accountId))).stdout).data;
    const deactivated = JSON.parse((await cli('deactivate-key', String(key.keyId))).stdout).data;
    expect(deactivated).toEqual({ keyId: key.keyId, active: false });
    const shown = JSON.parse((await cli('show-account', String(created.accountId))).stdout).data;
    expect(shown.keys.map((k: { active: boolean }) => k.active)).toEqual([true, false]);
  });

  test('when erase-person is given the name as "-", then it reads the name from stdin and erases that person', async () => {
    const account = await createAccount(server, 2);
    const name = `Grace Hopper ${randomUUID()}`;
    expect((await server.post('/api/v1/snap', { ...PERSON, name }, { 'x-api-key': account.apiKey })).status).toBe(201);

    const stdout = await new Promise<string>((resolve, reject) => {
      const child = execFile(process.execPath, [join(__dirname, '../../dist/src/cli/admin.js'), 'erase-person', String(account.accountId), '-'], { env: { ...process.env, ADMIN_TOKEN: TEST_ADMIN_TOKEN, ADMIN_URL: server.adminUrl } }, (err, out) =>
        err ? reject(err) : resolve(out),
      );
      child.stdin?.end(`${name}\n`);
    });

    expect(JSON.parse(stdout).data).toMatchObject({ scope: 'person', erased: { snaps: 1 } });
  });

  test('when the command is unknown, then it prints the usage and exits 2', async () => {
    await expect(cli('explode')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: npm run admin') });
  });
});

describe('admin API: what openapi/admin.yaml documents', () => {
  type Responses = Record<string, { $ref?: string }>;
  const spec = readSpec(SPEC_PATHS.admin) as {
    paths: Record<string, { post?: { operationId: string; responses: Responses } }>;
    components: { responses: Record<string, { content: { 'application/json': { examples: Record<string, { value: { message: string } }> } } }> };
  };
  const posts = Object.entries(spec.paths).flatMap(([path, item]) => (item.post ? [[item.post.operationId, path.replace('{accountId}', '1'), item.post.responses] as const] : []));

  test.each(posts)('when %s gets a body that is not JSON, then it answers 415, and the spec documents that 415 and its text', async (_operationId, path, responses) => {
    const response = await fetch(`${server.adminUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'text/plain' },
      body: 'name=Acme',
    });
    const { message } = await bodyOf(response);
    expect({ status: response.status, message }).toEqual({ status: 415, message: 'Content-Type must be application/json' });

    const documented = responses['415']?.$ref?.replace('#/components/responses/', '');
    const examples = documented ? spec.components.responses[documented]?.content['application/json'].examples : undefined;
    expect(Object.values(examples ?? {}).map((example) => example.value.message)).toContain(message);
  });
});
