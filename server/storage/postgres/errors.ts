import pg from 'pg';
import { UnavailableError } from '../../../core/errors.ts';

/**
 * SQLSTATE codes (or their two-character classes) of a database that cannot do the work right
 * now, as opposed to a mistake in the program (a constraint or an SQL error), which stays a 500.
 */
const UNAVAILABLE_STATES: ReadonlyArray<[prefix: string, reason: string]> = [
  ['08', 'the connection to PostgreSQL failed'],
  ['28', 'PostgreSQL refused the credentials'],
  ['3D000', 'the database does not exist'],
  ['53', 'PostgreSQL ran out of a resource (disk, memory or connections)'],
  ['57P0', 'PostgreSQL is shutting down, restarting or starting'],
  ['57014', 'the statement timed out'],
  ['58', 'PostgreSQL failed to read or write its files'],
  ['40001', 'a concurrent transaction conflicted'],
  ['40P01', 'a concurrent transaction deadlocked'],
  ['55P03', 'a lock could not be taken'],
  ['25006', 'the database is read-only (a standby)'],
];

/** Errors of the network between the service and PostgreSQL, as Node reports them. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * What pg and pg-pool say when a connection is refused, lost or too slow; they carry no code.
 * The timeouts are the pool's `connectionTimeoutMillis` and the client's `query_timeout`.
 */
const CONNECTION_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Connection terminated unexpectedly',
  'Query read timeout',
  'timeout expired',
  'Client has encountered a connection error and is not queryable',
]);

/** Runs `work`, turning PostgreSQL's and the network's failures into `UnavailableError`. */
export async function withPostgres<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asStorageError(error);
  }
}

function asStorageError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? '';
    const match = UNAVAILABLE_STATES.find(([prefix]) => code.startsWith(prefix));
    return match ? new UnavailableError('storage', `${match[1]}: ${error.message} (${code})`, { cause: error }) : error;
  }
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if ((code !== undefined && NETWORK_CODES.has(code)) || CONNECTION_MESSAGES.has(error.message)) {
    return new UnavailableError('storage', `PostgreSQL cannot be reached: ${error.message}`, { cause: error });
  }
  return error;
}
