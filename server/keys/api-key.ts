import { hash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX, WELL_FORMED_KEY } from '../../core/keys/key-shape.ts';

// The prefix makes a leaked key recognisable to people, to secret scanners and to the log's redaction.
export { API_KEY_PREFIX };

/** 256 random bits: far beyond guessing, even at the unauthenticated rate limit. */
const RANDOM_BYTES = 32;

/** A new secret API key value: the prefix and 32 random bytes in base64url. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(RANDOM_BYTES).toString('base64url');
}

/**
 * The SHA-256 of a key, in hex: all the database keeps of it. Every request hashes its key, and
 * the one-shot `hash` costs a third of a `createHash` object.
 */
export function hashKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function isWellFormedApiKey(secret: string): boolean {
  return WELL_FORMED_KEY.test(secret);
}
