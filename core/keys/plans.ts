import { fixedLimits, type RateLimitRules } from '../../contract/rate-limit-rules.ts';
import type { WindowLimits } from '../limiter/rate-limiter.ts';
import type { ApiKeyRecord } from './key-store.ts';

export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
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
