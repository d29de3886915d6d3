// What the two mock commands share: their flags, and how they stop and fail.
import { PreconditionError, UsageError } from '../../core/errors.ts';
import { exitWith, readArguments } from '../../node/command-line.ts';
import { type Delay, parseDelay } from '../app/delay.ts';
import type { RunningMock } from './server.ts';

/** The flags both mocks take: `--scenario <name>`, `--delay <ms or min-max>`, `--pets <N>`, `--seed <value>`. */
const SHARED_FLAGS = {
  scenario: { type: 'string' },
  delay: { type: 'string' },
  pets: { type: 'string' },
  seed: { type: 'string' },
} as const;

/** The command's flags; an operand, an unknown flag or a missing value is a UsageError. */
export function readFlags<const Options extends Parameters<typeof readArguments>[1]>(options: Options) {
  const { values, positionals } = readArguments(process.argv.slice(2), { ...SHARED_FLAGS, ...options });
  if (positionals.length > 0)
    throw new UsageError(`Unexpected argument "${positionals[0]}"; the mock takes flags only.`);
  return values;
}

export function delayFlag(value: string | undefined): Delay | undefined {
  if (value === undefined) return undefined;
  const delay = parseDelay(value);
  if (!delay)
    throw new UsageError(`--delay takes milliseconds, such as 300, or a range, such as 100-800; got "${value}".`);
  return delay;
}

export function petsFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > 100_000)
    throw new UsageError(`--pets takes a number of items per collection from 1 to 100000; got "${value}".`);
  return count;
}

/** Ctrl-C, `kill` and a closed terminal all stop the mock and free its port. */
export function stopOnSignals(mock: RunningMock): void {
  const stop = () => {
    void mock.close().then(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
}

/**
 * Runs `start`; a failure the developer can fix is one line (a busy port names MOCK_PORT), with
 * exit code 2 for a flag, a variable or a scenario, 1 for a busy port.
 */
export async function exitOnFailure(start: () => Promise<void>, command: string): Promise<void> {
  try {
    await start();
  } catch (error) {
    const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    exitWith(
      busy
        ? new PreconditionError(
            `the port is in use; stop what listens there or choose another with MOCK_PORT=<port> npm run ${command}.`,
          )
        : error,
      `npm run ${command}`,
    );
  }
}
