/**
 * The spec validator compiles a route's request checks on the first request that reaches
 * them, and keeps them (express-openapi-validator has no option to compile at start): a
 * process's first paid call paid for that, about 25 ms of overhead
 * (docs/benchmarking.md). The warm-up sends one request
 * per operation of the spec through the same validator, before the public listener opens,
 * on a listener of its own on the loopback interface that is closed when it is done.
 *
 * Each request carries an empty JSON object as `application/json`, the media type the
 * spec declares (the validator keeps its checks per media type as sent, charset
 * included): refused, which is all a warm-up needs, since the checks compiled are the
 * same for every body. Nothing else of the app (keys, rate limits, handlers) is reached.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler, type Response } from 'express';
import { METHODS_WITH_BODY, jsonBody } from '../json-body';
import { listOperations } from './operations';

export async function warmUpSpecValidator(validator: (RequestHandler | ErrorRequestHandler)[], specPath: string): Promise<void> {
  const done = (res: Response): void => void res.status(204).end();
  const app = express();
  app.use(jsonBody(), validator, (_req: unknown, res: Response) => done(res));
  // Four parameters: Express tells an error handler by its arity; with three, a refused
  // request reached Express's own handler, which printed its stack at every start.
  const refused: ErrorRequestHandler = (_error, _req, res, _next) => done(res);
  app.use(refused);
  const server = createServer(app).listen({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (const operation of listOperations(specPath)) {
      const method = operation.method.toUpperCase();
      const withBody = METHODS_WITH_BODY.has(method);
      const response = await fetch(`${origin}${operation.path.replace(/\{\w+\}/g, 'x')}`, {
        method,
        ...(withBody && { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      await response.arrayBuffer();
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
