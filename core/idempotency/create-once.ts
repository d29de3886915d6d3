// A create under the request's claim on its `Idempotency-Key`: the one way a handler creates, so
// that whatever it creates is replayed to a retry and never created twice.
import type { AppContext } from '../http-types.ts';
import { answerJson, setHeader } from '../middleware/answer-headers.ts';
import { inProgress, replay } from './answers.ts';
import type { CreatesOnce } from './store.ts';

/** What a create answers with, once it has created `item`. */
export interface CreatedAnswer<T> {
  status: 201;
  body: T;
  location: string | undefined;
}

/**
 * Creates through `store`, and answers: under the request's claim on its `Idempotency-Key` (set by
 * idempotencyKeys, keys.ts), the store records the answer in the same commit as the item, so a retry
 * finds both or neither; a key another request answered first is replayed, or refused while that
 * request runs.
 */
export async function createOnce<T>(
  c: AppContext,
  store: CreatesOnce<T>,
  fields: Omit<T, 'id'>,
  answerOf: (item: T) => CreatedAnswer<T>,
): Promise<Response> {
  const claim = c.get('idempotency');
  const send = ({ status, body, location }: CreatedAnswer<T>) => {
    if (location !== undefined) setHeader(c, 'Location', location);
    return answerJson(c, body, status);
  };
  if (!claim) return send(answerOf(await store.create(fields)));
  // The answer is recorded as it is sent, so a replay is byte for byte the same.
  const outcome = await store.createOnce(fields, claim, (item) => {
    const { status, body, location } = answerOf(item);
    return { fingerprint: claim.fingerprint, status, body: JSON.stringify(body), location };
  });
  if ('inProgress' in outcome) throw inProgress();
  if ('kept' in outcome) return replay(c, outcome.kept, claim);
  return send(answerOf(outcome.created));
}
