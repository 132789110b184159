/**
 * Text that PostgreSQL cannot store (found by Schemathesis, make contract): the NUL
 * character and unpaired surrogates are refused with 400 before anything is charged,
 * instead of failing at the insert with a 500.
 */
import { bodyOf } from '../support/json';
import { MESSAGES } from '../../src/domain/messages';
import { balanceOf, createAccount, PERSON } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

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
});
