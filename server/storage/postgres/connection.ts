import pg from 'pg';

/**
 * What a fresh connection may take before the request gets its 503: long enough for a busy
 * server, short enough that a request never waits two seconds for a database that is gone.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 1_000;
/**
 * The longest a statement may run. PostgreSQL cancels it (`statement_timeout`); when PostgreSQL
 * does not answer at all (a network partition), the client gives up a little later
 * (`query_timeout`) and drops the connection. Every statement of the stores reads or writes a
 * handful of rows through an index, so this only ever cuts a statement that cannot finish.
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 1_000;
const CLIENT_GRACE_MS = 500;

const INT8 = 20;

/**
 * Ids, counts, limits and category ids are `bigint` columns, which pg hands out as strings so as
 * not to lose precision. The service keeps them within 2^53-1 (the contract's bound), so they are
 * numbers here, and a value beyond that fails loudly instead of being rounded.
 */
function parseSafeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`PostgreSQL returned the integer ${text}, beyond what JavaScript holds exactly.`);
  }
  return value;
}

/** Per connection, not pg's global table, so that other users of pg in the process are unaffected. */
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary'
      ? parseSafeInteger
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

export interface ConnectionOptions {
  connectTimeoutMs: number;
  /** Omitted for connections whose statements may rightly wait long (migrations, a copy). */
  queryTimeoutMs?: number;
}

/** The settings of every connection the service opens to the database at `url`. */
export function connectionConfig(
  url: string,
  { connectTimeoutMs, queryTimeoutMs }: ConnectionOptions,
): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
    // Finds a connection whose peer vanished without closing it, so the pool replaces it.
    keepAlive: true,
    application_name: 'animal-store',
    types: TYPES,
    ...(queryTimeoutMs !== undefined && {
      statement_timeout: queryTimeoutMs,
      query_timeout: queryTimeoutMs + CLIENT_GRACE_MS,
    }),
  };
}
