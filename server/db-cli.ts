// `npm run db:backup` and `npm run db:check`: the database tool as a process; its commands are in database-tools/commands.ts.
import { databasePathFrom } from './config.ts';
import { runDatabaseCommand } from './database-tools/commands.ts';

try {
  process.exitCode = runDatabaseCommand(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    databasePath: databasePathFrom(process.env),
  });
} catch (error) {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
