/**
 * The request and response classes a listener for an Express app constructs.
 *
 * As a request enters an app, Express gives the request and the response the app's
 * prototypes (`Object.setPrototypeOf(req, app.request)`). V8 gives an object whose
 * prototype changes after construction a hidden class of its own: every request carried
 * two fresh hidden classes (a few KB each, measured in a heap snapshot under load: one
 * per request and response in flight), and every property access in Express, the
 * validator and our middleware met a new shape (megamorphic, slow).
 *
 * Here the listener constructs instances of classes whose prototypes *are* the app's
 * request and response prototypes (the same parent, the same own properties), so
 * Express's call changes nothing and every request shares one hidden class. Call it
 * once per app, before the app serves.
 *
 * Gain (make bench, commit e7e3d74): service CPU per 201 from 0.57-0.79 ms to 0.38-0.55 ms.
 * It rests on Express giving each request exactly `app.request`/`app.response` as its
 * prototype; test/unit/http/express-classes.test.ts checks, inside a route of a real
 * Express app, that the prototype is still this listener's class, so an upgrade that
 * does otherwise fails there rather than losing the gain unnoticed.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, Request, Response } from 'express';

export interface ListenerClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

export function expressListenerClasses(app: Express): ListenerClasses {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse extends ServerResponse {}
  app.request = standIn(ExpressRequest.prototype, app.request) as Request;
  app.response = standIn(ExpressResponse.prototype, app.response) as Response;
  return { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse as typeof ServerResponse };
}

/** Makes `target` what `prototype` is: the same parent, the same own properties. */
function standIn(target: object, prototype: object): object {
  Object.setPrototypeOf(target, Object.getPrototypeOf(prototype) as object);
  Object.defineProperties(target, Object.getOwnPropertyDescriptors(prototype));
  return target;
}
