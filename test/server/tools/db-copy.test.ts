import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { collectionsOf } from '../../../contract/collections.ts';
import type { Clock } from '../../../core/clock.ts';
import { exampleItems } from '../../../core/collections/example-items.ts';
import { OWNER_FIELD } from '../../../core/collections/owners.ts';
import type { Item } from '../../../core/collections/store.ts';
import { createCursorCodec } from '../../../core/pagination/cursor.ts';
import { openPostgresStorage } from '../../../server/storage/postgres/storage.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { statement } from '../../../server/storage/sqlite/statement-cache.ts';
import { openSqliteStorage } from '../../../server/storage/sqlite/storage.ts';
import type { Storage } from '../../../server/storage/storage.ts';
import { runDatabaseCommand, USAGE } from '../../../server/tools/db/commands.ts';
import { createTestDatabase, postgresReachable } from '../../../support/backing-services.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { petsIn } from '../../support/storage-engines.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();
const withPostgres = await postgresReachable();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let now = Date.parse('2026-11-21T09:30:00.000Z');
/** Each reading a minute after the last, so that every key has dates of its own. */
const clock: Clock = { now: () => (now += 60_000) };

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const unused = join(tempDir(), 'unused.db');
  const code = await runDatabaseCommand(argv, {
    databasePath: unused,
    storage: () => ({ engine: 'sqlite', path: unused }),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

async function emptyPostgres(): Promise<string> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  return database.url;
}

async function openPostgres(url: string): Promise<Storage> {
  const storage = await openPostgresStorage(url);
  cleanups.push(() => storage.close());
  return storage;
}

/**
 * A SQLite database as a server leaves it: 1,500 pets of every status (more than one batch of
 * the copy), the last of them deleted; a revoked free key, an active pro key and an enterprise
 * key; and the cursor secret.
 */
async function seededSqlite() {
  const path = join(tempDir(), 'animal-store.db');
  const storage = openSqliteStorage(path, clock);
  const statuses = ['available', 'pending', 'sold'] as const;
  for (let index = 1; index <= 1_500; index += 1) {
    await petsIn(storage).create({
      name: `Pet ${index} 🐕`,
      categoryId: index * 7,
      status: statuses[index % 3] ?? 'sold',
    });
  }
  const revoked = await storage.keys.create({ plan: 'free', label: 'old app' });
  const active = await storage.keys.create({ plan: 'pro', label: 'web shop' });
  const enterprise = await storage.keys.create({
    plan: 'enterprise',
    perMinute: 5_000,
    perDay: 2_000_000,
    expiresAt: '2099-01-01T00:00:00.000Z',
  });
  await storage.keys.revoke(revoked.record.id);
  // Its last use, recorded to the minute, is copied with the rest of the key.
  await storage.keys.findActive(active.secret);
  await expect.poll(async () => (await storage.keys.list())[1]?.lastUsedAt).not.toBeNull();
  // Every other collection of the contract holds the items of its examples: an owned one's, the
  // active key's line's, with the example of each field the service sets (a secret).
  const others = new Map<string, Item[]>();
  const examples = exampleItems(loadContract());
  for (const collection of collectionsOf(loadContract())) {
    if (collection.name === 'pets') continue;
    const setByService = collection.fields.filter((field) => collection.setByService.includes(field.name));
    for (const { id: _, ...fields } of examples.get(collection.name) ?? []) {
      await storage.collections(collection.name).create({
        ...Object.fromEntries(setByService.map((field) => [field.name, field.example])),
        ...fields,
        ...(collection.ownedBy && { [OWNER_FIELD[collection.ownedBy]]: active.record.lineage }),
      });
    }
    others.set(collection.name, (await storage.collections(collection.name).list({ limit: 1_000 })).items);
  }
  const contents = {
    path,
    pets: (await petsIn(storage).list({ limit: 2_000 })).items.slice(0, -1),
    others,
    keys: await storage.keys.list(),
    secrets: { revoked: revoked.secret, active: active.secret, enterprise: enterprise.secret },
    cursorSecret: storage.cursorSecret,
  };
  await storage.close();
  const db = openDatabase(path);
  statement(db, 'DELETE FROM pets WHERE id = 1500').run();
  db.close();
  return contents;
}

/** `1499 pets, 2 orders`: what the copy reports of the collections `seededSqlite` filled, in the contract's order. */
function copiedCounts(source: Awaited<ReturnType<typeof seededSqlite>>): string {
  return collectionsOf(loadContract())
    .map((collection) => {
      const rows = collection.name === 'pets' ? source.pets.length : (source.others.get(collection.name)?.length ?? 0);
      return `${rows} ${collection.noun}${rows === 1 ? '' : 's'}`;
    })
    .join(', ');
}

/** Cursors signed as the server signs them. */
function cursorCodec(secret: Uint8Array) {
  return createCursorCodec(secret, (key, message) => createHmac('sha256', key).update(message).digest());
}

describe.skipIf(!withPostgres)('db:copy into PostgreSQL', () => {
  it('copies pets with their ids, keys with their hashes, plans, limits and dates, and the cursor secret', async () => {
    const source = await seededSqlite();
    const url = await emptyPostgres();

    const result = await run(['copy', '--from', source.path, '--to', url]);
    const { hostname, port, pathname } = new URL(url);
    expect(result).toEqual({
      code: 0,
      stdout: `Copied ${copiedCounts(source)}, 3 API keys and the cursor secret from ${source.path} to PostgreSQL at ${hostname}:${port}${pathname}.\n`,
      stderr: '',
    });

    const target = await openPostgres(url);
    expect((await petsIn(target).list({ limit: 2_000 })).items).toEqual(source.pets);
    for (const [name, items] of source.others) {
      expect((await target.collections(name).list({ limit: 1_000 })).items, name).toEqual(items);
    }
    expect((await petsIn(target).list({ limit: 2, filters: { status: 'sold' }, after: 1_000 })).items).toEqual(
      source.pets.filter((pet) => pet.status === 'sold' && pet.id > 1_000).slice(0, 2),
    );
    expect(await target.keys.list()).toEqual(source.keys);
    expect(await target.keys.findActive(source.secrets.active)).toEqual(source.keys[1]);
    expect(await target.keys.findActive(source.secrets.enterprise)).toMatchObject({
      perMinute: 5_000,
      perDay: 2_000_000,
    });
    expect(await target.keys.findActive(source.secrets.revoked)).toBeUndefined();

    const position = { collection: 'pets', filters: { status: 'sold' } };
    const issued = cursorCodec(source.cursorSecret).encode({ ...position, afterId: 40 });
    expect(cursorCodec(target.cursorSecret).decode(issued, position, ['status'])).toBe(40);
  });

  it('carries the answers kept under Idempotency-Keys, so a retry after the move replays instead of creating again', async () => {
    const path = join(tempDir(), 'animal-store.db');
    const storage = openSqliteStorage(path, clock);
    const claim = { scope: '1', key: 'retry-me', fingerprint: 'f1', now: clock.now(), notBefore: 0 };
    const outcome = await petsIn(storage).createOnce(
      { name: 'Rex', categoryId: 1, status: 'available' },
      claim,
      (pet) => ({
        fingerprint: claim.fingerprint,
        status: 201,
        body: JSON.stringify(pet),
        location: `/v1/pets/${pet.id}`,
      }),
    );
    await storage.close();
    const url = await emptyPostgres();

    const result = await run(['copy', '--from', path, '--to', url]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1 kept idempotent answer');
    const target = await openPostgres(url);
    expect(await target.idempotency.find(claim)).toEqual({
      fingerprint: 'f1',
      status: 201,
      body: JSON.stringify('created' in outcome && outcome.created),
      location: '/v1/pets/1',
    });
  });

  it('carries the webhook endpoints and the deliveries not yet sent, so the new servers send them', async () => {
    const path = join(tempDir(), 'hooks.db');
    const storage = openSqliteStorage(path, clock);
    const { record } = await storage.keys.create({ plan: 'free' });
    const endpoint = await storage.collections('webhook_endpoints').create({
      url: 'https://93.184.215.14/hooks',
      events: ['pet.created', 'order.created'],
      description: 'Stock',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Jf6rmMEv2U=',
      createdAt: '2026-11-28T14:00:00.000Z',
      keyLine: record.lineage,
    });
    const pet = await storage.collections('pets').create({ name: 'Rex', categoryId: 1, status: 'available' });
    await storage.close();
    const url = await emptyPostgres();
    expect((await run(['copy', '--from', path, '--to', url])).code).toBe(0);

    const target = await openPostgres(url);
    expect(await target.collections('webhook_endpoints').get(endpoint.id)).toEqual(endpoint);
    // Due from the moment of the create, by the source's clock.
    const due = await target.webhooks.claimDue(clock.now(), 10, clock.now() + 60_000);
    expect(due).toEqual([
      expect.objectContaining({ endpointId: endpoint.id, secret: endpoint.secret, type: 'pet.created' }),
    ]);
    expect(JSON.parse(due[0]?.body ?? '{}').data).toEqual(pet);
  });

  it('continues ids after the highest the source ever gave, also that of a deleted pet', async () => {
    const source = await seededSqlite();
    const url = await emptyPostgres();
    expect((await run(['copy', '--from', source.path, '--to', url])).code).toBe(0);

    const target = await openPostgres(url);
    expect((await petsIn(target).create({ name: 'Next', categoryId: 1, status: 'available' })).id).toBe(1_501);
    expect((await target.keys.create({ plan: 'free' })).record.id).toBe(4);
  });

  it.each<[string, (storage: Storage) => Promise<unknown>, RegExp]>([
    [
      'a pet',
      (storage) => petsIn(storage).create({ name: 'Resident', categoryId: 1, status: 'sold' }),
      /1 pet, .*0 API keys/,
    ],
    ['an API key', (storage) => storage.keys.create({ plan: 'free' }), /0 pets, .*1 API key and/],
    ['only the cursor secret of a server started on it', async () => {}, /0 pets, .*0 API keys and a cursor secret/],
  ])(
    'refuses a target that holds %s with exit code 1, copying nothing',
    async (_, occupy, holds) => {
      const source = await seededSqlite();
      const url = await emptyPostgres();
      const target = await openPostgres(url);
      await occupy(target);
      const before = { pets: await petsIn(target).list({ limit: 10 }), keys: await target.keys.list() };

      const result = await run(['copy', '--from', source.path, '--to', url]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^Error: PostgreSQL at .+ is not empty: it holds /);
      expect(result.stderr).toMatch(holds);
      expect(result.stderr).toMatch(/nothing was copied/);
      expect({ pets: await petsIn(target).list({ limit: 10 }), keys: await target.keys.list() }).toEqual(before);
    },
    30_000,
  );

  it('copies nothing when a row fails part way, after a first batch went in', async () => {
    const source = await seededSqlite();
    const db = openDatabase(source.path);
    // PostgreSQL text cannot hold U+0000; SQLite can, so an old database may.
    statement(db, "UPDATE pets SET name = 'Re' || char(0) || 'x' WHERE id = 1200").run();
    db.close();
    const url = await emptyPostgres();

    await expect(run(['copy', '--from', source.path, '--to', url])).rejects.toThrow(/0x00/);
    const target = await openPostgres(url);
    expect(await petsIn(target).list({ limit: 10 })).toEqual({ items: [], hasMore: false });
    expect(await target.keys.count()).toBe(0);
  });

  it('refuses, naming it, a table of the source that the contract does not describe, and copies nothing', async () => {
    const source = await seededSqlite();
    const db = openDatabase(source.path);
    // A table a later version of the service (or a person) added: the copy would leave it behind.
    statement(db, 'CREATE TABLE owners (id INTEGER PRIMARY KEY, name TEXT)').run();
    db.close();
    const url = await emptyPostgres();

    const result = await run(['copy', '--from', source.path, '--to', url]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/holds the table owners, which this version's contract does not describe/);
    expect(result.stderr).toMatch(/nothing was copied/);
    const target = await openPostgres(url);
    expect(await petsIn(target).list({ limit: 10 })).toEqual({ items: [], hasMore: false });
    expect(await target.keys.count()).toBe(0);
  });

  it('runs as npm run db:copy', async () => {
    const source = await seededSqlite();
    const url = await emptyPostgres();

    const { stdout } = await promisify(execFile)('npm', ['run', 'db:copy', '--', '--from', source.path, '--to', url], {
      cwd: REPOSITORY_ROOT,
    });
    expect(stdout).toContain(`Copied ${copiedCounts(source)}, 3 API keys and the cursor secret`);
  });
});

describe('db:copy refusals', () => {
  it.each<[string, string[], RegExp]>([
    ['no --from', ['copy', '--to', 'postgres://postgres@127.0.0.1/animals'], /needs --from/],
    ['no --to', ['copy', '--from', 'animal-store.db'], /needs --to/],
    ['an empty --to', ['copy', '--from', 'animal-store.db', '--to', ''], /needs --to/],
    [
      'a --to that is no PostgreSQL URL',
      ['copy', '--from', 'a.db', '--to', 'mysql://root:hunter2@h/animals'],
      /--to must be a PostgreSQL URL/,
    ],
    ['an operand', ['copy', 'a.db', '--from', 'a.db', '--to', 'postgres://h/animals'], /Unexpected argument "a.db"/],
    ['--from on backup', ['backup', 'b.db', '--from', 'a.db'], /Only the copy command takes --from and --to/],
  ])('rejects %s with the usage on stderr and exit code 2', async (_, argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(USAGE);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('refuses a --from where there is no database with exit code 2, creating none', async () => {
    const path = join(tempDir(), 'absent.db');
    const result = await run(['copy', '--from', path, '--to', 'postgres://postgres@127.0.0.1:1/animals']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: there is no database at ${path}; name the SQLite file to copy with --from.\n`,
    });
  });

  it('fails with exit code 1, saying nothing was copied, when PostgreSQL cannot be reached', async () => {
    const source = join(tempDir(), 'animal-store.db');
    await openSqliteStorage(source).close();
    const result = await run(['copy', '--from', source, '--to', 'postgres://postgres@127.0.0.1:1/animals']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: The storage is unavailable: .*ECONNREFUSED.*; nothing was copied\n$/);
  });
});
