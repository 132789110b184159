/** Keys, secrets and hostile bodies: what an attacker can send changes nothing and leaks nothing. */
import { createHash, randomUUID } from 'node:crypto';
import { bodyOf } from '../support/json';
import { createAccount, PERSON } from '../support/factories';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'trace' });
});

afterAll(async () => {
  await server.close();
});

describe('security', () => {
  test('when a response is sent, then it carries the security headers of a JSON API', async () => {
    const account = await createAccount(server, 1);
    const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    expect(Object.fromEntries(['content-security-policy', 'x-content-type-options', 'x-frame-options', 'cache-control', 'strict-transport-security', 'referrer-policy'].map((h) => [h, response.headers.get(h)]))).toEqual({
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'cache-control': 'no-store',
      'strict-transport-security': expect.stringContaining('max-age='),
      'referrer-policy': 'no-referrer',
    });
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  test.each([
    ['__proto__', '{"name":"Ada","notes":"x","__proto__":{"polluted":true}}', 'property __proto__ should not exist'],
    ['constructor', '{"name":"Ada","notes":"x","constructor":{"prototype":{"polluted":true}}}', 'property constructor should not exist'],
    ['a nested __proto__', '{"name":{"__proto__":{"polluted":true}},"notes":"x"}', 'name must be a string'],
  ])('when a body carries %s, then it is refused and no prototype is polluted', async (_name, raw, message) => {
    const account = await createAccount(server, 1);
    const response = await server.post('/api/v1/snap', raw, { 'x-api-key': account.apiKey });
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).message).toBe(message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  test('when a body is nested deeper than 16 levels, then it is refused before parsing', async () => {
    const account = await createAccount(server, 1);
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const response = await server.post('/api/v1/snap', deep, { 'x-api-key': account.apiKey });
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).message).toBe('Request body must not be nested deeper than 16 levels');
  });

  test('when brackets sit inside strings, then they do not count as nesting', async () => {
    const account = await createAccount(server, 1);
    const response = await server.post('/api/v1/snap', { ...PERSON, notes: `${'[{'.repeat(100)} \\" ${'}]'.repeat(100)}` }, { 'x-api-key': account.apiKey });
    expect(response.status).toBe(201);
  });

  test('when keys, tokens, notes and drafts pass through, then none of them reaches the logs', async () => {
    const account = await createAccount(server, 5);
    const notes = `Secret notes ${randomUUID()}`;
    const draft = `Secret draft ${randomUUID()}`;
    const snap = await bodyOf(await server.post('/api/v1/snap', { ...PERSON, notes }, { 'x-api-key': account.apiKey }));
    await server.post('/api/v1/snap/comms', { snapId: snap.data.snapId, draft }, { 'x-api-key': account.apiKey });
    await server.post('/api/v1/snap', { ...PERSON, notes }, { 'x-api-key': `${account.apiKey.slice(0, -1)}x` });
    await server.post('/api/v1/snap', { name: 1, notes }, { 'x-api-key': account.apiKey });
    await fetch(`${server.adminUrl}/admin/v1/accounts/${account.accountId}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    await fetch(`${server.adminUrl}/admin/v1/accounts/${account.accountId}`, { headers: { authorization: 'Bearer wrong-token-guess' } });

    const logs = server.logs();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [account.apiKey, account.apiKey.slice(9, 49), TEST_ADMIN_TOKEN, 'wrong-token-guess', notes, draft]) {
      expect(logs).not.toContain(secret);
    }
  });

  test('when a key is created, then only its SHA-256 is stored', async () => {
    const account = await createAccount(server, 1);
    const row = await server.services.db('api_keys').where({ id: account.keyId }).first();
    expect(row.key_hash).toBe(createHash('sha256').update(account.apiKey).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(account.apiKey.slice(9, 49));
  });
});
