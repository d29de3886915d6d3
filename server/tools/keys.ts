import { loadContract } from '../../contract/bundled.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import { UsageError } from '../../core/errors.ts';
import type { ApiKeyRecord, KeyStore, NewApiKey } from '../../core/keys/key-store.ts';
import { isPlan, limitsFor, PER_KEY_PLANS, PLANS } from '../../core/keys/plans.ts';
import { readArguments } from '../../node/command-line.ts';
import { assertValidNewApiKey } from '../keys/new-key.ts';
import { runStorageCommand, type StorageCommandContext } from './storage-command.ts';

export const USAGE = `Usage: npm run keys -- <command>

Commands:
  create --plan <plan> [--label TEXT]      create a key; plan is one of ${PLANS.join(', ')}
  create --plan ${PER_KEY_PLANS.join('|')} --per-minute N --per-day N [--label TEXT]
                                           a key with its own limits
  create ... --expires-in <duration>       a key that stops working after the duration
  create ... --expires-at <date>           a key that stops working at the date (ISO 8601)
  rotate <id> --overlap <duration>         a new key with the same plan, limits and label;
                                           the old one keeps working for the overlap only
  list                                     show every key (never the key itself) with its
                                           creation, expiry, revocation and last use
  revoke <id>                              stop a key from working

A duration is a whole number of minutes, hours or days: 30m, 24h, 90d.

The database is PostgreSQL at DATABASE_URL when it is set, otherwise the SQLite file
DATABASE_PATH (default data/animal-store.db): the one the server uses.
`;

type Command =
  | { name: 'help' }
  | { name: 'create'; key: NewApiKey; expiresInMs?: number }
  | { name: 'list' }
  | { name: 'revoke'; id: number }
  | { name: 'rotate'; id: number; overlapMs: number };

const CANONICAL_POSITIVE_INTEGER = /^[1-9][0-9]*$/;
const CONTROL_CHARACTER = /\p{Cc}/u;

/** Runs the keys tool on `argv` (the arguments after the script) and returns the exit code. */
export async function runKeysCommand(argv: readonly string[], context: StorageCommandContext): Promise<number> {
  return runStorageCommand(argv, parseCommand, USAGE, context, (command, storage) =>
    execute(command, storage.keys, context, context.clock?.now() ?? Date.now()),
  );
}

async function execute(
  command: Exclude<Command, { name: 'help' }>,
  keyStore: KeyStore,
  { stdout, stderr }: StorageCommandContext,
  now: number,
): Promise<number> {
  switch (command.name) {
    case 'create': {
      const key = { ...command.key };
      if (command.expiresInMs !== undefined) key.expiresAt = new Date(now + command.expiresInMs).toISOString();
      if (key.expiresAt !== undefined && Date.parse(key.expiresAt) <= now) {
        stderr.write(`Error: --expires-at ${key.expiresAt} has passed; give a date in the future.\n`);
        return 2;
      }
      const { record, secret } = await keyStore.create(key);
      stdout.write(
        `Created key ${record.id} (${describeKey(record)}).\n` +
          'The key is shown only this once and the service keeps only a hash of it: store it now.\n' +
          `${secret}\n`,
      );
      return 0;
    }
    case 'list':
      stdout.write(formatKeyTable(await keyStore.list()));
      return 0;
    case 'revoke':
      if (!(await keyStore.revoke(command.id))) {
        stderr.write(`Error: no key has the id ${command.id}.\n\n${USAGE}`);
        return 2;
      }
      stdout.write(`Revoked key ${command.id}; requests with it now get 401.\n`);
      return 0;
    case 'rotate': {
      const rotated = await keyStore.rotate(command.id, command.overlapMs);
      if (!rotated) {
        stderr.write(`Error: no active key has the id ${command.id}.\n\n${USAGE}`);
        return 2;
      }
      const { record, secret } = rotated;
      stdout.write(
        `Created key ${record.id} (${describeKey(record)}) to replace key ${command.id}, ` +
          `which stops working at ${minuteOf(new Date(now + command.overlapMs).toISOString())}.\n` +
          'The key is shown only this once and the service keeps only a hash of it: store it now.\n' +
          `${secret}\n`,
      );
      return 0;
    }
  }
}

