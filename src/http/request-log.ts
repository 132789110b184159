/**
 * Step 2 of the request path (docs/architecture.md): a request id (echoed from `X-Request-Id` when it is
 * sane, generated otherwise) and an access log line per response; a request whose client
 * left before the response is logged with 499 (response-status.ts).
 *
 * The line is built when the response closes, and only when its level is logged: a
 * request costs a header and a listener, not a child logger (the per-request cost of
 * pino-http, which this replaces). `req.log` is the listener's logger; what it logs
 * about a request names it with `requestSummary`. With tracing on, the line carries the
 * request's trace id, so that one slow or failed call is found in both.
 */
import { randomUUID } from 'node:crypto';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../support/logger';
import { QUOTED_PATH_MAX_CHARS } from '../domain/messages';
import { CLIENT_CLOSED_REQUEST, endedStatus } from './response-status';

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

interface RequestSummary {
  id: string;
  method: string;
  path: string;
  /** The path's length, when it was longer than the logged path. */
  pathLength?: number;
  remoteAddress: string | undefined;
}

/**
 * What a log line says of a request: never its headers or body. The path is the client's
 * (up to Node's 16 KiB header limit, on every response, 404 and 429 too): cut to its first
 * characters, with its length.
 */
export function requestSummary(req: Request): RequestSummary {
  const path = req.originalUrl.split('?')[0] ?? '';
  return {
    id: req.id,
    method: req.method,
    path: path.slice(0, QUOTED_PATH_MAX_CHARS),
    ...(path.length > QUOTED_PATH_MAX_CHARS && { pathLength: path.length }),
    remoteAddress: req.socket.remoteAddress,
  };
}

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    const given = req.headers['x-request-id'];
    req.id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
    req.log = logger;
    res.setHeader('X-Request-Id', req.id);
    const spanContext = trace.getActiveSpan()?.spanContext();
    const traceId = spanContext && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
    res.once('close', () => {
      const statusCode = endedStatus(res);
      const level = statusCode === CLIENT_CLOSED_REQUEST ? 'warn' : statusCode >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line = { req: requestSummary(req), res: { statusCode }, responseTime: Math.round(performance.now() - startedAt), ...(traceId && { traceId }) };
      logger[level](line, statusCode === CLIENT_CLOSED_REQUEST ? 'client closed request' : 'request completed');
    });
    next();
  };
}
