import { EventEmitter } from 'node:events';
import { restartDelayMs, watchStartup } from '../../../src/app/cluster';

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

describe('watchStartup', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test.each<[string, { readyAt: number | null; exitAt: number | null; late: boolean }]>([
    ['the worker is not ready within the bound', { readyAt: null, exitAt: null, late: true }],
    ['the worker is ready within the bound', { readyAt: 500, exitAt: null, late: false }],
    ['the worker exits before the bound', { readyAt: null, exitAt: 500, late: false }],
  ])('when %s, then it is treated as failed only if late', (_name, { readyAt, exitAt, late }) => {
    const worker = new EventEmitter();
    let ready = false;
    const onLate = jest.fn();
    watchStartup(worker, () => ready, onLate, 1000);
    if (readyAt !== null) setTimeout(() => (ready = true), readyAt);
    if (exitAt !== null) setTimeout(() => worker.emit('exit'), exitAt);

    jest.advanceTimersByTime(999);
    expect(onLate).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(onLate).toHaveBeenCalledTimes(late ? 1 : 0);
  });
});
