// The answers an idempotent create gives a repeat of its key: the kept first answer, replayed,
// or a refusal while the first request is still being answered.
import type { StatusCode } from 'hono/utils/http-status';
import { IDEMPOTENT_REPLAYED_HEADER } from '../../contract/idempotency.ts';
import { type ApiError, errors } from '../errors.ts';
import type { AppContext } from '../http-types.ts';
import { answerJsonText, setHeader } from '../middleware/answer-headers.ts';
import type { IdempotencyClaim, KeptAnswer } from './store.ts';

/** Seconds a repeat that arrives while its key is being answered waits before trying again. */
const IN_PROGRESS_RETRY_SECONDS = 1;

/** The kept answer, marked replayed; a 422 when the repeat is of another request. */
export function replay(c: AppContext, kept: KeptAnswer, claim: IdempotencyClaim): Response {
  if (kept.fingerprint !== claim.fingerprint) {
    throw errors.idempotencyKeyReused();
  }
  if (kept.location !== undefined) setHeader(c, 'Location', kept.location);
  setHeader(c, IDEMPOTENT_REPLAYED_HEADER, 'true');
  c.set('answered', { replayed: true });
  return answerJsonText(c, kept.body, kept.status as StatusCode);
}

export function inProgress(): ApiError {
  return errors.idempotencyKeyInProgress(IN_PROGRESS_RETRY_SECONDS);
}
