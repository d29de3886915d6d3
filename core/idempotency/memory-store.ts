// The mocks' kept answers, in process memory: what the stateful mock and MSW's stateful handlers
// replay. Expired answers are dropped oldest first as new ones arrive, so the map stays bounded by
// what one retention period holds.
import type { IdempotencyClaim, IdempotencyStore, KeptAnswer } from './store.ts';

interface Entry {
  answer: KeptAnswer;
  recordedAt: number;
}

export class MemoryIdempotencyStore implements IdempotencyStore {
  /** In the order answers were recorded, which is the order they expire in. */
  #entries = new Map<string, Entry>();

  async find(claim: IdempotencyClaim): Promise<KeptAnswer | undefined> {
    return this.findNow(claim);
  }

  async keep(claim: IdempotencyClaim, answer: KeptAnswer): Promise<void> {
    if (!this.findNow(claim)) this.record(claim, answer);
  }

  findNow(claim: IdempotencyClaim): KeptAnswer | undefined {
    const entry = this.#entries.get(entryKey(claim));
    return entry && entry.recordedAt >= claim.notBefore ? entry.answer : undefined;
  }

  record(claim: IdempotencyClaim, answer: KeptAnswer): void {
    for (const [key, entry] of this.#entries) {
      if (entry.recordedAt >= claim.notBefore) break;
      this.#entries.delete(key);
    }
    const key = entryKey(claim);
    this.#entries.delete(key);
    this.#entries.set(key, { answer, recordedAt: claim.now });
  }

  /** Forgets every answer (the mock's reset). */
  clear(): void {
    this.#entries.clear();
  }
}

function entryKey({ scope, key }: IdempotencyClaim): string {
  return `${scope}\n${key}`;
}
