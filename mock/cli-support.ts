// What the two mock commands share: the port they listen on, and how they stop and fail.
import type { RunningMock } from './mock-server.ts';

export const DEFAULT_MOCK_PORT = 4010;

/** `MOCK_PORT`, or 4010. */
export function listenPort(env: NodeJS.ProcessEnv): number {
  const raw = env.MOCK_PORT;
  if (raw === undefined || raw === '') return DEFAULT_MOCK_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535)
    throw new UsageError(`MOCK_PORT must be a port number from 0 to 65535; got "${raw}".`);
  return port;
}

export function stopOnSignals(mock: RunningMock): void {
  const stop = () => {
    void mock.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
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
        : error instanceof Error && !(error instanceof UsageError)
          ? (error.stack ?? error.message)
          : String(error instanceof Error ? error.message : error);
    console.error(`${command}: ${message}`);
    process.exit(1);
  }
}

class UsageError extends Error {}
