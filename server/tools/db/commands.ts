import { rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { PreconditionError, UnavailableError, UsageError } from '../../../core/errors.ts';
import { parseCommandLine, readArguments } from '../../../node/command-line.ts';
import type { StorageConfig } from '../../process/config.ts';
import { isPostgresUrl } from '../../storage/postgres/address.ts';
import type { Database } from '../../storage/sqlite/database.ts';
import { integrityProblems } from '../../storage/sqlite/integrity.ts';
import { backupDatabase } from './backup.ts';
import { copySqliteToPostgres, describeCopy } from './copy.ts';
import { openExistingReadOnly } from './open-existing.ts';
import { isDamagedDatabaseError } from './problems.ts';
import { describeSeed, seedDatabase } from './seed.ts';
import type { DatabaseSummary } from './summary.ts';
import { describeSummary, summarize } from './summary.ts';

export const USAGE = `Usage: npm run db:backup -- <file>
       npm run db:check
       npm run db:copy -- --from <file> --to <postgres-url>
       npm run db:seed

  db:backup <file>   copy the database to <file>, a new file in an existing folder, while the
                     server keeps running and writing; then check the copy and say what it holds
  db:check           run SQLite's full integrity check on the database: exit code 0 when it is
                     sound, 1 when SQLite reports problems; safe while the server runs
  db:copy --from <file> --to <postgres-url>
                     copy every table of the SQLite database <file> (each collection of the
                     contract, the API keys, the cursor secret) into an empty PostgreSQL
                     database (migrated first), keeping their ids, in one transaction; a
                     database that holds anything already, or a source table the contract
                     does not describe, is refused
  db:seed            fill an empty database (created and migrated as the server opens it)
                     with the items of the contract's examples under the ids they show, as
                     the stateful mock starts with them, in one transaction; a database
                     whose collections hold any item is refused, named

To restore a backup:
  1. stop the server
  2. copy the backup over DATABASE_PATH
  3. delete DATABASE_PATH-wal and DATABASE_PATH-shm if they are there (SQLite would
     otherwise replay the replaced database's log over the backup)
  4. start the server

The database is DATABASE_PATH (default data/animal-store.db); db:seed fills PostgreSQL at
DATABASE_URL instead when it is set. npm runs the scripts in the project folder, so a relative
<file> is taken from there.
`;

interface Output {
  write(text: string): unknown;
}

export interface DatabaseCommandContext {
  stdout: Output;
  stderr: Output;
  /** Only ever opened read-only; never created. */
  databasePath: string;
  /** The database db:seed fills, read only when it runs, so that a wrong DATABASE_URL stops no backup. */
  storage: () => StorageConfig;
}

type Command =
  | { name: 'help' }
  | { name: 'backup'; target: string }
  | { name: 'check' }
  | { name: 'copy'; from: string; to: string }
  | { name: 'seed' };

/** Runs the database tool on `argv` (the arguments after the script) and returns the exit code. */
export async function runDatabaseCommand(argv: readonly string[], context: DatabaseCommandContext): Promise<number> {
  const command = parseCommandLine(argv, parseCommand, USAGE, context.stderr);
  if (command === undefined) return 2;
  try {
    switch (command.name) {
      case 'help':
        context.stdout.write(USAGE);
        return 0;
      case 'backup':
        return backup(resolve(context.databasePath), command.target, context);
      case 'check':
        return check(resolve(context.databasePath), context);
      case 'copy':
        return await change(
          async () => describeCopy(await copySqliteToPostgres(command.from, command.to), command.from),
          'copied',
          context,
        );
      case 'seed':
        return await change(async () => describeSeed(await seedDatabase(context.storage())), 'seeded', context);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    context.stderr.write(`Error: ${error.message}\n`);
    return 2;
  }
}

function backup(databasePath: string, target: string, { stdout, stderr }: DatabaseCommandContext): number {
  try {
    backupDatabase(databasePath, target);
  } catch (error) {
    if (!isDamagedDatabaseError(error)) throw error;
    stderr.write(
      `Error: ${databasePath} could not be copied because it is damaged (${error.message}); ` +
        'see what SQLite reports with: npm run db:check\n',
    );
    return 1;
  }

  const { problems, summary } = inspect(openExistingReadOnly(target));
  if (!summary) {
    rmSync(target);
    stderr.write(
      `Error: the copy failed SQLite's integrity check, so it was deleted:\n${indent(problems)}` +
        'See what SQLite reports on the database with: npm run db:check\n',
    );
    return 1;
  }
  stdout.write(
    `Backed up ${databasePath} to ${target} (${statSync(target).size} bytes).\n` +
      `The copy holds ${describeSummary(summary)}, and passed SQLite's integrity check.\n`,
  );
  return 0;
}

function check(databasePath: string, { stdout, stderr }: DatabaseCommandContext): number {
  const { problems, summary } = inspect(openExistingReadOnly(databasePath));
  if (!summary) {
    stderr.write(
      `Error: ${databasePath} failed SQLite's integrity check:\n${indent(problems)}` +
        `Restore the last good backup: stop the server, copy the backup over ${databasePath}, ` +
        `delete ${databasePath}-wal and ${databasePath}-shm, then start the server.\n`,
    );
    return 1;
  }
  stdout.write(`ok\n${databasePath}: ${describeSummary(summary)}.\n`);
  return 0;
}

/** Writes what `work` did; a refusal, or a database that cannot be reached, fails with exit code 1 and one line. */
async function change(
  work: () => Promise<string>,
  done: 'copied' | 'seeded',
  { stdout, stderr }: DatabaseCommandContext,
): Promise<number> {
  try {
    stdout.write(`${await work()}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof PreconditionError || error instanceof UnavailableError)) throw error;
    stderr.write(`Error: ${error.message}${error instanceof UnavailableError ? `; nothing was ${done}` : ''}\n`);
    return 1;
  }
}

/** Checks `db` and, only when it is sound (counting a damaged table may fail), summarizes it; then closes it. */
function inspect(db: Database): { problems: string[]; summary?: DatabaseSummary } {
  try {
    const problems = integrityProblems(db, 'full');
    return problems.length === 0 ? { problems, summary: summarize(db) } : { problems };
  } finally {
    db.close();
  }
}

/** One problem of SQLite's may span several lines; each is indented under the heading. */
function indent(problems: readonly string[]): string {
  return problems
    .flatMap((problem) => problem.split('\n'))
    .map((line) => `  ${line}\n`)
    .join('');
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  from: { type: 'string' },
  to: { type: 'string' },
} as const;

function parseCommand(argv: readonly string[]): Command {
  const { values, positionals } = readArguments(argv, OPTIONS);
  const [name, ...operands] = positionals;
  if (values.help || name === 'help') return { name: 'help' };
  if (name !== 'copy' && (values.from !== undefined || values.to !== undefined)) {
    throw new UsageError('Only the copy command takes --from and --to.');
  }

  switch (name) {
    case undefined:
      throw new UsageError('A command is required: backup, check, copy or seed.');
    case 'backup': {
      const [target, extra] = operands;
      if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}": backup takes one file.`);
      if (!target) throw new UsageError('The backup command needs the file to write the backup to.');
      return { name: 'backup', target: resolve(target) };
    }
    case 'check':
      if (operands.length > 0) {
        throw new UsageError(`Unexpected argument "${operands[0]}": check takes none; it checks DATABASE_PATH.`);
      }
      return { name: 'check' };
    case 'seed':
      if (operands.length > 0) {
        throw new UsageError(
          `Unexpected argument "${operands[0]}": seed takes none; it fills DATABASE_URL, or else DATABASE_PATH.`,
        );
      }
      return { name: 'seed' };
    case 'copy':
      return parseCopy(operands, values);
    default:
      throw new UsageError(`Unknown command "${name}".`);
  }
}

function parseCopy(operands: readonly string[], { from, to }: { from?: string; to?: string }): Command {
  if (operands.length > 0) {
    throw new UsageError(`Unexpected argument "${operands[0]}": copy takes --from <file> and --to <postgres-url>.`);
  }
  if (!from) throw new UsageError('The copy command needs --from, the SQLite database to copy.');
  if (!to) throw new UsageError('The copy command needs --to, the URL of the PostgreSQL database to fill.');
  // The URL is not repeated: it may hold a password.
  if (!isPostgresUrl(to)) {
    throw new UsageError('--to must be a PostgreSQL URL, postgres://user:password@host:5432/database.');
  }
  return { name: 'copy', from: resolve(from), to };
}
