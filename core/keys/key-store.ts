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
  /** From this instant the key is refused like a revoked one; null for a key that does not expire. */
  expiresAt: string | null;
  /** The minute the key was last used, as far as the service has recorded it (at most once a minute). */
  lastUsedAt: string | null;
  /**
   * The key whose rate-limit windows and bans this one counts against: its own id, or for a key
   * issued by rotating another, that key's line. Rotating never resets a window or a ban.
   */
  lineage: number;
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
  /** When the key stops working (ISO 8601); never by default. */
  expiresAt?: string;
}

/** What the app asks of the keys: the one lookup every request with a bearer key makes. */
export interface KeyLookup {
  /**
   * The active key (neither revoked nor expired) with this secret value, if any. Records its use,
   * to the minute, without a write per request.
   */
  findActive(secret: string): Promise<ApiKeyRecord | undefined>;
}

/** The keys an operator manages (the keys tool), in the service's storage. */
export interface KeyStore extends KeyLookup {
  /** Creates a key and returns its secret value, which is never stored and never shown again. */
  create(key: NewApiKey): Promise<{ record: ApiKeyRecord; secret: string }>;
  /**
   * Issues a new key with the plan, limits, label and rate-limit line of key `id`, and makes `id`
   * expire `overlapMs` from now (or sooner, when it was to expire sooner). Undefined when no
   * active key has this id.
   */
  rotate(id: number, overlapMs: number): Promise<{ record: ApiKeyRecord; secret: string } | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Revokes the key; false when no key has this id. */
  revoke(id: number): Promise<boolean>;
  count(): Promise<number>;
}
