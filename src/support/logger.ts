/**
 * The pino logger. Secrets never reach it: request logs carry the method, path, status
 * and request id only (no headers, no bodies), and the redact list is a second fence
 * for anything that is logged by mistake.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'apiKey',
  'token',
  'authorization',
  'notes',
  'draft',
  '*.apiKey',
  '*.token',
  '*.authorization',
  '*.notes',
  '*.draft',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'err.detail',
  'err.where',
  'err.internalQuery',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
