import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { collectionsOf } from '../../../contract/collections.ts';
import { exampleItems } from '../../../core/collections/example-items.ts';
import { OWNER_FIELD } from '../../../core/collections/owners.ts';
import { createLogger } from '../../../core/logger.ts';
import { readStorageConfig, type StorageConfig } from '../../../server/process/config.ts';
import { openService } from '../../../server/service.ts';
import { openStorage } from '../../../server/storage/open.ts';
import { describePostgresUrl } from '../../../server/storage/postgres/address.ts';
import type { Storage } from '../../../server/storage/storage.ts';
import { runDatabaseCommand, USAGE } from '../../../server/tools/db/commands.ts';
import { createTestDatabase, postgresReachable } from '../../../support/backing-services.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { jsonContent, namedExamples, requestBody } from '../../support/contract-document.ts';
import { defined } from '../../support/defined.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();
const contract = loadContract();
const collections = collectionsOf(contract);
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What each collection holds once seeded: the items of the contract's examples, none of an owned collection's. */
const seeded = new Map(
  collections.map((collection) => [
    collection.name,
    collection.ownedBy ? [] : (exampleItems(contract).get(collection.name) ?? []),
  ]),
);

async function run(argv: string[], storage: () => StorageConfig) {
  let stdout = '';
  let stderr = '';
  const code = await runDatabaseCommand(argv, {
    databasePath: join(tempDir(), 'unused.db'),
    storage,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** A database no program has opened yet, and how db:seed names it. */
interface NewDatabase {
  config: StorageConfig;
  name: string;
}

async function newSqlite(): Promise<NewDatabase> {
  const path = join(tempDir(), 'data', 'animal-store.db');
  return { config: { engine: 'sqlite', path }, name: path };
}

async function newPostgres(): Promise<NewDatabase> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  return { config: { engine: 'postgres', url: database.url, poolSize: 2 }, name: describePostgresUrl(database.url) };
}

async function openOn(config: StorageConfig): Promise<Storage> {
  const storage = await openStorage(config);
  cleanups.push(() => storage.close());
  return storage;
}

/** Every item of every collection, as the storage reads them. */
async function contentsOf(storage: Storage) {
  return Object.fromEntries(
    await Promise.all(
      collections.map(async ({ name }) => [name, (await storage.collections(name).list({ limit: 1_000 })).items]),
    ),
  );
}

/** The service on `config`, and a request to it with a key of its own. */
async function serve(config: StorageConfig) {
  const service = await openService({
    storage: config,
    logger: createLogger('silent'),
    clientAddress: () => '192.0.2.1',
  });
  cleanups.push(() => service.close());
  const { secret } = await service.storage.keys.create({ plan: 'enterprise', perMinute: 1_000, perDay: 1_000 });
  return (path: string, init: { method?: string; json?: unknown } = {}) =>
    service.app.request(path, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
    });
}

/** The collections db:seed fills, and how it counts what it stored or finds in each: `5 pets`. */
const filled = collections.filter(({ ownedBy }) => !ownedBy);
const tally = (collection: (typeof collections)[number]) =>
  `${seeded.get(collection.name)?.length} ${collection.noun}s`;

/** What a database may hold before db:seed runs, and what the refusal says of it. */
const OCCUPANTS: Array<[string, (storage: Storage, config: StorageConfig) => Promise<unknown>, string]> = [
  [
    'a pet a server created',
    (storage) => storage.collections('pets').create({ name: 'Resident', categoryId: 1, status: 'sold' }),
    'the table pets holds 1 pet',
  ],
  [
    'only a webhook endpoint of a key (an owned collection, which db:seed leaves empty)',
    async (storage) => {
      const owned = defined(
        collections.find((collection) => collection.ownedBy),
        'an owned collection',
      );
      const { record } = await storage.keys.create({ plan: 'free' });
      await storage.collections(owned.name).create({
        url: 'https://93.184.215.14/hooks',
        events: ['pet.created'],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Jf6rmMEv2U=',
        createdAt: '2026-11-28T14:00:00.000Z',
        [OWNER_FIELD[defined(owned.ownedBy, 'its owner')]]: record.lineage,
      });
    },
    'the table webhook_endpoints holds 1 webhook endpoint',
  ],
  [
    "the contract's examples, seeded before",
    async (_, config) => expect((await run(['seed'], () => config)).code).toBe(0),
    filled.map((collection) => `the table ${collection.name} holds ${tally(collection)}`).join(' and '),
  ],
];

describe.each([
  ['SQLite', newSqlite, true],
  ['PostgreSQL', newPostgres, await postgresReachable()],
] as const)('db:seed on %s', (_, newDatabase, available) => {
  it.skipIf(!available)(
    "fills a new database with exactly the items of the contract's examples under their ids, and the server answers them",
    async () => {
      const { config, name } = await newDatabase();

      const result = await run(['seed'], () => config);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Seeded ${name} with .+ under the ids they show\\.`));
      for (const collection of filled) expect(result.stdout).toContain(tally(collection));
      expect(await contentsOf(await openOn(config))).toEqual(Object.fromEntries(seeded));

      const request = await serve(config);
      for (const collection of collections) {
        for (const item of seeded.get(collection.name) ?? []) {
          const response = await request(`${collection.servedPath}/${item.id}`);
          expect(response.status, `${collection.path} ${item.id}`).toBe(200);
          expect(await response.json()).toEqual(item);
        }
      }
    },
  );

  it.skipIf(!available)(
    "continues each counted id after the highest example's, so a create makes a new item",
    async () => {
      const { config } = await newDatabase();
      expect((await run(['seed'], () => config)).code).toBe(0);

      const request = await serve(config);
      for (const collection of collections.filter(({ id, create }) => id.type === 'integer' && create)) {
        const create = defined(collection.create, 'the create').operationId;
        const [[, example] = []] = namedExamples(jsonContent(defined(requestBody(create), `${create}'s body`)));
        const response = await request(collection.servedPath, { method: 'POST', json: example?.value });
        expect(response.status, create).toBe(201);
        const { id } = (await response.json()) as { id: number };
        expect(id, create).toBeGreaterThan(
          Math.max(...(seeded.get(collection.name) ?? []).map((item) => Number(item.id))),
        );
      }
    },
  );

  it.skipIf(!available).each(OCCUPANTS)(
    'refuses a database that holds %s with exit code 1 and one line naming it, changing nothing',
    async (_, occupy, holds) => {
      const { config, name } = await newDatabase();
      const storage = await openOn(config);
      await occupy(storage, config);
      const before = await contentsOf(storage);

      const result = await run(['seed'], () => config);
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `Error: ${name} already holds items: ${holds}. db:seed fills only an empty database, so nothing was seeded.\n`,
      });
      expect(await contentsOf(storage)).toEqual(before);
    },
  );
});

