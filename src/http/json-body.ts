/**
 * Step 9 of the request path (docs/architecture.md): a request with a body must send it as JSON
 * (otherwise 415), of at most 32 KiB (otherwise 413), and valid (otherwise 400): UTF-8
 * (body-parser would decode invalid bytes to U+FFFD and store an altered text), nested
 * at most 16 deep, and with no unpaired surrogate escape. Then the request's Content-Type
 * is its bare media type (below, `typedForTheValidator`).
 */
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';
import { assertJsonDepth } from './json-depth';

/** The largest body accepted (413 beyond it; the error mapper names it too). */
export const JSON_BODY_LIMIT_BYTES = 32 * 1024;

/** Our bodies are flat objects; anything deeper than this is refused before parsing. */
const JSON_MAX_DEPTH = 16;

/** The methods whose requests carry a JSON body. */
export const METHODS_WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

export function jsonBody(): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    const length = req.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
    if (METHODS_WITH_BODY.has(req.method) && hasBody && mediaTypeOf(req.headers['content-type']) !== 'application/json') {
      next(new AppError({ kind: 'unsupported_media_type', message: MESSAGES.unsupportedMediaType }));
      return;
    }
    // Node 24's zlib reads zstd and body-parser then takes it, Node 20's does not: refused on every runtime, as the message says.
    if (/\bzstd\b/i.test(String(req.headers['content-encoding'] ?? ''))) {
      next(new AppError({ kind: 'unsupported_media_type', message: MESSAGES.unsupportedContentEncoding }));
      return;
    }
    next();
  };
  return [
    requireJson,
    express.json({
      limit: JSON_BODY_LIMIT_BYTES,
      strict: true,
      type: 'application/json',
      verify: (_req, _res, raw) => {
        if (!isUtf8(raw)) throw new AppError({ kind: 'invalid_request', message: MESSAGES.invalidUtf8 });
        assertJsonDepth(raw, JSON_MAX_DEPTH);
      },
      reviver: wellFormed,
    }),
    typedForTheValidator,
  ];
}

function mediaTypeOf(contentType: string | undefined): string | undefined {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase();
}

/**
 * The body is decoded: what follows sees only its media type. The spec validator keeps one
 * compiled check per Content-Type as sent, parameters included, and never forgets one,
 * and it reads the parameters with a pattern whose time grows with the square of their
 * length: a client varying `application/json; x=…` grew the process's memory without
 * bound, and a header of 16 KiB of `;` stalled it. A request without a body (any other
 * type with a body was refused above) has no type to tell.
 */
const typedForTheValidator: RequestHandler = (req, _res, next) => {
  const mediaType = mediaTypeOf(req.headers['content-type']);
  if (mediaType === 'application/json') req.headers['content-type'] = 'application/json';
  else if (METHODS_WITH_BODY.has(req.method)) delete req.headers['content-type'];
  next();
};

/** With the `u` flag a surrogate pair is one code point: this matches unpaired surrogates only. */
const UNPAIRED_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * A string holding an unpaired surrogate escape (`"\uD800"`) is not Unicode text and
 * cannot be stored (PostgreSQL refuses it): the body is answered as not valid JSON.
 */
function wellFormed(key: string, value: unknown): unknown {
  if (UNPAIRED_SURROGATE.test(key) || (typeof value === 'string' && UNPAIRED_SURROGATE.test(value))) {
    throw new SyntaxError('unpaired surrogate in a string');
  }
  return value;
}
