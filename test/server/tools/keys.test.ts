import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../core/clock.ts';
import { hashKey } from '../../../server/keys/api-key.ts';
import { readStorageConfig, type StorageConfig } from '../../../server/process/config.ts';
import { openPostgresStorage } from '../../../server/storage/postgres/storage.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';
import { runKeysCommand, USAGE } from '../../../server/tools/keys.ts';
import { createTestDatabase, postgresReachable } from '../../../support/backing-services.ts';
import { planLimits } from '../../support/contract-rate-limits.ts';
import { defined } from '../../support/defined.ts';
import { compiledProgram } from '../../support/server-process.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();

/** A plan's limits as the table shows them, from the contract. */
function limitsColumn(plan: string): string {
  const { perMinute, perDay } = planLimits(plan);
  return `${perMinute}/min, ${perDay}/day`;
}
const clock: Clock = { now: () => Date.parse('2026-11-21T09:30:00.000Z') };

function run(argv: string[], databasePath = join(tempDir(), 'keys.db')) {
  return runOn(argv, { engine: 'sqlite', path: databasePath });
}

async function runOn(argv: string[], storage: StorageConfig) {
  let stdout = '';
  let stderr = '';
  const code = await runKeysCommand(argv, {
    storage,
    clock,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  const lines = stdout.trimEnd().split('\n');
  // `split` gives at least one line, so the last is always there.
  return { code, stdout, stderr, lines, lastLine: lines.at(-1) ?? '' };
}

async function findActive(databasePath: string, secret: string) {
  const db = openDatabase(databasePath);
  try {
    return await new SqliteKeyStore(db, clock).findActive(secret);
  } finally {
    db.close();
  }
}

describe('keys create', () => {
  it('prints a working key alone on the last line, after a line saying it is shown once', async () => {
    const path = join(tempDir(), 'keys.db');
    const result = await run(['create', '--plan', 'pro', '--label', 'billing service'], path);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const secret = result.lastLine;
    expect(secret).toMatch(/^ask_[A-Za-z0-9_-]{43}$/);
    expect(result.stdout).toMatch(/shown only this once/);
    expect(await findActive(path, secret)).toMatchObject({ plan: 'pro', label: 'billing service' });
  });

  it('creates an enterprise key with its own limits', async () => {
    const path = join(tempDir(), 'keys.db');
    const result = await run(['create', '--plan', 'enterprise', '--per-minute', '5000', '--per-day', '2000000'], path);
    expect(result.code).toBe(0);
    expect(await findActive(path, result.lastLine)).toMatchObject({ perMinute: 5000, perDay: 2_000_000 });
  });

  it('creates the database and its folder when they do not exist', async () => {
    const path = join(tempDir(), 'data', 'animal-store.db');
    expect((await run(['create', '--plan', 'free'], path)).code).toBe(0);
    expect(existsSync(path)).toBe(true);
  });
});

describe('keys list', () => {
  it('shows id, label, plan, limits, and to the minute created, expiry, revoked and last use of every key, never the key or its hash', async () => {
    const path = join(tempDir(), 'keys.db');
    const free = (await run(['create', '--plan', 'free', '--label', 'mobile app'], path)).lastLine;
    const enterprise = (await run(['create', '--plan', 'enterprise', '--per-minute', '7', '--per-day', '70'], path))
      .lastLine;
    await run(['revoke', '1'], path);

    const result = await run(['list'], path);
    expect(result.code).toBe(0);
    const [header, first, second] = result.lines.map((line) => line.split(/\s{2,}/));
    expect(header).toEqual(['ID', 'LABEL', 'PLAN', 'LIMITS', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED']);
    expect(first).toEqual([
      '1',
      'mobile app',
      'free',
      limitsColumn('free'),
      '2026-11-21T09:30Z',
      '-',
      '2026-11-21T09:30Z',
      '-',
    ]);
    expect(second).toEqual(['2', '-', 'enterprise', '7/min, 70/day', '2026-11-21T09:30Z', '-', '-', '-']);
    for (const secret of [free, enterprise]) {
      expect(result.stdout).not.toContain(secret);
      expect(result.stdout).not.toContain(hashKey(secret));
    }
    expect(result.stdout).not.toContain('ask_');
  });

  it('says how to create a key when there is none', async () => {
    const result = await run(['list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/No API keys yet.*create --plan/);
  });
});

describe('keys revoke', () => {
  it('revokes the key with that id so that it no longer authenticates', async () => {
    const path = join(tempDir(), 'keys.db');
    const secret = (await run(['create', '--plan', 'free'], path)).lastLine;
    const result = await run(['revoke', '1'], path);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Revoked key 1/);
    expect(await findActive(path, secret)).toBeUndefined();
  });

  it('fails with exit code 2 and the usage when no key has the id', async () => {
    const path = join(tempDir(), 'keys.db');
    await run(['create', '--plan', 'free'], path);
    const result = await run(['revoke', '2'], path);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no key has the id 2');
    expect(result.stderr).toContain(USAGE);
  });
});

describe('keys help', () => {
  it.each([['--help'], ['-h'], ['help']])('prints the usage on stdout for %s', async (argument) => {
    const result = await run([argument]);
    expect(result).toMatchObject({ code: 0, stdout: USAGE, stderr: '' });
  });
});

describe('keys create with an expiry', () => {
  it.each([
    [['--expires-in', '90d'], '2027-02-19T09:30Z'],
    [['--expires-in', '30m'], '2026-11-21T10:00Z'],
    [['--expires-at', '2027-03-01'], '2027-03-01T00:00Z'],
    [['--expires-at', '2027-03-01T12:00+01:00'], '2027-03-01T11:00Z'],
  ])('with %j creates a key that expires at %s, and says so', async (options, expires) => {
    const path = join(tempDir(), 'keys.db');
    const created = await run(['create', '--plan', 'free', ...options], path);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`expires ${expires}`);
    const [, row] = (await run(['list'], path)).lines.map((line) => line.split(/\s{2,}/));
    expect(row?.[5]).toBe(expires);
  });

  it('refuses an expiry that has passed, creating nothing', async () => {
    const path = join(tempDir(), 'keys.db');
    const result = await run(['create', '--plan', 'free', '--expires-at', '2026-01-01'], path);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/has passed/);
    expect((await run(['list'], path)).stdout).toMatch(/No API keys yet/);
  });
});

describe('keys rotate', () => {
  it('prints a new key with the same plan and limits once, and sets the old one to expire after the overlap', async () => {
    const path = join(tempDir(), 'keys.db');
    const old = (await run(['create', '--plan', 'enterprise', '--per-minute', '7', '--per-day', '70'], path)).lastLine;
    const rotated = await run(['rotate', '1', '--overlap', '24h'], path);
    expect(rotated.code).toBe(0);
    expect(rotated.lines[0]).toBe(
      'Created key 2 (plan enterprise: 7/min, 70/day) to replace key 1, which stops working at 2026-11-22T09:30Z.',
    );
    const secret = rotated.lastLine;
    expect(secret).toMatch(/^ask_/);
    expect(await findActive(path, secret)).toMatchObject({ id: 2, plan: 'enterprise', perMinute: 7, lineage: 1 });
    expect(await findActive(path, old)).toMatchObject({ id: 1, expiresAt: '2026-11-22T09:30:00.000Z' });
    expect((await run(['list'], path)).stdout).not.toContain(secret);
  });

  it('refuses to rotate a key that does not exist or is revoked, with exit code 2', async () => {
    const path = join(tempDir(), 'keys.db');
    await run(['create', '--plan', 'free'], path);
    await run(['revoke', '1'], path);
    for (const id of ['1', '9']) {
      const result = await run(['rotate', id, '--overlap', '1h'], path);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`no active key has the id ${id}`));
    }
  });
});

describe('keys with bad arguments', () => {
  it.each<[string, string[], RegExp]>([
    ['no command', [], /A command is required/],
    ['an unknown command', ['delete', '1'], /Unknown command "delete"/],
    ['an unknown option', ['list', '--all'], /Unknown option '--all'/],
    ['create without a plan', ['create'], /needs --plan/],
    ['an unknown plan', ['create', '--plan', 'gold'], /Unknown plan "gold"/],
    ['a plan option without a value', ['create', '--plan'], /argument missing/],
    [
      'limits on a free key',
      ['create', '--plan', 'free', '--per-minute', '10', '--per-day', '100'],
      /only for enterprise/,
    ],
    ['enterprise without limits', ['create', '--plan', 'enterprise'], /perMinute is missing/],
    [
      'enterprise without a per-day limit',
      ['create', '--plan', 'enterprise', '--per-minute', '10'],
      /perDay is missing/,
    ],
    [
      'a zero limit',
      ['create', '--plan', 'enterprise', '--per-minute', '0', '--per-day', '9'],
      /--per-minute must be a positive integer/,
    ],
    ['a fractional limit', ['create', '--plan', 'enterprise', '--per-minute', '1.5', '--per-day', '9'], /--per-minute/],
    [
      'a limit in exponent notation',
      ['create', '--plan', 'enterprise', '--per-minute', '5', '--per-day', '1e3'],
      /--per-day/,
    ],
    [
      'a limit that is not a number',
      ['create', '--plan', 'enterprise', '--per-minute', 'ten', '--per-day', '9'],
      /--per-minute/,
    ],
    ['an empty label', ['create', '--plan', 'free', '--label', ' '], /--label must not be empty/],
    ['a label with a line break', ['create', '--plan', 'free', '--label', 'a\nb'], /control characters/],
    ['an extra argument to create', ['create', 'free', '--plan', 'free'], /Unexpected argument "free"/],
    ['an option on list', ['list', '--plan', 'free'], /takes no --plan option/],
    ['revoke without an id', ['revoke'], /needs the id/],
    ['revoke with a non-numeric id', ['revoke', 'abc'], /must be a positive integer/],
    ['revoke with id zero', ['revoke', '0'], /must be a positive integer/],
    ['revoke with two ids', ['revoke', '1', '2'], /Unexpected argument "2"/],
    ['an expiry in weeks', ['create', '--plan', 'free', '--expires-in', '2w'], /--expires-in must be a whole number/],
    ['a fractional expiry', ['create', '--plan', 'free', '--expires-in', '1.5d'], /--expires-in/],
    [
      'an expiry date that is no date',
      ['create', '--plan', 'free', '--expires-at', 'soon'],
      /--expires-at must be a date/,
    ],
    [
      'an expiry time without its zone',
      ['create', '--plan', 'free', '--expires-at', '2027-01-01T12:00'],
      /--expires-at must be a date/,
    ],
    [
      'both kinds of expiry',
      ['create', '--plan', 'free', '--expires-in', '1d', '--expires-at', '2027-01-01'],
      /not both/,
    ],
    ['rotate without an overlap', ['rotate', '1'], /needs --overlap/],
    ['rotate without an id', ['rotate', '--overlap', '1h'], /needs the id/],
    ['rotate with a bad overlap', ['rotate', '1', '--overlap', '24'], /--overlap must be a whole number/],
    ['an overlap on create', ['create', '--plan', 'free', '--overlap', '1h'], /takes no --overlap/],
  ])('rejects %s with the usage on stderr and exit code 2, touching no database', async (_, argv, message) => {
    const path = join(tempDir(), 'keys.db');
    const result = await run(argv, path);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(USAGE);
    expect(existsSync(path)).toBe(false);
  });
});

describe('npm run keys (the process)', () => {
  const script = compiledProgram('tools/keys-cli');
  const runProcess = (args: string[], databasePath: string) =>
    promisify(execFile)(process.execPath, [script, ...args], {
      // An empty DATABASE_URL: these tests are about DATABASE_PATH, whatever the caller's environment says.
      env: { ...process.env, DATABASE_PATH: databasePath, DATABASE_URL: '' },
    });

  it('creates a key in DATABASE_PATH and prints it alone on the last line of stdout', async () => {
    const path = join(tempDir(), 'keys.db');
    const { stdout } = await runProcess(['create', '--plan', 'free'], path);
    const secret = stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(await findActive(path, secret)).toMatchObject({ plan: 'free' });
  });

  it('exits with code 2 on bad arguments', async () => {
    await expect(runProcess(['create', '--plan', 'gold'], join(tempDir(), 'keys.db'))).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage: npm run keys'),
    });
  });
});

