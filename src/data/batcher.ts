/**
 * Collects what concurrent requests ask for and hands it over as one batch: the first
 * item waits for company until the end of the current turn of the event loop (the
 * requests that the same turn's I/O brought in go together, and none waits for a timer),
 * or up to `maxWaitMs` when one is given; a batch of `maxBatch` goes at once.
 * Used by the statements that serve a whole batch at once (credit holds, charges).
 */
export interface BatchOptions {
  /** How long the first item of a batch waits for company: 0, until the end of this turn of the event loop. */
  maxWaitMs: number;
  /** A batch this large is handed over at once. */
  maxBatch: number;
}

class Batcher<T> {
  private queue: T[] = [];
  /** Cancels the scheduled flush, while one is scheduled. */
  private cancel: (() => void) | undefined;

  constructor(
    private readonly onBatch: (items: T[]) => void,
    private readonly options: BatchOptions,
  ) {}

  add(item: T): void {
    this.queue.push(item);
    if (this.queue.length >= this.options.maxBatch) this.flush();
    else this.cancel ??= this.schedule();
  }

  private schedule(): () => void {
    if (this.options.maxWaitMs > 0) {
      const timer = setTimeout(() => this.flush(), this.options.maxWaitMs);
      return () => clearTimeout(timer);
    }
    const immediate = setImmediate(() => this.flush());
    return () => clearImmediate(immediate);
  }

  private flush(): void {
    this.cancel?.();
    this.cancel = undefined;
    const batch = this.queue.splice(0);
    if (batch.length > 0) this.onBatch(batch);
  }
}

/**
 * A statement that serves a whole batch: `run(input)` resolves with this input's own
 * answer, `runBatch` getting every input of the batch at once and answering each, in
 * order. If `runBatch` fails, every input of the batch gets its error.
 */
export function batchedStatement<In, Out>(runBatch: (inputs: In[]) => Promise<Out[]>, options: BatchOptions): (input: In) => Promise<Out> {
  interface Pending {
    input: In;
    resolve: (value: Out) => void;
    reject: (reason: unknown) => void;
  }
  const batcher = new Batcher<Pending>((batch) => {
    runBatch(batch.map((item) => item.input)).then(
      (outputs) => batch.forEach((item, i) => item.resolve(outputs[i] as Out)),
      (error: unknown) => batch.forEach((item) => item.reject(error)),
    );
  }, options);
  return (input) => new Promise<Out>((resolve, reject) => batcher.add({ input, resolve, reject }));
}
