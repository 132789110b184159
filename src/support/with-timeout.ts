/** What `withTimeout` rejects with when the answer is late (not when the promise itself rejects). */
export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** `promise`, or a TimeoutError once `ms` have passed without an answer; the timer never outlives it. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Like `withTimeout`, but a late timer is not taken at its word: when it fires, the answer
 * may already be waiting on a socket that a busy event loop has not read yet (timers run
 * before I/O in each turn of the loop). So the timeout is decided only after the I/O of
 * that turn was read (`setImmediate` runs after it): a loop lagging behind never turns
 * an answer that arrived in time into a timeout.
 */
export function withTimeoutAfterIo<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      immediate = setImmediate(() => reject(new TimeoutError(ms)));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
    clearImmediate(immediate);
  });
}
