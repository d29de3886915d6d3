// Which free-plan key each rate-limit case of the contract suite uses up. A limited key may be
// refused this many times before it is banned, so the cases that each send one request past the
// window share a key only that many at a time, and a target with more operations gets more keys.
import { loadContract } from '../../../contract/bundled.ts';
import { rateLimitRules } from '../../../contract/rate-limit-rules.ts';
import { protectedOperationIds } from './example-requests.ts';

/** The contract's rate-limit rules (`x-rate-limits`). */
export const RATE_LIMIT_RULES = rateLimitRules(loadContract().document);
/** Refused requests a limited caller may send before its key is banned. */
export const REFUSALS_BEFORE_BAN = RATE_LIMIT_RULES.ban.afterRefusals;
/** The key the ban case drives into its ban, apart from the keys of the other cases. */
export const BANNED_KEY_INDEX = 1;

/** The key of the `index`-th operation's 429 case: key 0 for the first ten, then keys 2, 3, … */
export function limitedKeyIndex(operationIndex: number): number {
  const group = Math.floor(operationIndex / REFUSALS_BEFORE_BAN);
  return group === 0 ? 0 : BANNED_KEY_INDEX + group;
}

/** How many free-plan keys a target that enforces rate limits needs for the suite. */
export const FREE_PLAN_KEYS_NEEDED = Math.max(BANNED_KEY_INDEX, limitedKeyIndex(protectedOperationIds.length - 1)) + 1;
