/**
 * The one error mapper: every error thrown or forwarded anywhere in the app ends here
 * and leaves as the envelope (or, for 401, the bare body) with the right status.
 * Nothing a client sends reaches the `internal` branch; if something does, it is a bug,
 * logged with the request id. An outage of what the service stands on (the database)
 * is told from a bug by `isOutage`, given by the composition root, and answered 503.
 */
import type { ErrorRequestHandler, Request } from 'express';
import { AppError, type ErrorKind } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';
import { PredictorError } from '../domain/predictor-error';
import { bareErrorBody, failureEnvelope } from './envelope';
import { JSON_BODY_LIMIT_BYTES } from './json-body';
import { requestSummary } from './request-log';
import { validationMessage, type ValidatorErrorItem } from './openapi/validation-messages';

const STATUS_OF: Record<ErrorKind, number> = {
  invalid_request: 400,
  insufficient_credits: 400,
  unauthenticated: 401,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_mismatch: 422,
  unprocessable: 422,
  rate_limited: 429,
  generation_failed: 500,
  internal: 500,
  unavailable: 503,
  overloaded: 503,
};

/** Answers the service gives on purpose, under load: not server errors worth a log line each. */
const EXPECTED: ReadonlySet<ErrorKind> = new Set(['overloaded']);

/** Whether an error that is no AppError is an outage (503) rather than a bug (500). */
export type OutageClassifier = (err: unknown) => boolean;

export const errorMapper = (isOutage: OutageClassifier): ErrorRequestHandler => (err, req, res, _next) => {
  const error = toAppError(err, req, isOutage);
  const status = STATUS_OF[error.kind];
  if (status >= 500 && !EXPECTED.has(error.kind)) logServerError(req, error);
  // A streamed answer (an export) already sent its 200 and part of its body: ending it
  // cleanly would pass the part for the whole. Destroying the socket leaves the body
  // unfinished (no closing chunk), which every client reads as a failure.
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err && typeof err === 'object' && 'headers' in err && err.headers && typeof err.headers === 'object') {
    const allow = (err.headers as { Allow?: string }).Allow;
    if (allow) res.setHeader('Allow', allow);
  }
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  const body = error.kind === 'unauthenticated' ? bareErrorBody(status, error.message) : failureEnvelope(status, error.message);
  res.status(status).json(body);
};

function toAppError(err: unknown, req: Request, isOutage: OutageClassifier): AppError {
  if (err instanceof AppError) return err;
  // First: a body the client stopped sending fails with a network code (ECONNABORTED), which is no outage of ours.
  const bodyParserError = fromBodyParser(err);
  if (bodyParserError) return bodyParserError;
  if (isOutage(err)) return new AppError({ kind: 'unavailable', message: MESSAGES.serviceUnavailable, cause: err });
  const validatorError = fromValidator(err, req);
  if (validatorError) return validatorError;
  return new AppError({ kind: 'internal', message: MESSAGES.internalError, cause: err });
}

/** Errors of express.json(): they carry a `type` (see body-parser's README). */
function fromBodyParser(err: unknown): AppError | undefined {
  const type = err && typeof err === 'object' && 'type' in err ? err.type : undefined;
  switch (type) {
    case 'entity.parse.failed':
      return new AppError({ kind: 'invalid_request', message: MESSAGES.invalidJson });
    case 'entity.too.large':
      return new AppError({ kind: 'payload_too_large', message: MESSAGES.payloadTooLarge(JSON_BODY_LIMIT_BYTES) });
    case 'charset.unsupported':
      return new AppError({ kind: 'unsupported_media_type', message: MESSAGES.unsupportedMediaType });
    case 'encoding.unsupported':
      return new AppError({ kind: 'unsupported_media_type', message: MESSAGES.unsupportedContentEncoding });
    case 'request.size.invalid':
    case 'request.aborted':
      return new AppError({ kind: 'invalid_request', message: MESSAGES.invalidJson });
    default:
      return isZlibError(err) ? new AppError({ kind: 'invalid_request', message: MESSAGES.notDecompressible }) : undefined;
  }
}

/** A gzip/deflate (`Z_DATA_ERROR`, …) or brotli (`ERR__ERROR_…`) failure, passed on by express.json() as a bare 400. */
function isZlibError(err: unknown): boolean {
  const code = err && typeof err === 'object' && 'code' in err ? err.code : undefined;
  return typeof code === 'string' && /^(Z_|ERR__ERROR_)/.test(code);
}

/** Errors of express-openapi-validator: an HTTP status and a list of items. */
function fromValidator(err: unknown, req: Request): AppError | undefined {
  if (!err || typeof err !== 'object' || !('status' in err) || typeof err.status !== 'number') return undefined;
  const items = 'errors' in err && Array.isArray(err.errors) ? (err.errors as ValidatorErrorItem[]) : [];
  switch (err.status) {
    case 400:
      return new AppError({ kind: 'invalid_request', message: validationMessage(items) });
    case 404:
      return new AppError({ kind: 'not_found', message: MESSAGES.routeNotFound(req.method, req.path) });
    case 405:
      return new AppError({ kind: 'method_not_allowed', message: MESSAGES.methodNotAllowed(req.method, req.path) });
    case 413:
      return new AppError({ kind: 'payload_too_large', message: MESSAGES.payloadTooLarge(JSON_BODY_LIMIT_BYTES) });
    case 415:
      return new AppError({ kind: 'unsupported_media_type', message: MESSAGES.unsupportedMediaType });
    default:
      return new AppError({ kind: 'internal', message: MESSAGES.internalError, cause: err });
  }
}

/** Logs what an operator needs, never the request body or a key. */
function logServerError(req: Request, error: AppError): void {
  const cause = error.cause;
  const detail =
    cause instanceof PredictorError
      ? { upstreamError: cause.message, upstreamStatus: cause.upstreamStatus }
      : { err: cause instanceof Error ? cause : String(cause) };
  req.log.error({ req: requestSummary(req), kind: error.kind, ...detail }, error.message);
}
