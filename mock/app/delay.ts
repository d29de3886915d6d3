// How long the mock waits before it answers: a fixed time, or a uniform spread between two.

export interface Delay {
  minMs: number;
  maxMs: number;
}

/** The longest delay the mock accepts, so that a typo cannot hang a client for hours. */
const LONGEST_DELAY_MS = 120_000;

/** `300` or `100-800` (milliseconds); undefined for anything else or beyond LONGEST_DELAY_MS. */
export function parseDelay(text: string): Delay | undefined {
  const found = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  if (!found) return undefined;
  const minMs = Number(found[1]);
  const maxMs = found[2] === undefined ? minMs : Number(found[2]);
  if (maxMs < minMs || maxMs > LONGEST_DELAY_MS) return undefined;
  return { minMs, maxMs };
}

export function delayMs({ minMs, maxMs }: Delay, random: () => number = Math.random): number {
  return minMs + Math.round(random() * (maxMs - minMs));
}
