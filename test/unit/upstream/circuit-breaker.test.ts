import { CircuitBreaker } from '../../../src/upstream/circuit-breaker';

/** A breaker that opens after 2 failures for 1,000 ms of a clock the test moves. */
function aBreaker(): { breaker: CircuitBreaker; advance: (ms: number) => void } {
  let now = 0;
  const breaker = new CircuitBreaker({ failures: 2, cooldownMs: 1000, now: () => now });
  return { breaker, advance: (ms) => (now += ms) };
}

describe('CircuitBreaker', () => {
  test('when fewer failures in a row than the threshold happened, then it stays closed and every call passes', () => {
    const { breaker } = aBreaker();
    breaker.failed('pass');

    expect(breaker.state).toBe('closed');
    expect([breaker.enter(), breaker.enter()]).toEqual(['pass', 'pass']);
  });

  test('when a success comes between failures, then the count starts again', () => {
    const { breaker } = aBreaker();
    breaker.failed('pass');
    breaker.succeeded();
    breaker.failed('pass');

    expect(breaker.state).toBe('closed');
  });

  test('when the threshold is reached, then it opens and calls skip the upstream until the cool-down ends', () => {
    const { breaker, advance } = aBreaker();
    breaker.failed('pass');
    breaker.failed('pass');

    expect(breaker.enter()).toBe('skip');
    advance(999);
    expect(breaker.enter()).toBe('skip');
  });

  test('when the cool-down has passed, then exactly one call is the trial and the others keep skipping', () => {
    const { breaker, advance } = aBreaker();
    breaker.failed('pass');
    breaker.failed('pass');
    advance(1000);

    expect(breaker.state).toBe('half-open');
    expect([breaker.enter(), breaker.enter(), breaker.enter()]).toEqual(['trial', 'skip', 'skip']);
  });

  test('when the trial succeeds, then it closes and every call passes', () => {
    const { breaker, advance } = aBreaker();
    breaker.failed('pass');
    breaker.failed('pass');
    advance(1000);
    breaker.enter();
    breaker.succeeded();

    expect(breaker.state).toBe('closed');
    expect([breaker.enter(), breaker.enter()]).toEqual(['pass', 'pass']);
  });

  test('when the trial fails, then it opens for another whole cool-down', () => {
    const { breaker, advance } = aBreaker();
    breaker.failed('pass');
    breaker.failed('pass');
    advance(1000);
    expect(breaker.enter()).toBe('trial');
    breaker.failed('trial');

    expect(breaker.enter()).toBe('skip');
    advance(999);
    expect(breaker.enter()).toBe('skip');
    advance(1);
    expect(breaker.enter()).toBe('trial');
  });

  test('when the trial is abandoned, then the next call is the trial', () => {
    const { breaker, advance } = aBreaker();
    breaker.failed('pass');
    breaker.failed('pass');
    advance(1000);
    breaker.enter();
    breaker.trialAbandoned();

    expect([breaker.enter(), breaker.enter()]).toEqual(['trial', 'skip']);
  });

  test('when calls skip the upstream, then onSkip is told of each, and of no call that tried it', () => {
    let skipped = 0;
    let now = 0;
    const breaker = new CircuitBreaker({ failures: 1, cooldownMs: 1000, now: () => now, onSkip: () => (skipped += 1) });
    expect(breaker.enter()).toBe('pass');
    breaker.failed('pass');
    expect([breaker.enter(), breaker.enter()]).toEqual(['skip', 'skip']);
    now += 1000;
    expect([breaker.enter(), breaker.enter()]).toEqual(['trial', 'skip']);
    expect(skipped).toBe(3);
  });

  test('when a call let through before it opened fails while the trial is out, then no second trial starts and the cool-down is not pushed back', () => {
    const { breaker, advance } = aBreaker();
    expect([breaker.enter(), breaker.enter(), breaker.enter()]).toEqual(['pass', 'pass', 'pass']);
    breaker.failed('pass');
    breaker.failed('pass');
    advance(1000);
    expect(breaker.enter()).toBe('trial');
    breaker.failed('pass'); // the third call let through before it opened
    advance(1000);

    expect(breaker.enter()).toBe('skip'); // the trial is still out
    breaker.failed('trial');
    advance(999);
    expect(breaker.enter()).toBe('skip');
    advance(1);
    expect(breaker.enter()).toBe('trial');
  });

  test('when calls let through before it opened keep failing while it is open, then it still half-opens when the cool-down ends', () => {
    const { breaker, advance } = aBreaker();
    breaker.failed('pass');
    breaker.failed('pass');
    advance(900);
    breaker.failed('pass');
    advance(100);

    expect(breaker.enter()).toBe('trial');
  });
});
