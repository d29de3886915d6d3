// Reading a program's environment variables, each checked once where the program starts: a value
// that cannot work is a UsageError naming the variable and what it accepts. Every program has one
// module of its own that reads all of its variables with these (server/process/config.ts,
// mock/node/config.ts, scripts/docs/serve.ts), and hands the rest of it typed values.
import { UsageError } from '../core/errors.ts';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface Variables {
  /** The value, or `fallback` when the variable is unset or empty. */
  text(name: string, fallback: string): string;
  /** The value, or undefined when unset or empty. */
  optional(name: string): string | undefined;
  /** A whole number from `min` to `max`, or `fallback` when unset. */
  integer(name: string, fallback: number, min: number, max: number): number;
  /** true for 1, true, yes or on, false for 0, false, no, off or unset, in any case. */
  flag(name: string): boolean;
  /** One of `accepted`, or `fallback` when unset. */
  oneOf<T extends string>(name: string, accepted: readonly T[], fallback: T): T;
  /** The comma-separated entries, trimmed; none when unset. */
  list(name: string): string[];
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['', '0', 'false', 'no', 'off'];

export function variables(env: Environment): Variables {
  const raw = (name: string) => env[name] ?? '';
  return {
    text: (name, fallback) => raw(name) || fallback,
    optional: (name) => raw(name) || undefined,
    integer(name, fallback, min, max) {
      const value = raw(name);
      if (value === '') return fallback;
      const number = Number(value);
      if (!/^\d+$/.test(value) || number < min || number > max)
        throw new UsageError(`${name} must be a whole number from ${min} to ${max}; got "${value}".`);
      return number;
    },
    flag(name) {
      const value = raw(name).toLowerCase();
      if (FALSE.includes(value)) return false;
      if (TRUE.includes(value)) return true;
      throw new UsageError(`${name} must be true or false; got "${raw(name)}".`);
    },
    oneOf(name, accepted, fallback) {
      const value = raw(name);
      if (value === '') return fallback;
      if ((accepted as readonly string[]).includes(value)) return value as (typeof accepted)[number];
      throw new UsageError(`${name} must be one of ${accepted.join(', ')}; got "${value}".`);
    },
    list: (name) =>
      raw(name)
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
  };
}
