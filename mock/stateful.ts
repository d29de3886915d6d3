// `npm run mock:stateful`: the real server's storage on an in-memory database, seeded with the
// pets of the contract's examples (or N generated ones), with a fixed development key. A pet
// created can be listed and fetched; `POST /__mock/reset` returns the data to the seed.
import { randomBytes } from 'node:crypto';
import { loadContract, rateLimitRules } from '../contract/index.ts';
import { systemClock } from '../core/clock.ts';
import type { Plan } from '../core/keys/plans.ts';
import { createMemoryRateLimiter } from '../core/limiter/memory-rate-limiter.ts';
import type { RateLimiter } from '../core/limiter/rate-limiter.ts';
import { banPolicy } from '../core/limiter/rate-policy.ts';
import { createLogger, type LogLevel } from '../core/logger.ts';
import { type Database, openDatabase } from '../server/database.ts';
import { SqliteKeyStore } from '../server/keys/sqlite-key-store.ts';
import { listen } from '../server/listen.ts';
import type { Pet } from '../server/store/pet-store.ts';
import { SqlitePetStore } from '../server/store/sqlite-pet-store.ts';
import { statement } from '../server/store/statement-cache.ts';
import { countingLimiter } from './counting-limiter.ts';
import type { DeclaredAnswers } from './declared-answers.ts';
import type { Delay } from './delay.ts';
import { examplePets } from './example-pets.ts';
import { createMockApp } from './mock-app.ts';
import { MOCK_HOST, type RunningMock } from './mock-server.ts';
import { localOrigins, type MockOrigins } from './origins.ts';
import { lazyPrismAnswers, prismAnswers } from './prism-answers.ts';
import { scenarioNamed } from './scenarios.ts';
import { loadScenarios } from './scenarios-file.ts';
import { MOCK_PLAN } from './static-mock-app.ts';

/** Printed by `npm run mock:stateful` and documented in the README: it guards nothing real. */
export const STATEFUL_MOCK_KEY = 'ask_development_stateful_mock_key_0000000000';

export interface StatefulMockOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Origins a browser may call it from: any on localhost or 127.0.0.1 by default. */
  corsOrigins?: MockOrigins;
  /** The server's structured log lines; `warn` by default. */
  logLevel?: LogLevel;
  /** Enforce this plan's real limits on the key; without it the key is never refused. */
  plan?: Plan;
  /** Seed this many generated pets instead of the contract's examples. */
  pets?: number;
  /** Makes generated pets reproducible. */
  seed?: string;
  scenario?: string;
  delay?: Delay;
}

export interface RunningStatefulMock extends RunningMock {
  /** The fixed development key. */
  apiKey: string;
  /** The pets seeded, with their ids. */
  seeded: Pet[];
}

export async function startStatefulMock(options: StatefulMockOptions = {}): Promise<RunningStatefulMock> {
  const { port = 0, corsOrigins = localOrigins, logLevel = 'warn', plan } = options;
  const contract = loadContract();
  const scenarios = loadScenarios(contract);
  const scenario = scenarioNamed(scenarios, options.scenario ?? 'default').name;
  if (plan !== undefined && rateLimitRules(contract.document).plans[plan] === 'per-key')
    throw new Error(`The ${plan} plan sets limits per key; choose a plan with fixed limits.`);
  let answers: DeclaredAnswers = lazyPrismAnswers(contract);
  let seed = examplePets(contract);
  if (options.pets !== undefined) {
    const prism = await prismAnswers(contract);
    seed = await prism.generatePets(options.pets, options.seed ?? randomBytes(6).toString('hex'));
    answers = prism;
  }

  const db = openDatabase(':memory:');
  const pets = new SqlitePetStore(db);
  const keys = new SqliteKeyStore(db, systemClock);
  await keys.create({ plan: plan ?? MOCK_PLAN, label: 'stateful mock development key', secret: STATEFUL_MOCK_KEY });
  const seeded = await seedPets(db, pets, seed);

  const counting = countingLimiter(systemClock);
  const ban = banPolicy(rateLimitRules(contract.document).ban);
  const limiter = (): RateLimiter & { reset?(): void } =>
    plan === undefined ? counting : createMemoryRateLimiter({ clock: systemClock, ban });
  const limiters = { keys: limiter(), addresses: limiter() };
  const mock = createMockApp({
    contract,
    answers,
    settings: { scenarios, scenario, ...(options.delay && { delay: options.delay }) },
    pets,
    keys,
    limiters,
    logger: createLogger(logLevel),
    corsOrigins,
    resetData: async () => {
      statement(db, 'DELETE FROM pets').run();
      await seedPets(db, pets, seed);
      counting.reset();
    },
  });
  const listening = await listen(mock.fetch, MOCK_HOST, port);
  return {
    url: listening.origin,
    apiKey: STATEFUL_MOCK_KEY,
    seeded,
    close: async () => {
      await listening.close();
      db.close();
    },
  };
}

/**
 * Creates the pets through the store, each with the id it has in the seed, so that what a
 * frontend built against the static mock (`GET /v1/pets/42`) finds the same animal here.
 * The store assigns ids itself; SQLite's AUTOINCREMENT hands out one above the table's
 * `sqlite_sequence` entry, which may be set by ordinary statements.
 */
async function seedPets(db: Database, store: SqlitePetStore, pets: Pet[]): Promise<Pet[]> {
  const update = statement<[number]>(db, "UPDATE sqlite_sequence SET seq = ? WHERE name = 'pets'");
  const insert = statement<[number]>(db, "INSERT INTO sqlite_sequence (name, seq) VALUES ('pets', ?)");
  const seeded: Pet[] = [];
  for (const { id, name, categoryId, status } of pets) {
    if (update.run(id - 1).changes === 0) insert.run(id - 1);
    const stored = await store.create({ name, categoryId, status });
    if (stored.id !== id) throw new Error(`The seeded pet ${id} was stored with the id ${stored.id}.`);
    seeded.push(stored);
  }
  return seeded;
}
