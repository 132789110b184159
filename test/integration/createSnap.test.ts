/** POST /api/v1/snap against real PostgreSQL and Redis: contract §4.1, §5, §7. */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { bodyOf } from '../support/json';
import { MESSAGES } from '../../src/domain/messages';
import { PROFILE_CODES, PROFILE_NAMES } from '../../src/domain/profiles';
import { balanceOf, createAccount, ledgerOf, PERSON, snapCountOf, type TestAccount } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

function postSnap(account: TestAccount, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return server.post('/api/v1/snap', body, { 'x-api-key': account.apiKey, ...headers });
}

async function expectFailure(response: Response, status: number, message: string): Promise<void> {
  const body = await bodyOf(response);
  expect({ status: response.status, body }).toEqual({
    status,
    body: { success: false, message, error: message, statusCode: status, timestamp: expect.any(String) },
  });
  expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
}

describe('createSnap', () => {
  test('when the request is valid, then it answers 201 with the snap in the envelope and charges one credit', async () => {
    const account = await createAccount(server, 5);
    const response = await postSnap(account, PERSON);
    const body = await bodyOf(response);

    expect(response.status).toBe(201);
    expect(body).toEqual({
      success: true,
      message: 'Snap generated successfully',
      data: { snapId: expect.any(Number), snapResponse: expect.objectContaining({ name: PERSON.name }) },
      statusCode: 201,
      timestamp: expect.any(String),
      error: null,
    });
    const prediction = body.data.snapResponse;
    expect(PROFILE_NAMES).toContain(prediction.profile);
    expect(PROFILE_CODES).toContain(prediction.primary_code);
    expect(prediction.secondary_profile).not.toBe('Visionary');
    expect(await balanceOf(server, account.accountId)).toBe(4);
    expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 4, rows: 2 });
    expect(await snapCountOf(server, account.accountId)).toBe(1);
  });

  test('when ageRange and jobType are given, then the snap keeps only the name (docs/privacy.md: minimised by default)', async () => {
    const account = await createAccount(server, 1);
    const response = await postSnap(account, { ...PERSON, ageRange: '35-44' });
    const { data } = await bodyOf(response);
    const row = await server.services.db('snaps').where({ id: data.snapId }).first();
    expect(row.request).toEqual({ name: PERSON.name });
    expect(row.predictor).toBe('embedded');
  });

  test('when KEEP_REQUEST_TEXTS is on, then the snap keeps the notes, job type and age range, and the analysis the goal and draft', async () => {
    const keeping = await startTestServer({ KEEP_REQUEST_TEXTS: 'true' });
    try {
      const account = await keeping.admin<TestAccount>('POST', '/admin/v1/accounts', { name: 'keeps texts', credits: 2 });
      const snap = await bodyOf(await keeping.post('/api/v1/snap', { ...PERSON, ageRange: '35-44' }, { 'x-api-key': account.apiKey }));
      const context = { channel: 'email', goal: 'Agree the audit schedule', draft: 'Could we go over the figures on Friday?' };
      const comms = await bodyOf(await keeping.post('/api/v1/snap/comms', { snapId: snap.data.snapId, ...context }, { 'x-api-key': account.apiKey }));
      expect((await keeping.services.db('snaps').where({ id: snap.data.snapId }).first()).request).toEqual({ ...PERSON, ageRange: '35-44' });
      expect((await keeping.services.db('comms_analyses').where({ id: comms.data.commsId }).first()).request).toEqual(context);
    } finally {
      await keeping.close();
    }
  });

  describe('when the API key is missing, malformed, unknown or inactive, then it answers the bare 401 body', () => {
    const bare = { message: 'Invalid or inactive api key', error: 'Invalid or inactive api key', statusCode: 401 };

    test.each([
      ['missing', undefined],
      ['empty', ''],
      ['not our format', 'sk-test-1234'],
      ['a bad checksum', 'pps_live_0123456789abcdef0123456789abcdef01234567_00000000'],
    ])('%s', async (_name, apiKey) => {
      const headers: Record<string, string> = apiKey === undefined ? {} : { 'x-api-key': apiKey };
      const response = await server.post('/api/v1/snap', PERSON, headers);
      expect(response.status).toBe(401);
      expect(await bodyOf(response)).toEqual(bare);
    });

    test('well-formed but unknown', async () => {
      const other = await createAccount(server, 1);
      const unknown = other.apiKey.replace(/pps_live_(\w{40})_/, (_m, random: string) => `pps_live_${random.split('').reverse().join('')}_`);
      const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': unknown });
      expect(response.status).toBe(401);
      expect(await bodyOf(response)).toEqual(bare);
    });

    test('deactivated', async () => {
      const account = await createAccount(server, 3);
      await server.admin('DELETE', `/admin/v1/keys/${account.keyId}`);
      const response = await postSnap(account, PERSON);
      expect(response.status).toBe(401);
      expect(await bodyOf(response)).toEqual(bare);
      expect(await balanceOf(server, account.accountId)).toBe(3);
    });

    test('before the body is looked at', async () => {
      const response = await server.post('/api/v1/snap', '{not json', {});
      expect(response.status).toBe(401);
      expect(await bodyOf(response)).toEqual(bare);
    });
  });

  describe('when the body is invalid, then it answers 400 with the class-validator text and charges nothing', () => {
    const long = (n: number) => 'x'.repeat(n);
    test.each([
      ['name is a number', { ...PERSON, name: 42 }, 'name must be a string'],
      ['name is null', { ...PERSON, name: null }, 'name must be a string'],
      ['name is an object', { ...PERSON, name: { first: 'Ada' } }, 'name must be a string'],
      ['name is missing', { notes: PERSON.notes }, 'name should not be empty, name must be a string'],
      ['name is empty', { ...PERSON, name: '' }, 'name should not be empty'],
      ['notes are empty', { ...PERSON, notes: '' }, 'notes should not be empty'],
      ['notes are missing', { name: PERSON.name }, 'notes should not be empty, notes must be a string'],
      ['the body is empty', {}, 'name should not be empty, name must be a string, notes should not be empty, notes must be a string'],
      ['name is too long', { ...PERSON, name: long(201) }, 'name must be shorter than or equal to 200 characters'],
      ['notes are too long', { ...PERSON, notes: long(5001) }, 'notes must be shorter than or equal to 5000 characters'],
      ['ageRange is too long', { ...PERSON, ageRange: long(33) }, 'ageRange must be shorter than or equal to 32 characters'],
      ['jobType is too long', { ...PERSON, jobType: long(121) }, 'jobType must be shorter than or equal to 120 characters'],
      ['jobType is a number', { ...PERSON, jobType: 7 }, 'jobType must be a string'],
      ['an unknown property', { ...PERSON, foo: 1 }, 'property foo should not exist'],
      ['two problems', { name: 1, notes: '' }, 'name must be a string, notes should not be empty'],
      ['the body is an array', [PERSON], 'request body must be an object'],
      [
        'notes of 1,000 Chinese characters (within 5,000 characters, past the token budget: openapi/openapi.yaml, SnapRequest)',
        { name: PERSON.name, notes: '审'.repeat(1000) },
        'notes, ageRange and jobType are too long for the model together: an estimated 3000 tokens, at most 1288 (a Chinese, Japanese or Korean character counts as 3)',
      ],
    ])('%s', async (_name, body, message) => {
      const account = await createAccount(server, 2);
      await expectFailure(await postSnap(account, body), 400, message);
      expect(await balanceOf(server, account.accountId)).toBe(2);
      expect(await snapCountOf(server, account.accountId)).toBe(0);
    });

    test('notes of 429 Chinese characters (1,287 estimated tokens, within the budget) are accepted', async () => {
      const account = await createAccount(server, 1);
      expect((await postSnap(account, { name: PERSON.name, notes: '审'.repeat(429) })).status).toBe(201);
    });

    test('English notes within the character bounds that write the name again and again are accepted: the budget counts the texts as the client wrote them, not with "the person" in the name\'s place', async () => {
      const account = await createAccount(server, 1);
      expect((await postSnap(account, { name: 'Al Smith', notes: 'Al '.repeat(1666), ageRange: 'x'.repeat(32), jobType: 'y'.repeat(120) })).status).toBe(201);
    });

    test('name at exactly 200 characters is accepted', async () => {
      const account = await createAccount(server, 1);
      expect((await postSnap(account, { ...PERSON, name: long(200) })).status).toBe(201);
    });
  });

  test('when the body is not valid JSON, then it answers 400 "Request body is not valid JSON"', async () => {
    const account = await createAccount(server, 1);
    await expectFailure(await postSnap(account, '{"name": "Ada",'), 400, MESSAGES.invalidJson);
  });

  test('when the body is larger than 32 KiB, then it answers 413 in the envelope', async () => {
    const account = await createAccount(server, 1);
    const response = await postSnap(account, { ...PERSON, notes: 'x'.repeat(33 * 1024) });
    await expectFailure(response, 413, 'Request body must not be larger than 32768 bytes');
    expect(await balanceOf(server, account.accountId)).toBe(1);
  });

  test('when the body is not sent as JSON, then it answers 415 in the envelope', async () => {
    const account = await createAccount(server, 1);
    const response = await postSnap(account, 'name=Ada', { 'content-type': 'application/x-www-form-urlencoded' });
    await expectFailure(response, 415, 'Content-Type must be application/json');
  });

  test('when the request has a query parameter, then it answers 400 in the class-validator style of every other message, and charges nothing', async () => {
    const account = await createAccount(server, 1);
    const response = await fetch(`${server.url}/api/v1/snap?page=2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
      body: JSON.stringify(PERSON),
    });
    await expectFailure(response, 400, 'property page should not exist');
    expect(await balanceOf(server, account.accountId)).toBe(1);
  });

  function postEncoded(account: TestAccount, encoding: string, body: Uint8Array): Promise<Response> {
    return fetch(`${server.url}/api/v1/snap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding, 'x-api-key': account.apiKey },
      body,
    });
  }

  test('when the body is gzip-compressed, then it is read like any other', async () => {
    const account = await createAccount(server, 1);
    expect((await postEncoded(account, 'gzip', gzipSync(JSON.stringify(PERSON)))).status).toBe(201);
  });

  test.each([
    ['gzip', 'bytes that are not gzip', Buffer.from(JSON.stringify(PERSON))],
    ['deflate', 'bytes that are not deflate', Buffer.from('not deflate at all')],
    ['gzip', 'a truncated gzip stream', gzipSync(JSON.stringify(PERSON)).subarray(0, 20)],
  ])('when the body says Content-Encoding %s but holds %s, then it answers 400 saying so and charges nothing', async (encoding, _what, body) => {
    const account = await createAccount(server, 1);
    await expectFailure(await postEncoded(account, encoding, body), 400, 'Request body could not be decompressed with its Content-Encoding');
    expect(await balanceOf(server, account.accountId)).toBe(1);
  });

  test.each(['compress', 'zstd', 'gzip, zstd'])('when the body has an unsupported Content-Encoding (%s), then it answers 415 naming the encodings, on every Node', async (encoding) => {
    const account = await createAccount(server, 1);
    await expectFailure(await postEncoded(account, encoding, Buffer.from(JSON.stringify(PERSON))), 415, 'Content-Encoding must be gzip, deflate, br or identity');
  });

  test('when the route does not exist, then it answers 404 in the envelope', async () => {
    const account = await createAccount(server, 1);
    const response = await server.post('/api/v1/snaps', PERSON, { 'x-api-key': account.apiKey });
    await expectFailure(response, 404, 'Cannot POST /api/v1/snaps');
  });

  test.each([
    ['/foo', 'not JSON', 'application/json', 'not json {'],
    ['/docs/x', 'larger than the limit', 'application/json', JSON.stringify({ notes: 'x'.repeat(64 * 1024) })],
    ['/openapi.json', 'not of a JSON type', 'text/plain', 'hello'],
    ['/API/V1/SNAP', 'not JSON', 'application/json', '{'],
  ])('when a path outside the API (%s) is posted a body %s, then it answers the 404, its body unread', async (path, _what, type, body) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });

    await expectFailure(response, 404, `Cannot POST ${path}`);
  });

  test('when a path outside the API is posted a body that is not gzip as gzip, then it answers the 404, its body not decompressed', async () => {
    const response = await fetch(`${server.url}/foo`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: 'not gzip' });

    await expectFailure(response, 404, 'Cannot POST /foo');
  });

  test.each(['/API/V1/SNAP', '/api/v1/snap/', '/Api/v1/snap'])('when the path is %s (another case, a trailing slash), then it answers 404 and charges nothing', async (path) => {
    const account = await createAccount(server, 1);
    const response = await server.post(path, PERSON, { 'x-api-key': account.apiKey });
    await expectFailure(response, 404, `Cannot POST ${path}`);
    expect(await balanceOf(server, account.accountId)).toBe(1);
    expect(await snapCountOf(server, account.accountId)).toBe(0);
  });

  test.each(['/api/v1/snap/', '/api/v1/snap/comms/', '/api/v1/'])('when the path under /api/v1 ends in a slash (%s), then its 404 carries the rate-limit headers like every response there', async (path) => {
    const account = await createAccount(server, 1);
    const response = await server.post(path, PERSON, { 'x-api-key': account.apiKey });
    await expectFailure(response, 404, `Cannot POST ${path}`);
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  test('when the request line holds the absolute URL (as HTTP/1.1 allows), then it is served like the path alone', async () => {
    const account = await createAccount(server, 1);
    const body = JSON.stringify(PERSON);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const sent = request({ hostname, port, method: 'POST', path: `${server.url}/api/v1/snap`, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': account.apiKey } }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      });
      sent.on('error', reject);
      sent.end(body);
    });
    expect(status).toBe(201);
    expect(await balanceOf(server, account.accountId)).toBe(0);
  });

  test('when the method is not POST, then it answers 405 with Allow', async () => {
    const account = await createAccount(server, 1);
    const response = await fetch(`${server.url}/api/v1/snap`, { headers: { 'x-api-key': account.apiKey } });
    expect(response.headers.get('allow')).toBe('POST');
    await expectFailure(response, 405, 'Method GET is not allowed on /api/v1/snap');
  });

  describe('credits', () => {
    test('when the account has no credits, then it answers 400 insufficient credits and stores nothing', async () => {
      const account = await createAccount(server, 0);
      await expectFailure(await postSnap(account, PERSON), 400, MESSAGES.insufficientCredits);
      expect(await snapCountOf(server, account.accountId)).toBe(0);
      expect(await balanceOf(server, account.accountId)).toBe(0);
    });

    test('when the last credit is used, then the next call is refused', async () => {
      const account = await createAccount(server, 1);
      expect((await postSnap(account, PERSON)).status).toBe(201);
      await expectFailure(await postSnap(account, PERSON), 400, MESSAGES.insufficientCredits);
    });

    test('when 40 requests race for 10 credits, then exactly 10 snaps are stored and charged', async () => {
      const account = await createAccount(server, 10);
      const responses = await Promise.all(Array.from({ length: 40 }, () => postSnap(account, PERSON)));
      const statuses = responses.map((r) => r.status);
      const refusals = await Promise.all(responses.filter((r) => r.status === 400).map(bodyOf));

      expect(statuses.filter((s) => s === 201)).toHaveLength(10);
      expect(statuses.filter((s) => s === 400)).toHaveLength(30);
      expect(refusals.every((b) => b.message === MESSAGES.insufficientCredits)).toBe(true);
      expect(await balanceOf(server, account.accountId)).toBe(0);
      expect(await snapCountOf(server, account.accountId)).toBe(10);
      expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 0, rows: 11 });
    });
  });

  test('when a request id is sent, then it is echoed; otherwise one is generated', async () => {
    const account = await createAccount(server, 2);
    const echoed = await postSnap(account, PERSON, { 'x-request-id': 'trace-123' });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const generated = await postSnap(account, PERSON);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
