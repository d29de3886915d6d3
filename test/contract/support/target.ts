import { inject } from 'vitest';

/** Where one API answers: its base address (with `/v1`) and a key it accepts. */
export interface Endpoint {
  baseUrl: string;
  apiKey: string;
}

export interface TargetCapabilities {
  /**
   * Keeps the animals and rate-limit windows it is sent and answers from them. False for the
   * Prism mock, which answers from the contract's examples: cases that need state (create then
   * fetch, pagination over created animals, exact counts, exhausting a window) are skipped there.
   */
  stateful: boolean;
  /** Selects the response with `Prefer: code=..., example=...` (Prism's mock). */
  preferHeader: boolean;
  /** Responses pass through Prism's validating proxy, which reports contract violations. */
  validatedByProxy: boolean;
}

/** One of the three things the contract suite runs against, as its globalSetup provides it. */
export interface Target extends Endpoint {
  name: 'server' | 'proxy' | 'mock';
  capabilities: TargetCapabilities;
  /** Free-plan keys no other case uses, to use up their windows; any token on the mock. */
  freePlanKeys: string[];
  /** The same API with its clock at the sunset of `getPet`; on the mock, the mock itself. */
  afterSunset: Endpoint;
  /** The same API with its pet storage failing (a full or locked disk); on the mock, the mock itself. */
  storageDown: Endpoint;
}

declare module 'vitest' {
  export interface ProvidedContext {
    target: Target;
  }
}

export const target: Target = inject('target');