describe('keys with a malformed DATABASE_POOL_SIZE', () => {
  it('says what the variable must be and exits with code 2, touching no database', async () => {
    const path = join(tempDir(), 'keys.db');
    const script = compiledProgram('tools/keys-cli');
    const running = promisify(execFile)(process.execPath, [script, 'list'], {
      env: {
        ...process.env,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/animals',
        DATABASE_POOL_SIZE: '0',
        DATABASE_PATH: path,
      },
    });
    await expect(running).rejects.toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'Error: DATABASE_POOL_SIZE must be a whole number from 1 to 1000; got "0".\n',
    });
    expect(existsSync(path)).toBe(false);
  });
});

describe.skipIf(!(await postgresReachable()))('keys on PostgreSQL at DATABASE_URL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  const url = () => defined(database, 'the test database').url;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function findActiveThere(secret: string) {
    const storage = await openPostgresStorage(url());
    try {
      return await storage.keys.findActive(secret);
    } finally {
      await storage.close();
    }
  }

  it('creates, lists and revokes keys in PostgreSQL, leaving DATABASE_PATH alone', async () => {
    const path = join(tempDir(), 'keys.db');
    const env = readStorageConfig({ DATABASE_URL: url(), DATABASE_PATH: path });

    const created = await runOn(['create', '--plan', 'pro', '--label', 'billing service'], env);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(await findActiveThere(created.lastLine)).toMatchObject({ id: 1, plan: 'pro', label: 'billing service' });

    const listed = await runOn(['list'], env);
    expect(listed.lines.map((line) => line.split(/\s{2,}/))).toEqual([
      ['ID', 'LABEL', 'PLAN', 'LIMITS', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'],
      ['1', 'billing service', 'pro', limitsColumn('pro'), '2026-11-21T09:30Z', '-', '-', '-'],
    ]);

    expect(await runOn(['revoke', '1'], env)).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/Revoked key 1/),
    });
    expect(await findActiveThere(created.lastLine)).toBeUndefined();
    expect(existsSync(path)).toBe(false);
  });

  it('runs as a process (npm run keys) against DATABASE_URL', async () => {
    const script = compiledProgram('tools/keys-cli');
    const { stdout } = await promisify(execFile)(process.execPath, [script, 'create', '--plan', 'business'], {
      env: { ...process.env, DATABASE_URL: url(), DATABASE_POOL_SIZE: '1' },
    });
    const secret = stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(await findActiveThere(secret)).toMatchObject({ plan: 'business' });
  });
});
