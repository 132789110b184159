/**
 * A client that closed its connection before its result was stored is charged nothing:
 * the result could not reach it (docs/credit-holds.md). The check sits just before the
 * charging statement; a client gone during the upstream call aborts the call itself.
 */
import { AppError } from './app-error';

export function assertClientWaiting(context: { signal?: AbortSignal }, failureMessage: string): void {
  if (context.signal?.aborted) {
    throw new AppError({ kind: 'generation_failed', message: failureMessage, cause: new Error('the client closed the connection before the result was stored') });
  }
}
