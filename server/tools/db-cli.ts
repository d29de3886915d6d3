// `npm run db:backup`, `db:check`, `db:copy` and `db:seed`: the database tool as a process; its commands are in db/commands.ts.
import { runAsProcess } from '../../node/command-line.ts';
import { readDatabasePath, readStorageConfig } from '../process/config.ts';
import { runDatabaseCommand } from './db/commands.ts';

await runAsProcess('Error', (argv) =>
  runDatabaseCommand(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    databasePath: readDatabasePath(process.env),
    storage: () => readStorageConfig(process.env),
  }),
);
