/** The most items one flush writes; the rest wait for the next flush, which follows at once. */
const DEFAULT_MAX_BATCH = 256;

interface Pending<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Group commit: items submitted in the same turn of the event loop (and while a flush is
 * pending) are written together by one synchronous `write`, which is expected to run them in
 * one transaction and commit it, and each submitter is answered only after that commit, in
 * the order of submission. If `write` throws, the transaction rolled back as a whole, so every
 * item of the batch is rejected with that error; later batches are written afresh.
 */
export class GroupCommit<Item, Result> {
  readonly #write: (items: Item[]) => Result[];
  readonly #maxBatch: number;
  readonly #onBatch: ((size: number) => void) | undefined;
  #queue: Array<Pending<Item, Result>> = [];
  #scheduled = false;

  /** `onBatch` hears the size of each batch written (the metrics' histogram). */
  constructor(
    write: (items: Item[]) => Result[],
    { maxBatch = DEFAULT_MAX_BATCH, onBatch }: { maxBatch?: number; onBatch?: (size: number) => void } = {},
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError('maxBatch must be a positive integer.');
    this.#write = write;
    this.#maxBatch = maxBatch;
    this.#onBatch = onBatch;
  }

  /** Resolves with the item's result once the transaction holding it has committed. */
  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // setImmediate, after the I/O of this turn: every request parsed in it joins the batch.
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#queue.splice(0, this.#maxBatch);
    if (this.#queue.length > 0) this.#schedule();
    if (batch.length === 0) return;
    this.#onBatch?.(batch.length);
    let results: Result[];
    try {
      results = this.#write(batch.map((pending) => pending.item));
      if (results.length !== batch.length) {
        throw new Error(`A group commit wrote ${batch.length} items but returned ${results.length} results.`);
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const [index, pending] of batch.entries()) pending.resolve(results[index] as Result);
  }
}
