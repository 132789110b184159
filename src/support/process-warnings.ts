/**
 * Node's process warnings (an experimental API in use, a deprecation, a listener leak)
 * as lines of the service's JSON log, at `warn`, instead of Node's own text on stderr:
 * an operator's log pipeline reads every line the service writes. Node prints a warning
 * from a listener of `process`'s 'warning' event that it adds at start; this replaces it
 * (test/integration/process-output.test.ts fails if Node stops printing that way).
 * Called once, first thing at start, before any library can warn.
 */
import type { Logger } from './logger';

export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    logger.warn({ warning: { name: warning.name, code: warning.code, message: warning.message } }, 'process warning');
  });
}
