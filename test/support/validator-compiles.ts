/**
 * For tests of how express-openapi-validator compiles its checks: an app with the
 * validator in front of a handler that answers 204 (its errors answered 400), and a count
 * of the schemas the library adds to its Ajv instances (`addSchema`, then compiled by
 * `getSchema`) while a request runs.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv from 'ajv/dist/core';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import type { specValidator } from '../../src/http/openapi/spec-validator';

export async function serveValidator(bodyParsing: RequestHandler[], validator: ReturnType<typeof specValidator>): Promise<{ server: Server; url: string }> {
  const app = express();
  app.use(bodyParsing, validator, (_req: unknown, res: express.Response) => void res.status(204).end());
  const refused: ErrorRequestHandler = (_error, _req, res, _next) => void res.status(400).end();
  app.use(refused);
  const server = createServer(app).listen({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function compilesDuring(send: () => Promise<void>): Promise<number> {
  const added = jest.spyOn(Ajv.prototype, 'addSchema');
  try {
    await send();
    return added.mock.calls.length;
  } finally {
    added.mockRestore();
  }
}
