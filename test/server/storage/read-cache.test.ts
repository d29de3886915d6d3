import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { createLogger } from '../../../core/logger.ts';
import { listen } from '../../../node/listen.ts';
import { openService } from '../../../server/service.ts';
import { ReadCache } from '../../../server/storage/read-cache.ts';
import { changeDetector, requestBegins } from '../../../server/storage/sqlite/change-detector.ts';
import { type Database, openDatabase } from '../../../server/storage/sqlite/database.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';
import { defined } from '../../support/defined.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();

describe('changeDetector', () => {
  let path: string;
  let mine: Database;
  let theirs: Database;
  beforeEach(() => {
    path = join(tempDir(), 'changes.db');
    mine = openDatabase(path);
    theirs = openDatabase(path);
  });
  afterEach(() => {
    theirs.close();
    mine.close();
  });

  it('reports a commit by this connection once, and reads as no change', () => {
    const changed = changeDetector(mine);
    changed();
    expect(changed()).toBe(false);
    mine.prepare("INSERT INTO pets (name, category_id, status) VALUES ('A', 1, 'available')").run();
    expect(changed()).toBe(true);
    expect(changed()).toBe(false);
    mine.prepare('SELECT count(*) FROM pets').get();
    expect(changed()).toBe(false);
  });

  it('reports a commit by another connection to the same file', () => {
    const changed = changeDetector(mine);
    changed();
    theirs.prepare("INSERT INTO pets (name, category_id, status) VALUES ('B', 1, 'available')").run();
    expect(changed()).toBe(true);
    expect(changed()).toBe(false);
  });

  it('keeps what each detector has seen apart', () => {
    const first = changeDetector(mine);
    const second = changeDetector(mine);
    first();
    second();
    mine.prepare("INSERT INTO pets (name, category_id, status) VALUES ('C', 1, 'available')").run();
    expect(first()).toBe(true);
    expect(second()).toBe(true);
  });

  it('once requests begin, reports a commit by another connection at the first look of a request of a later turn', async () => {
    const keys = changeDetector(mine);
    const pages = changeDetector(mine);
    requestBegins(mine);
    keys();
    pages();
    theirs.prepare("INSERT INTO pets (name, category_id, status) VALUES ('D', 1, 'available')").run();
    await new Promise(setImmediate);
    requestBegins(mine);
    expect(keys()).toBe(true);
    expect(pages()).toBe(true);
  });

  it('lets the requests that begin in one turn of the event loop share one look at the file', () => {
    const changed = changeDetector(mine);
    requestBegins(mine);
    changed();
    // Committed after the turn's requests were read from their sockets: none of them was sent after it.
    theirs.prepare("INSERT INTO pets (name, category_id, status) VALUES ('F', 1, 'available')").run();
    requestBegins(mine);
    expect(changed()).toBe(false);
  });

  it('once requests begin, still reports a commit by this connection within the same request', () => {
    const changed = changeDetector(mine);
    requestBegins(mine);
    changed();
    mine.prepare("INSERT INTO pets (name, category_id, status) VALUES ('E', 1, 'available')").run();
    expect(changed()).toBe(true);
  });
});

