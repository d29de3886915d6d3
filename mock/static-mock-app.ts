// The static mock's wiring, shared by `npm run mock` and the client package's MSW handlers: the
// service's app on a collection of pets, taking any bearer key, with rate-limit windows that
// count down and start again as the service's do but never refuse a request.
import { type Contract, rateLimitRules } from '../contract/index.ts';
import { systemClock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import type { Pet } from '../server/store/pet-store.ts';
import { AnyKeyStore } from './any-key-store.ts';
import { CollectionStore } from './collection-store.ts';
import { countingLimiter } from './counting-limiter.ts';
import type { DeclaredAnswers } from './declared-answers.ts';
import { createMockApp, type MockApp, type MockAppOptions } from './mock-app.ts';
import type { MockSettings } from './request-choice.ts';

/** The plan whose windows the mock's rate-limit headers count down; the mock refuses nothing. */
export const MOCK_PLAN = 'business';

export interface StaticMockAppOptions {
  contract: Contract;
  answers: DeclaredAnswers;
  pets: readonly Pet[];
  /** Keep the pets created, so they are listed and fetched until a reset; answered unsaved by default. */
  keepsCreated?: boolean;
  settings: MockSettings;
  startScenario?: string;
  corsOrigins: MockAppOptions['corsOrigins'];
  logger: Logger;
}

export function createStaticMockApp(options: StaticMockAppOptions): MockApp {
  const { contract, keepsCreated = false } = options;
  if (rateLimitRules(contract.document).plans[MOCK_PLAN] === undefined)
    throw new Error(`The contract has no plan ${MOCK_PLAN}.`);
  const limiter = countingLimiter(systemClock);
  const pets = new CollectionStore(options.pets, { keepsCreated });
  return createMockApp({
    ...options,
    pets,
    keys: new AnyKeyStore(MOCK_PLAN),
    limiters: { keys: limiter, addresses: limiter },
    resetData: async () => {
      pets.reset();
      limiter.reset();
    },
  });
}
