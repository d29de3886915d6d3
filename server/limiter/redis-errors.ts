import { ReplyError } from 'ioredis';
import { UnavailableError } from '../../core/errors.ts';

/**
 * Redis's error replies for a server that cannot do the work right now, as opposed to a mistake
 * in the program (an error in the script, a wrong argument), which stays a 500.
 */
const UNAVAILABLE_REPLIES: ReadonlyArray<[code: string, reason: string]> = [
  ['LOADING', 'Redis is loading its data set'],
  ['BUSY', 'Redis is busy running another script'],
  ['OOM', 'Redis has reached its maxmemory'],
  ['READONLY', 'Redis is a read-only replica'],
  ['MASTERDOWN', 'the Redis replica has lost its master'],
  ['MISCONF', 'Redis refuses writes because it cannot save snapshots'],
];

/** Runs `work`, turning a Redis that cannot be reached or cannot do the work into UnavailableError. */
export async function withRedis<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asLimiterError(error);
  }
}

/** The code an error reply of Redis starts with (`NOSCRIPT`, `OOM`), or undefined for any other failure. */
export function replyCode(error: unknown): string | undefined {
  return error instanceof Error && error instanceof ReplyError ? error.message.split(' ', 1)[0] : undefined;
}

function asLimiterError(error: unknown): unknown {
  const code = replyCode(error);
  if (code !== undefined) {
    const match = UNAVAILABLE_REPLIES.find(([unavailable]) => unavailable === code);
    return match ? new UnavailableError('limiter', `${match[1]} (${code})`, { cause: error }) : error;
  }
  // Any other failure is the connection's: not connected, refused, closed, or timed out.
  const message = error instanceof Error ? error.message : String(error);
  return new UnavailableError('limiter', `no answer from Redis (${message})`, { cause: error });
}
