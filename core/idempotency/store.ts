// What the service keeps of an idempotent create, whatever the engine: the first answer to each
// `Idempotency-Key` of each API key, replayed for as long as the contract's retention says.

/** An answer kept under an idempotency key, replayed byte for byte. */
export interface KeptAnswer {
  /** What the request was: its operation and body, hashed; a repeat with another one is a 422. */
  fingerprint: string;
  status: number;
  /** The body exactly as it was sent. */
  body: string;
  location?: string;
}

/** A request's claim on its key, once it has checked that no answer is kept under it. */
export interface IdempotencyClaim {
  /**
   * Whose key: the API key's line (its id, or for a rotated key the first key's), so that keys of
   * different API keys never collide and a retry survives a rotation.
   */
  scope: string;
  key: string;
  fingerprint: string;
  /** When the request arrived (the service's clock), recorded with its answer. */
  now: number;
  /** Answers recorded before this instant have expired: they are neither replayed nor refused. */
  notBefore: number;
}

/**
 * The outcome of a create under a claim: the item it created (its answer recorded in the same
 * commit), the answer another request committed first under the same key, or, when another
 * instance is answering the key at this moment, neither.
 */
export type CreateOnceOutcome<T> = { created: T } | { kept: KeptAnswer } | { inProgress: true };

/** A store whose creates can record their answer under a claim, in the same commit as the item. */
export interface CreatesOnce<T> {
  /** Stores an item durably before resolving, and returns it with its new id. */
  create(fields: Omit<T, 'id'>): Promise<T>;
  /**
   * Creates the item unless an unexpired answer is kept under the claim's key, and records
   * `answerOf(item)` under it in the same commit as the item: a retry finds both or neither.
   */
  createOnce(
    fields: Omit<T, 'id'>,
    claim: IdempotencyClaim,
    answerOf: (item: T) => KeptAnswer,
  ): Promise<CreateOnceOutcome<T>>;
}

export interface IdempotencyStore {
  /** The unexpired answer kept under the claim's scope and key. */
  find(claim: IdempotencyClaim): Promise<KeptAnswer | undefined>;
  /** Keeps an answer made without a create (a 4xx); a key answered already keeps its first answer. */
  keep(claim: IdempotencyClaim, answer: KeptAnswer): Promise<void>;
}
