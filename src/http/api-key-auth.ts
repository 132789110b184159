/** Step 7 of the request path (docs/architecture.md): `x-api-key` → the caller, or the bare 401 (openapi/openapi.yaml, `Unauthorized`). */
import type { RequestHandler } from 'express';
import { authenticate } from '../domain/authenticate';
import type { CallerRepository } from '../domain/ports';

export function apiKeyAuth(callers: CallerRepository): RequestHandler {
  return async (req, _res, next) => {
    req.caller = await authenticate(callers, req.get('x-api-key'));
    next();
  };
}
