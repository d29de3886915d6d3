import { createHmac, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../errors.ts';

export interface CursorPosition {
  /** The id of the last pet of the previous page. */
  afterId: number;
  /** The `status` filter the cursor was issued for; a cursor is only valid with it. */
  status: string | undefined;
}

export interface CursorCodec {
  encode(position: CursorPosition): string;
  /** The position of a cursor issued for this `status` filter; anything else is a 400 `invalid_cursor`. */
  decode(cursor: string, status: string | undefined): number;
}

const SIGNATURE_BYTES = 16;
/** Cursors of popular pages are issued again and again; one is a pure function of its position. */
const REMEMBERED_CURSORS = 1_000;

/**
 * Cursors are signed, not encrypted: the position is no secret, but a client that builds or
 * alters one must get a clear error instead of a silently wrong page.
 */
export function createCursorCodec(secret: Buffer): CursorCodec {
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, SIGNATURE_BYTES);
  const invalid = (reason: string) =>
    new ApiError(
      400,
      'invalid_cursor',
      `Query parameter \`cursor\` ${reason}; follow the \`Link\` header of the previous page, or start again without a cursor.`,
    );

  const issued = new LRUCache<string, string>({ max: REMEMBERED_CURSORS });

  return {
    encode({ afterId, status }) {
      const position = JSON.stringify({ a: afterId, s: status ?? null });
      let cursor = issued.get(position);
      if (cursor === undefined) {
        const payload = Buffer.from(position).toString('base64url');
        cursor = `${payload}.${sign(payload).toString('base64url')}`;
        issued.set(position, cursor);
      }
      return cursor;
    },
    decode(cursor, status) {
      const [payload, signature, ...rest] = cursor.split('.');
      if (!payload || !signature || rest.length > 0) throw invalid('was not issued by this service');
      // Compared as text: Node's base64url decoder skips stray characters and ignores the
      // unused bits of the last one, so decoding would accept altered spellings of a signature.
      const presented = Buffer.from(signature);
      const expected = Buffer.from(sign(payload).toString('base64url'));
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
        throw invalid('was not issued by this service or was altered');
      }
      const position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        a: number;
        s: string | null;
      };
      if ((position.s ?? undefined) !== status) {
        throw invalid(
          `was issued for ${position.s ? `\`status=${position.s}\`` : 'no status filter'}, not for ${status ? `\`status=${status}\`` : 'no status filter'}`,
        );
      }
      return position.a;
    },
  };
}
