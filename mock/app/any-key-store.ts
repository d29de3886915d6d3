// The static mock's keys: any well-formed bearer token is an active key, so a frontend can use
// whatever it has. Each distinct token gets its own rate-limit windows.
import type { ApiKeyRecord, KeyStore } from '../../core/keys/key-store.ts';
import type { Plan } from '../../core/keys/plans.ts';

/** Tokens remembered at most; a mock sees a handful. */
const MOST_TOKENS = 10_000;

export class AnyKeyStore implements KeyStore {
  readonly #plan: Plan;
  readonly #ids = new Map<string, number>();

  constructor(plan: Plan) {
    this.#plan = plan;
  }

  async findActive(secret: string): Promise<ApiKeyRecord> {
    if (this.#ids.size >= MOST_TOKENS) this.#ids.clear();
    let id = this.#ids.get(secret);
    if (id === undefined) {
      id = this.#ids.size + 1;
      this.#ids.set(secret, id);
    }
    return {
      id,
      label: 'any key',
      plan: this.#plan,
      perMinute: null,
      perDay: null,
      createdAt: '',
      revokedAt: null,
      expiresAt: null,
      lastUsedAt: null,
      lineage: id,
    };
  }

  async create(): Promise<never> {
    throw new Error('The static mock takes any key; it creates none.');
  }

  async list(): Promise<ApiKeyRecord[]> {
    return [];
  }

  async revoke(): Promise<boolean> {
    return false;
  }

  async rotate(): Promise<undefined> {
    return undefined;
  }

  async count(): Promise<number> {
    return this.#ids.size;
  }
}
