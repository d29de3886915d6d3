import { createHash, randomBytes } from 'node:crypto';

/** Makes a leaked key recognisable to people and to secret scanners. */
export const API_KEY_PREFIX = 'ask_';
/** 256 random bits: far beyond guessing, even at the unauthenticated rate limit. */
const RANDOM_BYTES = 32;

/** A new secret API key value: the prefix and 32 random bytes in base64url. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(RANDOM_BYTES).toString('base64url');
}

/** The SHA-256 of a key, in hex: all the database keeps of it. */
export function hashKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
