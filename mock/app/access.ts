// Who may call a mock and how its rate-limit windows count. By default any bearer token is a key
// (the static mock and MSW: a frontend uses whatever it has, each token with windows of its own)
// and the windows count down and start again as the service's do but never refuse; the stateful
// mock answers one fixed development key only, so a frontend sees the 401 of a wrong key as the
// service answers it, and may meet a plan's real limits.
import type { Contract } from '../../contract/contract.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import type { Clock } from '../../core/clock.ts';
import type { ApiKeyRecord, KeyLookup } from '../../core/keys/key-store.ts';
import type { Plan } from '../../core/keys/plans.ts';
import { createMemoryRateLimiter } from '../../core/limiter/memory-rate-limiter.ts';
import type { RateLimiter } from '../../core/limiter/rate-limiter.ts';
import { banPolicy } from '../../core/limiter/rate-policy.ts';
import { countingLimiter } from './counting-limiter.ts';

/** The plan whose windows a mock's rate-limit headers count down when no plan is chosen. */
export const MOCK_PLAN: Plan = 'business';

/** Tokens remembered at most; a mock sees a handful. */
const MOST_TOKENS = 10_000;

export interface MockAccess {
  /** The one key the mock answers; any bearer token when not given. */
  key?: string;
  /** The plan of the keys; MOCK_PLAN when not given. */
  plan?: Plan;
  /** Refuse requests over the plan's limits as the service does; otherwise windows never refuse. */
  limited?: boolean;
}

export interface MockKeysAndLimits {
  keys: KeyLookup;
  limiters: { keys: RateLimiter; addresses: RateLimiter };
  /** The windows back to empty (`POST /__mock/reset`), where they only count. */
  reset(): void;
}

export function mockAccess(access: MockAccess, contract: Contract, clock: Clock): MockKeysAndLimits {
  const plan = access.plan ?? MOCK_PLAN;
  const keys = mockKeys(plan, access.key);
  if (access.limited) {
    const ban = banPolicy(rateLimitRules(contract.document).ban);
    const limiter = () => createMemoryRateLimiter({ clock, ban });
    return { keys, limiters: { keys: limiter(), addresses: limiter() }, reset: () => {} };
  }
  const counting = countingLimiter(clock);
  return { keys, limiters: { keys: counting, addresses: counting }, reset: () => counting.reset() };
}

/** Every token is an active key of `plan`, or only `only` when given; each token has an id of its own. */
function mockKeys(plan: Plan, only: string | undefined): KeyLookup {
  const ids = new Map<string, number>();
  return {
    async findActive(secret) {
      if (only !== undefined && secret !== only) return undefined;
      if (ids.size >= MOST_TOKENS) ids.clear();
      const id = ids.get(secret) ?? ids.size + 1;
      ids.set(secret, id);
      const record: ApiKeyRecord = {
        id,
        label: only === undefined ? 'any key' : 'mock development key',
        plan,
        perMinute: null,
        perDay: null,
        createdAt: '',
        revokedAt: null,
        expiresAt: null,
        lastUsedAt: null,
        lineage: id,
      };
      return record;
    },
  };
}
