/**
 * Security headers for a JSON API (helmet): nothing may be framed, sniffed, cached or
 * loaded by a page. The docs page replaces the content security policy with its own.
 *
 * None of them depends on the request, so helmet runs once, at startup, and every
 * response gets the headers it set (one middleware instead of helmet's dozen).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export function securityHeaders(): RequestHandler {
  const headers = headersSetBy(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      referrerPolicy: { policy: 'no-referrer' },
    }),
  );
  headers.set('Cache-Control', 'no-store');
  return (_req, res, next) => {
    res.setHeaders(headers);
    next();
  };
}

/** The headers a middleware that depends on no request sets on a response. */
function headersSetBy(middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void): Map<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  };
  let failure: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err) => (failure = err));
  if (failure !== undefined) throw new Error(`security headers: helmet failed at startup: ${String(failure)}`);
  return headers;
}
