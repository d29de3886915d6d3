// Which storage the environment names, for the server and the operator's tools alike.
import type { Contract } from '../../contract/contract.ts';
import type { Clock } from '../../core/clock.ts';
import { ConfigError, databasePathFrom, integer } from '../process/config.ts';
import { isPostgresUrl } from './postgres/connection.ts';
import { DEFAULT_POOL_SIZE, openPostgresStorage } from './postgres/storage.ts';
import { openSqliteStorage } from './sqlite/storage.ts';
import type { Storage } from './storage.ts';

const MAX_POOL_SIZE = 1_000;

/**
 * PostgreSQL at `DATABASE_URL` when it is set, with `DATABASE_POOL_SIZE` connections at most;
 * otherwise SQLite at `DATABASE_PATH`. A malformed variable is a ConfigError naming it.
 */
export async function openStorageFromEnv(env: NodeJS.ProcessEnv, clock?: Clock, contract?: Contract): Promise<Storage> {
  const url = databaseUrlFrom(env);
  if (url === undefined) return openSqliteStorage(databasePathFrom(env), clock, contract);
  return openPostgresStorage(url, { poolSize: poolSizeFrom(env), clock, ...(contract && { contract }) });
}

/** `DATABASE_URL`, when set; an empty value counts as unset, like the other variables. */
export function databaseUrlFrom(env: NodeJS.ProcessEnv): string | undefined {
  const url = env.DATABASE_URL;
  if (!url) return undefined;
  // The value is not repeated: it may hold a password.
  if (!isPostgresUrl(url)) {
    throw new ConfigError(
      'DATABASE_URL must be a PostgreSQL URL, postgres://user:password@host:5432/database (unset it to use DATABASE_PATH).',
    );
  }
  return url;
}

function poolSizeFrom(env: NodeJS.ProcessEnv): number {
  return integer(env, 'DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE, 1, MAX_POOL_SIZE);
}
