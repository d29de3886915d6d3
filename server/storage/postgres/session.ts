import pg from 'pg';
import { ApiError } from '../../../core/errors.ts';
import { connectionConfig } from './connection.ts';
import { withPostgres } from './errors.ts';

/**
 * Runs `work` on a connection of its own to the database at `url`, outside the pool and without
 * a statement timeout: for migrations and copies, whose statements may rightly wait long (for
 * another instance's migration, or for many rows). Failures to reach PostgreSQL become
 * `UnavailableError`.
 */
export async function withSession<T>(
  url: string,
  connectTimeoutMs: number,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client(connectionConfig(url, { connectTimeoutMs }));
  // A lost connection also fails the statement in progress, which is where it is reported;
  // without a listener, the client's own 'error' event would end the process.
  client.on('error', ignoreConnectionError);
  await withPostgres(() => client.connect());
  try {
    return await withPostgres(() => work(client));
  } finally {
    // The connection may be broken already; what matters then is `work`'s own error.
    await client.end().catch(() => {});
  }
}

/** Runs `work` in a transaction on `client`: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // On a broken connection the rollback fails too, and PostgreSQL rolls back by itself.
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * Runs `work` in a transaction on a connection of the pool. COMMIT is sent only once every
 * statement of `work` has answered in time, so a request that got its 503 because PostgreSQL did
 * not answer leaves nothing behind when the held statements arrive later: the connection is gone
 * by then and PostgreSQL rolls the transaction back. A connection whose transaction failed is
 * dropped rather than reused in an unknown state, unless `work` refused the change (an ApiError,
 * after which the rollback left it sound).
 */
export async function inPoolTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withPostgres(async () => {
    const client = await pool.connect();
    // The pool stops listening for a connection's errors while it is checked out; a reset then
    // fails the statement in progress, where it is reported, instead of ending the process.
    client.on('error', ignoreConnectionError);
    let failed: Error | undefined;
    try {
      return await inTransaction(client, () => work(client));
    } catch (error) {
      if (!(error instanceof ApiError)) failed = error as Error;
      throw error;
    } finally {
      client.off('error', ignoreConnectionError);
      client.release(failed);
    }
  });
}

function ignoreConnectionError(): void {}
