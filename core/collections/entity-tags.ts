// An item's entity tag (RFC 9110, 8.8.3), derived from its content, so that nothing stores it: the
// same item has the same ETag in every instance and engine, and any change of a field changes it.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** A strong ETag of `item`: the first 64 bits of the SHA-256 of its JSON, keys in a fixed order. */
export function entityTag(item: object): string {
  return `"${bytesToHex(sha256(utf8ToBytes(canonicalJson(item)))).slice(0, 16)}"`;
}

/**
 * Whether an `If-Match` value holds for the item whose ETag is `current`: `*`, or a list of entity
 * tags one of which is `current` by the strong comparison (a weak tag, `W/"..."`, never matches).
 */
export function ifMatchHolds(ifMatch: string, current: string): boolean {
  const value = ifMatch.trim();
  if (value === '*') return true;
  return value.split(',').some((tag) => tag.trim() === current);
}

/** JSON with every object's keys sorted, so that two items with the same fields have the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
