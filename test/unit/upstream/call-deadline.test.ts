/** One call's deadline joined with its caller's signal, let go when the call ends. */
import { CallDeadline } from '../../../src/upstream/call-deadline';

import { once } from 'node:events';

describe('CallDeadline', () => {
  test('when the time runs out, then the signal aborts with a TimeoutError and the deadline says it expired', async () => {
    const deadline = new CallDeadline(10, undefined);

    await once(deadline.signal, 'abort');

    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(deadline.expired).toBe(true);
    expect(deadline.callerAborted).toBe(false);
  });

  test('when the time is up while the event loop is too busy to run the timer, then the deadline already says it expired', () => {
    const deadline = new CallDeadline(20, undefined);
    const busyUntil = Date.now() + 60;
    while (Date.now() < busyUntil); // the loop is held: the timer cannot fire
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.expired).toBe(true);
    expect(deadline.callerAborted).toBe(false);
    deadline.end();
  });

  test('when the caller aborts first, then the signal aborts with the caller\'s reason and the deadline says the caller did it', () => {
    const caller = new AbortController();
    const deadline = new CallDeadline(10_000, caller.signal);

    caller.abort(new Error('client gone'));

    expect(deadline.signal.reason).toEqual(new Error('client gone'));
    expect(deadline.callerAborted).toBe(true);
    expect(deadline.expired).toBe(false);
    deadline.end();
  });

  test('when the caller has already aborted, then the signal is aborted from the start', () => {
    const deadline = new CallDeadline(10_000, AbortSignal.abort(new Error('gone before')));

    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.callerAborted).toBe(true);
    deadline.end();
  });

  test('when the call has ended, then neither the time running out nor the caller aborting touches it', () => {
    // Fake timers: "nothing happens when the time runs out" without waiting on a clock.
    jest.useFakeTimers();
    try {
      const caller = new AbortController();
      const deadline = new CallDeadline(10, caller.signal);

      deadline.end();
      jest.advanceTimersByTime(1000);
      caller.abort();

      expect(deadline.signal.aborted).toBe(false);
      expect(deadline.expired).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});
