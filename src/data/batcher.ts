/**
 * Collects what concurrent requests ask for and hands it over as one batch: the first
 * item waits up to `maxWaitMs` for company, and a batch of `maxBatch` goes at once.
 * Used by the statements that serve a whole batch at once (credit holds, charges).
 */
export interface BatchOptions {
  /** How long the first item of a batch waits for company. */
  maxWaitMs: number;
  /** A batch this large is handed over at once. */
  maxBatch: number;
}

class Batcher<T> {
  private queue: T[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly onBatch: (items: T[]) => void,
    private readonly options: BatchOptions,
  ) {}

  add(item: T): void {
    this.queue.push(item);
    if (this.queue.length >= this.options.maxBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.options.maxWaitMs);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
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
