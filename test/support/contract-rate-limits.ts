// The rate-limit rules of the contract, read as the service reads them (`rateLimitRules` of the
// bundled document). A test of the limits the service enforces takes its numbers from here and
// never writes them down, so that a plan or the ban changed in openapi/ alone breaks no test.
// A test of how windows and bans work brings limits and ban rules of its own instead.
import { loadContract } from '../../contract/bundled.ts';
import {
  type BanRules,
  fixedLimits,
  type RateLimitRules,
  rateLimitRules,
  type WindowLimits,
} from '../../contract/rate-limit-rules.ts';
import type { Plan } from '../../core/keys/plans.ts';

const rules = rateLimitRules(loadContract().document);

/** A plan's fixed limits, as the contract states them. */
export function planLimits(plan: string): WindowLimits {
  return fixedLimits(rules, plan);
}

/** Every plan of the contract, in its order, with its limits or `per-key`. */
export const CONTRACT_PLANS: RateLimitRules['plans'] = rules.plans;

/** The plans whose limits the contract fixes, in its order (those whose keys carry their own left out). */
export const FIXED_PLANS = Object.keys(rules.plans).filter((plan) => rules.plans[plan] !== 'per-key') as Plan[];

/** The plan whose limits apply, per client address, to requests without a valid key (`withoutKey`). */
export const WITHOUT_KEY_PLAN = rules.withoutKey;

/** The limits of requests without a valid key, counted per client address. */
export const WITHOUT_KEY_LIMITS = planLimits(rules.withoutKey);

/** The contract's ban rules, in its own units (seconds). */
export const CONTRACT_BAN_RULES: BanRules = rules.ban;
