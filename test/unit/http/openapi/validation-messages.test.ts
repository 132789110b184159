/**
 * validationMessage on what express-openapi-validator (and the Ajv inside it) really
 * says: each case sends a request through the validator's public `middleware()` on a
 * small spec, and the text is made from the errors it raised. validation-messages.ts
 * reads numbers and names out of Ajv's English messages (the validator passes on no
 * structured `params`), so an upgrade that rewords them fails here, not in production.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types';
import { MAX_TEXTS, QUOTED_NAME_MAX_CHARS, validationMessage, type ValidatorErrorItem } from '../../../../src/http/openapi/validation-messages';

const SPEC: OpenAPIV3.DocumentV3 = {
  openapi: '3.0.3',
  info: { title: 'validation messages', version: '1' },
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        parameters: [{ name: 'idempotency-key', in: 'header', required: false, schema: { type: 'string', pattern: '^[a-z]+$' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                required: ['name'],
                properties: {
                  name: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*$' },
                  code: { type: 'string', minLength: 3 },
                  snapId: { type: 'integer', format: 'int64', minimum: 1, maximum: 100 },
                  channel: { type: 'string', enum: ['email', 'chat'] },
                  nickname: { type: 'string', nullable: true },
                  day: { type: 'string', format: 'date' },
                },
              },
            },
          },
        },
        responses: { '204': { description: 'accepted' } },
      },
    },
  },
};

let server: Server;
let url: string;

beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(OpenApiValidator.middleware({ apiSpec: SPEC, validateApiSpec: false, validateRequests: { allErrors: true }, validateResponses: false }));
  app.post('/things', (_req, res) => {
    res.status(204).end();
  });
  const onError: ErrorRequestHandler = (err: { status?: number; errors?: ValidatorErrorItem[] }, _req, res, _next) => {
    res.status(err.status ?? 500).json({ text: validationMessage(err.errors ?? []) });
  };
  app.use(onError);
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/things`;
});

afterAll(async () => {
  server.close();
  await once(server, 'close');
});

async function textFor(body: unknown, headers: Record<string, string> = {}, query = ''): Promise<string> {
  const response = await fetch(`${url}${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  expect(response.status).toBe(400);
  return ((await response.json()) as { text: string }).text;
}

describe('validationMessage on the validator\'s own errors', () => {
  test.each<[string, unknown, string]>([
    ['a string of the wrong type', { name: 1 }, 'name must be a string'],
    ['a nullable string of the wrong type', { name: 'a', nickname: 5 }, 'nickname must be a string'],
    ['an integer of the wrong type (and so of the wrong format)', { name: 'a', snapId: 1.5 }, 'snapId must be an integer number'],
    ['an empty string', { name: '' }, 'name should not be empty'],
    ['a longer minimum', { name: 'a', code: 'ab' }, 'code must be longer than or equal to 3 characters'],
    ['a long string', { name: 'x'.repeat(201) }, 'name must be shorter than or equal to 200 characters'],
    ['an unknown property', { name: 'a', foo: 1 }, 'property foo should not exist'],
    ['a small number', { name: 'a', snapId: 0 }, 'snapId must not be less than 1'],
    ['a large number', { name: 'a', snapId: 101 }, 'snapId must not be greater than 100'],
    ['an enum', { name: 'a', channel: 'fax' }, 'channel must be one of the following values: email, chat'],
    ['the no-NUL pattern', { name: 'a\u0000b' }, 'name must not contain NUL characters'],
    ['a format', { name: 'a', day: 'tuesday' }, 'day must be a valid date'],
    ['the whole body', [1], 'request body must be an object'],
    ['several problems', { name: '', snapId: 'x' }, 'name should not be empty, snapId must be an integer number'],
  ])('when %s, then the text is class-validator style', async (_name, body, want) => {
    expect(await textFor(body)).toBe(want);
  });

  test('when a header does not match its pattern, then the text names the header and the pattern', async () => {
    expect(await textFor({ name: 'a' }, { 'idempotency-key': 'ABC' })).toBe('idempotency-key must match ^[a-z]+$ regular expression');
  });

  test('when a query parameter the operation does not define is sent (the validator names no keyword), then it is an unknown property', async () => {
    expect(await textFor({ name: 'a' }, {}, '?page=2')).toBe('property page should not exist');
  });

  test('when unknown names run long, then each is quoted cut and the text stays within the spec\'s Message (2,000 characters)', async () => {
    const long = (i: number) => `${i}${'x'.repeat(3000)}`;
    const body = Object.fromEntries([['name', 'a'], ...Array.from({ length: MAX_TEXTS + 2 }, (_, i) => [long(i), 1])]);
    const text = await textFor(body);
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text).toContain(`property ${long(0).slice(0, QUOTED_NAME_MAX_CHARS)}… should not exist`);
    expect(text).toMatch(/, and \d+ more$/);
    expect(await textFor({ name: 'a' }, {}, `?${long(99)}=1`)).toBe(`property ${long(99).slice(0, QUOTED_NAME_MAX_CHARS)}… should not exist`);
  });

  test('when a long name has an emoji where it is cut, then the emoji is kept whole or left out, never halved', async () => {
    const name = `${'x'.repeat(QUOTED_NAME_MAX_CHARS - 1)}😀${'y'.repeat(10)}`;
    expect(await textFor({ name: 'a', [name]: 1 })).toBe(`property ${'x'.repeat(QUOTED_NAME_MAX_CHARS - 1)}😀… should not exist`);
  });

  test('when a required property is missing, then it is reported as empty (the type is added by required-field-types.ts)', async () => {
    expect(await textFor({})).toBe('name should not be empty');
  });
});

describe('validationMessage on items alone', () => {
  const item = (path: string, keyword: string, message: string): ValidatorErrorItem => ({ path, message, errorCode: `${keyword}.openapi.validation` });

  test('when a missing property\'s type is known, then both constraints are named', () => {
    expect(validationMessage([{ ...item('/body/snapId', 'required', "must have required property 'snapId'"), expectedType: 'integer' }])).toBe(
      'snapId should not be empty, snapId must be an integer number',
    );
  });

  test('when the same problem comes twice, then it is said once', () => {
    expect(validationMessage([item('/body/name', 'type', 'must be string'), item('/body/name', 'type', 'must be string')])).toBe('name must be a string');
  });

  test('when there are more problems than MAX_TEXTS, then the first are named and the rest counted', () => {
    const unknown = Array.from({ length: 4000 }, (_, i) => item(`/body/p${i}`, 'additionalProperties', `must NOT have additional properties`));
    const message = validationMessage(unknown);
    expect(message.split(', ')).toHaveLength(MAX_TEXTS + 1);
    expect(message).toMatch(/, and 3990 more$/);
    expect(validationMessage(unknown.slice(0, MAX_TEXTS)).split(', ')).toHaveLength(MAX_TEXTS);
  });

  test('when a message has no number where one is expected (a reworded Ajv), then the message is passed on rather than a wrong number', () => {
    expect(validationMessage([item('/body/name', 'maxLength', 'is too long')])).toBe('name is too long');
  });
});
