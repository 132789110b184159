/**
 * Any failure of an upstream call → PredictorError. Messages are written here, never
 * copied from the SDK or the server: an upstream error body may echo the request
 * (the notes), so only its status, error code and request id are kept, and only when
 * they look like identifiers. The API key is never part of any of them.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai';
import { PredictorError } from '../../domain/predictor-error';
import { isErrorEvent, isOversizedAnswer } from './attempt-failure';

/** How the call ended, as far as its deadline knows (call-deadline.ts). */
export interface CallEnd {
  /** The whole call (retries included) used its time. */
  expired: boolean;
  /** The caller's own signal aborted it (client gone, shutdown). */
  callerAborted: boolean;
  timeoutMs: number;
}

/** The statuses a request itself can cause (too large, malformed, unprocessable); any other is the upstream's. */
const REQUEST_STATUSES = new Set([400, 413, 422]);

/**
 * The request's parameters the operator sets (config/upstream.ts), never the caller: an
 * upstream that refuses a request naming one of them (a reasoning model refusing
 * `temperature`, a server without `max_completion_tokens`, an unknown `model`) refuses
 * every call the same way. That is the operator's failure, an outage like a 5xx, never
 * the caller's failure budget. The caller's texts are in `messages`.
 */
const OPERATOR_PARAMETERS = new Set(['model', 'temperature', 'max_tokens', 'max_completion_tokens', 'reasoning_effort', 'response_format', 'seed', 'stream', 'stream_options']);

export function toPredictorError(error: unknown, call: CallEnd): PredictorError {
  if (error instanceof PredictorError) return error;
  if (call.expired) return PredictorError.timedOut(call.timeoutMs);
  if (call.callerAborted) return new PredictorError('upstream call was aborted by the caller');
  if (isOversizedAnswer(error)) return new PredictorError('upstream response could not be read');
  if (error instanceof APIConnectionTimeoutError) return new PredictorError('upstream call timed out', { outage: true, timeout: true });
  if (error instanceof APIUserAbortError) return new PredictorError('upstream call was aborted');
  if (error instanceof APIConnectionError) {
    return new PredictorError('upstream could not be reached', { cause: error.cause, outage: true });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    return new PredictorError(`upstream answered HTTP ${error.status}${details(error)}`, {
      upstreamStatus: error.status,
      outage: !REQUEST_STATUSES.has(error.status) || namesOperatorParameter(error),
    });
  }
  // The server failed an answer it had begun: its failure, as a 5xx is, whatever the request.
  if (isErrorEvent(error)) return new PredictorError(`upstream sent an error event in its answer${details(error)}`, { outage: true });
  return new PredictorError('upstream response could not be read');
}

/** The error's `param` (`"temperature"`, `"response_format.json_schema"`) is one the operator sets. */
function namesOperatorParameter(error: APIError): boolean {
  const name = typeof error.param === 'string' ? /^[a-z_]+/.exec(error.param)?.[0] : undefined;
  return name !== undefined && OPERATOR_PARAMETERS.has(name);
}

function details(error: APIError): string {
  const parts = [
    identifier(error.code) && `code ${error.code}`,
    identifier(error.param) && `param ${error.param}`,
    identifier(error.requestID) && `request id ${error.requestID}`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function identifier(value: unknown): value is string {
  return typeof value === 'string' && /^[\w.-]{1,64}$/.test(value);
}
