// `npm run webhooks -- <command>`: what an operator does with deliveries that failed for good
// (the endpoint answered no 2xx through the whole retry schedule): list them, and deliver one
// again once the receiver is fixed, with the same webhook-id, so the receiver can tell a repeat.
import { UsageError } from '../../core/errors.ts';
import { readArguments } from '../../node/command-line.ts';
import type { FailedDelivery } from '../storage/webhooks.ts';
import { runStorageCommand, type StorageCommandContext } from './storage-command.ts';

export const USAGE = `Usage: npm run webhooks -- <command>

Commands:
  failed [--limit N]          list the deliveries that failed for good, oldest first (50 by default)
  redeliver <webhook-id>      deliver a failed (or delivered) event to its endpoint again, with the
                              same webhook-id, from the start of the retry schedule

A running server delivers it within a second. The database is PostgreSQL at DATABASE_URL when it
is set, otherwise the SQLite file DATABASE_PATH (default data/animal-store.db): the one the
server uses.
`;

type Command = { name: 'help' } | { name: 'failed'; limit: number } | { name: 'redeliver'; id: string };

const DEFAULT_LIMIT = 50;
const WEBHOOK_ID = /^evt_[A-Za-z0-9_-]{22}$/;

/** Runs the webhooks tool on `argv` (the arguments after the script) and returns the exit code. */
export async function runWebhooksCommand(argv: readonly string[], context: StorageCommandContext): Promise<number> {
  return runStorageCommand(argv, parseCommand, USAGE, context, async (command, storage) => {
    if (command.name === 'failed') {
      context.stdout.write(formatFailed(await storage.webhooks.failed(command.limit)));
      return 0;
    }
    if (!(await storage.webhooks.redeliver(command.id, context.clock?.now() ?? Date.now()))) {
      context.stderr.write(`Error: no delivery has the webhook-id ${command.id}.\n\n${USAGE}`);
      return 2;
    }
    context.stdout.write(`Delivering ${command.id} again.\n`);
    return 0;
  });
}

function parseCommand(argv: readonly string[]): Command {
  const { values, positionals } = readArguments(argv, {
    limit: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const [name, ...operands] = positionals;
  if (values.help || name === 'help') return { name: 'help' };
  switch (name) {
    case undefined:
      throw new UsageError('A command is required.');
    case 'failed': {
      if (operands.length > 0) throw new UsageError(`Unexpected argument "${operands[0]}".`);
      const limit = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit);
      if (!/^[1-9][0-9]*$/.test(values.limit ?? '1') || !Number.isSafeInteger(limit))
        throw new UsageError(`--limit must be a positive integer, not "${values.limit}".`);
      return { name: 'failed', limit };
    }
    case 'redeliver': {
      if (values.limit !== undefined) throw new UsageError('The redeliver command takes no --limit option.');
      const [id, extra] = operands;
      if (id === undefined) throw new UsageError('The redeliver command needs the webhook-id of the delivery.');
      if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
      if (!WEBHOOK_ID.test(id)) throw new UsageError(`"${id}" is no webhook-id: they are evt_ and 22 characters.`);
      return { name: 'redeliver', id };
    }
    default:
      throw new UsageError(`Unknown command "${name}".`);
  }
}

function formatFailed(deliveries: readonly FailedDelivery[]): string {
  if (deliveries.length === 0) return 'No failed deliveries.\n';
  const header = ['WEBHOOK-ID', 'TYPE', 'ENDPOINT', 'URL', 'ATTEMPTS', 'CREATED', 'LAST ERROR'];
  const rows = deliveries.map((delivery) => [
    delivery.id,
    delivery.type,
    delivery.endpointId,
    delivery.url,
    String(delivery.attempts),
    delivery.createdAt,
    delivery.lastError ?? '',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    `${cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()}\n`;
  return [header, ...rows].map(line).join('');
}
