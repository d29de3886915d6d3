// `npm run db:backup`, `npm run db:check` and `npm run db:copy`: the database tool as a process; its commands are in database-tools/commands.ts.
import { runAsProcess } from './command-line.ts';
import { runDatabaseCommand } from './db/commands.ts';

await runAsProcess(runDatabaseCommand);
