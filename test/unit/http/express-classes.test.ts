/**
 * Requests and responses are constructed with the app's prototypes, so Express never
 * changes them. The gain (one hidden class for every request: src/http/express-classes.ts)
 * rests on Express giving each request exactly `app.request` / `app.response` as its
 * prototype; if an upgrade gives it anything else, the handler below sees another
 * prototype than the listener's class and this fails.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { expressListenerClasses } from '../../../src/http/express-classes';

describe('expressListenerClasses', () => {
  test('when a request arrives, then it and its response already have the app prototypes, and Express works on them as before', async () => {
    const app = express();
    const classes = expressListenerClasses(app);
    app.use(express.json());
    app.post('/echo', (req, res) => {
      // After Express's own handling: still the listener's classes, so no prototype was changed.
      const unchanged = Object.getPrototypeOf(req) === classes.IncomingMessage.prototype && Object.getPrototypeOf(res) === classes.ServerResponse.prototype;
      res.status(201).json({ body: req.body as unknown, type: req.get('content-type'), sameApp: req.app === app, unchanged });
    });
    const atEntry: boolean[] = [];
    const server = createServer(classes, (req, res) => {
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
      expect(await response.json()).toEqual({ body: { a: 1 }, type: 'application/json', sameApp: true, unchanged: true });
    } finally {
      server.close();
    }
  });
});
