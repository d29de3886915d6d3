// What the two mock commands share: their flags, the port they listen on, and how they stop and fail.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type Delay, parseDelay } from '../app/delay.ts';
import type { RunningMock } from './server.ts';

const DEFAULT_MOCK_PORT = 4010;

/** A command line or environment the mock cannot start with; printed as it is. */
export class UsageError extends Error {}

/** The flags both mocks take: `--scenario <name>`, `--delay <ms or min-max>`, `--pets <N>`, `--seed <value>`. */
const SHARED_FLAGS = {
  scenario: { type: 'string' },
  delay: { type: 'string' },
  pets: { type: 'string' },
  seed: { type: 'string' },
} as const;

export function readFlags<const Options extends NonNullable<ParseArgsConfig['options']>>(options: Options) {
  try {
    return parseArgs({ options: { ...SHARED_FLAGS, ...options }, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
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

/** `MOCK_PORT`, or 4010. */
export function listenPort(env: NodeJS.ProcessEnv): number {
  const raw = env.MOCK_PORT;
  if (raw === undefined || raw === '') return DEFAULT_MOCK_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535)
    throw new UsageError(`MOCK_PORT must be a port number from 0 to 65535; got "${raw}".`);
  return port;
}

/** Ctrl-C, `kill` and a closed terminal all stop the mock and free its port. */
export function stopOnSignals(mock: RunningMock): void {
  const stop = () => {
    void mock.close().then(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
}

/** Runs `start`; a failure is printed as one sentence (a busy port names MOCK_PORT) and exits 1. */
export async function printAndExitOnFailure(start: () => Promise<void>, command: string): Promise<void> {
  try {
    await start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'EADDRINUSE'
        ? `the port is in use; stop what listens there or choose another with MOCK_PORT=<port> npm run ${command}.`
        : error instanceof UsageError || (error instanceof Error && error.name === 'ScenarioError')
          ? error.message
          : error instanceof Error
            ? (error.stack ?? error.message)
            : String(error);
    console.error(`${command}: ${message}`);
    process.exit(1);
  }
}
