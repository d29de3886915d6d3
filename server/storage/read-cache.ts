import { LRUCache } from 'lru-cache';

/**
 * Remembers what reads returned until the data may have changed, so a repeated read costs a map
 * lookup instead of a query. Bounded: the least recently used entries go first.
 */
export class ReadCache<Value extends object> {
  readonly #entries: LRUCache<string, Value>;
  readonly #changed: () => boolean;

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
    if (this.#changed()) this.#entries.clear();
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = read();
      if (value !== undefined) this.#entries.set(key, deepFreeze(value));
    }
    return value;
  }
}

function deepFreeze<Value extends object>(value: Value): Value {
  for (const field of Object.values(value)) {
    if (typeof field === 'object' && field !== null) deepFreeze(field);
  }
  return Object.freeze(value);
}
