import { databasePathFrom } from './database.ts';
import { runDatabaseCli } from './database-tools/cli.ts';

try {
  process.exitCode = runDatabaseCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    databasePath: databasePathFrom(process.env),
  });
} catch (error) {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
