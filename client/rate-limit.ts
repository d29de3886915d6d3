/** The rate-limit window a response reports: the one with the fewest requests remaining. */
export interface RateLimit {
  /** Requests the window allows. */
  limit: number;
  /** Requests left in the window; 0 while limited or banned. */
  remaining: number;
  /** When the window resets (or a ban ends), in Unix seconds. */
  reset: number;
  /** `reset` as a Date. */
  resetAt: Date;
}

/**
 * Reads `X-RateLimit-Limit`, `-Remaining` and `-Reset` from a response; openapi-fetch leaves
 * headers untyped. Undefined when any of them is missing or not a whole number (a response that
 * did not come from the service, or a browser that was not allowed to read them through CORS).
 */
export function rateLimit(response: Response): RateLimit | undefined {
  const limit = wholeNumber(response.headers.get('X-RateLimit-Limit'));
  const remaining = wholeNumber(response.headers.get('X-RateLimit-Remaining'));
  const reset = wholeNumber(response.headers.get('X-RateLimit-Reset'));
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, reset, resetAt: new Date(reset * 1000) };
}

export function wholeNumber(value: string | null): number | undefined {
  const trimmed = value?.trim();
  return trimmed !== undefined && /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}
