/**
 * Settles with `promise`, or rejects with the signal's reason as soon as the signal
 * aborts, whichever comes first. The SDK checks its signal only between steps (it
 * sleeps through a Retry-After without watching it), so this is what makes a deadline
 * hold for the whole call.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
