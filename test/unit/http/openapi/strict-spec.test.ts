/**
 * The strict copy of a spec (src/http/openapi/strict-spec.ts): the published spec's open
 * response objects closed, so the service's own response validation still proves it sends
 * exactly the documented fields.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type ErrorRequestHandler } from 'express';
import { readSpec } from '../../../../src/http/openapi/spec-document';
import { specValidator } from '../../../../src/http/openapi/spec-validator';
import { strictSpec } from '../../../../src/http/openapi/strict-spec';
import { SPEC_PATHS } from '../../../../src/support/project-root';

type Schemas = Record<string, { additionalProperties?: unknown }>;

describe('strictSpec', () => {
  const published = readSpec(SPEC_PATHS.public) as { components: { schemas: Schemas } };
  const strict = strictSpec(published);

  test('when the public spec is made strict, then every response object is closed and the requests stay closed', () => {
    const open = Object.entries(published.components.schemas).filter(([, schema]) => schema.additionalProperties === true);
    expect(open.map(([name]) => name)).toEqual(expect.arrayContaining(['SnapEnvelope', 'SnapResponse', 'CommsResponse', 'DraftIssue', 'ErrorEnvelope']));
    for (const [name] of open) expect([name, strict.components.schemas[name]?.additionalProperties]).toEqual([name, false]);
    expect(strict.components.schemas.SnapRequest?.additionalProperties).toBe(false);
    expect(strict.components.schemas.CommsRequest?.additionalProperties).toBe(false);
  });

  test('when the strict copy is made, then the published document is left as it was and nothing else differs', () => {
    expect(published.components.schemas.SnapEnvelope?.additionalProperties).toBe(true);
    const reopened = JSON.parse(JSON.stringify(strict).replaceAll('"additionalProperties":false', '"additionalProperties":true'));
    const published2 = JSON.parse(JSON.stringify(published).replaceAll('"additionalProperties":false', '"additionalProperties":true'));
    expect(reopened).toEqual(published2);
  });
});

describe('specValidator on an open response object', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pps-strict-'));
  const specPath = join(dir, 'spec.yaml');
  writeFileSync(
    specPath,
    `openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /thing:
    get:
      operationId: getThing
      responses:
        '200':
          description: a thing
          content:
            application/json:
              schema: {type: object, additionalProperties: true, required: [id], properties: {id: {type: integer}}}
`,
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function statusOf(body: unknown): Promise<number> {
    const app = express();
    app.use(specValidator(specPath, true));
    app.get('/thing', (_req, res) => {
      res.json(body);
    });
    const mapError: ErrorRequestHandler = (error: { status?: number }, _req, res, _next) => {
      res.status(error.status ?? 500).json({});
    };
    app.use(mapError);
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/thing`);
      await response.arrayBuffer();
      return response.status;
    } finally {
      server.close();
    }
  }

  test('when the service sends exactly the documented fields, then the response passes', async () => {
    await expect(statusOf({ id: 1 })).resolves.toBe(200);
  });

  test('when the service sends a field the spec does not name, then its own response validation fails it, although the published schema is open', async () => {
    await expect(statusOf({ id: 1, extra: true })).resolves.toBe(500);
  });
});
