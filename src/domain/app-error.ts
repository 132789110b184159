/**
 * The one error type. The domain names what went wrong (`kind`) and says it in the
 * contract's words (`message`); the HTTP layer's error mapper alone turns a kind into
 * a status and an envelope. `cause` is for logs and is never sent to the client.
 */
export type ErrorKind =
  | 'invalid_request'
  | 'unauthenticated'
  | 'insufficient_credits'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'idempotency_mismatch'
  | 'unprocessable'
  | 'rate_limited'
  | 'generation_failed'
  | 'internal'
  | 'unavailable'
  | 'overloaded';

export interface AppErrorOptions {
  kind: ErrorKind;
  message: string;
  cause?: unknown;
  /** Whole seconds after which a retry may succeed: sent as `Retry-After`. */
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly retryAfterSeconds: number | undefined;

  constructor({ kind, message, cause, retryAfterSeconds }: AppErrorOptions) {
    super(message, { cause });
    this.name = 'AppError';
    this.kind = kind;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
