import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { type RateLimitRules, rateLimitRules } from '../../contract/rate-limit-rules.ts';
import { UsageError } from '../../core/errors.ts';
import type { NewApiKey } from '../../core/keys/key-store.ts';
import { limitsFor, PER_KEY_PLANS, PLANS } from '../../core/keys/plans.ts';
import { assertValidNewApiKey } from '../../server/keys/new-key.ts';
import { contract } from '../support/contract-document.ts';
import { defined } from '../support/defined.ts';
import { markdownTable } from '../support/markdown-table.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/** `1,000` as written in the table. */
const count = (cell: string | undefined) => Number(defined(cell, 'a cell of the plans table').replaceAll(',', ''));

/** The plans with fixed limits, as the contract's rate-limit table documents them to clients. */
const documentedPlans = markdownTable(contract.info.description ?? '', 'Plan')
  .filter((row) => row.Plan !== 'enterprise')
  .map((row) => ({
    plan: row.Plan as 'free' | 'pro' | 'business',
    perMinute: count(row['Requests per minute']),
    perDay: count(row['Requests per day']),
  }));

const contractRules = rateLimitRules(loadContract().document);

let app: TestApp | undefined;
afterEach(() => {
  app?.close();
  app = undefined;
});

describe('plan limits', () => {
  it('are documented for free, pro and business', () => {
    expect(documentedPlans.map(({ plan }) => plan)).toEqual(['free', 'pro', 'business']);
  });

  it.each(documentedPlans)(
    'give a $plan key $perMinute requests a minute and $perDay a day, as documented',
    ({ plan, perMinute, perDay }) => {
      expect(limitsFor({ plan, perMinute: null, perDay: null }, contractRules)).toEqual({ perMinute, perDay });
    },
  );

  it.each(documentedPlans)(
    'show a $plan key its documented $perMinute a minute in X-RateLimit-Limit',
    async ({ plan, perMinute }) => {
      app = await createTestApp({ key: { plan } });
      const response = await app.request('/v1/pets');
      expect(response.status).toBe(200);
      expect(response.headers.get('X-RateLimit-Limit')).toBe(String(perMinute));
    },
  );

  it('give an enterprise key its own limits', () => {
    expect(limitsFor({ plan: 'enterprise', perMinute: 5000, perDay: 2_000_000 }, contractRules)).toEqual({
      perMinute: 5000,
      perDay: 2_000_000,
    });
  });
});

describe('PLANS', () => {
  it("are the plans of the contract's x-rate-limits, those with limits per key among them", () => {
    expect(PLANS).toEqual(Object.keys(contractRules.plans));
    expect(PER_KEY_PLANS).toEqual(PLANS.filter((plan) => contractRules.plans[plan] === 'per-key'));
  });
});

describe('limitsFor', () => {
  /** Rules unlike the contract's, so the limits can only come from the rules given. */
  const rules: RateLimitRules = {
    plans: { free: { perMinute: 7, perDay: 70 }, pro: { perMinute: 8, perDay: 80 }, enterprise: 'per-key' },
    withoutKey: 'free',
    ban: { afterRefusals: 1, firstBanSeconds: 1, doublesWithinSeconds: 1, longestBanSeconds: 1 },
  };

  it.each(['free', 'pro'] as const)('gives a %s key the limits its plan has in the rules it is given', (plan) => {
    expect(limitsFor({ plan, perMinute: null, perDay: null }, rules)).toEqual(rules.plans[plan]);
  });

  it('refuses a key of a per-key plan that has no limits of its own', () => {
    expect(() => limitsFor({ plan: 'enterprise', perMinute: null, perDay: null }, rules)).toThrow(
      /no limits of its own/,
    );
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
    expect(() => assertValidNewApiKey(key)).toThrow(UsageError);
    expect(() => assertValidNewApiKey(key)).toThrow(message);
  });
});
