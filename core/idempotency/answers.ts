// The answers an idempotent create gives a repeat of its key: the kept first answer, replayed,
// or a refusal while the first request is still being answered.
import { IDEMPOTENT_REPLAYED_HEADER } from '../../contract/idempotency.ts';
import { type ApiError, errors } from '../errors.ts';
import type { AppContext } from '../http-types.ts';
import type { IdempotencyClaim, KeptAnswer } from './store.ts';

/** Seconds a repeat that arrives while its key is being answered waits before trying again. */
const IN_PROGRESS_RETRY_SECONDS = 1;

/** The kept answer, marked replayed; a 422 when the repeat is of another request. */
export function replay(c: AppContext, kept: KeptAnswer, claim: IdempotencyClaim): Response {
  if (kept.fingerprint !== claim.fingerprint) {
    throw errors.idempotencyKeyReused();
  }
  c.header('Content-Type', 'application/json');
  if (kept.location !== undefined) c.header('Location', kept.location);
  c.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  c.set('answered', { replayed: true });
  return c.body(kept.body, kept.status as 200);
}

export function inProgress(): ApiError {
  return errors.idempotencyKeyInProgress(IN_PROGRESS_RETRY_SECONDS);
}
