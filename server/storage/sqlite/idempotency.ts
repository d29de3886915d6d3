// The kept answers to `Idempotency-Key`s in SQLite. The create's own answer is recorded by the
// collection store inside the group commit's transaction; this store finds answers and keeps the
// 4xx ones made without a create.
import type { Database, Statement } from 'better-sqlite3';
import type { IdempotencyClaim, IdempotencyStore, KeptAnswer } from '../../../core/idempotency/store.ts';
import { type KeptAnswerRow, keptAnswerOf, recordValues, SWEEP_LIMIT, SweepSchedule } from '../kept-answers.ts';
import { withSqlite } from './errors.ts';
import { statement } from './statement-cache.ts';

export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #find: Statement<[string, string, number], KeptAnswerRow>;
  readonly #record: Statement<unknown[]>;
  readonly #sweep: Statement<[number, number]>;
  readonly #schedule = new SweepSchedule();

  constructor(db: Database) {
    this.#find = statement(
      db,
      'SELECT fingerprint, status, body, location FROM idempotency_keys WHERE scope = ? AND key = ? AND recorded_at >= ?',
    );
    // An expired answer still stored (not swept yet) gives way to the new one; an unexpired one stays.
    this.#record = statement(
      db,
      `INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, location, recorded_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
          body = excluded.body, location = excluded.location, recorded_at = excluded.recorded_at
        WHERE idempotency_keys.recorded_at < ?`,
    );
    this.#sweep = statement(
      db,
      `DELETE FROM idempotency_keys WHERE rowid IN
        (SELECT rowid FROM idempotency_keys WHERE recorded_at < ? LIMIT ?)`,
    );
  }

  async find(claim: IdempotencyClaim): Promise<KeptAnswer | undefined> {
    return withSqlite(() => this.findNow(claim));
  }

  async keep(claim: IdempotencyClaim, answer: KeptAnswer): Promise<void> {
    withSqlite(() => this.recordNow(claim, answer));
  }

  /** The unexpired answer under the claim's key; to be called inside the create's transaction. */
  findNow({ scope, key, notBefore }: IdempotencyClaim): KeptAnswer | undefined {
    const row = this.#find.get(scope, key, notBefore);
    return row && keptAnswerOf(row);
  }

  /** Records the answer under the claim's key, and now and then deletes a bounded number of expired ones. */
  recordNow(claim: IdempotencyClaim, answer: KeptAnswer): void {
    if (this.#schedule.due(claim.now)) this.#sweep.run(claim.notBefore, SWEEP_LIMIT);
    this.#record.run(...recordValues(claim, answer));
  }
}
