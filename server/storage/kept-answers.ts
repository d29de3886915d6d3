// The idempotency_keys table as either engine keeps it: a kept answer's row, the values recording
// one, and how expired answers are cleaned (never a delete per request, but at most one bounded
// delete per interval, riding on a write that happens anyway).
import type { IdempotencyClaim, KeptAnswer } from '../../core/idempotency/store.ts';

/** A kept answer as both engines select it. */
export interface KeptAnswerRow {
  fingerprint: string;
  status: number;
  body: string;
  location: string | null;
}

export function keptAnswerOf(row: KeptAnswerRow): KeptAnswer {
  return {
    fingerprint: row.fingerprint,
    status: row.status,
    body: row.body,
    ...(row.location !== null && { location: row.location }),
  };
}

/**
 * The parameters of both engines' record statement, in order: the row, then the time before which
 * an answer still stored has expired and gives way.
 */
export function recordValues(claim: IdempotencyClaim, answer: KeptAnswer): unknown[] {
  return [
    claim.scope,
    claim.key,
    answer.fingerprint,
    answer.status,
    answer.body,
    answer.location ?? null,
    claim.now,
    claim.notBefore,
  ];
}

/** The least time, on the service's clock, between two sweeps of one process. */
const SWEEP_INTERVAL_MS = 1_000;
/** The most expired answers one sweep deletes: a sweep per second keeps up with 1,000 creates a second. */
export const SWEEP_LIMIT = 1_000;

/** Says, for a write at `now`, whether it should sweep; at most once per interval. */
export class SweepSchedule {
  #last = Number.NEGATIVE_INFINITY;

  due(now: number): boolean {
    if (now - this.#last < SWEEP_INTERVAL_MS && now >= this.#last) return false;
    this.#last = now;
    return true;
  }
}
