/**
 * What the spec validator sees of a request's Content-Type (src/http/json-body.ts): the
 * bare media type. express-openapi-validator compiles and keeps one check per
 * Content-Type as sent, parameters included (the first test fails when an upgrade stops
 * doing so, and the normalising would then be only a guard), so a client varying the
 * parameters grew the process's memory without bound.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { jsonBody } from '../../../src/http/json-body';
import { specValidator } from '../../../src/http/openapi/spec-validator';
import { warmUpSpecValidator } from '../../../src/http/openapi/validator-warm-up';
import { SPEC_PATHS } from '../../../src/support/project-root';
import { compilesDuring, serveValidator } from '../../support/validator-compiles';

const snapBody = JSON.stringify({ name: 'A', notes: 'Checks every figure twice.' });

async function post(url: string, contentType: string, body?: string): Promise<number> {
  const response = await fetch(`${url}/api/v1/snap`, { method: 'POST', headers: { 'content-type': contentType }, ...(body !== undefined && { body }) });
  await response.arrayBuffer();
  return response.status;
}

test("when the library sees a Content-Type parameter it has not seen, then it compiles the route's checks again", async () => {
  const validator = specValidator(SPEC_PATHS.public, false);
  await warmUpSpecValidator(validator, SPEC_PATHS.public);
  const { server, url } = await serveValidator([express.json({ type: 'application/json' })], validator);
  try {
    expect(await compilesDuring(async () => void (await post(url, `application/json; x=${randomUUID()}`, snapBody)))).toBeGreaterThan(0);
  } finally {
    server.close();
  }
});

test('when requests vary the parameters, or without a body the media type, or send 8,000 semicolons, then a warmed validator behind jsonBody compiles nothing and each is answered', async () => {
  const validator = specValidator(SPEC_PATHS.public, false);
  await warmUpSpecValidator(validator, SPEC_PATHS.public);
  const { server, url } = await serveValidator(jsonBody(), validator);
  const statuses: number[] = [];
  try {
    const compiles = await compilesDuring(async () => {
      statuses.push(await post(url, `application/json; x=${randomUUID()}`, snapBody));
      statuses.push(await post(url, `application/json; charset=utf-8; y=${randomUUID()}`, snapBody));
      statuses.push(await post(url, `application/x-${randomUUID()}`));
      statuses.push(await post(url, `application/json${';'.repeat(8000)}`, snapBody));
    });
    expect({ compiles, statuses }).toEqual({ compiles: 0, statuses: [204, 204, 400, 204] });
  } finally {
    server.close();
  }
});

test('when the body is zstd, then it is refused 415 as on every Node, even where zlib could read it (Node 24)', async () => {
  const zlib = await import('node:zlib');
  const compressed = 'zstdCompressSync' in zlib ? (zlib as unknown as { zstdCompressSync(data: string): Buffer }).zstdCompressSync(snapBody) : Buffer.from(snapBody);
  const app = express();
  app.use(jsonBody(), (_req: unknown, res: express.Response) => void res.status(204).end());
  const refused: ErrorRequestHandler = (error: { kind?: string }, _req, res, _next) => void res.status(error.kind === 'unsupported_media_type' ? 415 : 500).end();
  app.use(refused);
  const server = createServer(app).listen({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' }, body: compressed });
    expect(response.status).toBe(415);
  } finally {
    server.close();
  }
});
