import { WorkInFlight } from '../../../src/support/work-in-flight';

describe('WorkInFlight', () => {
  afterEach(() => jest.useRealTimers());

  test('when work is still running, then settled waits for it, rejected or not, and the work keeps its own outcome', async () => {
    const work = new WorkInFlight();
    let finish: () => void = () => undefined;
    const running = work.track(new Promise<string>((resolve) => (finish = () => resolve('done'))));
    const failing = work.track(Promise.reject(new Error('client left')));
    let settled = false;
    const waiting = work.settled(60_000).then(() => (settled = true));

    await expect(failing).rejects.toThrow('client left');
    expect(settled).toBe(false);
    finish();
    await waiting;

    expect([settled, await running]).toEqual([true, 'done']);
  });

  test('when work never settles, then settled gives up after its bound', async () => {
    jest.useFakeTimers();
    const work = new WorkInFlight();
    void work.track(new Promise(() => undefined));
    let settled = false;
    const waiting = work.settled(5000).then(() => (settled = true));

    await jest.advanceTimersByTimeAsync(4999);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await waiting;
    expect(settled).toBe(true);
  });
});
