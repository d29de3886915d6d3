import { databasePathFrom } from './database.ts';
import { runKeysCli } from './keys/cli.ts';

try {
  process.exitCode = await runKeysCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    databasePath: databasePathFrom(process.env),
  });
} catch (error) {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
