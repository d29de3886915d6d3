import { LRUCache } from 'lru-cache';

/** Bounds of the collections' read caches: popular pages and items are read again and again between writes. */
export const CACHED_PAGES = 1_000;
export const CACHED_ITEMS = 10_000;

/**
 * Remembers what reads returned until the data may have changed, so a repeated read costs a map
 * lookup instead of a query. Bounded: the least recently used entries go first.
 */
export class ReadCache<Value extends object> {
  readonly #entries: LRUCache<string, Value>;
  readonly #changed: () => boolean;
  /** Counts the changes seen, so that a read that waited across one is not kept. */
  #generation = 0;

  /** `changed` answers whether the underlying data may have changed since it was last asked. */
  constructor(changed: () => boolean, maxEntries: number) {
    this.#changed = changed;
    this.#entries = new LRUCache({ max: maxEntries });
  }

  /**
   * The value last read for `key`, or what `read` returns now. Values are shared by every caller
   * until the next change, so they are frozen, and reads that find nothing are not kept (they
   * would let a flood of unknown keys push out the known ones).
   */
  get(key: string, read: () => Value): Value;
  get(key: string, read: () => Value | undefined): Value | undefined;
  get(key: string, read: () => Value | undefined): Value | undefined {
    this.#forgetIfChanged();
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = read();
      if (value !== undefined) this.#entries.set(key, deepFreeze(value));
    }
    return value;
  }

  /** As `get`, for a read that waits (a query on the network): its value is kept only if nothing changed meanwhile. */
  getLater(key: string, read: () => Promise<Value>): Promise<Value>;
  getLater(key: string, read: () => Promise<Value | undefined>): Promise<Value | undefined>;
  async getLater(key: string, read: () => Promise<Value | undefined>): Promise<Value | undefined> {
    this.#forgetIfChanged();
    const kept = this.#entries.get(key);
    if (kept !== undefined) return kept;
    const generation = this.#generation;
    const value = await read();
    this.#forgetIfChanged();
    if (value !== undefined && generation === this.#generation) this.#entries.set(key, deepFreeze(value));
    return value;
  }

  #forgetIfChanged(): void {
    if (!this.#changed()) return;
    this.#entries.clear();
    this.#generation += 1;
  }
}

function deepFreeze<Value extends object>(value: Value): Value {
  for (const field of Object.values(value)) {
    if (typeof field === 'object' && field !== null) deepFreeze(field);
  }
  return Object.freeze(value);
}
