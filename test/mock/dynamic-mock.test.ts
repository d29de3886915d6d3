// The dynamic mock's data: generated from the contract's schemas and `x-faker` annotations, it
// looks like a store's and is the same again for the same seed, so a frontend's screenshots and
// tests stay put.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import type { Pet } from '../../generated/openapi.ts';
import { prismAnswers } from '../../mock/node/prism-answers.ts';
import { DEFAULT_DYNAMIC_PETS, type RunningMock, startMock } from '../../mock/node/server.ts';
import { AUTHORIZED, exampleValue } from '../support/mock.ts';
import { validatorFor } from '../support/schema-validator.ts';

const schemas = loadContract().document.components?.schemas ?? {};
const petSchema = schemas.Pet as object;
/** The bounds the contract's `x-faker` annotation gives generated categoryIds. */
const categoryIds = (schemas.CategoryId as { 'x-faker': { 'datatype.number': { min: number; max: number } } })[
  'x-faker'
]['datatype.number'];
/** A first name as faker spells them: capitalised letters, possibly joined by an apostrophe or a hyphen (D'angelo). */
const LOOKS_LIKE_A_NAME = /^[A-Z][a-z]*(?:['-][A-Za-z][a-z]+)*$/;

describe('Dynamic data that looks real and stays put', { timeout: 60_000 }, () => {
  let first: RunningMock;
  let sameSeed: RunningMock;
  let otherSeed: RunningMock;
  beforeAll(async () => {
    [first, sameSeed, otherSeed] = await Promise.all([
      startMock({ dynamic: true, seed: 7 }),
      startMock({ dynamic: true, seed: 7 }),
      startMock({ dynamic: true, seed: 'another seed' }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([first, sameSeed, otherSeed].map((mock) => mock?.close()));
  });

  const get = async (mock: RunningMock, path: string, headers: Record<string, string> = {}) =>
    fetch(mock.url + path, { headers: { ...AUTHORIZED, ...headers } });
  const json = async (mock: RunningMock, path: string) => (await get(mock, path)).json() as Promise<unknown>;
  const allPets = async (mock: RunningMock) => (await json(mock, '/v1/pets?limit=100')) as Pet[];

  describe('reproducible by seed', () => {
    it.each(['/v1/pets', '/v1/pets?limit=100', '/v1/pets?status=pending&limit=100', '/v1/pets/1', '/v1/pets/37'])(
      'answers %s the same for the same seed, in another mock',
      async (path) => {
        expect(await json(sameSeed, path)).toEqual(await json(first, path));
        expect(await json(first, path)).toEqual(await json(first, path));
      },
    );

    it('answers with other pets for another seed', async () => {
      expect(await allPets(otherSeed)).not.toEqual(await allPets(first));
    });

    it('generates data instead of answering with the examples', async () => {
      expect(await json(first, '/v1/pets')).not.toEqual(exampleValue('PetsFirstPage'));
    });
  });

  describe('a collection the API reads as the service would', () => {
    it(`holds ${DEFAULT_DYNAMIC_PETS} pets with the ids 1 to ${DEFAULT_DYNAMIC_PETS}`, async () => {
      const ids = (await allPets(first)).map((pet) => pet.id);

      expect(ids).toEqual(Array.from({ length: DEFAULT_DYNAMIC_PETS }, (_, index) => index + 1));
    });

    it('answers GET /v1/pets/5 with the pet with id 5 that the list shows', async () => {
      const listed = (await allPets(first)).find((pet) => pet.id === 5);

      expect(listed).toBeDefined();
      expect(await json(first, '/v1/pets/5')).toEqual(listed);
    });

    it('answers ?limit=3 with 3 pets', async () => {
      expect(await json(first, '/v1/pets?limit=3')).toHaveLength(3);
    });

    it('answers ?status=pending with only pending pets, all of those the collection holds', async () => {
      const pending = (await json(first, '/v1/pets?status=pending&limit=100')) as Pet[];

      expect(pending.length).toBeGreaterThan(0);
      expect(pending.every((pet) => pet.status === 'pending')).toBe(true);
      expect(pending).toEqual((await allPets(first)).filter((pet) => pet.status === 'pending'));
    });
  });

  describe('pets that look like a store', () => {
    it('gives pets only the fields a Pet declares', async () => {
      for (const pet of await allPets(first))
        expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
    });

    it('names pets with first names', async () => {
      const names = (await allPets(first)).map((pet) => pet.name);

      for (const name of names) expect(name).toMatch(LOOKS_LIKE_A_NAME);
      expect(new Set(names).size).toBeGreaterThan(names.length / 2);
    });

    it(`gives categoryIds from ${categoryIds.min} to ${categoryIds.max}, as the contract's x-faker says`, async () => {
      const categories = (await allPets(first)).map((pet) => pet.categoryId);

      expect(Math.min(...categories)).toBeGreaterThanOrEqual(categoryIds.min);
      expect(Math.max(...categories)).toBeLessThanOrEqual(categoryIds.max);
      expect(new Set(categories).size).toBeGreaterThan(1);
    });
  });

  describe('error answers stay the contract examples', () => {
    it.each([
      ['/v1/pets/5', 404, ['ErrorNotFound']],
      ['/v1/pets/42', 404, ['ErrorNotFound']],
      ['/v1/pets', 429, ['ErrorRateLimited', 'ErrorKeyBanned']],
    ])(
      "answers %s with Prefer: code=%i with one of the contract's examples of that status",
      async (path, status, names) => {
        const response = await get(first, path, { Prefer: `code=${status}` });

        expect(response.status).toBe(status);
        expect(names.map(exampleValue)).toContainEqual(await response.json());
      },
    );
  });
});

describe('Generated pets fit the contract', { timeout: 60_000 }, () => {
  it("fits every generated pet to the contract's Pet schema, for any seed (1,000 pets)", async () => {
    const prism = await prismAnswers(loadContract());
    const validate = validatorFor(petSchema);
    const runs = 20;
    const perRun = 50;
    let checked = 0;
    // The validator is the contract's own: it refuses what the Pet schema refuses.
    expect(validate({ id: 1, name: '\u0007', categoryId: 1, status: 'available' })).toBe(false);
    expect(validate({ id: 0, name: 'Rex', categoryId: 1, status: 'available' })).toBe(false);

    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 0, maxLength: 20 }), async (seed) => {
        const pets = (await prism.generateData(perRun, seed)).get('pets') as Pet[];
        expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: perRun }, (_, index) => index + 1));
        for (const pet of pets) {
          expect(validate(pet), `${JSON.stringify(pet)}: ${JSON.stringify(validate.errors)}`).toBe(true);
          expect(pet.name).toMatch(LOOKS_LIKE_A_NAME);
          expect(pet.categoryId).toBeGreaterThanOrEqual(categoryIds.min);
          expect(pet.categoryId).toBeLessThanOrEqual(categoryIds.max);
          checked += 1;
        }
      }),
      { numRuns: runs },
    );

    expect(checked).toBeGreaterThanOrEqual(runs * perRun);
  });
});
