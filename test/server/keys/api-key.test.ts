import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, generateApiKey, hashKey } from '../../../server/keys/api-key.ts';

describe('generateApiKey', () => {
  it('starts with the recognisable ask_ prefix followed by base64url characters only', () => {
    expect(API_KEY_PREFIX).toBe('ask_');
    expect(generateApiKey()).toMatch(/^ask_[A-Za-z0-9_-]+$/);
  });

  it('carries at least 128 random bits after the prefix', () => {
    const random = Buffer.from(generateApiKey().slice(API_KEY_PREFIX.length), 'base64url');
    expect(random.length * 8).toBeGreaterThanOrEqual(128);
  });

  it('never repeats a key over many draws', () => {
    const keys = new Set(Array.from({ length: 10_000 }, generateApiKey));
    expect(keys.size).toBe(10_000);
  });
});

describe('hashKey', () => {
  it('is the SHA-256 of the whole key, in lowercase hex', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const key = generateApiKey();
    expect(hashKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
  });
});
