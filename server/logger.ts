export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(fields: Record<string, unknown>): void;
  info(fields: Record<string, unknown>): void;
  warn(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

/** Structured logs: one JSON object per line, so log shippers need no parsing rules. */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at = (name: Exclude<LogLevel, 'silent'>) => {
    if (LOG_LEVELS.indexOf(name) < threshold) return () => {};
    return (fields: Record<string, unknown>) =>
      write(`${JSON.stringify({ time: new Date().toISOString(), level: name, ...fields })}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/**
 * Standard output for a server process, in batches: the lines of one turn of the event loop go
 * out in one write, so under load a write carries the lines of many requests instead of one
 * each. Order is kept, and a batch still pending is written when the process exits, on an
 * uncaught exception too; only a process killed outright (SIGKILL, a crash of Node itself) can
 * lose the lines of its last turn. (sonic-boom, pino's writer, reorders lines at exit when a
 * write is in flight, and writes one line at a time when synchronous.)
 */
export function batchedStdout(): (line: string) => void {
  let batch = '';
  const flush = () => {
    if (batch === '') return;
    // Synchronous for files and pipes: the batch is out before the next turn, or before exit.
    process.stdout.write(batch);
    batch = '';
  };
  process.on('exit', flush);
  return (line) => {
    if (batch === '') setImmediate(flush);
    batch += line;
  };
}
