// The kept answers to `Idempotency-Key`s in PostgreSQL, shared by every instance. A create under
// a key runs in one transaction that first takes a transaction-level advisory lock on the key: of
// concurrent repeats on any instances one holds it, the others are told the key is in progress
// (409); the holder finds the answer committed before it, or creates and records its answer in
// the same commit. A crash rolls the transaction back and frees the lock with it.
import type pg from 'pg';
import type {
  CreateOnceOutcome,
  IdempotencyClaim,
  IdempotencyStore,
  KeptAnswer,
} from '../../../core/idempotency/store.ts';
import { type KeptAnswerRow, keptAnswerOf, recordValues, SWEEP_LIMIT, SweepSchedule } from '../kept-answers.ts';
import { inPoolTransaction } from './session.ts';
import { execute, type NamedStatement } from './statements.ts';

const STATEMENTS = {
  lock: {
    name: 'idempotency.lock',
    text: "SELECT pg_try_advisory_xact_lock(hashtextextended($1 || E'\\n' || $2, 0)) AS locked",
  },
  find: {
    name: 'idempotency.find',
    text: 'SELECT fingerprint, status, body, location FROM idempotency_keys WHERE scope = $1 AND key = $2 AND recorded_at >= $3',
  },
  // An expired answer still stored (not swept yet) gives way to the new one; an unexpired one stays.
  record: {
    name: 'idempotency.record',
    text: `INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, location, recorded_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7)
      ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
        body = excluded.body, location = excluded.location, recorded_at = excluded.recorded_at
      WHERE idempotency_keys.recorded_at < $8`,
  },
  // SKIP LOCKED: instances sweeping at once delete different rows instead of waiting on each other.
  sweep: {
    name: 'idempotency.sweep',
    text: `DELETE FROM idempotency_keys WHERE ctid IN
      (SELECT ctid FROM idempotency_keys WHERE recorded_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  },
} satisfies Record<string, NamedStatement>;

type Queryable = pg.Pool | pg.PoolClient;

export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly #pool: pg.Pool;
  readonly #schedule = new SweepSchedule();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async find(claim: IdempotencyClaim): Promise<KeptAnswer | undefined> {
    return findIn(this.#pool, claim);
  }

  async keep(claim: IdempotencyClaim, answer: KeptAnswer): Promise<void> {
    await this.#record(this.#pool, claim, answer);
  }

  /**
   * Runs `insert` and records its answer in one transaction under the key's lock, unless another
   * request holds the lock or committed an answer first.
   */
  async createOnce<T>(
    claim: IdempotencyClaim,
    insert: (client: pg.PoolClient) => Promise<T>,
    answerOf: (item: T) => KeptAnswer,
  ): Promise<CreateOnceOutcome<T>> {
    // Nothing is written when the key is locked or answered already: committing then ends the
    // read-only transaction and releases the lock as a rollback would.
    return inPoolTransaction(this.#pool, async (client) => {
      const { rows } = await execute<{ locked: boolean }>(client, STATEMENTS.lock, [claim.scope, claim.key]);
      if (!rows[0]?.locked) return { inProgress: true };
      const kept = await findIn(client, claim);
      if (kept) return { kept };
      const created = await insert(client);
      await this.#record(client, claim, answerOf(created));
      return { created };
    });
  }

  async #record(db: Queryable, claim: IdempotencyClaim, answer: KeptAnswer): Promise<void> {
    if (this.#schedule.due(claim.now)) await execute(db, STATEMENTS.sweep, [claim.notBefore, SWEEP_LIMIT]);
    await execute(db, STATEMENTS.record, recordValues(claim, answer));
  }
}

async function findIn(db: Queryable, claim: IdempotencyClaim): Promise<KeptAnswer | undefined> {
  const { rows } = await execute<KeptAnswerRow>(db, STATEMENTS.find, [claim.scope, claim.key, claim.notBefore]);
  return rows[0] && keptAnswerOf(rows[0]);
}
