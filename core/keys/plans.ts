import { fixedLimits, type RateLimitRules } from '../../contract/rate-limit-rules.ts';
import { PLAN_LIMITS } from '../../generated/rules.ts';
import type { WindowLimits } from '../limiter/rate-limiter.ts';
import type { ApiKeyRecord } from './key-store.ts';

/** A plan of the contract's `x-rate-limits`. */
export type Plan = keyof typeof PLAN_LIMITS;

export const PLANS = Object.keys(PLAN_LIMITS) as readonly Plan[];

/** The plans whose keys each carry their own limits, set when the key is created. */
export const PER_KEY_PLANS: readonly Plan[] = PLANS.filter((plan) => PLAN_LIMITS[plan] === 'per-key');

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** Whether each key of `plan` carries its own limits instead of the plan's. */
export function hasLimitsPerKey(plan: Plan): boolean {
  return PER_KEY_PLANS.includes(plan);
}

/** The limits that apply to a key: its plan's, from the contract's rules, or its own. */
export function limitsFor(
  key: Pick<ApiKeyRecord, 'plan' | 'perMinute' | 'perDay'>,
  rules: RateLimitRules,
): WindowLimits {
  if (rules.plans[key.plan] !== 'per-key') return fixedLimits(rules, key.plan);
  if (key.perMinute === null || key.perDay === null) {
    throw new Error(`A key of the ${key.plan} plan has no limits of its own.`);
  }
  return { perMinute: key.perMinute, perDay: key.perDay };
}
