// The answers an idempotent create gives a repeat of its key: the kept first answer, replayed,
// or a refusal while the first request is still being answered.
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../../contract/idempotency.ts';
import { ApiError } from '../errors.ts';
import type { AppContext } from '../http-types.ts';
import type { IdempotencyClaim, KeptAnswer } from './store.ts';

/** Seconds a repeat that arrives while its key is being answered waits before trying again. */
const IN_PROGRESS_RETRY_SECONDS = 1;

/** The kept answer, marked replayed; a 422 when the repeat is of another request. */
export function replay(c: AppContext, kept: KeptAnswer, claim: IdempotencyClaim): Response {
  if (kept.fingerprint !== claim.fingerprint) {
    throw new ApiError(
      422,
      'idempotency_key_reused',
      `This ${IDEMPOTENCY_KEY_HEADER} was used with a different request body or operation; send a new key for a new create.`,
    );
  }
  c.header('Content-Type', 'application/json');
  if (kept.location !== undefined) c.header('Location', kept.location);
  c.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  c.set('answered', { replayed: true });
  return c.body(kept.body, kept.status as 200);
}

export function inProgress(): ApiError {
  return new ApiError(
    409,
    'idempotency_key_in_progress',
    `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being answered; retry after Retry-After seconds.`,
    { 'Retry-After': String(IN_PROGRESS_RETRY_SECONDS) },
  );
}
