/** Milliseconds since the Unix epoch. Injected so that windows, bans and the sunset can be tested without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
