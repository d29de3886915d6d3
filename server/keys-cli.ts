// `npm run keys -- <command>`: the keys tool as a process; its commands are in keys/commands.ts.
import { databasePathFrom } from './config.ts';
import { runKeysCommand } from './keys/commands.ts';

try {
  process.exitCode = await runKeysCommand(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    databasePath: databasePathFrom(process.env),
  });
} catch (error) {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
