import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync, rmSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { UnavailableError } from '../../../core/errors.ts';
import { createLogger } from '../../../core/logger.ts';
import { openService, type Service } from '../../../server/service.ts';
import { type Database, openDatabase } from '../../../server/storage/sqlite/database.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';
import { sqliteStorage } from '../../../server/storage/sqlite/storage.ts';
import { getOrCreateSecret } from '../../../server/storage/sqlite/stored-secret.ts';
import { CONTRACT_BAN_RULES, WITHOUT_KEY_LIMITS } from '../../support/contract-rate-limits.ts';
import { defined } from '../../support/defined.ts';
import { FakeClock } from '../../support/fake-clock.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const DISK_MEGABYTES = 2;

/**
 * A folder on its own small tmpfs, so the database really runs out of space, unmounted after
 * the test; undefined where this machine does not allow mounting one (not root), where the
 * injected failures below still run.
 */
function mountSmallDisk(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_MEGABYTES}m`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmdirSync(dir);
    return undefined;
  }
  cleanups.push(() => {
    execFileSync('umount', [dir]);
    rmdirSync(dir);
  });
  return dir;
}

const canMount = (() => {
  const probe = mountSmallDisk();
  for (const cleanup of cleanups.splice(0)) cleanup();
  return probe !== undefined;
})();

/** Takes all the space left on the small disk but `spareBytes`, in a file an operator could delete. */
function fillDisk(dir: string, spareBytes: number): string {
  const filler = join(dir, 'filler');
  const { bavail, bsize } = statfsSync(dir);
  writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - spareBytes)));
  return filler;
}

interface ServiceUnderTest {
  service: Service;
  /** The service's database, to change its limits under it. */
  db: Database;
  logLines: string[];
  post(name: string): Promise<Response>;
  get(path: string): Promise<Response>;
}

async function startService(databasePath: string): Promise<ServiceUnderTest> {
  const logLines: string[] = [];
  const clock = new FakeClock();
  const db = openDatabase(databasePath);
  const service = await openService(
    {
      clock,
      logger: createLogger('info', (line) => logLines.push(line)),
      clientAddress: () => '192.0.2.1',
    },
    { storage: sqliteStorage(db, databasePath, clock, loadContract()) },
  );
  cleanups.push(() => void service.close());
  const { secret } = await service.storage.keys.create({ plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 });
  const headers = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
  return {
    service,
    db,
    logLines,
    post: async (name) =>
      await service.app.request('/v1/pets', { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1 }) }),
    get: async (path) => await service.app.request(path, { headers }),
  };
}

async function allPetIds(t: ServiceUnderTest): Promise<number[]> {
  const ids: number[] = [];
  let next: string | undefined = '/v1/pets?limit=100';
  while (next) {
    const response = await t.get(next);
    expect(response.status).toBe(200);
    ids.push(...((await response.json()) as Array<{ id: number }>).map((pet) => pet.id));
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('Link') ?? '')?.[1];
  }
  return ids;
}

async function expectServiceUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(Number(response.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
  expect(response.headers.get('X-RateLimit-Remaining')).not.toBeNull();
  expect(await response.json()).toEqual({
    code: 'service_unavailable',
    message: expect.stringMatching(/retry/i),
    status: 503,
  });
}

const errorLines = (t: ServiceUnderTest) =>
  t.logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 'error');

describe.skipIf(!canMount)('POST /v1/pets on a full disk', () => {
  it('answers 503 for every pet it could not store, acknowledges only stored pets, and recovers when space is freed', async () => {
    const disk = defined(mountSmallDisk(), 'a small disk mounted');
    const path = join(disk, 'animal-store.db');
    const t = await startService(path);
    // Space an operator can free later: the server must recover without a restart.
    const filler = fillDisk(disk, 256 * 1024);

    const acknowledged: number[] = [];
    let refused = 0;
    for (let attempt = 0; attempt < 5_000 && refused < 3; attempt++) {
      const response = await t.post(`Pet ${attempt}`);
      if (response.status === 201) {
        expect(refused).toBe(0);
        acknowledged.push(((await response.json()) as { id: number }).id);
      } else {
        await expectServiceUnavailable(response);
        refused++;
      }
    }
    expect(refused).toBe(3);
    expect(acknowledged.length).toBeGreaterThan(0);

    // Every 201 is stored, and nothing else is.
    expect(await allPetIds(t)).toEqual(acknowledged);
    const errors = errorLines(t);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatchObject({ event: 'storage_unavailable', reason: expect.stringContaining('SQLITE_FULL') });

    unlinkSync(filler);
    const recovered = await t.post('After the disk was freed');
    expect(recovered.status).toBe(201);
    expect(((await recovered.json()) as { id: number }).id).toBe(
      defined(acknowledged.at(-1), 'an acknowledged pet') + 1,
    );

    await t.service.close();
    const check = new Sqlite(path, { readonly: true });
    expect(check.prepare('PRAGMA integrity_check').pluck().all()).toEqual(['ok']);
    expect(check.prepare('SELECT count(*) FROM pets').pluck().get()).toBe(acknowledged.length + 1);
    check.close();
  });

  it('fails the storage check of /readyz while a write cannot be made, and is ready again once space is freed', async () => {
    const disk = defined(mountSmallDisk(), 'a small disk mounted');
    const deployment = await openService({
      storage: { engine: 'sqlite', path: join(disk, 'animal-store.db') },
      logger: createLogger('silent'),
      clientAddress: () => '192.0.2.1',
    });
    cleanups.push(() => void deployment.close());
    const { secret } = await deployment.storage.keys.create({ plan: 'enterprise', perMinute: 1e6, perDay: 1e6 });
    const readiness = async () => (await deployment.app.request('/readyz')).json();
    expect(await readiness()).toMatchObject({ status: 'ready' });
    const filler = fillDisk(disk, 256 * 1024);

    // Fill what space is left, until the storage refuses a write.
    const post = () =>
      deployment.app.request('/v1/pets', {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(100), categoryId: 1 }),
      });
    let status = 201;
    for (let attempt = 0; attempt < 5_000 && status === 201; attempt++) status = (await post()).status;
    expect(status).toBe(503);

    expect(await readiness()).toMatchObject({ status: 'unavailable', checks: { storage: 'unavailable' } });
    unlinkSync(filler);
    expect(await readiness()).toMatchObject({ status: 'ready', checks: { storage: 'ok' } });
  });

  it('refuses to create an API key or the cursor secret it could not store', async () => {
    const disk = defined(mountSmallDisk(), 'a small disk mounted');
    const db = openDatabase(join(disk, 'keys.db'));
    cleanups.push(() => db.close());
    const keys = new SqliteKeyStore(db);
    fillDisk(disk, 64 * 1024);
    let created = 0;
    let failure: unknown;
    for (let attempt = 0; attempt < 1_000 && failure === undefined; attempt++) {
      try {
        await keys.create({ plan: 'free', label: 'x'.repeat(200) });
        created++;
      } catch (error) {
        failure = error;
      }
    }
    expect(failure).toBeInstanceOf(UnavailableError);
    expect(await keys.count()).toBe(created);
    expect(() => getOrCreateSecret(db, 'another-secret')).toThrow(/full/);
  });
});

describe('a database file deleted under the running server', () => {
  /** A service on a file of its own, one pet stored, then every SQLite file of it deleted. */
  async function deletedUnder(): Promise<{ t: ServiceUnderTest; path: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'animal-store-deleted-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'animal-store.db');
    const t = await startService(path);
    expect((await t.post('Before')).status).toBe(201);
    expect(await (await t.get('/readyz')).json()).toMatchObject({ status: 'ready' });
    for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
    return { t, path };
  }

  it('fails the storage check of /readyz and refuses creates with 503, which would vanish at restart', async () => {
    const { t, path } = await deletedUnder();

    const ready = await t.get('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', checks: { storage: 'unavailable' } });
    await expectServiceUnavailable(await t.post('Would vanish'));
    expect(errorLines(t).at(-1)).toMatchObject({
      event: 'storage_unavailable',
      reason: expect.stringContaining(`${path} was deleted`),
    });
  });

  it('keeps refusing once another program made a new database at the path (the keys tool), whose keys it would not see', async () => {
    const { t, path } = await deletedUnder();
    openDatabase(path).close();

    expect((await t.get('/readyz')).status).toBe(503);
    await expectServiceUnavailable(await t.post('Would vanish'));
    expect(errorLines(t).at(-1)).toMatchObject({ reason: expect.stringContaining(`${path} was replaced`) });
  });
});

describe('storage failures injected into a database', () => {
  it('answers 503 when SQLite refuses to grow the file, stores nothing, then recovers', async () => {
    const t = await startService(':memory:');
    const { db } = t;
    const pagesInUse = db.prepare('PRAGMA page_count').pluck().get() as number;
    // SQLite's own limit on the file's size: the next write needing a new page fails as on a full disk.
    db.exec(`PRAGMA max_page_count = ${pagesInUse}`);

    const acknowledged: number[] = [];
    let response = await t.post('x'.repeat(100));
    for (let attempt = 0; response.status === 201 && attempt < 1_000; attempt++) {
      acknowledged.push(((await response.json()) as { id: number }).id);
      response = await t.post('x'.repeat(100));
    }
    await expectServiceUnavailable(response);
    expect(await allPetIds(t)).toEqual(acknowledged);
    expect(errorLines(t)).toHaveLength(1);

    db.exec(`PRAGMA max_page_count = ${pagesInUse * 10}`);
    expect((await t.post('Recovered')).status).toBe(201);
    expect(await allPetIds(t)).toEqual([...acknowledged, acknowledged.length + 1]);
  });

  it('answers 503 while another connection holds the write lock past the busy timeout, then stores again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'animal-store-locked-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'animal-store.db');
    const t = await startService(path);
    t.db.exec('PRAGMA busy_timeout = 50');
    const other = new Sqlite(path);
    cleanups.push(() => other.close());
    other.exec('BEGIN IMMEDIATE');

    await expectServiceUnavailable(await t.post('Locked out'));
    expect(errorLines(t)[0]).toMatchObject({
      event: 'storage_unavailable',
      reason: expect.stringContaining('SQLITE_BUSY'),
    });

    other.exec('ROLLBACK');
    const stored = await t.post('After the lock');
    expect(stored.status).toBe(201);
    expect(await allPetIds(t)).toEqual([((await stored.json()) as { id: number }).id]);
  });

  /** The service, with a key store whose lookups throw `failure`. */
  async function serviceWhoseKeyLookupFails(failure: Error) {
    const { app, storage, close } = await openService({
      storage: { engine: 'sqlite', path: ':memory:' },
      clock: new FakeClock(),
      logger: createLogger('silent'),
      clientAddress: () => '192.0.2.1',
    });
    cleanups.push(() => void close());
    const { keys } = storage;
    // The app holds this very store.
    keys.findActive = async () => {
      throw failure;
    };
    return {
      withKey: () => app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_unverifiable' } }),
      /** Counted against the address, like a request whose key is unknown. */
      withoutKey: () => app.request('/v1/pets'),
    };
  }

  it('answers 503 with rate-limit headers when the key cannot be looked up, counting it against nothing', async () => {
    const service = await serviceWhoseKeyLookupFails(
      new UnavailableError('storage', 'the database file cannot be opened (SQLITE_CANTOPEN)'),
    );
    const { perMinute } = WITHOUT_KEY_LIMITS;
    // More than the key-less plan allows in a minute, and than the ban tolerates once limited.
    for (let request = 0; request < perMinute + CONTRACT_BAN_RULES.afterRefusals + 10; request++) {
      const response = await service.withKey();
      await expectServiceUnavailable(response);
      expect(response.headers.get('X-RateLimit-Limit')).toBe(String(perMinute));
      expect(response.headers.get('X-RateLimit-Remaining')).toBe('0');
    }
    expect((await service.withoutKey()).headers.get('X-RateLimit-Remaining')).toBe(String(perMinute - 1));
  });

  it('answers 500 when a key lookup fails unexpectedly, counting it against nothing', async () => {
    const service = await serviceWhoseKeyLookupFails(new Error('a fault in the key store'));
    const response = await service.withKey();
    expect(response.status).toBe(500);
    expect(((await response.json()) as { code: string }).code).toBe('internal_error');
    expect((await service.withoutKey()).headers.get('X-RateLimit-Remaining')).toBe(
      String(WITHOUT_KEY_LIMITS.perMinute - 1),
    );
  });
});
