// `npm run keys -- <command>`: the keys tool as a process; its commands are in keys/commands.ts.
import { runAsProcess } from './command-line.ts';
import { runKeysCommand } from './keys.ts';

await runAsProcess(runKeysCommand);
