// The service as the environment configures it: SQLite or PostgreSQL (`DATABASE_URL`) for the
// data, process memory or Redis (`REDIS_URL`) for the rate limits. `npm start` runs this; one
// instance on SQLite needs nothing else, several share PostgreSQL and Redis.
import type { Hono } from 'hono';
import { type Contract, loadContract, rateLimitRules } from '../contract/index.ts';
import type { AppDeps } from '../core/app.ts';
import { type Clock, systemClock } from '../core/clock.ts';
import type { AppEnv } from '../core/http-types.ts';
import { LimiterUnavailableError } from '../core/limiter/limiter-error.ts';
import { memoryLimiters } from '../core/limiter/memory-rate-limiter.ts';
import type { RateLimiter } from '../core/limiter/rate-limiter.ts';
import { banPolicy } from '../core/limiter/rate-policy.ts';
import { ConfigError } from './config.ts';
import { openRedisLimiters } from './limiter/redis-rate-limiter.ts';
import { createServiceApp } from './service-app.ts';
import { openStorageFromEnv } from './store/open-storage.ts';
import type { Storage } from './store/storage.ts';

export interface DeploymentOptions extends Pick<AppDeps, 'logger' | 'clientAddress' | 'corsOrigins'> {
  env: NodeJS.ProcessEnv;
  clock?: Clock;
  contract?: Contract;
}

export interface Deployment {
  app: Hono<AppEnv>;
  storage: Storage;
  /** Where the rate-limit windows live, for the start-up line. */
  limiterDescription: string;
  /** From now on `/readyz` answers 503 `stopping`, so load balancers send no new requests. */
  stopTakingRequests(): void;
  /** Closes the storage's and the limiter's connections. */
  close(): Promise<void>;
}

interface Limiters {
  keys: RateLimiter;
  addresses: RateLimiter;
  ping(): Promise<void>;
  close(): Promise<void>;
  description: string;
}

export async function openDeployment({
  env,
  clock = systemClock,
  contract = loadContract(),
  ...deps
}: DeploymentOptions): Promise<Deployment> {
  const ban = banPolicy(rateLimitRules(contract.document).ban);
  const limiters = openLimiters(env, ban, clock);
  let storage: Storage;
  try {
    // The limiter's connection is ready before the first request, which would otherwise get a 503.
    // A Redis that is down does not stop the start: /readyz says so until it answers.
    await limiters.ping().catch((error: unknown) => {
      if (!(error instanceof LimiterUnavailableError)) throw error;
      deps.logger.error({ event: 'limiter_unavailable', reason: error.reason });
    });
    storage = await openStorageFromEnv(env, clock, contract);
  } catch (error) {
    await limiters.close();
    throw error;
  }
  let stopping = false;
  const app = createServiceApp({
    ...deps,
    contract,
    clock,
    storage,
    limiters,
    probes: { storage: () => storage.ping(), limiter: () => limiters.ping(), stopping: () => stopping },
  });
  return {
    app,
    storage,
    limiterDescription: limiters.description,
    stopTakingRequests: () => {
      stopping = true;
    },
    close: async () => {
      await Promise.all([storage.close(), limiters.close()]);
    },
  };
}

/** Process memory for one instance; Redis, shared by every instance, with `REDIS_URL`. */
function openLimiters(env: NodeJS.ProcessEnv, ban: ReturnType<typeof banPolicy>, clock: Clock): Limiters {
  const url = env.REDIS_URL;
  if (!url) {
    return {
      ...memoryLimiters({ clock, ban }),
      ping: async () => {},
      close: async () => {},
      description: 'in process memory',
    };
  }
  if (!/^rediss?:\/\//.test(url))
    throw new ConfigError('REDIS_URL must be a Redis URL, redis://host:6379 (unset it to keep the limits in memory).');
  const redis = openRedisLimiters(url, { ban, clock, prefix: env.REDIS_KEY_PREFIX || undefined });
  return { ...redis, description: `in Redis at ${new URL(url).host}` };
}
