import { wholeNumber } from './rate-limit.ts';

export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /**
   * How many times one call may send its request, the first send included: 3 (the default)
   * means the first send and up to two retries; 1 turns retrying off.
   */
  attempts?: number;
  /**
   * The most one call may spend waiting between sends, in milliseconds (default 60 000). When
   * the next wait would go past it, the call answers with what it has (the 429, or the network
   * error) at once instead of waiting.
   */
  maxTotalWaitMs?: number;
  /** First backoff ceiling when the answer gives no `Retry-After` (default 1 000 ms); it doubles with each retry. */
  baseDelayMs?: number;
  /** Largest backoff ceiling (default 30 000 ms). A `Retry-After` is obeyed even when longer. */
  maxDelayMs?: number;
  /** Waits `ms` milliseconds; injectable so tests need not wait. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the backoff's jitter; injectable so tests can pin it. */
  random?: () => number;
}

/** Methods that change nothing on the server, so resending them can never store anything twice. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/**
 * A request the service answers once however often it is sent: a read, or a write with an
 * `Idempotency-Key` (its repeat gets the first answer, or runs once).
 */
const resendable = (request: Request) => SAFE_METHODS.has(request.method) || request.headers.has(IDEMPOTENCY_KEY);

/**
 * Statuses retried after their `Retry-After`, and for which requests: a 429 changed nothing, so
 * any request is sent again; a 503 to a write may come after its commit reached the storage (the
 * contract says it may have been stored), so only a resendable request is; a 409
 * `idempotency_key_in_progress` is the same request being answered, which a repeat then gets.
 */
const RETRIED: Record<number, (request: Request) => boolean> = {
  409: () => true,
  429: () => true,
  503: resendable,
};

type Outcome = { response: Response } | { error: unknown };

/**
 * Wraps `send` so a 429, a 503 or a 409 `idempotency_key_in_progress` is retried after its
 * `Retry-After` (whole seconds), or after an exponential backoff with full jitter when it has
 * none, and so a network failure of a GET or HEAD, or of a request with an `Idempotency-Key`, is
 * retried the same way (with the same key: the request is cloned). A `key_banned` 429 is answered at once: a ban lasts 15 minutes
 * or more, and every request sent during it is refused. The request's signal cancels a wait,
 * and nothing is sent after it fires. Each send gets a clone of the request, so a body can be
 * sent again.
 */
export function retryingFetch(send: FetchLike, options: RetryOptions = {}): FetchLike {
  const attempts = options.attempts ?? 3;
  const maxTotalWaitMs = options.maxTotalWaitMs ?? 60_000;
  const baseDelayMs = options.baseDelayMs ?? 1_000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RangeError(`retry.attempts must be a whole number of at least 1, not ${attempts}.`);
  const sleep = options.sleep ?? timerSleep;
  const random = options.random ?? Math.random;

  const backoff = (retry: number) => random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));

  async function delayBeforeRetry(outcome: Outcome, request: Request, retry: number): Promise<number | undefined> {
    if ('error' in outcome) {
      const isNetworkFailure = outcome.error instanceof TypeError;
      return isNetworkFailure && resendable(request) ? backoff(retry) : undefined;
    }
    const { response } = outcome;
    if (!RETRIED[response.status]?.(request)) return undefined;
    const code = await errorCode(response);
    if (code === 'key_banned' || (response.status === 409 && code !== 'idempotency_key_in_progress')) return undefined;
    const retryAfter = wholeNumber(response.headers.get('Retry-After'));
    return retryAfter === undefined ? backoff(retry) : retryAfter * 1000;
  }

  return async (request) => {
    let waited = 0;
    for (let attempt = 1; ; attempt += 1) {
      request.signal.throwIfAborted();
      const outcome = await send(request.clone()).then(
        (response) => ({ response }),
        (error: unknown) => ({ error }),
      );
      const delay = attempt < attempts ? await delayBeforeRetry(outcome, request, attempt) : undefined;
      if (delay === undefined || waited + delay > maxTotalWaitMs) {
        if ('error' in outcome) throw outcome.error;
        return outcome.response;
      }
      if ('response' in outcome) await outcome.response.body?.cancel();
      waited += delay;
      await sleepUnlessAborted(sleep, delay, request.signal);
    }
  };
}

async function errorCode(response: Response): Promise<unknown> {
  try {
    const body: unknown = await response.clone().json();
    return typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  } catch {
    return undefined;
  }
}

/** Rejects with the signal's reason (an AbortError unless the caller gave another) as soon as it fires. */
function sleepUnlessAborted(sleep: NonNullable<RetryOptions['sleep']>, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms, signal)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A timer that is cleared on abort, so a cancelled wait does not keep a process alive. */
function timerSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    // Removed when the timer fires: a call retried many times leaves no listener behind per wait.
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
