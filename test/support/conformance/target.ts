import { inject } from 'vitest';

/** Where one API answers: its base address (with `/v1`) and a key it accepts. */
export interface Endpoint {
  baseUrl: string;
  apiKey: string;
}

interface TargetCapabilities {
  /**
   * Keeps the animals it is sent and answers from them. False for the static mock, which answers
   * from the contract's examples: cases that need state (create then fetch, pagination over
   * created animals, exact counts) are skipped there.
   */
  stateful: boolean;
  /**
   * Refuses a key over its rate limit and bans it. False for the mocks, whose windows count down
   * but never refuse: the cases that use a window up are skipped there.
   */
  enforcesRateLimits: boolean;
  /** Selects the response with `Prefer: code=..., example=...` (Prism's mock). */
  preferHeader: boolean;
  /** Responses pass through Prism's validating proxy, which reports contract violations. */
  validatedByProxy: boolean;
}

/** One of the things the contract suite runs against, as its globalSetup provides it. */
export interface Target extends Endpoint {
  name: 'server' | 'proxy' | 'mock' | 'msw';
  capabilities: TargetCapabilities;
  /** Free-plan keys no other case uses, to use up their windows; any token on the mock. */
  freePlanKeys: string[];
  /** The same API with its clock at the sunset of `getPet`; on the mock, the mock itself. */
  afterSunset: Endpoint;
  /** The same API with its pet storage failing (a full or locked disk); on the mock, the mock itself. */
  storageDown: Endpoint;
  /** The same API with its storage failing in a way nobody expected (a bug); on the mock, the mock itself. */
  internalFailure: Endpoint;
}

declare module 'vitest' {
  export interface ProvidedContext {
    target: Target;
  }
}

export const target: Target = inject('target');
