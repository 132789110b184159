import { restartDelayMs } from '../../src/cluster';

describe('restartDelayMs', () => {
  test.each([
    [1, 100],
    [2, 200],
    [3, 400],
    [8, 12_800],
    [9, 25_600],
    [10, 30_000],
    [50, 30_000],
  ])('when %i workers died since one was last ready, then the next starts after %i ms', (failures, want) => {
    expect(restartDelayMs(failures)).toBe(want);
  });
});
