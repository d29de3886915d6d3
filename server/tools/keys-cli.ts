// `npm run keys -- <command>`: the keys tool as a process; its commands are in keys.ts.
import { runAsProcess } from '../../node/command-line.ts';
import { readStorageConfig } from '../process/config.ts';
import { runKeysCommand } from './keys.ts';

await runAsProcess('Error', (argv) =>
  runKeysCommand(argv, { stdout: process.stdout, stderr: process.stderr, storage: readStorageConfig(process.env) }),
);
