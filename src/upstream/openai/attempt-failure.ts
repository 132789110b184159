/**
 * What the retry policy needs to know of one failed HTTP attempt, read from what the
 * SDK and undici throw: their public error classes and undici's documented error codes
 * (`UND_ERR_*`), found on the error or along its `cause` chain. An answer whose server
 * says `x-should-retry: false` (OpenAI's own hint) is not retried. An error event in a
 * streamed answer (stream-completion.ts) is the server failing an answer it had begun, as
 * OpenAI does during an incident, and may pass as a 5xx may.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { retryAfterMs, type AttemptFailure } from './retry-policy';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const OVERSIZED = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
/** undici's SocketError: the connection closed (or was reset) while the body was read. */
const LOST_CONNECTION = 'UND_ERR_SOCKET';

export function attemptFailure(error: unknown): AttemptFailure {
  const codes = codesAlong(error);
  if (codes.includes(OVERSIZED)) return { kind: 'final' };
  if (codes.some((code) => TIMEOUT_CODES.has(code)) || error instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof APIUserAbortError) return { kind: 'final' };
  if (error instanceof APIConnectionError) return { kind: 'connection' };
  if (error instanceof APIError && typeof error.status === 'number') {
    if (error.headers?.get('x-should-retry') === 'false') return { kind: 'final', pushedBack: true };
    return {
      kind: 'status',
      status: error.status,
      retryAfterMs: retryAfterMs(error.headers),
      quotaExhausted: error.code === 'insufficient_quota',
    };
  }
  if (isErrorEvent(error)) return { kind: 'errorEvent' };
  if (codes.includes(LOST_CONNECTION)) return { kind: 'connection' };
  return { kind: 'final' };
}

/**
 * An error event in a streamed answer (`data: {"error": {…}}`): an APIError without a status
 * (its answer's was 200), as the SDK's own stream reads one and stream-completion.ts throws it.
 */
export function isErrorEvent(error: unknown): error is APIError {
  return error instanceof APIError && error.status === undefined && !(error instanceof APIConnectionError) && !(error instanceof APIUserAbortError);
}

/** undici's bound between two chunks of an answer (or before its headers) ran out. */
export function isTimeoutCode(error: unknown): boolean {
  return codesAlong(error).some((code) => TIMEOUT_CODES.has(code));
}

/** The connection closed or was reset while the answer was read (request-fetch.ts's body). */
export function isLostConnection(error: unknown): boolean {
  return codesAlong(error).includes(LOST_CONNECTION);
}

/** The answer was larger than the agent's bound, as sent or once decoded (upstream-agent.ts). */
export function isOversizedAnswer(error: unknown): boolean {
  return codesAlong(error).includes(OVERSIZED);
}

/** The `code` of the error and of each cause under it (a few levels at most). */
function codesAlong(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    current = cause;
  }
  return codes;
}
