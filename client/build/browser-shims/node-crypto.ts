// `node:crypto`, as far as the server modules the browser mocks share use it: the HMAC-SHA256 that
// signs pagination cursors, synchronous as Node's is (Web Crypto's is not), from @noble/hashes.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { Buffer } from './buffer.ts';

const encoder = new TextEncoder();

export function createHmac(algorithm: string, key: Buffer) {
  if (algorithm !== 'sha256') throw new Error(`The browser build signs with sha256 only, not ${algorithm}.`);
  const mac = hmac.create(sha256, key.bytes);
  const hash = {
    update(data: string) {
      mac.update(encoder.encode(data));
      return hash;
    },
    digest: () => Buffer.from(mac.digest()),
  };
  return hash;
}

/** Compares in time that depends on the length only, as Node's does. */
export function timingSafeEqual(a: Buffer, b: Buffer): boolean {
  if (a.length !== b.length) throw new RangeError('Input buffers must have the same byte length');
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= (a.bytes[index] ?? 0) ^ (b.bytes[index] ?? 0);
  return difference === 0;
}

/** The one-shot digest, in hex (the API keys' hash). */
export function hash(algorithm: string, data: string, encoding: 'hex'): string {
  if (algorithm !== 'sha256' || encoding !== 'hex')
    throw new Error(`The browser build hashes with sha256 to hex only, not ${algorithm} to ${encoding}.`);
  return Array.from(sha256(encoder.encode(data)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function randomBytes(size: number): Buffer {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(size)));
}
