// The stateful mock: the real server on an in-memory database, seeded with the pets of the
// contract's examples, with a fixed development key. Prism keeps no state; this does, so a pet
// created can be listed and fetched, and the rate limits are the real ones.

import { type Contract, loadContract, resolveRef } from '../contract/index.ts';
import { clientAddressResolver } from '../server/client-address.ts';
import type { Database } from '../server/database.ts';
import { listen } from '../server/listen.ts';
import { createLogger, type LogLevel } from '../server/logger.ts';
import { openService } from '../server/service.ts';
import type { Pet, PetStore } from '../server/store/pet-store.ts';
import { statement } from '../server/store/statement-cache.ts';
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
  const service = openService({
    databasePath: ':memory:',
    logger: createLogger(logLevel),
    clientAddress: clientAddressResolver(false),
    corsOrigins,
    contract,
  });
  await service.keys.create({ plan: 'free', label: 'stateful mock development key', secret: STATEFUL_MOCK_KEY });
  const seeded = await seedPets(service.db, service.pets, examplePets(contract));
  const listening = await listen(service.app.fetch, MOCK_HOST, port);
  return {
    url: listening.origin,
    apiKey: STATEFUL_MOCK_KEY,
    seeded,
    close: async () => {
      await listening.close();
      service.close();
    },
  };
}

interface MediaType {
  schema?: { $ref?: string };
  examples?: Record<string, unknown>;
}

/**
 * Every pet the contract shows in an example of a successful answer (`PetsFirstPage`,
 * `PetFound`...), once per id, in id order; the first example to show an id wins.
 */
function examplePets(contract: Contract): Pet[] {
  const petSchemas = new Set(['#/components/schemas/Pet', '#/components/schemas/Pets']);
  const byId = new Map<number, Pet>();
  for (const operation of contract.operations) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2')) continue;
      const content = (response.definition.content as Record<string, MediaType> | undefined)?.['application/json'];
      if (!petSchemas.has(content?.schema?.$ref ?? '')) continue;
      for (const example of Object.values(content?.examples ?? {})) {
        const value = resolveRef<{ value?: Pet | Pet[] }>(contract.document, example).value;
        for (const pet of [value ?? []].flat()) if (!byId.has(pet.id)) byId.set(pet.id, pet);
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
  const update = statement<[number]>(db, "UPDATE sqlite_sequence SET seq = ? WHERE name = 'pets'");
  const insert = statement<[number]>(db, "INSERT INTO sqlite_sequence (name, seq) VALUES ('pets', ?)");
  const seeded: Pet[] = [];
  for (const { id, name, categoryId, status } of pets) {
    if (update.run(id - 1).changes === 0) insert.run(id - 1);
    const stored = await store.create({ name, categoryId, status });
    if (stored.id !== id) throw new Error(`The example pet ${id} was stored with the id ${stored.id}.`);
    seeded.push(stored);
  }
  return seeded;
}
