export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(fields: Record<string, unknown>): void;
  info(fields: Record<string, unknown>): void;
  warn(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

import { redactKeys } from './keys/key-shape.ts';

/**
 * Structured logs: one JSON object per line, so log shippers need no parsing rules. Anything
 * shaped like an API key is redacted, wherever a client put it (a path, a query, a header a
 * message quotes): a log is read by more people than may hold keys.
 */
export function createLogger(
  level: LogLevel,
  // console.log, not process.stdout: this module runs in browsers too (the client's MSW handlers).
  write: (line: string) => void = (line) => console.log(line.trimEnd()),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const time = timestamps();
  const at = (name: Exclude<LogLevel, 'silent'>) => {
    if (LOG_LEVELS.indexOf(name) < threshold) return () => {};
    // The line is written around the fields' own JSON, not as a copy of them with the time and
    // level spread in: a server writes one per request, and the copy was a third of its cost.
    const afterTime = `","level":${JSON.stringify(name)}`;
    return (fields: Record<string, unknown>) => {
      const json = JSON.stringify(fields);
      const rest = json === '{}' ? '}' : `,${json.slice(1)}`;
      write(`${redactKeys(`{"time":"${time()}${afterTime}${rest}`)}\n`);
    };
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The current time in ISO 8601, formatted once per millisecond: the lines of one millisecond share it. */
function timestamps(): () => string {
  let formattedAt = Number.NaN;
  let formatted = '';
  return () => {
    const now = Date.now();
    if (now !== formattedAt) {
      formattedAt = now;
      formatted = new Date(now).toISOString();
    }
    return formatted;
  };
}
