import { describe, expect, it } from 'vitest';
import type { NewApiKey } from '../../../server/keys/key-store.ts';
import { InvalidApiKeyError, PLAN_LIMITS, assertValidNewApiKey, limitsFor } from '../../../server/keys/plans.ts';

describe('PLAN_LIMITS', () => {
  it('holds the per-minute and per-day limits of section 8 of the interface document', () => {
    expect(PLAN_LIMITS).toEqual({
      free: { perMinute: 60, perDay: 1000 },
      pro: { perMinute: 300, perDay: 10_000 },
      business: { perMinute: 1000, perDay: 100_000 },
    });
  });
});

describe('limitsFor', () => {
  it.each(['free', 'pro', 'business'] as const)('gives a %s key the limits of its plan', (plan) => {
    expect(limitsFor({ plan, perMinute: null, perDay: null })).toEqual(PLAN_LIMITS[plan]);
  });

  it('gives an enterprise key its own limits', () => {
    expect(limitsFor({ plan: 'enterprise', perMinute: 5000, perDay: 2_000_000 })).toEqual({
      perMinute: 5000,
      perDay: 2_000_000,
    });
  });
});

describe('assertValidNewApiKey', () => {
  it.each<NewApiKey>([
    { plan: 'free' },
    { plan: 'business', label: 'billing service' },
    { plan: 'enterprise', perMinute: 1, perDay: Number.MAX_SAFE_INTEGER },
  ])('accepts %j', (key) => {
    expect(() => assertValidNewApiKey(key)).not.toThrow();
  });

  it.each<[string, NewApiKey, RegExp]>([
    ['an unknown plan', { plan: 'gold' as NewApiKey['plan'] }, /Unknown plan "gold"/],
    ['own limits on a free key', { plan: 'free', perMinute: 10, perDay: 100 }, /only for enterprise/],
    ['a per-day limit on a pro key', { plan: 'pro', perDay: 100 }, /only for enterprise/],
    ['an enterprise key without limits', { plan: 'enterprise' }, /perMinute is missing/],
    ['an enterprise key without a per-day limit', { plan: 'enterprise', perMinute: 10 }, /perDay is missing/],
    ['a zero limit', { plan: 'enterprise', perMinute: 0, perDay: 10 }, /perMinute must be a positive integer/],
    ['a negative limit', { plan: 'enterprise', perMinute: 10, perDay: -1 }, /perDay must be a positive integer/],
    ['a fractional limit', { plan: 'enterprise', perMinute: 1.5, perDay: 10 }, /perMinute must be a positive integer/],
    ['an unsafe integer', { plan: 'enterprise', perMinute: 10, perDay: 2 ** 53 }, /perDay must be a positive integer/],
  ])('rejects %s', (_, key, message) => {
    expect(() => assertValidNewApiKey(key)).toThrow(InvalidApiKeyError);
    expect(() => assertValidNewApiKey(key)).toThrow(message);
  });
});
