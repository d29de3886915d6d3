// How expired idempotency answers are cleaned, on either engine: never a delete per request, but at
// most one bounded delete per interval, riding on a write that happens anyway.

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
