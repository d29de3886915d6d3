// What the operator's tools (`npm run keys`, `npm run db:*`) share: reading their arguments and
// running as a process.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { databasePathFrom } from '../process/config.ts';

/** A mistake in the command line: answered with the usage and exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The options and operands of `argv`; an unknown option or a missing value is a UsageError. */
export function readArguments<const Options extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: Options,
) {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: true, options });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export interface CommandContext {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  databasePath: string;
  /** The process's environment, for a tool that reads more of it than DATABASE_PATH (DATABASE_URL). */
  env: NodeJS.ProcessEnv;
}

/**
 * Runs a tool's command on the process's arguments and database, and exits with its code; a
 * failure it does not answer itself becomes one line on stderr and exit code 1, not a stack.
 */
export async function runAsProcess(
  command: (argv: readonly string[], context: CommandContext) => number | Promise<number>,
): Promise<void> {
  let code: number;
  try {
    code = await command(process.argv.slice(2), {
      stdout: process.stdout,
      stderr: process.stderr,
      databasePath: databasePathFrom(process.env),
      env: process.env,
    });
  } catch (error) {
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
  // An explicit exit, not the end of the event loop: tearing the heap down after a closed
  // database makes better-sqlite3 12 abort Node 24. Standard output and error are written
  // synchronously on Linux (files, pipes, terminals), so nothing written is lost.
  process.exit(code);
}
