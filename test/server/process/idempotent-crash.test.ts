// A create retried with its Idempotency-Key across a crash of the server (SIGKILL) is stored
// exactly once: the answer is committed with the pet, so a retry finds both or neither.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnimalStoreClient } from '../../../client/index.ts';
import { openPostgresStorage } from '../../../server/storage/postgres/storage.ts';
import { openSqliteStorage } from '../../../server/storage/sqlite/storage.ts';
import type { Storage } from '../../../server/storage/storage.ts';
import { createTestDatabase, postgresReachable } from '../../../support/backing-services.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { defined } from '../../support/defined.ts';
import { type ServerProcess, startServerProcess } from '../../support/server-process.ts';
import { startTcpProxy } from '../../support/tcp-proxy.ts';

const CREATES = 50;

interface Engine {
  /** The server's environment for the database. */
  env: Record<string, string>;
  open(): Promise<Storage>;
  /** Each stored pet's id and name, and each kept answer's key and body. */
  contents(): Promise<{ pets: Array<{ id: number; name: string }>; answers: Array<{ key: string; body: string }> }>;
  drop(): Promise<void>;
}

async function sqliteEngine(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-idempotent-crash-'));
  const path = join(dir, 'store.db');
  return {
    env: { DATABASE_PATH: path },
    open: async () => openSqliteStorage(path),
    async contents() {
      const db = new Sqlite(path, { readonly: true });
      try {
        return {
          pets: db.prepare('SELECT id, name FROM pets ORDER BY id').all() as Array<{ id: number; name: string }>,
          answers: db.prepare('SELECT key, body FROM idempotency_keys').all() as Array<{ key: string; body: string }>,
        };
      } finally {
        db.close();
      }
    },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresEngine(): Promise<Engine> {
  const database = await createTestDatabase();
  const query = async <Row extends pg.QueryResultRow>(sql: string) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<Row>(sql)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    env: { DATABASE_URL: database.url },
    open: () => openPostgresStorage(database.url),
    async contents() {
      return {
        pets: (await query<{ id: string; name: string }>('SELECT id, name FROM pets ORDER BY id')).map((row) => ({
          id: Number(row.id),
          name: row.name,
        })),
        answers: await query<{ key: string; body: string }>('SELECT key, body FROM idempotency_keys'),
      };
    },
    drop: () => database.drop(),
  };
}

const running: ServerProcess[] = [];
afterEach(() => {
  for (const server of running.splice(0))
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});

describe.each([
  ['SQLite', sqliteEngine, true],
  ['PostgreSQL', postgresEngine, await postgresReachable()],
] as const)('createPet retried with its Idempotency-Key across a SIGKILL on %s', (_, makeEngine, available) => {
  it.skipIf(!available)(
    'maps every key to exactly one pet after the server is killed during 50 concurrent creates and restarted',
    { timeout: 120_000 },
    async () => {
      const engine = await makeEngine();
      try {
        const storage = await engine.open();
        const { secret } = await storage.keys.create({ plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 });
        await storage.close();

        let server = await startServerProcess(engine.env);
        running.push(server);
        const client = createAnimalStoreClient({
          baseUrl: 'http://api.invalid/v1',
          apiKey: secret,
          // Every send goes to the server running now: the first, or the one started after the kill.
          fetch: async (request) => {
            const url = new URL(request.url);
            const body = request.method === 'POST' ? await request.arrayBuffer() : undefined;
            return fetch(`${server.baseUrl}${url.pathname}${url.search}`, {
              method: request.method,
              headers: request.headers,
              body,
            });
          },
          // Until answered: a refused connection while no server runs is retried like a dropped one.
          retry: { attempts: 100_000, maxTotalWaitMs: 110_000, baseDelayMs: 20, maxDelayMs: 200 },
          onDeprecation: () => {},
        });

        const keys = Array.from({ length: CREATES }, () => randomUUID());
        const creates = keys.map((key, index) =>
          client.POST('/pets', {
            body: { name: `Pet ${index}`, categoryId: 1 },
            params: { header: { 'Idempotency-Key': key } },
          }),
        );
        // Killed as soon as the first creates are committed, while the others are on their way.
        await expect.poll(async () => (await engine.contents()).pets.length, { interval: 5 }).toBeGreaterThan(0);
        server.child.kill('SIGKILL');
        await server.exited;
        server = await startServerProcess(engine.env);
        running.push(server);

        const answers = await Promise.all(creates);
        for (const { response } of answers) expect(response.status).toBe(201);
        const { pets, answers: kept } = await engine.contents();
        // Every create answered with its own pet, and no pet stored that no answer names.
        const answered = answers.map(({ data }) => data?.id);
        expect(new Set(answered).size).toBe(CREATES);
        expect(pets.map((pet) => pet.id).sort((a, b) => a - b)).toEqual(
          [...answered].sort((a, b) => (a ?? 0) - (b ?? 0)),
        );
        expect(new Set(pets.map((pet) => pet.name)).size).toBe(CREATES);
        // Each key's kept answer is the pet its create was answered with.
        const byKey = new Map(kept.map((answer) => [answer.key, JSON.parse(answer.body) as { id: number }]));
        keys.forEach((key, index) => {
          expect(byKey.get(key)?.id, key).toBe(answers[index]?.data?.id);
        });
      } finally {
        await engine.drop();
      }
    },
  );
});

/**
 * Preloaded into a server: kills it (SIGKILL) right after its first batch of creates commits,
 * before any answer is written, as a crash between the commit and the answer would.
 */
const KILL_AFTER_FIRST_CREATE_COMMIT = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module';
const Database = createRequire(${JSON.stringify(pathToFileURL(join(REPOSITORY_ROOT, 'package.json')).href)})('better-sqlite3');
const transaction = Database.prototype.transaction;
Database.prototype.transaction = function (run) {
  return transaction.call(this, function (...args) {
    const creates = Array.isArray(args[0]) && args[0].some((item) => item && typeof item === 'object' && 'fields' in item);
    // Queued inside the transaction, so it runs once the commit returned, before any answer is sent.
    if (creates) queueMicrotask(() => process.kill(process.pid, 'SIGKILL'));
    return run.apply(this, args);
  });
};
`)}`;

describe('a create committed but never answered (the server killed between its commit and its answer)', () => {
  it('replays the committed create to the retry with the same Idempotency-Key, and stores one pet', {
    timeout: 60_000,
  }, async () => {
    const engine = await sqliteEngine();
    try {
      const storage = await engine.open();
      const { secret } = await storage.keys.create({ plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 });
      await storage.close();
      const key = randomUUID();
      const create = (server: ServerProcess) =>
        fetch(`${server.baseUrl}/v1/pets`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify({ name: 'Committed, unanswered', categoryId: 1 }),
        });

      const crashing = await startServerProcess({
        ...engine.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${KILL_AFTER_FIRST_CREATE_COMMIT}`,
      });
      running.push(crashing);
      await expect(create(crashing)).rejects.toThrow();
      expect(await crashing.exited).toMatchObject({ signal: 'SIGKILL' });
      const committed = await engine.contents();
      expect(committed.pets).toHaveLength(1);
      expect(committed.answers.map((answer) => answer.key)).toEqual([key]);

      const restarted = await startServerProcess(engine.env);
      running.push(restarted);
      const retry = await create(restarted);

      expect(retry.status).toBe(201);
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
      expect(((await retry.json()) as { id: number }).id).toBe(committed.pets[0]?.id);
      expect((await engine.contents()).pets).toHaveLength(1);
    } finally {
      await engine.drop();
    }
  });
});

describe.skipIf(!(await postgresReachable()))(
  'createPet retried with its Idempotency-Key across three instances',
  () => {
    it('maps every key to exactly one pet when PostgreSQL stalls during 50 concurrent creates spread over three instances, until they answer 503', {
      timeout: 120_000,
    }, async () => {
      const engine = await postgresEngine();
      const direct = new URL(engine.env.DATABASE_URL ?? '');
      const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
      try {
        const proxied = new URL(direct.href);
        proxied.hostname = '127.0.0.1';
        proxied.port = String(proxy.port);
        const storage = await engine.open();
        const { secret } = await storage.keys.create({ plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 });
        await storage.close();
        const servers = await Promise.all(
          Array.from({ length: 3 }, () => startServerProcess({ DATABASE_URL: proxied.href })),
        );
        running.push(...servers);
        let sends = 0;
        let unavailable = 0;
        const client = createAnimalStoreClient({
          baseUrl: 'http://api.invalid/v1',
          apiKey: secret,
          // Each send, the first and every retry, goes to the next instance in turn.
          fetch: async (request) => {
            const server = defined(servers[sends++ % servers.length], 'an instance');
            const url = new URL(request.url);
            const response = await fetch(`${server.baseUrl}${url.pathname}${url.search}`, {
              method: request.method,
              headers: request.headers,
              body: request.method === 'POST' ? await request.arrayBuffer() : undefined,
            });
            if (response.status === 503) unavailable += 1;
            return response;
          },
          retry: { attempts: 100_000, maxTotalWaitMs: 110_000, baseDelayMs: 20, maxDelayMs: 200 },
          onDeprecation: () => {},
        });

        const keys = Array.from({ length: CREATES }, () => randomUUID());
        const send = (key: string, index: number) =>
          client.POST('/pets', {
            body: { name: `Pet ${index}`, categoryId: 1 },
            params: { header: { 'Idempotency-Key': key } },
          });
        // Half are sent before the stall, some of them caught mid-commit by it; the other half are
        // sent into it, so the stall meets creates however fast the first half went.
        const half = CREATES / 2;
        const before = keys.slice(0, half).map((key, index) => send(key, index));
        await expect.poll(async () => (await engine.contents()).pets.length, { interval: 5 }).toBeGreaterThan(0);
        proxy.stall();
        const during = keys.slice(half).map((key, index) => send(key, half + index));
        // The instances answer 503 while PostgreSQL is stalled, which the client retries.
        await expect.poll(() => unavailable, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
        await proxy.forward();

        const answers = await Promise.all([...before, ...during]);
        for (const { response } of answers) expect(response.status).toBe(201);
        const { pets, answers: kept } = await engine.contents();
        const answered = answers.map(({ data }) => data?.id);
        expect(new Set(answered).size).toBe(CREATES);
        expect(pets.map((pet) => pet.id).sort((a, b) => a - b)).toEqual(
          [...answered].sort((a, b) => (a ?? 0) - (b ?? 0)),
        );
        const byKey = new Map(kept.map((answer) => [answer.key, JSON.parse(answer.body) as { id: number }]));
        keys.forEach((key, index) => {
          expect(byKey.get(key)?.id, key).toBe(answers[index]?.data?.id);
        });
      } finally {
        for (const server of running.splice(0)) server.child.kill('SIGKILL');
        await proxy.close();
        await engine.drop();
      }
    });
  },
);
