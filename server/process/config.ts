import { LOG_LEVELS, type LogLevel } from '../../core/logger.ts';

export interface Config {
  host: string;
  port: number;
  databasePath: string;
  logLevel: LogLevel;
  corsOrigins: string[];
  /** Whether to take the client address from `X-Forwarded-For`, set by a proxy the operator runs. */
  trustProxy: boolean;
  /** How long a shutdown waits for requests in flight before closing their connections. */
  shutdownTimeoutMs: number;
  /** How long after SIGTERM new requests are still taken while /readyz fails, so a balancer stops sending them first. */
  shutdownDelayMs: number;
}

const DEFAULT_DATABASE_PATH = 'data/animal-store.db';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function readConfig(env: NodeJS.ProcessEnv): Config {
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 3000, 0, 65535),
    databasePath: databasePathFrom(env),
    logLevel: logLevel(env.LOG_LEVEL || 'info'),
    corsOrigins: corsOriginsOf(env),
    trustProxy: flag(env, 'TRUST_PROXY'),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_MS', 0, 0, 600_000),
  };
}

/** `DATABASE_PATH` from the environment, or the default file under data/; the keys and database tools read it too. */
export function databasePathFrom(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_PATH || DEFAULT_DATABASE_PATH;
}

/** The whole number in the variable `name`, `fallback` when unset; a ConfigError outside `min` to `max`. */
export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  throw new ConfigError(`${name} must be true or false; got "${env[name]}".`);
}

function logLevel(raw: string): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${raw}".`);
}

/** `CORS_ORIGINS`: comma-separated origins a browser may call from; none when unset. */
export function corsOriginsOf(env: NodeJS.ProcessEnv): string[] {
  return (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
}
