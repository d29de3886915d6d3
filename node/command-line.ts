// What every program of the project shares (the server, the keys and database tools, the mocks):
// reading its arguments, and ending with one line instead of a stack for a failure the operator
// can fix.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { PreconditionError, UnavailableError, UsageError } from '../core/errors.ts';

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

/**
 * The command `parse` reads from `argv`; for a UsageError, the message and the usage on `stderr`
 * instead, and undefined: the command then ends with exit code 2.
 */
export function parseCommandLine<Command>(
  argv: readonly string[],
  parse: (argv: readonly string[]) => Command,
  usage: string,
  stderr: { write(text: string): unknown },
): Command | undefined {
  try {
    return parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`Error: ${error.message}\n\n${usage}`);
    return undefined;
  }
}

/**
 * Ends the process for `error`: a UsageError with exit code 2, a PreconditionError or an
 * UnavailableError (PostgreSQL or Redis cannot be reached) with 1, each as its message on one line
 * (after `label`, when given); anything else, a fault of the program, as its stack with exit code 1.
 */
export function exitWith(error: unknown, label?: string): never {
  const known =
    error instanceof UsageError
      ? 2
      : error instanceof PreconditionError || error instanceof UnavailableError
        ? 1
        : undefined;
  const text =
    known === undefined && error instanceof Error ? (error.stack ?? error.message) : (error as Error).message;
  process.stderr.write(`${label === undefined ? '' : `${label}: `}${text ?? String(error)}\n`);
  process.exit(known ?? 1);
}

/** Runs a command that ends (a tool) on the process's arguments, and exits with its code. */
export async function runAsProcess(
  label: string,
  command: (argv: readonly string[]) => Promise<number>,
): Promise<never> {
  let code: number;
  try {
    code = await command(process.argv.slice(2));
  } catch (error) {
    exitWith(error, label);
  }
  // An explicit exit, not the end of the event loop: tearing the heap down after a closed
  // database makes better-sqlite3 12 abort Node 24. Standard output and error are written
  // synchronously on Linux (files, pipes, terminals), so nothing written is lost.
  process.exit(code);
}
