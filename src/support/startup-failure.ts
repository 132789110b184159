/**
 * The line a process prints when it cannot start for a reason other than its configuration:
 * what `loggedError` keeps of the error (never the values a driver attached), on one line.
 * An AggregateError (every address of a host refused) has an empty message: its inner
 * errors are what name the cause.
 */
import { loggedError } from './logger';

export function startupFailureLine(prefix: string, err: unknown): string {
  return `${prefix}: ${describe(loggedError(err) as LoggedError)}`;
}

interface LoggedError {
  type: string;
  message: string;
  code?: string | number;
  cause?: LoggedError;
  errors?: LoggedError[];
}

function describe(logged: LoggedError): string {
  let line = logged.type;
  if (logged.code !== undefined) line += ` (${logged.code})`;
  if (logged.message) line += `: ${logged.message}`;
  if (logged.errors?.length) line += ` [${logged.errors.map(describe).join('; ')}]`;
  if (logged.cause) line += `, caused by ${describe(logged.cause)}`;
  return line;
}
