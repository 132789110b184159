/**
 * The handlers still running, which a shutdown waits for after the last connection has
 * closed: a paid call whose client left goes on settling (its failed-call usage recorded,
 * its hold and key released) after its socket closed, and closing the database under it
 * left the hold to another instance's sweeper and the tokens unrecorded.
 */
import { withTimeout } from './with-timeout';

export class WorkInFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** `work`, counted until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
    return work;
  }

  /** Resolves once every piece tracked has settled (none is started meanwhile: the listeners are closed), or after `ms`. */
  async settled(ms: number): Promise<void> {
    await withTimeout(Promise.all([...this.running]), ms).catch(() => undefined);
  }
}
