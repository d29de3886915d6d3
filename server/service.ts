// The service, assembled in one place: `npm start` (server/process/main.ts), the tests, the contract suite
// and the bench all call openService. Its parts are opened as the configuration says (SQLite or
// PostgreSQL; process memory or Redis for the rate limits), or are passed in, as Prism's
// createInstance(config, components) takes them.
import type { Hono } from 'hono';
import { loadContract } from '../contract/bundled.ts';
import type { Contract } from '../contract/contract.ts';
import { rateLimitRules } from '../contract/rate-limit-rules.ts';
import type { AppDeps } from '../core/app.ts';
import { type Clock, systemClock } from '../core/clock.ts';
import { PreconditionError, UnavailableError } from '../core/errors.ts';
import type { AppEnv } from '../core/http-types.ts';
import { memoryLimiters } from '../core/limiter/memory-rate-limiter.ts';
import type { RateLimiter } from '../core/limiter/rate-limiter.ts';
import { type BanPolicy, banPolicy } from '../core/limiter/rate-policy.ts';
import { createServiceApp, type ServiceAppDeps } from './app/service-app.ts';
import { startDeliveryWorker } from './events/delivery-worker.ts';
import type { LimiterConfig, StorageConfig } from './process/config.ts';
import { openStorage } from './storage/open.ts';
import type { Storage } from './storage/storage.ts';
import type { ServiceTelemetry } from './telemetry/telemetry.ts';

export interface ServiceConfig
  extends Pick<AppDeps, 'logger' | 'clientAddress' | 'corsOrigins'>,
    Pick<ServiceAppDeps, 'resolveHost'> {
  /** The storage to open, unless one is passed in. */
  storage?: StorageConfig;
  /** Where the rate-limit windows live, unless passed in: process memory by default. */
  limiter?: LimiterConfig;
  /** How long the start keeps trying to reach the storage it opens; once by default. */
  startTimeoutMs?: number;
  clock?: Clock;
  contract?: Contract;
  /** Metrics and traces: an observer of every request, the storage's calls traced; none by default. */
  telemetry?: ServiceTelemetry;
  /** WEBHOOKS_ALLOW_PRIVATE: webhook endpoints may be http and private addresses (development and tests). */
  webhooksAllowPrivate?: boolean;
}

/** Where the rate-limit windows live, and its connection. */
interface Limiters {
  keys: RateLimiter;
  addresses: RateLimiter;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** For the start-up line: `in process memory`, `in Redis at 127.0.0.1:6379`. */
  description: string;
}

/** Parts opened by the caller instead of from the configuration; the service closes them with itself. */
export interface ServiceParts {
  storage?: Storage;
  limiters?: Limiters;
}

export interface Service {
  app: Hono<AppEnv>;
  storage: Storage;
  limiters: Limiters;
  /** From now on `/readyz` answers 503 `stopping`, so load balancers send no new requests. */
  stopTakingRequests(): void;
  /** Closes the storage's and the limiters' connections. */
  close(): Promise<void>;
}

export async function openService(
  {
    storage: storageConfig,
    limiter = { engine: 'memory' },
    startTimeoutMs = 0,
    clock = systemClock,
    contract = loadContract(),
    telemetry = {},
    webhooksAllowPrivate = false,
    ...deps
  }: ServiceConfig,
  parts: ServiceParts = {},
): Promise<Service> {
  const limiters =
    parts.limiters ?? (await openLimiters(limiter, banPolicy(rateLimitRules(contract.document).ban), clock));
  let storage: Storage;
  try {
    // The limiter's connection is ready before the first request, which would otherwise get a 503.
    // A Redis that is down does not stop the start, unless the operator requires it: /readyz
    // says so until it answers.
    await limiters.ping().catch((error: unknown) => {
      if (!(error instanceof UnavailableError)) throw error;
      if (limiter.engine === 'redis' && limiter.required)
        throw new PreconditionError(
          `Redis ${limiters.description.replace(/^in Redis /, '')} does not answer (${error.reason}); REDIS_REQUIRED is set, so the service does not start without it.`,
          { cause: error },
        );
      deps.logger.error({ event: 'limiter_unavailable', reason: error.reason });
    });
    if (parts.storage) storage = parts.storage;
    else if (storageConfig)
      storage = await openStorage(storageConfig, {
        clock,
        contract,
        observer: telemetry.storage,
        retries: {
          forMs: startTimeoutMs,
          onRetry: (error, waitMs) =>
            deps.logger.warn({ event: 'storage_unavailable_at_start', reason: error.reason, retryInMs: waitMs }),
        },
      });
    else throw new Error('openService needs a storage: its configuration, or one opened.');
  } catch (error) {
    await limiters.close();
    throw error;
  }
  let stopping = false;
  const app = createServiceApp({
    ...deps,
    contract,
    clock,
    storage: telemetry.traced ? tracedStorage(storage, telemetry.traced) : storage,
    limiters: telemetry.traced ? tracedLimiters(limiters, telemetry.traced) : limiters,
    observe: telemetry.observe,
    probes: { storage: () => storage.ping(), limiter: () => limiters.ping(), stopping: () => stopping },
    webhooksAllowPrivate,
  });
  // Webhooks go out beside the requests, never in their way.
  const deliveries = startDeliveryWorker({
    store: storage.webhooks,
    contract,
    clock,
    logger: deps.logger,
    allowPrivate: webhooksAllowPrivate,
    ...(deps.resolveHost && { resolveHost: deps.resolveHost }),
    observer: telemetry.events,
  });
  return {
    app,
    storage,
    limiters,
    stopTakingRequests: () => {
      stopping = true;
    },
    close: async () => {
      deliveries.stop();
      await Promise.all([storage.close(), limiters.close()]);
    },
  };
}

type Traced = NonNullable<ServiceTelemetry['traced']>;

/** The storage as the app uses it, each call a child span of its request's. */
function tracedStorage(storage: Storage, traced: Traced): Storage {
  const collections = new Map<string, ReturnType<Storage['collections']>>();
  return {
    ...storage,
    collections: (name) => {
      let store = collections.get(name);
      if (store === undefined) {
        store = traced(storage.collections(name), `storage ${name}`);
        collections.set(name, store);
      }
      return store;
    },
    keys: traced(storage.keys, 'storage api_keys'),
    idempotency: traced(storage.idempotency, 'storage idempotency'),
  };
}

function tracedLimiters(limiters: Limiters, traced: Traced): Limiters {
  return {
    ...limiters,
    keys: traced(limiters.keys, 'limiter keys'),
    addresses: traced(limiters.addresses, 'limiter addresses'),
  };
}

/** Process memory for one instance; Redis, shared by every instance. */
async function openLimiters(config: LimiterConfig, ban: BanPolicy, clock: Clock): Promise<Limiters> {
  if (config.engine === 'memory') {
    return {
      ...memoryLimiters({ clock, ban }),
      ping: async () => {},
      close: async () => {},
      description: 'in process memory',
    };
  }
  // ioredis is loaded only where REDIS_URL asks for it: a server without it keeps its memory.
  const { openRedisLimiters } = await import('./limiter/redis-rate-limiter.ts');
  const redis = openRedisLimiters(config.url, { ban, clock, prefix: config.keyPrefix });
  return { ...redis, description: `in Redis at ${new URL(config.url).host}` };
}