const DURATION = /^([0-9]+)([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

function parseDuration(option: string, text: string): number {
  const [, amount, unit] = DURATION.exec(text) ?? [];
  const ms = Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  if (amount === undefined || !Number.isSafeInteger(ms)) {
    throw new UsageError(`${option} must be a whole number of minutes, hours or days (30m, 24h, 90d), not "${text}".`);
  }
  return ms;
}

function parseDate(option: string, text: string): string {
  // A date with a time needs its zone, so that every instance reads the same instant.
  const date = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text)
    ? Date.parse(text)
    : Number.NaN;
  if (Number.isNaN(date)) {
    throw new UsageError(
      `${option} must be a date (2027-03-01) or a time with its zone (2027-03-01T12:00Z), not "${text}".`,
    );
  }
  return new Date(date).toISOString();
}

const OPTIONS = {
  plan: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  label: { type: 'string' },
  'expires-in': { type: 'string' },
  'expires-at': { type: 'string' },
  overlap: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseCommand(argv: readonly string[]): Command {
  const { values, positionals } = readArguments(argv, OPTIONS);
  const [name, ...operands] = positionals;
  if (values.help || name === 'help') return { name: 'help' };

  const given = Object.keys(values);
  const refuseOptions = (allowed: readonly string[]) => {
    const extra = given.find((option) => !allowed.includes(option));
    if (extra) throw new UsageError(`The ${name} command takes no --${extra} option.`);
  };
  const refuseOperands = (count: number) => {
    if (operands.length > count) throw new UsageError(`Unexpected argument "${operands[count]}".`);
  };

  switch (name) {
    case undefined:
      throw new UsageError('A command is required.');
    case 'create': {
      refuseOperands(0);
      if (values.plan === undefined) throw new UsageError('The create command needs --plan.');
      if (!isPlan(values.plan)) {
        throw new UsageError(`Unknown plan "${values.plan}": use one of ${PLANS.join(', ')}.`);
      }
      const key: NewApiKey = { plan: values.plan };
      if (values.label !== undefined) key.label = parseLabel(values.label);
      if (values['per-minute'] !== undefined)
        key.perMinute = parsePositiveInteger('--per-minute', values['per-minute']);
      if (values['per-day'] !== undefined) key.perDay = parsePositiveInteger('--per-day', values['per-day']);
      if (values.overlap !== undefined) throw new UsageError('The create command takes no --overlap option.');
      if (values['expires-in'] !== undefined && values['expires-at'] !== undefined)
        throw new UsageError('Give --expires-in or --expires-at, not both.');
      if (values['expires-at'] !== undefined) key.expiresAt = parseDate('--expires-at', values['expires-at']);
      assertValidNewApiKey(key);
      if (values['expires-in'] !== undefined) {
        return { name: 'create', key, expiresInMs: parseDuration('--expires-in', values['expires-in']) };
      }
      return { name: 'create', key };
    }
    case 'rotate': {
      refuseOptions(['overlap']);
      refuseOperands(1);
      const [id] = operands;
      if (id === undefined) throw new UsageError('The rotate command needs the id of the key.');
      if (values.overlap === undefined)
        throw new UsageError(
          'The rotate command needs --overlap: how long the old key keeps working (0m for not at all).',
        );
      return {
        name: 'rotate',
        id: parsePositiveInteger('The key id', id),
        overlapMs: parseDuration('--overlap', values.overlap),
      };
    }
    case 'list':
      refuseOptions([]);
      refuseOperands(0);
      return { name: 'list' };
    case 'revoke': {
      refuseOptions([]);
      refuseOperands(1);
      const [id] = operands;
      if (id === undefined) throw new UsageError('The revoke command needs the id of the key.');
      return { name: 'revoke', id: parsePositiveInteger('The key id', id) };
    }
    default:
      throw new UsageError(`Unknown command "${name}".`);
  }
}

function parsePositiveInteger(what: string, text: string): number {
  const value = Number(text);
  if (!CANONICAL_POSITIVE_INTEGER.test(text) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${what} must be a positive integer, not "${text}".`);
  }
  return value;
}

function parseLabel(text: string): string {
  if (text.trim() === '') throw new UsageError('--label must not be empty.');
  // The label is printed in a table; a line break or escape sequence would garble it.
  if (CONTROL_CHARACTER.test(text)) throw new UsageError('--label must not contain control characters.');
  return text;
}

function describeLimits(record: ApiKeyRecord): string {
  const { perMinute, perDay } = limitsFor(record, rateLimitRules(loadContract().document));
  return `${perMinute}/min, ${perDay}/day`;
}

function describeKey(record: ApiKeyRecord): string {
  const label = record.label === null ? '' : `, label "${record.label}"`;
  const expiry = record.expiresAt === null ? '' : `, expires ${minuteOf(record.expiresAt)}`;
  return `plan ${record.plan}: ${describeLimits(record)}${label}${expiry}`;
}

/** An instant as the table shows it, to the minute: `2026-11-21T09:30Z`. */
function minuteOf(iso: string): string {
  return `${iso.slice(0, 16)}Z`;
}

function formatKeyTable(records: readonly ApiKeyRecord[]): string {
  if (records.length === 0) return 'No API keys yet. Create one with: npm run keys -- create --plan free\n';
  const header = ['ID', 'LABEL', 'PLAN', 'LIMITS', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'];
  const rows = [
    header,
    ...records.map((record) => [
      String(record.id),
      record.label ?? '-',
      record.plan,
      describeLimits(record),
      minuteOf(record.createdAt),
      record.expiresAt === null ? '-' : minuteOf(record.expiresAt),
      record.revokedAt === null ? '-' : minuteOf(record.revokedAt),
      record.lastUsedAt === null ? '-' : minuteOf(record.lastUsedAt),
    ]),
  ];
  const widths = header.map((_, column) => Math.max(...rows.map((row) => [...inColumn(row, column)].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell + ' '.repeat(inColumn(widths, column) - [...cell].length))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

/** The cell (or the width) of `column`: every row of the key table has one per column of the header. */
function inColumn<T>(entries: readonly T[], column: number): T {
  const entry = entries[column];
  if (entry === undefined) throw new Error(`A row of the key table lacks column ${column} of its header.`);
  return entry;
}
