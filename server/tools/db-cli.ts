// `npm run db:backup`, `npm run db:check` and `npm run db:copy`: the database tool as a process; its commands are in db/commands.ts.
import { runAsProcess } from '../../node/command-line.ts';
import { readDatabasePath } from '../process/config.ts';
import { runDatabaseCommand } from './db/commands.ts';

await runAsProcess('Error', (argv) =>
  runDatabaseCommand(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    databasePath: readDatabasePath(process.env),
  }),
);
