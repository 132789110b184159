/**
 * The pino logger. Secrets and personal texts never reach it: request logs carry the
 * method, path, status, request id, client address and timing (no headers, no bodies);
 * an error is logged by what it is and where it came from, never by the values it carried
 * (`loggedError`); and the redact list is a second fence for anything logged by mistake.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'apiKey',
  'token',
  'authorization',
  'notes',
  'jobType',
  'goal',
  'draft',
  '*.apiKey',
  '*.token',
  '*.authorization',
  '*.notes',
  '*.jobType',
  '*.goal',
  '*.draft',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
];

/**
 * What of an error may be logged: drivers attach what they were given to their errors
 * (PostgreSQL quotes a refused row in `detail`; PGlite copies a failed statement's bound
 * values to `params`; the `openai` SDK keeps the upstream's error body), and those are
 * the request's texts. So only these fields, which name a code, an object of the schema
 * or a system call, are kept beside the error's type, message and stack.
 */
const ERROR_FIELDS = ['code', 'errno', 'syscall', 'status', 'severity', 'routine', 'schema', 'table', 'column', 'constraint', 'dataType'] as const;
/** Causes followed, at most: enough for a driver's error inside ours. */
const CAUSE_DEPTH = 3;

export function loggedError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const logged: Record<string, unknown> = { type: error.constructor.name, message: error.message, stack: error.stack };
  const fields = error as unknown as Record<string, unknown>;
  for (const field of ERROR_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string' || typeof value === 'number') logged[field] = value;
  }
  if (depth < CAUSE_DEPTH && error.cause !== undefined) logged['cause'] = loggedError(error.cause, depth + 1);
  if (depth < CAUSE_DEPTH && error instanceof AggregateError) logged['errors'] = error.errors.slice(0, 5).map((each: unknown) => loggedError(each, depth + 1));
  return logged;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, serializers: { err: (error: unknown) => loggedError(error) }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
