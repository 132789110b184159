/** Requests and responses are constructed with the app's prototypes, so Express never changes them. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { expressListenerClasses } from '../../../src/http/express-classes';

describe('expressListenerClasses', () => {
  test('when a request arrives, then it and its response already have the app prototypes, and Express works on them as before', async () => {
    const app = express();
    app.use(express.json());
    app.post('/echo', (req, res) => {
      res.status(201).json({ body: req.body as unknown, type: req.get('content-type'), sameApp: req.app === app });
    });
    const atEntry: boolean[] = [];
    const server = createServer(expressListenerClasses(app), (req, res) => {
      atEntry.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
      app(req, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });

      expect(atEntry).toEqual([true, true]);
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ body: { a: 1 }, type: 'application/json', sameApp: true });
    } finally {
      server.close();
    }
  });
});
