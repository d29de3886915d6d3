import { LRUCache } from 'lru-cache';
import type { FilterValue } from '../collections/store.ts';
import { errors } from '../errors.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';

/** HMAC-SHA256 of `message` under `key`: Node's crypto in the server, a JavaScript one in browsers. */
export type HmacSha256 = (key: Uint8Array, message: Uint8Array) => Uint8Array;

interface CursorPosition {
  /** The collection the cursor pages through (`pets`): a cursor of one list is no cursor of another. */
  collection: string;
  /** The id of the last item of the previous page. */
  afterId: number;
  /** The filters the cursor was issued for; a cursor is only valid with them. */
  filters: Record<string, FilterValue>;
}

export interface CursorCodec {
  encode(position: CursorPosition): string;
  /**
   * The position of a cursor issued for this collection and these filters (`filterNames` are the
   * ones the list has, to say what was expected); anything else is a 400 `invalid_cursor`.
   */
  decode(cursor: string, expected: Omit<CursorPosition, 'afterId'>, filterNames: readonly string[]): number;
}

const SIGNATURE_BYTES = 16;
/** Cursors of popular pages are issued again and again; one is a pure function of its position. */
const REMEMBERED_CURSORS = 1_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Cursors are signed, not encrypted: the position is no secret, but a client that builds or
 * alters one must get a clear error instead of a silently wrong page.
 */
export function createCursorCodec(secret: Uint8Array, hmac: HmacSha256): CursorCodec {
  const sign = (payload: string) => toBase64Url(hmac(secret, encoder.encode(payload)).subarray(0, SIGNATURE_BYTES));
  const invalid = errors.invalidCursor;

  const issued = new LRUCache<string, string>({ max: REMEMBERED_CURSORS });

  return {
    encode({ collection, afterId, filters }) {
      // The filters only when there are some: a cursor travels in every next-page link.
      const position = JSON.stringify({
        c: collection,
        a: afterId,
        ...(Object.keys(filters).length > 0 && { f: filters }),
      });
      let cursor = issued.get(position);
      if (cursor === undefined) {
        const payload = toBase64Url(encoder.encode(position));
        cursor = `${payload}.${sign(payload)}`;
        issued.set(position, cursor);
      }
      return cursor;
    },
    decode(cursor, expected, filterNames) {
      const [payload, signature, ...rest] = cursor.split('.');
      if (!payload || !signature || rest.length > 0) throw invalid('was not issued by this service');
      // Compared as text: a base64url decoder may skip stray characters and ignore the unused bits
      // of the last one, so decoding would accept altered spellings of a signature.
      if (!equalInConstantTime(signature, sign(payload))) {
        throw invalid('was not issued by this service or was altered');
      }
      const position = JSON.parse(decoder.decode(fromBase64Url(payload))) as {
        c: string;
        a: number;
        f?: Record<string, FilterValue>;
      };
      if (position.c !== expected.collection) throw invalid('was issued for another list');
      const issuedFor = describeFilters(position.f ?? {}, filterNames);
      const askedFor = describeFilters(expected.filters, filterNames);
      if (issuedFor !== askedFor) throw invalid(`was issued for ${issuedFor}, not for ${askedFor}`);
      return position.a;
    },
  };
}

/** `` `status=sold` ``, or `no status filter` when none of `names` is given. */
function describeFilters(filters: Record<string, FilterValue>, names: readonly string[]): string {
  const given = names.filter((name) => filters[name] !== undefined);
  if (given.length === 0) return `no ${names.join(' or ')} filter`;
  return given.map((name) => `\`${name}=${filters[name]}\``).join(' and ');
}

/** Whether `a` and `b` are equal, in a time that does not tell how much of them agrees. */
function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}
