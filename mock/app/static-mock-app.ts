// The static mock's wiring, shared by `npm run mock` and the client package's MSW handlers: the
// mock app on the contract's example data, taking any bearer key, with rate-limit windows that
// count down and start again as the service's do but never refuse a request.
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import { systemClock } from '../../core/clock.ts';
import { AnyKeyStore } from './any-key-store.ts';
import { createMockApp, type MockApp, type MockAppOptions } from './app.ts';
import { countingLimiter } from './counting-limiter.ts';

/** The plan whose windows the mock's rate-limit headers count down; the mock refuses nothing. */
export const MOCK_PLAN = 'business';

export type StaticMockAppOptions = Omit<MockAppOptions, 'keys' | 'limiters' | 'onReset'>;

export function createStaticMockApp(options: StaticMockAppOptions): MockApp {
  if (rateLimitRules(options.contract.document).plans[MOCK_PLAN] === undefined)
    throw new Error(`The contract has no plan ${MOCK_PLAN}.`);
  const limiter = countingLimiter(systemClock);
  return createMockApp({
    ...options,
    keys: new AnyKeyStore(MOCK_PLAN),
    limiters: { keys: limiter, addresses: limiter },
    onReset: () => limiter.reset(),
  });
}
