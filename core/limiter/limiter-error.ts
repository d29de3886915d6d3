/**
 * The shared rate limiter cannot decide right now (Redis is unreachable, too slow to answer, or
 * refusing writes). The request was neither counted nor served, so the client may retry: answered
 * 503 `service_unavailable` with `Retry-After`, never let through uncounted and never a 500.
 */
export class LimiterUnavailableError extends Error {
  override readonly name = 'LimiterUnavailableError';

  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The rate limiter is unavailable: ${reason}`, options);
  }
}
