import type { Plan } from './plans.ts';

export interface ApiKeyRecord {
  id: number;
  label: string | null;
  plan: Plan;
  /** Own limits of an enterprise key; null for the other plans, whose limits are fixed. */
  perMinute: number | null;
  perDay: number | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface NewApiKey {
  plan: Plan;
  label?: string;
  perMinute?: number;
  perDay?: number;
  /**
   * A chosen secret instead of a random one, for a fixture that must print a known key (the
   * stateful mock's development key). Never for a key that guards real data.
   */
  secret?: string;
}

export interface KeyStore {
  /** Creates a key and returns its secret value, which is never stored and never shown again. */
  create(key: NewApiKey): Promise<{ record: ApiKeyRecord; secret: string }>;
  /** The active (not revoked) key with this secret value, if any. */
  findActive(secret: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Revokes the key; false when no key has this id. */
  revoke(id: number): Promise<boolean>;
  count(): Promise<number>;
}
