/**
 * Text that PostgreSQL cannot store, or that is not text at all (found by Schemathesis and
 * outside tools): the NUL character, unpaired surrogates and invalid UTF-8 bytes are refused
 * with 400 before anything is charged or stored, on the public API and the admin API alike,
 * instead of failing at the insert with a 500 or being silently replaced with U+FFFD.
 */
import { bodyOf } from '../support/json';
import { MESSAGES } from '../../src/domain/messages';
import { balanceOf, createAccount, PERSON } from '../support/factories';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

async function snapIdOf(apiKey: string): Promise<number> {
  const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': apiKey });
  expect(response.status).toBe(201);
  return (await bodyOf(response)).data.snapId;
}

describe('text the database cannot store', () => {
  test.each([
    ['name', { ...PERSON, name: 'Ada\u0000Lovelace' }],
    ['notes', { ...PERSON, notes: 'Checks\u0000twice' }],
    ['ageRange', { ...PERSON, ageRange: '35\u000044' }],
    ['jobType', { ...PERSON, jobType: '\u0000' }],
  ])('when the snap %s holds a NUL character, then it answers 400 and charges nothing', async (field, body) => {
    const account = await createAccount(server, 2);
    const response = await server.post('/api/v1/snap', body, { 'x-api-key': account.apiKey });
    const { message } = await bodyOf(response);
    expect({ status: response.status, message }).toEqual({ status: 400, message: `${field} must not contain NUL characters` });
    expect(await balanceOf(server, account.accountId)).toBe(2);
  });

  test.each([
    ['goal', { goal: 'Agree\u0000now' }],
    ['draft', { draft: 'Hi\u0000Ada' }],
  ])('when the comms %s holds a NUL character, then it answers 400 and charges nothing', async (field, extra) => {
    const account = await createAccount(server, 2);
    const snapId = await snapIdOf(account.apiKey);
    const response = await server.post('/api/v1/snap/comms', { snapId, ...extra }, { 'x-api-key': account.apiKey });
    const { message } = await bodyOf(response);
    expect({ status: response.status, message }).toEqual({ status: 400, message: `${field} must not contain NUL characters` });
    expect(await balanceOf(server, account.accountId)).toBe(1);
  });

  test.each([
    ['a lone high surrogate in the snap name', '/api/v1/snap', '{"name": "Ada \\ud800", "notes": "Checks twice"}'],
    ['a lone low surrogate in the snap notes', '/api/v1/snap', '{"name": "Ada", "notes": "\\udc00 twice"}'],
    ['a reversed pair in a property name', '/api/v1/snap', '{"name": "Ada", "notes": "n", "\\udc00\\ud800": 1}'],
  ])('when the body holds %s, then it answers 400 "Request body is not valid JSON"', async (_name, path, raw) => {
    const account = await createAccount(server, 2);
    const response = await server.post(path, raw, { 'x-api-key': account.apiKey });
    const { message } = await bodyOf(response);
    expect({ status: response.status, message }).toEqual({ status: 400, message: MESSAGES.invalidJson });
    expect(await balanceOf(server, account.accountId)).toBe(2);
  });

  test('when the text holds characters beyond the BMP (surrogate pairs), then they are stored and echoed', async () => {
    const account = await createAccount(server, 1);
    const response = await server.post('/api/v1/snap', '{"name": "Ada \\ud83d\\ude00", "notes": "Checks twice 𝔸"}', {
      'x-api-key': account.apiKey,
    });
    const body = await bodyOf(response);
    expect({ status: response.status, name: body.data?.snapResponse.name }).toEqual({ status: 201, name: 'Ada 😀' });
  });

  test.each([
    ['an invalid byte (0xFF) in the snap name', '/api/v1/snap', ['{"name": "Ada ', [0xff], '", "notes": "Checks twice"}']],
    ['a truncated sequence (0xC3 alone) in the snap notes', '/api/v1/snap', ['{"name": "Ada", "notes": "Caf', [0xc3], ' twice"}']],
    ['an overlong encoding of "/" (0xC0 0xAF) in the snap job type', '/api/v1/snap', ['{"name": "Ada", "notes": "n", "jobType": "a', [0xc0, 0xaf], 'b"}']],
    ['an encoded surrogate (0xED 0xA0 0x80) in the comms goal', '/api/v1/snap/comms', ['{"snapId": 1, "goal": "Agree ', [0xed, 0xa0, 0x80], '"}']],
  ] as const)('when the body holds %s, then it answers 400 "Request body is not valid UTF-8" and charges nothing', async (_name, path, parts) => {
    const account = await createAccount(server, 2);
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
      body: bytesOf(parts),
    });
    const { message } = await bodyOf(response);
    expect({ status: response.status, message }).toEqual({ status: 400, message: MESSAGES.invalidUtf8 });
    expect(await balanceOf(server, account.accountId)).toBe(2);
  });
});

describe('admin text the database cannot store', () => {
  async function createAccountRaw(body: Buffer | string): Promise<{ status: number; message: string }> {
    const response = await fetch(`${server.adminUrl}/admin/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, message: (await bodyOf(response)).message };
  }

  test('when an account name holds a NUL character, then the admin API answers 400 with the public API\'s text', async () => {
    const name = `Acme\u0000 ${Math.random()}`;
    expect(await createAccountRaw(JSON.stringify({ name, credits: 1 }))).toEqual({ status: 400, message: 'name must not contain NUL characters' });
  });

  test('when an account name holds invalid UTF-8 bytes, then the admin API answers 400 "Request body is not valid UTF-8"', async () => {
    expect(await createAccountRaw(bytesOf(['{"name": "Acme ', [0xff, 0xfe], '", "credits": 1}']))).toEqual({ status: 400, message: MESSAGES.invalidUtf8 });
  });

  test('when an account name holds a lone surrogate escape, then the admin API answers 400 "Request body is not valid JSON"', async () => {
    expect(await createAccountRaw('{"name": "Acme \\ud800", "credits": 1}')).toEqual({ status: 400, message: MESSAGES.invalidJson });
  });
});

/** A body of UTF-8 text parts and raw byte parts, in order. */
function bytesOf(parts: readonly (string | readonly number[])[]): Buffer {
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));
}
