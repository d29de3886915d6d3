// A new key as the operator asks for it: checked, given its secret, and turned into the row every
// store inserts. Server-side only: it draws random bytes and hashes with node:crypto.
import { UsageError } from '../../core/errors.ts';
import type { ApiKeyRecord, NewApiKey } from '../../core/keys/key-store.ts';
import { hasLimitsPerKey, isPlan, PER_KEY_PLANS, PLANS, type Plan } from '../../core/keys/plans.ts';
import { API_KEY_PREFIX, generateApiKey, hashKey, isWellFormedApiKey } from './api-key.ts';

/**
 * Throws UsageError unless `key` names a plan, carries limits exactly when its plan sets
 * limits per key, and, when it brings its own secret, that secret looks like an issued key.
 */
export function assertValidNewApiKey(key: NewApiKey): void {
  if (key.secret !== undefined && !isWellFormedApiKey(key.secret)) {
    throw new UsageError(
      `A chosen secret must start with "${API_KEY_PREFIX}" followed by 16 to 252 letters, digits, "-" or "_".`,
    );
  }
  if (!isPlan(key.plan)) {
    throw new UsageError(`Unknown plan "${key.plan}": use one of ${PLANS.join(', ')}.`);
  }
  const ownLimits = { perMinute: key.perMinute, perDay: key.perDay };
  if (!hasLimitsPerKey(key.plan)) {
    if (ownLimits.perMinute !== undefined || ownLimits.perDay !== undefined) {
      throw new UsageError(
        `The ${key.plan} plan has fixed limits: per-minute and per-day limits are set only for ${PER_KEY_PLANS.join(' or ')} keys.`,
      );
    }
    return;
  }
  for (const [field, value] of Object.entries(ownLimits)) {
    if (value === undefined) {
      throw new UsageError(`A key of the ${key.plan} plan needs both limits: ${field} is missing.`);
    }
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new UsageError(`${field} must be a positive integer, not ${value}.`);
    }
  }
}

/** The columns of a new key's row, in the order the stores insert them. */
export type NewKeyColumns = [
  label: string | null,
  plan: Plan,
  perMinute: number | null,
  perDay: number | null,
  keyHash: string,
  createdAt: string,
  expiresAt: string | null,
];

/**
 * A new key checked (UsageError otherwise), its secret (the one chosen, or a new random
 * one) and the row every store inserts for it: only the secret's hash is kept.
 */
export function newKeyRow(key: NewApiKey, createdAt: string): { secret: string; columns: NewKeyColumns } {
  assertValidNewApiKey(key);
  const secret = key.secret ?? generateApiKey();
  return {
    secret,
    columns: [
      key.label ?? null,
      key.plan,
      key.perMinute ?? null,
      key.perDay ?? null,
      hashKey(secret),
      createdAt,
      key.expiresAt ?? null,
    ],
  };
}

/** Whether `key` has reached its expiry at `now` (milliseconds). */
export function isExpired(key: Pick<ApiKeyRecord, 'expiresAt'>, now: number): boolean {
  return key.expiresAt !== null && Date.parse(key.expiresAt) <= now;
}

/** The key a rotation issues for `old`: its plan, limits and label. */
export function successorOf(old: ApiKeyRecord): NewApiKey {
  return {
    plan: old.plan,
    ...(old.label !== null && { label: old.label }),
    ...(old.perMinute !== null && { perMinute: old.perMinute }),
    ...(old.perDay !== null && { perDay: old.perDay }),
  };
}
