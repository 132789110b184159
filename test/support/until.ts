/**
 * Waits for an event, never for a clock: `condition` is polled (every `intervalMs`, 20 ms
 * by default) until it holds. The bound is generous (60 s by default) because the machine
 * running the tests may be busy; it only turns a hang into a failure that says what was
 * awaited (`what`).
 */
export interface UntilOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** What is awaited, for the failure message; a function is asked at the failure (to say what was last seen). */
  what?: string | (() => string);
}

export async function until(condition: () => boolean | Promise<boolean>, options: number | UntilOptions = {}, intervalMs?: number): Promise<void> {
  const { timeoutMs = 60_000, what = 'condition', ...rest } = typeof options === 'number' ? { timeoutMs: options } : options;
  const interval = intervalMs ?? rest.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${typeof what === 'function' ? what() : what}: not seen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
