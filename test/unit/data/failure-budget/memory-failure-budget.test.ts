import { MemoryFailureBudget } from '../../../../src/data/failure-budget/memory-failure-budget';

/** A budget of 3 failures per 60 s with a clock the test moves. */
function budgetAt(start: number) {
  const clock = { now: start };
  const budget = new MemoryFailureBudget({ calls: 3, windowMs: 60_000 }, () => clock.now);
  return { budget, clock };
}

describe('MemoryFailureBudget', () => {
  test('when an account failed fewer calls than its budget, then it is not refused', async () => {
    const { budget } = budgetAt(1_000_000);
    await budget.countFailure(1);
    await budget.countFailure(1);
    expect(await budget.refusal(1)).toBeUndefined();
    budget.close();
  });

  test('when it failed as many as its budget, then it is refused until the oldest of them leaves the window', async () => {
    const { budget, clock } = budgetAt(1_000_000);
    for (const at of [1_000_000, 1_010_000, 1_020_000]) {
      clock.now = at;
      await budget.countFailure(7);
    }
    clock.now = 1_030_000;
    expect(await budget.refusal(7)).toEqual({ retryAfterSeconds: 30 }); // 1_000_000 + 60 s - now
    expect(await budget.refusal(8)).toBeUndefined();
    clock.now = 1_060_001;
    expect(await budget.refusal(7)).toBeUndefined();
    budget.close();
  });

  test('when it failed more than its budget, then the refusal lasts until the count drops below the budget', async () => {
    const { budget, clock } = budgetAt(0);
    for (const at of [0, 1_000, 2_000, 3_000, 4_000]) {
      clock.now = at;
      await budget.countFailure(1);
    }
    // Five in the window: three must leave before the count is below 3, the third at 2_000 + 60_000.
    expect(await budget.refusal(1)).toEqual({ retryAfterSeconds: 58 });
    budget.close();
  });
});
