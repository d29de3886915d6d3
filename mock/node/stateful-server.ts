// `npm run mock:stateful`: the mock app with collections that keep what is created, seeded with
// the items of the contract's examples (or N generated ones per collection), with a fixed
// development key. An item created can be listed and fetched; `POST /__mock/reset` returns the
// data to the seed.
import { randomBytes } from 'node:crypto';
import { loadContract } from '../../contract/bundled.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import { exampleItems } from '../../core/collections/example-items.ts';
import type { Item } from '../../core/collections/store.ts';
import type { Plan } from '../../core/keys/plans.ts';
import { createLogger, type LogLevel } from '../../core/logger.ts';
import type { CorsOrigins } from '../../core/middleware/cors.ts';
import { listen } from '../../node/listen.ts';
import { createMockApp } from '../app/app.ts';
import type { DeclaredAnswers } from '../app/declared-answers.ts';
import type { Delay } from '../app/delay.ts';
import { scenarioNamed } from '../app/scenarios.ts';
import { fetchWebhook, mockWebhooks } from '../app/webhooks.ts';
import { onlyAllowedHosts } from './allowed-hosts.ts';
import { localOrigins } from './config.ts';
import { lazyPrismAnswers, prismAnswers } from './prism-answers.ts';
import { loadScenarios } from './scenarios-file.ts';
import { MOCK_HOST, type RunningMock } from './server.ts';
import { socketFaults } from './socket-faults.ts';

/** Printed by `npm run mock:stateful` and documented in the README: it guards nothing real. */
export const STATEFUL_MOCK_KEY = 'ask_development_stateful_mock_key_0000000000';

export interface StatefulMockOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Origins a browser may call it from: any on localhost or 127.0.0.1 by default. */
  corsOrigins?: CorsOrigins;
  /** Host names answered besides loopback ones (`MOCK_ALLOWED_HOSTS`). */
  allowedHosts?: string[];
  /** The server's structured log lines; `warn` by default. */
  logLevel?: LogLevel;
  /** Enforce this plan's real limits on the key; without it the key is never refused. */
  plan?: Plan;
  /** Seed this many generated items in each collection instead of the contract's examples. */
  pets?: number;
  /** Makes generated items reproducible. */
  seed?: string;
  scenario?: string;
  delay?: Delay;
}

export interface RunningStatefulMock extends RunningMock {
  /** The fixed development key. */
  apiKey: string;
  /** The items seeded in each collection (by its name: `pets`, `store_orders`), with their ids. */
  seeded: ReadonlyMap<string, readonly Item[]>;
}

export async function startStatefulMock(options: StatefulMockOptions = {}): Promise<RunningStatefulMock> {
  const { port = 0, corsOrigins = localOrigins, logLevel = 'warn', plan } = options;
  const contract = loadContract();
  const scenarios = loadScenarios(contract);
  const scenario = scenarioNamed(scenarios, options.scenario ?? 'default').name;
  if (plan !== undefined && rateLimitRules(contract.document).plans[plan] === 'per-key')
    throw new Error(`The ${plan} plan sets limits per key; choose a plan with fixed limits.`);
  let answers: DeclaredAnswers = lazyPrismAnswers(contract);
  let seeded = exampleItems(contract);
  if (options.pets !== undefined) {
    const prism = await prismAnswers(contract);
    seeded = await prism.generateData(options.pets, options.seed ?? randomBytes(6).toString('hex'));
    answers = prism;
  }

  const logger = createLogger(logLevel);
  const mock = createMockApp({
    contract,
    answers,
    settings: { scenarios, scenario, ...(options.delay && { delay: options.delay }) },
    seeds: seeded,
    keepsCreated: true,
    access: { key: STATEFUL_MOCK_KEY, ...(plan !== undefined && { plan, limited: true }) },
    logger,
    corsOrigins,
    connectionOf: socketFaults,
    webhooks: mockWebhooks(contract, fetchWebhook, logger),
  });
  const listening = await listen(onlyAllowedHosts(mock.fetch, options.allowedHosts), MOCK_HOST, port, {
    maxBodyBytes: contract.largestBodyBytes,
  });
  return { url: listening.origin, apiKey: STATEFUL_MOCK_KEY, seeded, close: () => listening.close() };
}
