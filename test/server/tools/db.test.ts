import { execFile } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { collectionsOf } from '../../../contract/collections.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { integrityProblems } from '../../../server/storage/sqlite/integrity.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';
import { MIGRATIONS } from '../../../server/storage/sqlite/migrations.ts';
import { statement } from '../../../server/storage/sqlite/statement-cache.ts';
import { getOrCreateSecret } from '../../../server/storage/sqlite/stored-secret.ts';
import { runDatabaseCommand, USAGE } from '../../../server/tools/db/commands.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { startConcurrentWriter } from '../../support/concurrent-writer.ts';
import { defined } from '../../support/defined.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();
const SCHEMA_VERSION = defined(MIGRATIONS.at(-1), 'a migration').version;

/** What db:backup and db:check say a database holds: its schema version, its pets (the other collections empty), its keys. */
function holds(pets: number | string, keys: number): string {
  const collections = collectionsOf(loadContract()).map((collection) =>
    collection.name === 'pets' ? `${pets} pets` : `0 ${collection.noun}s`,
  );
  return [`schema version ${SCHEMA_VERSION}`, ...collections, `${keys} API keys`].join(', ');
}
/** Enough pets that copying them takes a while, so the writer commits while the backup runs. */
const SEEDED_PETS = 20_000;
const CURSOR_SECRET = 'cursor-secret';

type RunResult = Awaited<ReturnType<typeof run>>;

