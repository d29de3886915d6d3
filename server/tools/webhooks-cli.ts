// `npm run webhooks -- <command>`: the webhooks tool as a process; its commands are in webhooks.ts.
import { runAsProcess } from '../../node/command-line.ts';
import { readStorageConfig } from '../process/config.ts';
import { runWebhooksCommand } from './webhooks.ts';

await runAsProcess('Error', (argv) =>
  runWebhooksCommand(argv, { stdout: process.stdout, stderr: process.stderr, storage: readStorageConfig(process.env) }),
);
