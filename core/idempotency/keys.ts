import type { MiddlewareHandler } from 'hono';
import type { ContractOperation } from '../../contract/contract.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type IdempotencyRule,
} from '../../contract/idempotency.ts';
import type { Clock } from '../clock.ts';
import { errors } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';
import { inProgress, replay } from './answers.ts';
import type { IdempotencyClaim, IdempotencyStore, KeptAnswer } from './store.ts';

/** SHA-256, given by the app's assembler: synchronous `node:crypto` on the server, a library in browsers. */
export type Sha256 = (message: Uint8Array) => Uint8Array;

export interface IdempotentCreateDeps {
  sha256: Sha256 | undefined;
  /** Absent where nothing is kept (the static mock): the key is checked, and the request answered as without it. */
  store: IdempotencyStore | undefined;
  clock: Clock;
}

/**
 * Answers a repeat of an `Idempotency-Key` with the first answer, and gives the create handler
 * the request's claim on its key (`c.var.idempotency`), which it records with what it creates.
 * Keys being answered by this process are refused at once (409); another instance's are found by
 * the store. A 4xx the operation answers is kept too, outside the create's commit; a 5xx is not.
 * A request refused before it gets here (its parameters or body invalid, too large, of another
 * type; no valid key) did nothing, and keeps nothing: the corrected request may use the key.
 */
export function idempotencyKeys(
  operation: ContractOperation,
  rule: IdempotencyRule,
  { store, clock, sha256 }: IdempotentCreateDeps,
): MiddlewareHandler<AppEnv> {
  const answering = new Set<string>();
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return next();
    const complaint = rule.complaintAbout(key);
    if (complaint !== undefined) {
      throw errors.invalidIdempotencyKey(complaint);
    }
    if (!store || !sha256) return next();
    const apiKey = c.get('caller').apiKey;
    if (!apiKey) throw new Error('An idempotent create was reached without an API key.');
    // The key's line: a key issued by rotating another replays what the other created.
    const scope = String(apiKey.lineage);
    const body = new Uint8Array(await c.req.arrayBuffer());
    const now = clock.now();
    const claim: IdempotencyClaim = {
      scope,
      key,
      fingerprint: fingerprintOf(sha256, operation.operationId, body),
      now,
      notBefore: now - rule.retentionMs,
    };
    const local = `${scope}\n${key}`;
    if (answering.has(local)) throw inProgress();
    answering.add(local);
    try {
      const kept = await store.find(claim);
      if (kept) return replay(c, kept, claim);
      c.set('idempotency', claim);
      await next();
      const { status } = c.res;
      // 409 and 429 say "not now", not what the request is: a retry must get a fresh answer.
      if (status >= 400 && status < 500 && status !== 409 && status !== 429 && !replayed(c.res)) {
        const answer: KeptAnswer = { fingerprint: claim.fingerprint, status, body: await c.res.clone().text() };
        // Not keeping it loses nothing: the retry is answered afresh, as if it came first.
        await store.keep(claim, answer).catch(() => {});
      }
    } finally {
      answering.delete(local);
    }
  };
}

function replayed(response: Response): boolean {
  return response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true';
}

/**
 * The operation and the body's bytes, hashed: a repeat must be the same request. Synchronous: an
 * asynchronous hash (Web Crypto) would spread the creates of one turn of the event loop over
 * several, and the group commit would write them in more, smaller batches.
 */
function fingerprintOf(sha256: Sha256, operationId: string, body: Uint8Array): string {
  const name = encoder.encode(`${operationId}\n`);
  const message = new Uint8Array(name.length + body.length);
  message.set(name);
  message.set(body, name.length);
  let hex = '';
  for (const byte of sha256(message)) hex += HEX_BYTES[byte];
  return hex;
}

const encoder = new TextEncoder();
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
