// The server's configuration: every variable it reads, read and checked once, here, when a program
// starts (`npm start`, the keys and database tools); everything else takes the typed values. A
// value that cannot work stops the start with a UsageError naming the variable and what it takes.
import { UsageError } from '../../core/errors.ts';
import { LOG_LEVELS, type LogLevel } from '../../core/logger.ts';
import { type Environment, variables } from '../../node/variables.ts';
import { isPostgresUrl } from '../storage/postgres/connection.ts';
import { DEFAULT_POOL_SIZE } from '../storage/postgres/storage.ts';

/** Where the service keeps its data: a SQLite file (one instance), or PostgreSQL (several). */
export type StorageConfig = { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: string; poolSize: number };

/** Where the rate-limit windows live: this process's memory, or Redis shared by every instance. */
export type LimiterConfig = { engine: 'memory' } | { engine: 'redis'; url: string; keyPrefix: string };

export interface Config {
  host: string;
  port: number;
  storage: StorageConfig;
  limiter: LimiterConfig;
  logLevel: LogLevel;
  corsOrigins: string[];
  /** Whether to take the client address from `X-Forwarded-For`, set by a proxy the operator runs. */
  trustProxy: boolean;
  /** How long a shutdown waits for requests in flight before closing their connections. */
  shutdownTimeoutMs: number;
  /** How long after SIGTERM new requests are still taken while /readyz fails, so a balancer stops sending them first. */
  shutdownDelayMs: number;
  /** How long the start keeps trying to reach PostgreSQL (starting too, or slow on a loaded host) before it gives up. */
  startTimeoutMs: number;
}

const DEFAULT_DATABASE_PATH = 'data/animal-store.db';
const MAX_POOL_SIZE = 1_000;
/** The service's keys in Redis start with it, apart from whatever else that Redis holds; a deployment sharing a Redis picks its own. */
const DEFAULT_REDIS_KEY_PREFIX = 'animal-store:';

export function readConfig(env: Environment): Config {
  const read = variables(env);
  return {
    host: read.text('HOST', '127.0.0.1'),
    port: read.integer('PORT', 3000, 0, 65535),
    storage: readStorageConfig(env),
    limiter: readLimiterConfig(env),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    corsOrigins: read.list('CORS_ORIGINS'),
    trustProxy: read.flag('TRUST_PROXY'),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    shutdownDelayMs: read.integer('SHUTDOWN_DELAY_MS', 0, 0, 600_000),
    startTimeoutMs: read.integer('START_TIMEOUT_MS', 30_000, 0, 600_000),
  };
}

/**
 * PostgreSQL at `DATABASE_URL` when it is set, with `DATABASE_POOL_SIZE` connections at most;
 * otherwise SQLite at `DATABASE_PATH`. The keys and database tools read only this.
 */
export function readStorageConfig(env: Environment): StorageConfig {
  const read = variables(env);
  const url = read.optional('DATABASE_URL');
  if (url === undefined) return { engine: 'sqlite', path: readDatabasePath(env) };
  // The value is not repeated: it may hold a password.
  if (!isPostgresUrl(url))
    throw new UsageError(
      'DATABASE_URL must be a PostgreSQL URL, postgres://user:password@host:5432/database (unset it to use DATABASE_PATH).',
    );
  return { engine: 'postgres', url, poolSize: read.integer('DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE, 1, MAX_POOL_SIZE) };
}

/**
 * The SQLite file at `DATABASE_PATH`, which the database tools back up and check whether or not
 * `DATABASE_URL` is set (db:copy moves it into PostgreSQL).
 */
export function readDatabasePath(env: Environment): string {
  return variables(env).text('DATABASE_PATH', DEFAULT_DATABASE_PATH);
}

/** Redis at `REDIS_URL`, its keys under `REDIS_KEY_PREFIX`, when it is set; otherwise this process's memory. */
function readLimiterConfig(env: Environment): LimiterConfig {
  const read = variables(env);
  const url = read.optional('REDIS_URL');
  if (url === undefined) return { engine: 'memory' };
  if (!/^rediss?:\/\//.test(url))
    throw new UsageError('REDIS_URL must be a Redis URL, redis://host:6379 (unset it to keep the limits in memory).');
  return { engine: 'redis', url, keyPrefix: read.text('REDIS_KEY_PREFIX', DEFAULT_REDIS_KEY_PREFIX) };
}
