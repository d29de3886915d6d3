// The stateful mock's key: one fixed development key of a chosen plan, and no other, so a frontend
// sees the 401 of a wrong key as the service answers it.
import type { ApiKeyRecord, KeyStore } from '../../core/keys/key-store.ts';
import type { Plan } from '../../core/keys/plans.ts';

export class FixedKeyStore implements KeyStore {
  readonly #secret: string;
  readonly #record: ApiKeyRecord;

  constructor(secret: string, plan: Plan, label: string) {
    this.#secret = secret;
    this.#record = {
      id: 1,
      label,
      plan,
      perMinute: null,
      perDay: null,
      createdAt: '',
      revokedAt: null,
      expiresAt: null,
      lastUsedAt: null,
      lineage: 1,
    };
  }

  async findActive(secret: string): Promise<ApiKeyRecord | undefined> {
    return secret === this.#secret ? this.#record : undefined;
  }

  async create(): Promise<never> {
    throw new Error('The stateful mock has one fixed key; it creates none.');
  }

  async list(): Promise<ApiKeyRecord[]> {
    return [this.#record];
  }

  async revoke(): Promise<boolean> {
    return false;
  }

  async rotate(): Promise<undefined> {
    return undefined;
  }

  async count(): Promise<number> {
    return 1;
  }
}
