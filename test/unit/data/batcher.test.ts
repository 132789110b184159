/** batchedStatement: requests that arrive together share one call, each gets its own answer. */
import { batchedStatement } from '../../../src/data/batcher';

describe('batchedStatement', () => {
  test('when inputs arrive in the same tick, then one call serves them all and each gets its own answer', async () => {
    const calls: number[][] = [];
    const double = batchedStatement(async (inputs: number[]) => {
      calls.push(inputs);
      return inputs.map((n) => n * 2);
    }, { maxWaitMs: 5, maxBatch: 100 });

    const answers = await Promise.all([1, 2, 3, 4].map((n) => double(n)));

    expect(answers).toEqual([2, 4, 6, 8]);
    expect(calls).toEqual([[1, 2, 3, 4]]);
  });

  test('when a batch is full, then it goes at once without waiting for more', async () => {
    const calls: number[][] = [];
    const echo = batchedStatement(async (inputs: number[]) => {
      calls.push(inputs);
      return inputs;
    }, { maxWaitMs: 60_000, maxBatch: 2 });

    expect(await Promise.all([echo(1), echo(2)])).toEqual([1, 2]);
    expect(calls).toEqual([[1, 2]]);
  });

  test('when the call fails, then every input of that batch gets its error and the next batch runs afresh', async () => {
    let fail = true;
    const failure = new Error('statement refused');
    const echo = batchedStatement(async (inputs: number[]) => {
      if (fail) throw failure;
      return inputs;
    }, { maxWaitMs: 1, maxBatch: 100 });

    const outcomes = await Promise.allSettled([echo(1), echo(2)]);
    fail = false;

    expect(outcomes).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    expect(await echo(3)).toBe(3);
  });

  test('when no wait is given, then what arrives in the same turn of the event loop goes together, and what comes in a later turn goes in a batch of its own', async () => {
    const calls: number[][] = [];
    const echo = batchedStatement(async (inputs: number[]) => {
      calls.push(inputs);
      return inputs;
    }, { maxWaitMs: 0, maxBatch: 100 });

    const first = Promise.all([echo(1), echo(2)]);
    const later = new Promise<number>((resolve) => setImmediate(() => resolve(echo(3))));

    expect(await Promise.all([first, later])).toEqual([[1, 2], 3]);
    expect(calls).toEqual([[1, 2], [3]]);
  });
});