describe('db:seed refusals', () => {
  const sqlite = () => ({ engine: 'sqlite', path: join(tempDir(), 'absent.db') }) as const;
  it.each<[string, string[], () => StorageConfig, number, RegExp]>([
    ['an argument', ['seed', 'pets.db'], sqlite, 2, /^Error: Unexpected argument "pets.db": seed takes none;/],
    ['--from', ['seed', '--from', 'a.db'], sqlite, 2, /^Error: Only the copy command takes --from and --to/],
    [
      'a DATABASE_URL that is no PostgreSQL URL',
      ['seed'],
      () => readStorageConfig({ DATABASE_URL: 'mysql://root:hunter2@h/animals' }),
      2,
      /^Error: DATABASE_URL must be a PostgreSQL URL/,
    ],
    [
      'a PostgreSQL that cannot be reached',
      ['seed'],
      () => ({ engine: 'postgres', url: 'postgres://postgres:hunter2@127.0.0.1:1/animals', poolSize: 1 }),
      1,
      /^Error: The storage is unavailable: .*ECONNREFUSED.*; nothing was seeded\n$/,
    ],
  ])('refuses %s with one line and its exit code, creating no database', async (_, argv, storage, code, message) => {
    const result = await run(argv, storage);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('hunter2');
    expect(existsSync(sqlite().path)).toBe(false);
  });

  it('prints the usage with seed in it for seed --help', async () => {
    expect(await run(['seed', '--help'], sqlite)).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    expect(USAGE).toMatch(/npm run db:seed\n/);
  });
});

describe('npm run db:seed (the process)', () => {
  const npmRun = (path: string) =>
    promisify(execFile)('npm', ['run', 'db:seed'], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, DATABASE_PATH: path, DATABASE_URL: '' },
    });

  it('seeds DATABASE_PATH, then refuses it with exit code 1', async () => {
    const path = join(tempDir(), 'animal-store.db');
    expect((await npmRun(path)).stdout).toContain(`Seeded ${path} with ${filled.map(tally).join(' and ')} `);
    await expect(npmRun(path)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(`Error: ${path} already holds items: the table pets holds`),
    });
  });
});
