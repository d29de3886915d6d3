// The service's app from its parts: the app core with the server's handler table, the docs and the
// index beside the API, and cursors signed with the storage's secret. Every way of running the
// service (the process, the tests, the bench) assembles the app here.
import { createHash, createHmac } from 'node:crypto';
import { Hono } from 'hono';
import type { Contract } from '../../contract/contract.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import { type AppDeps, createApp } from '../../core/app.ts';
import type { AppEnv } from '../../core/http-types.ts';
import { createMemoryRateLimiter } from '../../core/limiter/memory-rate-limiter.ts';
import { banPolicy } from '../../core/limiter/rate-policy.ts';
import { createCursorCodec } from '../../core/pagination/cursor.ts';
import { DEFAULT_DOCS_FILES, docsRoutes } from '../docs/routes.ts';
import type { ResolveHost } from '../events/public-address.ts';
import type { Storage } from '../storage/storage.ts';
import { createHandlers } from './handlers/index.ts';
import { indexRoute } from './index-route.ts';
import type { ReadinessProbes } from './readiness.ts';

export interface ServiceAppDeps
  extends Pick<AppDeps, 'limiters' | 'clock' | 'logger' | 'clientAddress' | 'corsOrigins' | 'observe'> {
  contract: Contract;
  storage: Pick<Storage, 'collections' | 'keys' | 'cursorSecret' | 'idempotency' | 'webhooks' | 'requestBegins'>;
  probes: ReadinessProbes;
  /** WEBHOOKS_ALLOW_PRIVATE: webhook endpoints may be http and private addresses. */
  webhooksAllowPrivate?: boolean;
  /** How a webhook target's host name is resolved at registration; the system's resolver by default. */
  resolveHost?: ResolveHost;
}

export function createServiceApp({
  contract,
  storage,
  probes,
  webhooksAllowPrivate = false,
  resolveHost,
  ...deps
}: ServiceAppDeps): Hono<AppEnv> {
  const cursors = createCursorCodec(storage.cursorSecret, (key, message) =>
    createHmac('sha256', key).update(message).digest(),
  );
  // In this process's memory even when the API's windows are in Redis: it guards this instance's
  // bandwidth and CPU, which no other instance shares.
  const docsLimiter = createMemoryRateLimiter({
    clock: deps.clock,
    ban: banPolicy(rateLimitRules(contract.document).ban),
  });
  const docs = docsRoutes(DEFAULT_DOCS_FILES, { limiter: docsLimiter, clientAddress: deps.clientAddress });
  return createApp({
    ...deps,
    contract,
    keys: storage.keys,
    ...(storage.requestBegins && { onRequest: storage.requestBegins }),
    idempotency: {
      store: storage.idempotency,
      sha256: (message) => createHash('sha256').update(message).digest(),
    },
    handlers: createHandlers({
      contract,
      stores: storage.collections,
      cursors,
      probes,
      clock: deps.clock,
      allowPrivate: webhooksAllowPrivate,
      ...(resolveHost && { resolveHost }),
    }),
    publicRoutes: new Hono<AppEnv>().route('/', docs).route('/', indexRoute(contract)),
  });
}
