// Node's `Buffer`, as far as the server modules the browser mocks share use it (the signed
// pagination cursors: UTF-8 and base64url); the build puts it where they name the global.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Encoding = 'utf8' | 'base64url';

export class Buffer {
  readonly bytes: Uint8Array;

  private constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  static from(value: string | Uint8Array | Buffer, encoding: Encoding = 'utf8'): Buffer {
    if (value instanceof Buffer) return new Buffer(value.bytes.slice());
    if (value instanceof Uint8Array) return new Buffer(value.slice());
    return new Buffer(encoding === 'base64url' ? fromBase64Url(value) : encoder.encode(value));
  }

  get length(): number {
    return this.bytes.length;
  }

  subarray(start?: number, end?: number): Buffer {
    return new Buffer(this.bytes.subarray(start, end));
  }

  toString(encoding: Encoding = 'utf8'): string {
    return encoding === 'base64url' ? toBase64Url(this.bytes) : decoder.decode(this.bytes);
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const base64 = text.replaceAll('-', '+').replaceAll('_', '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