async function run(argv: string[], databasePath: string) {
  let stdout = '';
  let stderr = '';
  const code = await runDatabaseCommand(argv, {
    databasePath,
    storage: () => ({ engine: 'sqlite', path: databasePath }),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** A database as the server leaves it: pets, two API keys and the cursor secret. */
async function seedDatabase(path: string, pets: number): Promise<void> {
  const db = openDatabase(path);
  try {
    const insert = statement(db, "INSERT INTO pets (name, category_id, status) VALUES (?, ?, 'available')");
    db.transaction(() => {
      for (let index = 1; index <= pets; index += 1) insert.run(`Seeded ${index}`, index);
    })();
    const keys = new SqliteKeyStore(db);
    await keys.create({ plan: 'free', label: 'mobile app' });
    await keys.create({ plan: 'enterprise', perMinute: 5, perDay: 50 });
    getOrCreateSecret(db, CURSOR_SECRET);
  } finally {
    db.close();
  }
}

interface PetRow {
  id: number;
  name: string;
  category_id: number;
  status: string;
}

/** Everything in the database at `path`, read through a read-only connection. */
function contentsOf(path: string) {
  const db = new Sqlite(path, { readonly: true, fileMustExist: true });
  try {
    return {
      problems: integrityProblems(db, 'full'),
      pets: statement<[], PetRow>(db, 'SELECT * FROM pets ORDER BY id').all(),
      keys: statement(db, 'SELECT * FROM api_keys ORDER BY id').all(),
      cursorSecret: statement<[string], Buffer>(db, 'SELECT value FROM settings WHERE key = ?')
        .pluck()
        .get(CURSOR_SECRET),
    };
  } finally {
    db.close();
  }
}

/**
 * A database whose pages 2 and 3 (the roots of the pets and sqlite_sequence tables) are
 * overwritten with text, with the log checkpointed first so the damage is not masked by it.
 */
function damagedDatabase(path: string): void {
  const db = openDatabase(path);
  const insert = statement(db, "INSERT INTO pets (name, category_id, status) VALUES (?, ?, 'sold')");
  db.transaction(() => {
    for (let index = 1; index <= 300; index += 1) insert.run(`Pet ${index}`, index);
  })();
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const pageSize = defined(statement<[], number>(db, 'PRAGMA page_size').pluck().get(), 'the page size');
  const pageCount = defined(statement<[], number>(db, 'PRAGMA page_count').pluck().get(), 'the page count');
  db.close();
  expect(pageCount).toBeGreaterThan(3);

  const garbage = Buffer.alloc(2 * pageSize, 'garbage ');
  const descriptor = openSync(path, 'r+');
  writeSync(descriptor, garbage, 0, garbage.length, pageSize);
  closeSync(descriptor);
}

function highestPetId(path: string): number {
  const db = new Sqlite(path, { readonly: true, fileMustExist: true });
  try {
    return defined(statement<[], number>(db, 'SELECT max(id) FROM pets').pluck().get(), `a pet in ${path}`);
  } finally {
    db.close();
  }
}

/** The names and contents of the files in `dir`. */
function snapshot(dir: string): Array<[string, Buffer]> {
  return readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]);
}

const idsFromOne = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

describe('db:backup', () => {
  it('copies a consistent prefix of the pets, the keys and the cursor secret while another process creates pets', async () => {
    const dir = tempDir();
    const source = join(dir, 'live.db');
    let target = '';
    await seedDatabase(source, SEEDED_PETS);

    const writer = startConcurrentWriter(source);
    let result: RunResult | undefined;
    let committedDuringBackup = 0;
    try {
      await writer.until(20);
      // On a busy machine the writer may get no turn during one backup; then another backup is
      // taken, until one ran while pets were being created.
      for (let attempt = 1; attempt <= 5 && committedDuringBackup === 0; attempt += 1) {
        target = join(dir, `backup-${attempt}.db`);
        const committedBefore = highestPetId(source);
        result = await run(['backup', target], source);
        committedDuringBackup = highestPetId(source) - committedBefore;
      }
    } finally {
      await writer.stop();
    }
    const copy = contentsOf(target);
    const live = contentsOf(source);

    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(copy.problems).toEqual([]);
    // Without commits while the command ran, the test would show nothing about copying under writes.
    expect(committedDuringBackup).toBeGreaterThan(0);
    expect(copy.pets.length).toBeGreaterThan(SEEDED_PETS);
    expect(copy.pets.map((pet) => pet.id)).toEqual(idsFromOne(copy.pets.length));
    expect(live.pets.slice(0, copy.pets.length)).toEqual(copy.pets);
    expect(copy.keys).toHaveLength(2);
    expect(copy.keys).toEqual(live.keys);
    expect(copy.cursorSecret).toHaveLength(32);
    expect(copy.cursorSecret).toEqual(live.cursorSecret);
  });

  it('reports the file written, its size, its pets and keys, and that it passed the integrity check', async () => {
    const dir = tempDir();
    const source = join(dir, 'live.db');
    const target = join(dir, 'backup.db');
    await seedDatabase(source, 3);

    const result = await run(['backup', target], source);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `Backed up ${source} to ${target} (${readFileSync(target).length} bytes).\n` +
        `The copy holds ${holds(3, 2)}, and passed SQLite's integrity check.\n`,
    );
  });

  it('writes a single file with no log beside it, so that restoring it means copying one file', async () => {
    const dir = tempDir();
    await seedDatabase(join(dir, 'live.db'), 3);
    expect((await run(['backup', join(dir, 'backup.db')], join(dir, 'live.db'))).code).toBe(0);
    expect(readdirSync(dir).filter((name) => name.startsWith('backup'))).toEqual(['backup.db']);
    const copy = new Sqlite(join(dir, 'backup.db'), { readonly: true });
    expect(statement(copy, 'PRAGMA journal_mode').pluck().get()).toBe('delete');
    copy.close();
  });

  it.each<[string, { database: string; target: string; existingTarget?: string }, RegExp]>([
    [
      'the backup file exists already',
      { database: 'live.db', target: 'backup.db', existingTarget: 'an older backup' },
      /backup\.db exists already; a backup never replaces a file, so name a new one\./,
    ],
    [
      'the folder of the backup file does not exist',
      { database: 'live.db', target: 'missing/backup.db' },
      /the folder .*missing does not exist; create it or name another\./,
    ],
    [
      'there is no database at DATABASE_PATH',
      { database: 'absent.db', target: 'backup.db' },
      /there is no database at .*absent\.db; set DATABASE_PATH to the database file\./,
    ],
  ])('refuses with one line and exit code 2 when %s, changing no file', async (_, files, message) => {
    const dir = tempDir();
    await seedDatabase(join(dir, 'live.db'), 3);
    if (files.existingTarget) writeFileSync(join(dir, files.target), files.existingTarget);
    const filesBefore = snapshot(dir);

    const result = await run(['backup', join(dir, files.target)], join(dir, files.database));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(snapshot(dir)).toEqual(filesBefore);
  });

  it('fails with exit code 1 on a damaged database and leaves no file that could pass for a backup', async () => {
    const dir = tempDir();
    const source = join(dir, 'live.db');
    const target = join(dir, 'backup.db');
    damagedDatabase(source);

    const result = await run(['backup', target], source);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/could not be copied because it is damaged .*npm run db:check/);
    expect(existsSync(target)).toBe(false);
  });
});