describe('ReadCache', () => {
  function counted(value: { n: number } | undefined) {
    const read = () => {
      read.calls += 1;
      return value === undefined ? undefined : { ...value };
    };
    read.calls = 0;
    return read;
  }

  it('answers a repeated read from memory until the data changes, then reads again', () => {
    let changed = false;
    const cache = new ReadCache<{ n: number }>(() => changed, 10);
    const read = counted({ n: 1 });
    expect(cache.get('a', read)).toEqual({ n: 1 });
    expect(cache.get('a', read)).toEqual({ n: 1 });
    expect(read.calls).toBe(1);
    changed = true;
    expect(cache.get('a', read)).toEqual({ n: 1 });
    expect(read.calls).toBe(2);
  });

  it('does not keep a read that found nothing', () => {
    const cache = new ReadCache<{ n: number }>(() => false, 10);
    const read = counted(undefined);
    expect(cache.get('missing', read)).toBeUndefined();
    expect(cache.get('missing', read)).toBeUndefined();
    expect(read.calls).toBe(2);
  });

  it('keeps at most maxEntries values, dropping the least recently used first', () => {
    const cache = new ReadCache<{ n: number }>(() => false, 2);
    const reads = { a: counted({ n: 1 }), b: counted({ n: 2 }), c: counted({ n: 3 }) };
    cache.get('a', reads.a);
    cache.get('b', reads.b);
    cache.get('a', reads.a);
    cache.get('c', reads.c);
    cache.get('a', reads.a);
    cache.get('b', reads.b);
    expect([reads.a.calls, reads.b.calls, reads.c.calls]).toEqual([1, 2, 1]);
  });

  it('freezes what it keeps, nested objects included', () => {
    const cache = new ReadCache<{ list: number[] }>(() => false, 10);
    const value = defined(
      cache.get('a', () => ({ list: [1] })),
      'the value read',
    );
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.list)).toBe(true);
  });

  it('keeps a read that waited only when nothing changed while it waited', async () => {
    let changes = 0;
    let seen = 0;
    const cache = new ReadCache<{ n: number }>(() => {
      const changed = changes !== seen;
      seen = changes;
      return changed;
    }, 10);
    let answer: (value: { n: number }) => void = () => {};
    const waiting = cache.getLater('a', () => new Promise((resolve) => (answer = resolve)));
    // A change heard, and another read that asks first, while the first read waits.
    changes += 1;
    expect(await cache.getLater('b', async () => ({ n: 0 }))).toEqual({ n: 0 });
    answer({ n: 1 });
    expect(await waiting).toEqual({ n: 1 });
    const read = counted({ n: 2 });
    expect(await cache.getLater('a', async () => read())).toEqual({ n: 2 });
    expect(await cache.getLater('a', async () => read())).toEqual({ n: 2 });
    expect(read.calls).toBe(1);
  });
});

describe('the service, beside another connection to its file', () => {
  it('answers each request with what the other connection committed before it: a revoked key, a new pet', async () => {
    const path = join(tempDir(), 'shared.db');
    const service = await openService({
      storage: { engine: 'sqlite', path: path },
      logger: createLogger('silent'),
      clientAddress: () => '192.0.2.1',
    });
    // Over HTTP, as requests reach the server: the caches look at the file once per turn of the event loop.
    const listening = await listen(service.app.fetch, '127.0.0.1', 0, {
      maxBodyBytes: loadContract().largestBodyBytes,
    });
    const request = (target: string, init?: RequestInit) => fetch(`${listening.origin}${target}`, init);
    const other = openDatabase(path);
    try {
      const { record, secret } = await service.storage.keys.create({ plan: 'pro' });
      const list = () => request('/v1/pets', { headers: { Authorization: `Bearer ${secret}` } });
      expect(await (await list()).json()).toEqual([]);

      other.prepare("INSERT INTO pets (name, category_id, status) VALUES ('Added elsewhere', 1, 'available')").run();
      expect(await (await list()).json()).toEqual([expect.objectContaining({ name: 'Added elsewhere' })]);

      // A page read again from the cache, then one more pet: the page of one gains its next link.
      const firstPage = () => request('/v1/pets?limit=1', { headers: { Authorization: `Bearer ${secret}` } });
      for (let read = 0; read < 2; read++) expect((await firstPage()).headers.get('Link')).toBeNull();
      other.prepare("INSERT INTO pets (name, category_id, status) VALUES ('Added later', 1, 'available')").run();
      const paged = await firstPage();
      expect(paged.headers.get('Link')).toMatch(/rel="next"/);
      const firstPets = (await paged.json()) as Array<{ id: number; name: string }>;
      expect(firstPets).toEqual([expect.objectContaining({ name: 'Added elsewhere' })]);

      // An item read again from the cache, then renamed elsewhere: its body and ETag follow.
      const { id } = defined(firstPets[0], 'the first pet');
      const fetchAdded = () => request(`/v1/pets/${id}`, { headers: { Authorization: `Bearer ${secret}` } });
      const tag = (await fetchAdded()).headers.get('ETag');
      expect((await fetchAdded()).headers.get('ETag')).toBe(tag);
      other.prepare("UPDATE pets SET name = 'Renamed elsewhere' WHERE id = ?").run(id);
      const renamed = await fetchAdded();
      expect(renamed.headers.get('ETag')).not.toBe(tag);
      expect(await renamed.json()).toEqual(expect.objectContaining({ name: 'Renamed elsewhere' }));

      await new SqliteKeyStore(other).revoke(record.id);
      expect((await list()).status).toBe(401);
    } finally {
      other.close();
      await listening.close();
      service.close();
    }
  });
});
