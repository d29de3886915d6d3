// The rate-limit rules and the body limit, as the contract states them for programs to read:
// `x-rate-limits` on the security scheme and `x-max-body-bytes` on operations that take a body.
// Their shape is checked when the contract is linted (scripts/lint/rules-as-data.js), so the
// bundle in generated/ always has it.

export interface WindowLimits {
  perMinute: number;
  perDay: number;
}

/** A plan's fixed limits, or `per-key`: each key of the plan carries its own, set at creation. */
type PlanLimits = WindowLimits | 'per-key';

export interface BanRules {
  /** Refused requests answered `rate_limited` before the next one starts a ban. */
  afterRefusals: number;
  firstBanSeconds: number;
  /** A ban that starts within this long of the previous ban's start lasts twice as long as it. */
  doublesWithinSeconds: number;
  longestBanSeconds: number;
}

export interface RateLimitRules {
  plans: Record<string, PlanLimits>;
  /** The plan whose limits apply, per client address, to requests without a valid key. */
  withoutKey: string;
  ban: BanRules;
}

interface DocumentWithSchemes {
  components?: { securitySchemes?: Record<string, Record<string, unknown>> };
}

/** The one `x-rate-limits` of the contract's security schemes. */
export function rateLimitRules(document: DocumentWithSchemes): RateLimitRules {
  const declared = Object.entries(document.components?.securitySchemes ?? {}).filter(
    ([, scheme]) => 'x-rate-limits' in scheme,
  );
  const [only, ...others] = declared;
  if (only === undefined || others.length > 0) {
    throw new Error(
      `The contract must declare x-rate-limits on exactly one security scheme; found ${declared.length}.`,
    );
  }
  return only[1]['x-rate-limits'] as RateLimitRules;
}

/** The fixed limits of `plan`; an error for a plan whose keys carry their own. */
export function fixedLimits(rules: RateLimitRules, plan: string): WindowLimits {
  const limits = rules.plans[plan];
  if (limits === undefined || limits === 'per-key')
    throw new Error(`The plan ${plan} has no fixed limits in the contract.`);
  return limits;
}

/** The largest request body an operation reads, from its `x-max-body-bytes`. */
export function maxBodyBytes(operation: Record<string, unknown>): number | undefined {
  const limit = operation['x-max-body-bytes'];
  return typeof limit === 'number' ? limit : undefined;
}
