// What the operator tools on the service's database (`npm run keys`, `npm run webhooks`) share: the
// command line read with its usage (exit 2 on a mistake), `help` answered without touching the
// database, and the storage opened for the command and closed after it, whatever happens.
import type { Clock } from '../../core/clock.ts';
import { parseCommandLine } from '../../node/command-line.ts';
import type { StorageConfig } from '../process/config.ts';
import { openStorage } from '../storage/open.ts';
import type { Storage } from '../storage/storage.ts';

interface Output {
  write(text: string): unknown;
}

export interface StorageCommandContext {
  stdout: Output;
  stderr: Output;
  /** The database, opened for the command and closed after it; created if missing. */
  storage: StorageConfig;
  clock?: Clock;
}

/** Runs the command `parse` reads from `argv` with `work` on the opened storage; returns the exit code. */
export async function runStorageCommand<Command extends { name: string }>(
  argv: readonly string[],
  parse: (argv: readonly string[]) => Command,
  usage: string,
  context: StorageCommandContext,
  work: (command: Exclude<Command, { name: 'help' }>, storage: Storage) => Promise<number>,
): Promise<number> {
  const command = parseCommandLine(argv, parse, usage, context.stderr);
  if (command === undefined) return 2;
  if (command.name === 'help') {
    context.stdout.write(usage);
    return 0;
  }
  const storage = await openStorage(context.storage, { clock: context.clock });
  try {
    return await work(command as Exclude<Command, { name: 'help' }>, storage);
  } finally {
    await storage.close();
  }
}
