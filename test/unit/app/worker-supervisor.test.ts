/** The cluster primary's decisions (WorkerSupervisor) with fake workers and fake timers. */
import { restartDelayMs, WorkerSupervisor } from '../../../src/app/worker-supervisor';

interface FakeWorker {
  id: number;
  connected: boolean;
  drained: boolean;
  signals: string[];
}

function setUp(workers = 2) {
  const forked: FakeWorker[] = [];
  const exits: number[] = [];
  const logged: Array<{ level: string; message: string; fields: object }> = [];
  const log = (level: string) => (fields: object, message: string) => logged.push({ level, message, fields });
  const supervisor = new WorkerSupervisor<FakeWorker>({
    workers,
    readyTimeoutMs: 1000,
    shutdownAfterMs: 5000,
    fork: () => {
      const worker = { id: forked.length + 1, connected: true, drained: false, signals: [] };
      forked.push(worker);
      return worker;
    },
    describe: (worker) => ({ workerId: worker.id, pid: undefined }),
    isConnected: (worker) => worker.connected,
    drain: (worker) => (worker.drained = true),
    kill: (worker, signal) => worker.signals.push(signal),
    exit: (code) => exits.push(code),
    logger: { info: log('info'), error: log('error'), fatal: log('fatal') } as never,
  });
  const worker = (id: number): FakeWorker => {
    const found = forked.find((w) => w.id === id);
    if (!found) throw new Error(`worker ${id} was never forked`);
    return found;
  };
  return { supervisor, forked, exits, logged, worker };
}

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

describe('WorkerSupervisor', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('when it starts, then it forks every worker and says so once all are ready', () => {
    const { supervisor, forked, logged, worker } = setUp(3);

    supervisor.start();
    expect(forked.map((w) => w.id)).toEqual([1, 2, 3]);
    supervisor.onReady(worker(1));
    supervisor.onReady(worker(2));
    expect(logged).toEqual([]);
    supervisor.onReady(worker(3));

    expect(logged).toEqual([{ level: 'info', message: 'cluster started: every worker is serving', fields: { workers: 3 } }]);
    expect(supervisor.readyWorkers()).toEqual(forked);
  });

  test('when a worker is not ready within the bound, then it is killed, and its death before the cluster started stops the cluster', () => {
    const { supervisor, exits, worker } = setUp(2);
    supervisor.start();
    supervisor.onReady(worker(1));

    jest.advanceTimersByTime(999);
    expect(worker(2).signals).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(worker(2).signals).toEqual(['SIGKILL']);

    supervisor.onExit(worker(2), null, 'SIGKILL');
    expect(worker(1).drained).toBe(true);
    supervisor.onExit(worker(1), 0, null);
    expect(exits).toEqual([1]);
  });

  test('when a ready worker is not killed by the bound, then the timer is gone with its readiness', () => {
    const { supervisor, worker } = setUp(1);
    supervisor.start();
    supervisor.onReady(worker(1));

    jest.advanceTimersByTime(10_000);

    expect(worker(1).signals).toEqual([]);
  });

  test('when a worker dies after the cluster started, then a replacement starts after a delay that grows while replacements keep dying, and resets once one is ready', () => {
    const { supervisor, forked, logged, worker } = setUp(1);
    supervisor.start();
    supervisor.onReady(worker(1));

    supervisor.onExit(worker(1), 1, null);
    expect(logged.at(-1)).toEqual({ level: 'error', message: 'worker died unexpectedly: starting another', fields: { workerId: 1, pid: undefined, code: 1, signal: null, restartInMs: 100 } });
    jest.advanceTimersByTime(99);
    expect(forked).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(forked).toHaveLength(2);

    supervisor.onExit(worker(2), 1, null);
    expect(logged.at(-1)?.fields).toMatchObject({ restartInMs: 200 });
    jest.advanceTimersByTime(200);
    expect(forked).toHaveLength(3);

    supervisor.onReady(worker(3));
    supervisor.onExit(worker(3), 1, null);
    expect(logged.at(-1)?.fields).toMatchObject({ restartInMs: 100 });
  });

  test('when it stops, then ready workers drain, starting ones get SIGTERM, no replacement starts, and it exits 0 once all exited cleanly', () => {
    const { supervisor, forked, exits, worker } = setUp(2);
    supervisor.start();
    supervisor.onReady(worker(1));
    supervisor.onReady(worker(2));
    supervisor.onExit(worker(2), 1, null);
    jest.advanceTimersByTime(100);
    expect(forked).toHaveLength(3);

    supervisor.stop(0);
    expect(worker(1).drained).toBe(true);
    expect(worker(3).signals).toEqual(['SIGTERM']);

    supervisor.onExit(worker(1), 0, null);
    expect(exits).toEqual([]);
    supervisor.onExit(worker(3), 0, null);
    expect(exits).toEqual([0]);
    expect(forked).toHaveLength(3);
  });

  test('when a worker exits with an error while stopping, then the exit code is 1', () => {
    const { supervisor, exits, worker } = setUp(1);
    supervisor.start();
    supervisor.onReady(worker(1));

    supervisor.stop(0);
    supervisor.onExit(worker(1), 1, null);

    expect(exits).toEqual([1]);
  });

  test('when a pending replacement exists at stop, then it never starts', () => {
    const { supervisor, forked, exits, worker } = setUp(1);
    supervisor.start();
    supervisor.onReady(worker(1));
    supervisor.onExit(worker(1), 1, null);

    supervisor.stop(0);
    jest.advanceTimersByTime(60_000);

    expect(forked).toHaveLength(1);
    expect(exits).toEqual([0]);
  });

  test('when workers outlive the shutdown bound, then they are killed and it exits 1', () => {
    const { supervisor, exits, logged, worker } = setUp(2);
    supervisor.start();
    supervisor.onReady(worker(1));
    supervisor.onReady(worker(2));

    supervisor.stop(0);
    jest.advanceTimersByTime(4999);
    expect(exits).toEqual([]);
    jest.advanceTimersByTime(1);

    expect(worker(1).signals).toEqual(['SIGKILL']);
    expect(worker(2).signals).toEqual(['SIGKILL']);
    expect(logged.at(-1)).toMatchObject({ level: 'error', fields: { workers: 2 } });
    expect(exits).toEqual([1]);
  });

  test('when a ready worker lost its IPC channel, then it is neither drained by message nor counted as ready', () => {
    const { supervisor, worker } = setUp(1);
    supervisor.start();
    supervisor.onReady(worker(1));
    worker(1).connected = false;

    expect(supervisor.readyWorkers()).toEqual([]);
    supervisor.stop(0);

    expect(worker(1).drained).toBe(false);
    expect(worker(1).signals).toEqual(['SIGTERM']);
  });
});
