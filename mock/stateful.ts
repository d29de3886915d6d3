// The stateful mock: the real server on an in-memory database, seeded with the pets of the
// contract's examples, with a fixed development key. Prism keeps no state; this does, so a pet
// created can be listed and fetched, and the rate limits are the real ones.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../server/app.ts';
import { clientAddressResolver } from '../server/client-address.ts';
import { systemClock } from '../server/clock.ts';
import { loadContract, resolveRef, type OpenApiDocument } from '../server/contract.ts';
import { getOrCreateSecret, openDatabase, type Database } from '../server/database.ts';
import { SqliteKeyStore } from '../server/keys/sqlite-key-store.ts';
import { createMemoryRateLimiter } from '../server/limiter/memory-rate-limiter.ts';
import { createLogger, type LogLevel } from '../server/logger.ts';
import type { Pet, PetStore } from '../server/store/pet-store.ts';
import { SqlitePetStore } from '../server/store/sqlite-pet-store.ts';
import { MOCK_HOST, type RunningMock } from './mock-server.ts';

/** Printed by `npm run mock:stateful` and documented in the README: it guards nothing real. */
export const STATEFUL_MOCK_KEY = 'ask_development_stateful_mock_key_0000000000';

export interface StatefulMockOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Origins a browser may call it from; none by default, as the server. */
  corsOrigins?: string[];
  /** The server's structured log lines; `warn` by default. */
  logLevel?: LogLevel;
}

export interface RunningStatefulMock extends RunningMock {
  /** The fixed development key (free plan). */
  apiKey: string;
  /** The pets seeded from the contract's examples, with the ids the examples show. */
  seeded: Pet[];
}

export async function startStatefulMock(options: StatefulMockOptions = {}): Promise<RunningStatefulMock> {
  const { port = 0, corsOrigins, logLevel = 'warn' } = options;
  const contract = loadContract();
  const db = openDatabase(':memory:');
  const pets = new SqlitePetStore(db);
  const keys = new SqliteKeyStore(db);
  await keys.create({ plan: 'free', label: 'stateful mock development key', secret: STATEFUL_MOCK_KEY });
  const seeded = await seedPets(db, pets, examplePets(contract.document));

  const app = createApp({
    pets,
    keys,
    limiters: { keys: createMemoryRateLimiter({ clock: systemClock }), addresses: createMemoryRateLimiter({ clock: systemClock }) },
    clock: systemClock,
    logger: createLogger(logLevel),
    cursorSecret: getOrCreateSecret(db, 'cursor-secret'),
    clientAddress: clientAddressResolver(false),
    corsOrigins,
    contract,
  });
  const { server, address } = await new Promise<{ server: ReturnType<typeof serve>; address: AddressInfo }>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: MOCK_HOST, port }, (info) => resolve({ server: started, address: info }));
    started.once('error', reject);
  });
  return {
    url: `http://${address.address}:${address.port}`,
    apiKey: STATEFUL_MOCK_KEY,
    seeded,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          db.close();
          if (error) reject(error);
          else resolve();
        });
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}

/**
 * Every pet the contract shows in an example of a successful answer (`PetsFirstPage`,
 * `PetFound`...), once per id, in id order; the first example to show an id wins.
 */
export function examplePets(document: OpenApiDocument): Pet[] {
  const petSchemas = new Set(['#/components/schemas/Pet', '#/components/schemas/Pets']);
  const byId = new Map<number, Pet>();
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as { responses?: Record<string, unknown> }[]) {
      for (const [status, node] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        const content = resolveRef<{ content?: Record<string, { schema?: { $ref?: string }; examples?: Record<string, unknown> }> }>(document, node)
          .content?.['application/json'];
        if (!petSchemas.has(content?.schema?.$ref ?? '')) continue;
        for (const example of Object.values(content?.examples ?? {})) {
          const value = resolveRef<{ value?: Pet | Pet[] }>(document, example).value;
          for (const pet of [value ?? []].flat()) if (!byId.has(pet.id)) byId.set(pet.id, pet);
        }
      }
    }
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * Creates the pets through the store, each with the id its example shows, so that what a
 * frontend built against the static mock (`GET /v1/pets/42`) finds the same animal here.
 * The store assigns ids itself; SQLite's AUTOINCREMENT hands out one above the table's
 * `sqlite_sequence` entry, which may be set by ordinary statements.
 */
async function seedPets(db: Database, store: PetStore, pets: Pet[]): Promise<Pet[]> {
  const update = db.prepare<[number]>("UPDATE sqlite_sequence SET seq = ? WHERE name = 'pets'");
  const insert = db.prepare<[number]>("INSERT INTO sqlite_sequence (name, seq) VALUES ('pets', ?)");
  const seeded: Pet[] = [];
  for (const { id, name, categoryId, status } of pets) {
    if (update.run(id - 1).changes === 0) insert.run(id - 1);
    const stored = await store.create({ name, categoryId, status });
    if (stored.id !== id) throw new Error(`The example pet ${id} was stored with the id ${stored.id}.`);
    seeded.push(stored);
  }
  return seeded;
}
