// The server's configuration: every variable it reads, read and checked once, here, when a program
// starts (`npm start`, the keys and database tools); everything else takes the typed values. A
// value that cannot work stops the start with a UsageError naming the variable and what it takes.
import { UsageError } from '../../core/errors.ts';
import { LOG_LEVELS, type LogLevel } from '../../core/logger.ts';
import { type Environment, variables } from '../../node/variables.ts';
import { DEFAULT_RESOLVE_TIMEOUT_MS } from '../events/public-address.ts';
import { DEFAULT_POOL_SIZE, isPostgresUrl } from '../storage/postgres/address.ts';

/** Where the service keeps its data: a SQLite file (one instance), or PostgreSQL (several). */
export type StorageConfig = { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: string; poolSize: number };

/** Where the rate-limit windows live: this process's memory, or Redis shared by every instance. */
export type LimiterConfig =
  | { engine: 'memory' }
  | {
      engine: 'redis';
      url: string;
      keyPrefix: string;
      /** Refuse to start while Redis does not answer, instead of starting and failing /readyz until it does. */
      required: boolean;
    };

/** The second listener, for Prometheus: `GET /metrics` there, never on the API's. */
export interface MetricsConfig {
  host: string;
  port: number;
}

/** What OTLP accepts over HTTP; gRPC would bring a second HTTP stack for the same spans. */
const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** Where spans go, with OpenTelemetry's own variables (https://opentelemetry.io/docs/specs/otel/protocol/exporter/). */
export interface TracingConfig {
  /** The traces endpoint: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  url: string;
  protocol: (typeof OTLP_PROTOCOLS)[number];
  /** `service.name` of every span: `OTEL_SERVICE_NAME`, `animal-store` by default. */
  serviceName: string;
  /** How long spans wait to be sent together (`OTEL_BSP_SCHEDULE_DELAY`, 5 s by default). */
  scheduleDelayMs: number;
}

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
  /** The Prometheus listener; none when `METRICS_PORT` is unset. */
  metrics: MetricsConfig | undefined;
  /** The OTLP export of traces; none (and nothing of OpenTelemetry loaded) unless an endpoint is set. */
  tracing: TracingConfig | undefined;
  /** Whether webhooks may target http and private addresses (`WEBHOOKS_ALLOW_PRIVATE`): for development and tests only. */
  webhooksAllowPrivate: boolean;
  /** How long a webhook target's name may take to resolve, at registration and for each delivery (`WEBHOOKS_RESOLVE_TIMEOUT_MS`). */
  webhooksResolveTimeoutMs: number;
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
    metrics: readMetricsConfig(env),
    tracing: readTracingConfig(env),
    webhooksAllowPrivate: read.flag('WEBHOOKS_ALLOW_PRIVATE'),
    webhooksResolveTimeoutMs: read.integer('WEBHOOKS_RESOLVE_TIMEOUT_MS', DEFAULT_RESOLVE_TIMEOUT_MS, 1, 60_000),
  };
}

function readMetricsConfig(env: Environment): MetricsConfig | undefined {
  const read = variables(env);
  if (read.optional('METRICS_PORT') === undefined) return undefined;
  return { host: read.text('METRICS_HOST', '127.0.0.1'), port: read.integer('METRICS_PORT', 0, 0, 65535) };
}

/** The OTLP/HTTP default for traces (OpenTelemetry's exporter specification). */
const DEFAULT_OTLP_PROTOCOL = 'http/protobuf';
const DEFAULT_SCHEDULE_DELAY_MS = 5_000;

function readTracingConfig(env: Environment): TracingConfig | undefined {
  const read = variables(env);
  const tracesEndpoint = read.optional('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = read.optional('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (read.flag('OTEL_SDK_DISABLED') || (tracesEndpoint ?? endpoint) === undefined) return undefined;
  const exporters = read.list('OTEL_TRACES_EXPORTER');
  if (exporters.includes('none')) return undefined;
  const url = tracesEndpoint ?? `${endpoint?.replace(/\/+$/, '')}/v1/traces`;
  if (!/^https?:\/\//.test(url) || !URL.canParse(url))
    throw new UsageError(
      `${tracesEndpoint ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT'} must be an http:// or https:// URL, such as http://127.0.0.1:4318.`,
    );
  const protocolVariable = read.optional('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  return {
    url,
    protocol: read.oneOf(protocolVariable, OTLP_PROTOCOLS, DEFAULT_OTLP_PROTOCOL),
    serviceName: read.text('OTEL_SERVICE_NAME', 'animal-store'),
    scheduleDelayMs: read.integer('OTEL_BSP_SCHEDULE_DELAY', DEFAULT_SCHEDULE_DELAY_MS, 0, 600_000),
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
  const required = read.flag('REDIS_REQUIRED');
  if (url === undefined) {
    if (required) throw new UsageError('REDIS_REQUIRED is set, but REDIS_URL is not: set REDIS_URL=redis://host:6379.');
    return { engine: 'memory' };
  }
  if (!/^rediss?:\/\//.test(url))
    throw new UsageError('REDIS_URL must be a Redis URL, redis://host:6379 (unset it to keep the limits in memory).');
  return { engine: 'redis', url, keyPrefix: read.text('REDIS_KEY_PREFIX', DEFAULT_REDIS_KEY_PREFIX), required };
}
