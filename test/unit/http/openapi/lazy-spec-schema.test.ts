/**
 * compileSpecSchemaLazily, seen through express-openapi-validator's public `middleware()`:
 * with `validateApiSpec: false`, serving a request compiles no OpenAPI 3.1 schema (Ajv's
 * `compile` is watched); with `validateApiSpec: true`, it is compiled and still checks the
 * spec. If an upgrade stops the library from taking the class from the module's export at
 * the time it starts (an ESM build, a bundle, a moved file), the first test fails: the
 * compile would otherwise come back unnoticed.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import AjvCore from 'ajv/dist/core';
import express, { type ErrorRequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types';
import { compileSpecSchemaLazily } from '../../../../src/http/openapi/lazy-spec-schema';

/** The `$id` of the OpenAPI 3.1 schema the library compiles to check a spec. */
const OPENAPI_31_SCHEMA = 'https://spec.openapis.org/oas/3.1/schema/2022-10-07';

const compile = jest.spyOn(AjvCore.prototype, 'compile');

function openApiSchemaCompiles(): number {
  return compile.mock.calls.filter(([schema]) => (schema as { $id?: unknown }).$id === OPENAPI_31_SCHEMA).length;
}

function spec(withVersion: boolean): OpenAPIV3.DocumentV3 {
  return {
    openapi: '3.1.0',
    info: { title: 'lazy', ...(withVersion ? { version: '1' } : {}) },
    paths: {
      '/things': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } },
          responses: { '204': { description: 'ok' } },
        },
      },
    },
  } as unknown as OpenAPIV3.DocumentV3;
}

/** The status and error text of one request with body `{}` through the validator. */
async function oneRequest(apiSpec: OpenAPIV3.DocumentV3, validateApiSpec: boolean): Promise<{ status: number; message: string }> {
  const app = express();
  app.use(express.json());
  app.use(OpenApiValidator.middleware({ apiSpec, validateApiSpec, validateRequests: true, validateResponses: false }));
  app.post('/things', (_req, res) => {
    res.status(204).end();
  });
  const onError: ErrorRequestHandler = (err: { status?: number; message?: string }, _req, res, _next) => {
    res.status(err.status ?? 500).json({ message: err.message });
  };
  app.use(onError);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return { status: response.status, message: ((await response.json()) as { message: string }).message };
  } finally {
    server.close();
  }
}

beforeAll(() => {
  compileSpecSchemaLazily();
  compileSpecSchemaLazily(); // a second call changes nothing
});

beforeEach(() => compile.mockClear());

describe('compileSpecSchemaLazily', () => {
  test('when the middleware serves a request without checking the spec, then the OpenAPI schema is never compiled, and requests are validated', async () => {
    const answer = await oneRequest(spec(true), false);

    expect(answer).toEqual({ status: 400, message: "request/body must have required property 'name'" });
    expect(openApiSchemaCompiles()).toBe(0);
  });

  test('when the middleware checks the spec, then the schema is compiled once and an invalid spec is still refused', async () => {
    const answer = await oneRequest(spec(false), true);

    expect(answer).toEqual({ status: 500, message: 'openapi.validator: args.apiDoc was invalid.  See the output.' });
    expect(openApiSchemaCompiles()).toBe(1);
  });
});