describe('db:check', () => {
  it('prints ok and the schema version, pets and keys while another process creates pets', async () => {
    const path = join(tempDir(), 'live.db');
    await seedDatabase(path, SEEDED_PETS);
    const writer = startConcurrentWriter(path);
    let result: RunResult | undefined;
    try {
      await writer.until(20);
      result = await run(['check'], path);
      await writer.until(writer.acknowledged + 20);
    } finally {
      await writer.stop();
    }

    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const [verdict, summary, ...rest] = result.stdout.trimEnd().split('\n');
    expect(verdict).toBe('ok');
    const [, checkedPath, pets] = new RegExp(`^(.+): ${holds('(\\d+)', 2)}\\.$`).exec(summary ?? '') ?? [];
    expect(checkedPath).toBe(path);
    expect(Number(pets)).toBeGreaterThan(SEEDED_PETS);
    expect(rest).toEqual([]);
  });

  it('lists the problems SQLite reports on a database with overwritten pages and says how to restore, exit code 1', async () => {
    const path = join(tempDir(), 'live.db');
    damagedDatabase(path);

    const result = await run(['check'], path);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`Error: ${path} failed SQLite's integrity check:`);
    const problems = lines.slice(1, -1);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/^ {2}\S/);
    expect(problems.join('\n')).toMatch(/malformed|page [23]/);
    expect(lines.at(-1)).toBe(
      `Restore the last good backup: stop the server, copy the backup over ${path}, ` +
        `delete ${path}-wal and ${path}-shm, then start the server.`,
    );
  });

  it('reports a file that is not a database as a problem, exit code 1', async () => {
    const path = join(tempDir(), 'live.db');
    writeFileSync(path, 'not a database, but a page of text '.repeat(200));

    const result = await run(['check'], path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('  file is not a database (SQLITE_NOTADB)\n');
  });

  it('refuses with one line and exit code 2 when there is no database, creating none', async () => {
    const dir = tempDir();
    const result = await run(['check'], join(dir, 'absent.db'));
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: there is no database at ${join(dir, 'absent.db')}; set DATABASE_PATH to the database file.\n`,
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('db help', () => {
  it.each([[['--help']], [['-h']], [['help']], [['backup', '--help']], [['check', '--help']]])(
    'prints the usage, with the restore procedure, on stdout for %j',
    async (argv) => {
      const result = await run(argv, join(tempDir(), 'absent.db'));
      expect(result).toEqual({ code: 0, stdout: USAGE, stderr: '' });
      expect(USAGE).toMatch(
        /stop the server.*\n.*copy the backup over DATABASE_PATH.*\n.*DATABASE_PATH-wal and DATABASE_PATH-shm/,
      );
    },
  );
});

describe('db tools with bad arguments', () => {
  it.each<[string, string[], RegExp]>([
    ['no command', [], /A command is required: backup, check, copy or seed/],
    ['an unknown command', ['restore', 'backup.db'], /Unknown command "restore"/],
    ['backup without a file', ['backup'], /needs the file to write the backup to/],
    ['backup with an empty file name', ['backup', ''], /needs the file to write the backup to/],
    ['backup with two files', ['backup', 'one.db', 'two.db'], /Unexpected argument "two.db": backup takes one file/],
    ['an unknown option on backup', ['backup', '--force', 'backup.db'], /Unknown option '--force'/],
    ['an argument to check', ['check', 'live.db'], /Unexpected argument "live.db": check takes none/],
    ['an unknown option on check', ['check', '--quick'], /Unknown option '--quick'/],
  ])('rejects %s with the usage on stderr and exit code 2, touching no file', async (_, argv, message) => {
    const dir = tempDir();
    await seedDatabase(join(dir, 'live.db'), 3);
    const filesBefore = snapshot(dir);

    const result = await run(argv, join(dir, 'live.db'));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(USAGE);
    expect(snapshot(dir)).toEqual(filesBefore);
  });
});

describe('npm run db:backup and db:check (the processes)', () => {
  const npmRun = (args: string[], databasePath: string) =>
    promisify(execFile)('npm', ['run', ...args], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, DATABASE_PATH: databasePath },
    });

  it('backs up DATABASE_PATH to the file given after --, and the copy checks out', async () => {
    const dir = tempDir();
    const source = join(dir, 'live.db');
    const target = join(dir, 'backup.db');
    await seedDatabase(source, 3);

    const backup = await npmRun(['db:backup', '--', target], source);
    expect(backup.stdout).toContain(`Backed up ${source} to ${target}`);
    expect(contentsOf(target).pets).toHaveLength(3);

    const check = await npmRun(['db:check'], target);
    expect(check.stdout).toContain(`ok\n`);
    expect(check.stdout).toContain(`: ${holds(3, 2)}.\n`);
  });

  it('exits with code 2 when the backup file exists already', async () => {
    const dir = tempDir();
    await seedDatabase(join(dir, 'live.db'), 3);
    await expect(npmRun(['db:backup', '--', join(dir, 'live.db')], join(dir, 'live.db'))).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('exists already'),
    });
  });
});
